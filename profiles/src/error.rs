//! What can go wrong reading or writing the profile store, or building a configuration from it.

use std::path::PathBuf;

/// An error of the profile store. Never carries a secret.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A file of the store is not what it should be (its path and what is wrong).
    Malformed {
        /// The file (`config.yaml`, `credentials.yaml`).
        path: PathBuf,
        /// What is wrong: the YAML error, or for the secrets file only its line and column
        /// (never its text).
        problem: String,
    },
    /// A file of the store cannot be read or written.
    Io {
        /// The file read or written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The store's directory or one of its files could be changed by another user (writable by
    /// group or others, or not owned by the user): refused, as ssh refuses such keys.
    Unsafe {
        /// The directory or file.
        path: PathBuf,
        /// Who else could change it.
        problem: String,
    },
    /// The settings found do not make a configuration (a value missing or invalid).
    Config(ruckus_one_runtime::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Malformed { path, problem } => write!(f, "{}: {problem}", path.display()),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Unsafe { path, problem } => write!(
                f,
                "{} {problem}: refusing to use the profile store, since another user could \
                 replace its profiles or read its secrets (make it yours and `chmod go-w` it)",
                path.display()
            ),
            // The runtime's Display redacts secrets.
            Error::Config(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Config(e) => Some(e),
            Error::Malformed { .. } | Error::Unsafe { .. } => None,
        }
    }
}
