//! The engine's errors. None carries a secret value: a secret is named by its environment
//! variable only, and the runtime's own errors are redacted by the runtime.

use std::fmt;
use std::path::PathBuf;

/// What went wrong while reading, planning or applying desired state.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The resource layer names an operation the catalog does not have, or a kind the engine
    /// cannot handle (a missing operation or parameter).
    Resources(String),
    /// A call through the runtime failed (its error is redacted by the runtime).
    Call {
        /// The operation id.
        operation: String,
        /// What the call was for (`create venue Lobby`).
        context: String,
        /// The runtime's error (status, request id and body kept).
        source: ruckus_one_runtime::Error,
    },
    /// An answer did not have the shape the engine needs (no id in a listed row, ...).
    Answer(String),
    /// A file of the desired state could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file of the desired state is not valid (YAML, a missing identity, ...).
    Document {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A secret's environment variable is not set.
    MissingSecret {
        /// The variable (`RUCKUS_SECRET_WIFI_NETWORK_GUEST_WLAN_PASSPHRASE`).
        variable: String,
    },
    /// A reference names an object that neither exists nor is created by the plan.
    UnresolvedReference {
        /// The object holding the reference.
        object: String,
        /// The kind and name it refers to.
        target: String,
    },
    /// The journal could not be read or written.
    Journal(String),
    /// An object a scope names does not exist (`venue Lobby`).
    NotFound(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Resources(m) => write!(f, "resource layer: {m}"),
            Error::Call {
                operation,
                context,
                source,
            } => write!(f, "{context}: {operation} failed: {source}"),
            Error::Answer(m) => write!(f, "unexpected answer: {m}"),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Document { path, message } => write!(f, "{}: {message}", path.display()),
            Error::MissingSecret { variable } => {
                write!(f, "the secret's environment variable {variable} is not set")
            }
            Error::UnresolvedReference { object, target } => {
                write!(f, "{object} refers to {target}, which does not exist")
            }
            Error::Journal(m) => write!(f, "journal: {m}"),
            Error::NotFound(what) => write!(f, "there is no {what}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Call { source, .. } => Some(source),
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn document(path: impl Into<PathBuf>, message: impl Into<String>) -> Error {
        Error::Document {
            path: path.into(),
            message: message.into(),
        }
    }
}
