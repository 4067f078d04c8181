//! Why the compiled-in tables could not be read.

use std::fmt;

/// Why a part of the compiled-in tables could not be read. The generator writes the tables, their
/// index and the resource layer in one run, so each of these means a generator and a catalog of
/// different versions, or parts not regenerated together.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A part does not parse as its model.
    Parse {
        /// The part (`catalog index`, `routes of wireless_venues`, `resource layer`).
        part: String,
        /// What serde said.
        message: String,
    },
    /// The index does not fit the tables (a range outside the text, another area's routes).
    Stale {
        /// What does not fit.
        what: String,
    },
    /// The index names no API of that name.
    NoApi(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse { part, message } => write!(f, "catalog {part}: {message}"),
            Error::Stale { what } => write!(
                f,
                "the catalog index does not fit the tables ({what}): regenerate them together"
            ),
            Error::NoApi(name) => write!(f, "the catalog index has no API `{name}`"),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(feature = "tables")]
impl Error {
    pub(crate) fn parse(part: impl Into<String>, e: impl fmt::Display) -> Error {
        Error::Parse {
            part: part.into(),
            message: e.to_string(),
        }
    }

    pub(crate) fn stale(what: impl Into<String>) -> Error {
        Error::Stale { what: what.into() }
    }
}
