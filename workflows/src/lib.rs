//! Workflows on RUCKUS One that admins otherwise script by hand, each a library function the
//! command line (`ruckus`) is a thin layer on.
//!
//! - [`swap`]: replace an AP by another (a hardware swap): the new serial gets the old AP's
//!   venue, AP group, name, description, tags, position and every per-AP setting the old one
//!   overrode; the old AP is then removed. Each step is written to a journal, so a run that
//!   was stopped resumes where it was.
//! - [`report`]: inventory, firmware and client reports of one tenant or of every customer of
//!   an MSP account, built from the query operations (paged and paced by the runtime) and
//!   written row by row as CSV, JSON or XLSX.
//!
//! Every call goes through the runtime: the published rate limits, retries, activities.

#![warn(missing_docs, unreachable_pub)]

pub mod report;
pub mod swap;
