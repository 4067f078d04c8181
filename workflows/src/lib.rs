//! Workflows over the RUCKUS One APIs that admins otherwise script by hand: many calls from one
//! command, safe to stop and start again, each a library function the command line (`ruckus`)
//! is a thin layer on. Every call goes through the runtime: the published rate limits, retries,
//! activities.
//!
//! - [`batch`]: one catalog operation run once per row of a CSV or JSON-lines file, every row
//!   checked first, in waves, each row's outcome journaled so that a killed run resumes
//!   without a duplicate or a missing row.
//! - [`journal`]: the journal of a batch run, keyed by its operation and input file.
//! - [`rows`]: the input files.
//! - [`swap`]: replace an AP by another (a hardware swap): the new serial gets the old AP's
//!   venue, AP group, name, description, tags, position and every per-AP setting the old one
//!   overrode; the old AP is then removed. Each step is written to a journal, so a run that
//!   was stopped resumes where it was.
//! - [`report`]: inventory, firmware and client reports of one tenant or of every customer of
//!   an MSP account, built from the query operations (paged and paced by the runtime) and
//!   written row by row as CSV, JSON or XLSX.

#![warn(missing_docs, unreachable_pub)]

pub mod batch;
mod error;
pub mod journal;
pub mod report;
pub mod rows;
pub mod swap;

pub use error::{Error, Problem};
