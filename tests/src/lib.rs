//! Test support for the workspace's snapshot and integration tests.
//!
//! [`fixtures`] holds the client code generated from every valid fixture spec under
//! `fixtures/valid/` (see `build.rs`): it is compiled and linted with this crate, which proves
//! that generated code for every shape the fixtures cover compiles cleanly.

/// The workspace README, so its quick start is compiled and run as a doctest.
#[doc = include_str!("../../README.md")]
pub mod readme {}

/// Client modules generated from the valid fixture specs, one module per fixture.
pub mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}
