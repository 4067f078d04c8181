//! Workflows over the RUCKUS One APIs: many calls from one command, safe to stop and start
//! again.
//!
//! - [`batch`]: one catalog operation run once per row of a CSV or JSON-lines file, every row
//!   checked first, in waves, each row's outcome journaled so that a killed run resumes
//!   without a duplicate or a missing row.
//! - [`journal`]: the journal of a batch run, keyed by its operation and input file.
//! - [`rows`]: the input files.

#![warn(missing_docs, unreachable_pub)]

pub mod batch;
mod error;
pub mod journal;
pub mod rows;

pub use error::{Error, Problem};
