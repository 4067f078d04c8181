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

/// Proof that the `experimental` cargo feature gates the experimental operations: this example
/// calls one. Without the feature it must fail to compile (`compile_fail`); with it, it compiles.
/// CI runs the doctests both ways.
///
#[cfg_attr(not(feature = "experimental"), doc = "```compile_fail")]
#[cfg_attr(feature = "experimental", doc = "```no_run")]
/// # async fn f(client: ruckus_one::Client) -> Result<(), ruckus_one::Error> {
/// let list = client.network().edge_services().list_personal_identity_networks().page(1).page_size(20).send().await?;
/// # let _ = list; Ok(()) }
/// ```
pub mod experimental_gate {}

/// Proof that deprecated operations carry `#[deprecated]`: calling one where deprecation is an
/// error fails to compile; the same call with `allow(deprecated)` compiles.
///
/// ```compile_fail
/// #![deny(deprecated)]
/// # async fn f(client: ruckus_one::Client) -> Result<(), ruckus_one::Error> {
/// let switches = client.network().switches_legacy().list_switches_legacy().send().await?;
/// # let _ = switches; Ok(()) }
/// ```
///
/// ```no_run
/// #![deny(deprecated)]
/// # async fn f(client: ruckus_one::Client) -> Result<(), ruckus_one::Error> {
/// #[allow(deprecated)]
/// let switches = client.network().switches_legacy().list_switches_legacy().send().await?;
/// # let _ = switches; Ok(()) }
/// ```
pub mod deprecation_gate {}
