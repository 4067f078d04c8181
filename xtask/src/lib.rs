//! Maintainer commands. Run from anywhere in the workspace:
//!
//! - `cargo xtask generate`: regenerate `generated/` from `spec/` (nothing is written when the
//!   spec has errors; diagnostics name file and line).
//! - `cargo xtask check`: fail with a unified diff when `generated/` is not what the spec gives.
//! - `cargo xtask list`: a TSV of every operation in the spec.
//! - `cargo xtask audit [--openapi DIR] [--tsv | --summary]`: compare the spec with the vendor's
//!   OpenAPI descriptions (a report; see [`audit`]).
//! - `cargo xtask import [--openapi DIR] [--api NAME] [--write]`: the spec's imported types and
//!   drafted operations from the descriptions (see [`import`]).
//! - `cargo xtask diff [BASE] [--json] [--fail-on breaking]`: what the spec change since the git
//!   revision BASE (default `HEAD`) means for callers, with the version bump it needs.
//! - `cargo xtask bench-build [--runs N] [--full] [--every-area]`: cold build times of the client
//!   crate per feature set: everything, no area, and the three largest areas (or every area) alone
//!   (a benchmark that prints figures, not a test).
//! - `cargo xtask bench [generator|runtime|paging|msp|compile] [--quick] [--runs N] [--full]`:
//!   performance figures as a Markdown table (see `bench/mod.rs`).
//! - `cargo xtask fuzz [--cases N] [--seed S] [--compile K] [--timeout SECS]`: the generator on
//!   N randomly mutated specs; prints panics, hangs, unlocated diagnostics and accepted specs
//!   whose output is broken (see `fuzz.rs`).
//!
//! - `cargo xtask package-check [--verify]`: `cargo package` of the published crates (runtime,
//!   client, simulator), their `.crate` sizes and feature counts against crates.io's limits (see
//!   `package.rs`).
//! - `cargo xtask changelog BASE [--date D] [--write]`: a CHANGELOG.md entry for the crate's
//!   version from `cargo xtask diff BASE --json` (see `changelog.rs`).
//!
//! - `cargo xtask tidy`: no hand-written file of the generator, xtask, test support or benchmarks
//!   over 600 lines, no function over 100 (see `tidy.rs`).
//!
//! The OpenAPI importer and the audit (the typed model of the descriptions, the conversion to
//! spec YAML, the comparison) live in their own crate, `importer/` (`ruckus-importer`); xtask's
//! [`import`] and [`audit`] are their command line: arguments, printing, exit codes.
//!
//! `--spec FILE` and `--out DIR` point the commands at another spec or output directory (tests
//! use them with broken fixture specs); paths are then taken as given.

pub mod audit;
pub mod bench;
pub mod changelog;
pub mod cli;
pub mod diff;
pub mod fuzz;
pub mod gencache;
pub mod generate;
pub mod import;
pub mod mutate;
pub mod package;
pub mod tidy;
pub mod workspace;
