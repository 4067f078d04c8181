//! What can go wrong before or around a batch run (a row's own failure is its outcome, not an
//! error).

use std::fmt;
use std::path::{Path, PathBuf};

/// One thing wrong with the input: the line of the file it is on (1: the header of a CSV)
/// and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The line of the input file.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// An error of a batch run as a whole.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Rows that do not fit the operation; nothing was sent.
    Invalid(Vec<Problem>),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The journal belongs to another run (another operation, input file or arguments), or
    /// exists where a new run was asked for.
    Journal(String),
    /// The operation cannot be run in a batch (a body kind that is not JSON).
    Operation(String),
    /// The desired-state engine's error (the journal, a lookup by identity).
    State(ruckus_one_state::Error),
    /// The runtime's error of a call made before any row (a preview).
    Call(ruckus_one_runtime::Error),
}

impl Error {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.to_owned(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(problems) => {
                write!(
                    f,
                    "{} problem(s) in the input, nothing sent",
                    problems.len()
                )?;
                for (i, p) in problems.iter().enumerate() {
                    write!(f, "{} {p}", if i == 0 { ":" } else { ";" })?;
                }
                Ok(())
            }
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Journal(m) => write!(f, "journal: {m}"),
            Error::Operation(m) => f.write_str(m),
            Error::State(e) => write!(f, "{e}"),
            Error::Call(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::State(e) => Some(e),
            Error::Call(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ruckus_one_state::Error> for Error {
    fn from(e: ruckus_one_state::Error) -> Error {
        Error::State(e)
    }
}

impl From<ruckus_one_runtime::Error> for Error {
    fn from(e: ruckus_one_runtime::Error) -> Error {
        Error::Call(e)
    }
}
