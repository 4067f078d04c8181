//! What a report can fail with.

use std::fmt;

/// Why a report failed.
#[derive(Debug)]
pub enum Error {
    /// A call failed (after the runtime's retries); `context` names what it was for.
    Call {
        /// What the call was for (`listing APs`).
        context: String,
        /// The runtime's error: status, request id and body of a bad answer.
        source: ruckus_one_runtime::Error,
    },
    /// The compiled-in catalog lacks an operation the report needs.
    Catalog(String),
    /// Writing the output failed.
    Write(String),
}

impl Error {
    pub(crate) fn call(context: &str, source: ruckus_one_runtime::Error) -> Error {
        Error::Call {
            context: context.to_owned(),
            source,
        }
    }

    pub(crate) fn write(e: impl fmt::Display) -> Error {
        Error::Write(e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Call { context, source } => write!(f, "{context}: {source}"),
            Error::Catalog(m) => write!(f, "catalog: {m}"),
            Error::Write(m) => write!(f, "writing the report: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Call { source, .. } => Some(source),
            _ => None,
        }
    }
}
