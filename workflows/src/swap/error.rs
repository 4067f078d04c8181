//! What a swap can fail with.

use std::fmt;

/// Why a swap failed.
#[derive(Debug)]
pub enum Error {
    /// A call failed (after the runtime's retries); `context` names the step.
    Call {
        /// The step or read it was for (`add AP 222222222222`).
        context: String,
        /// The runtime's error: status, request id and body of a bad answer.
        source: ruckus_one_runtime::Error,
    },
    /// The old AP is in no venue of the tenant.
    NotFound(String),
    /// The swap cannot be made as asked (the new serial is the old one, or is taken).
    Refused(String),
    /// The compiled-in catalog lacks an operation the swap needs.
    Catalog(String),
    /// The journal or the snapshot beside it could not be read or written.
    Journal(String),
    /// The answer lacks what the swap needs (the old AP's venue).
    Answer(String),
}

impl Error {
    pub(crate) fn call(context: &str, source: ruckus_one_runtime::Error) -> Error {
        Error::Call {
            context: context.to_owned(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Call { context, source } => write!(f, "{context}: {source}"),
            Error::NotFound(serial) => write!(f, "no AP {serial} in any venue"),
            Error::Refused(m) => write!(f, "{m}"),
            Error::Catalog(m) => write!(f, "catalog: {m}"),
            Error::Journal(m) => write!(f, "journal: {m}"),
            Error::Answer(m) => write!(f, "unexpected answer: {m}"),
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

impl From<ruckus_one_state::Error> for Error {
    fn from(e: ruckus_one_state::Error) -> Error {
        Error::Journal(e.to_string())
    }
}
