//! Spec mutations and the properties every generator run must have, shared by `cargo xtask
//! fuzz` (random mutations, long runs) and the property test `tests/spec_mutations.rs`
//! (proptest strategies over the same [`Mutation`]s, in CI).
//!
//! A case starts from the valid broken-spec base (`tests/fixtures/broken/base/`), applies a few
//! mutations to its text (values, keys, structure, raw bytes, unicode and control characters,
//! deep nesting, aliases), generates, and [`check`]s the outcome:
//!
//! - the generator returned (a panic is caught and reported by the caller);
//! - a rejection names a line (>= 1) for every diagnostic and echoes no control character;
//! - an accepted spec gives Rust that parses (`syn::parse_file`), no control or bidirectional
//!   character anywhere in the output, rustdoc and Markdown without HTML or code blocks, and
//!   Markdown tables whose rows all have their header's number of cells.

mod check;
mod mutation;
mod rng;
mod spec;

pub use check::{Doc, Kind, Outcome, check, doc_blocks, generate, markup_problems, table_problems};
pub use mutation::Mutation;
pub use rng::{NASTY, Rng};
pub use spec::{BASE, Spec, TOP, Text, quoted};
