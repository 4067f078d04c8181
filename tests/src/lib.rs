//! Test support for the workspace's snapshot and integration tests.
//!
//! [`fixtures`] holds the client code generated from every valid fixture spec under
//! `fixtures/valid/` (see `build.rs`): it is compiled and linted with this crate, which proves
//! that generated code for every shape the fixtures cover compiles cleanly.

/// The workspace README, so its quick start is compiled and run as a doctest.
#[doc = include_str!("../../README.md")]
pub mod readme {}

/// The guide's pages (`docs/src/`), one module each, so their Rust samples are compiled (and
/// run, unless marked `no_run`) as doctests, as the README's are. `tests/guide.rs` checks that
/// every page of the guide is listed here.
pub mod guide {
    #[doc = include_str!("../../docs/src/introduction.md")]
    pub mod introduction {}
    #[doc = include_str!("../../docs/src/client.md")]
    pub mod client {}
    #[doc = include_str!("../../docs/src/cli.md")]
    pub mod cli {}
    #[doc = include_str!("../../docs/src/simulator.md")]
    pub mod simulator {}
    #[doc = include_str!("../../docs/src/mcp.md")]
    pub mod mcp {}
    #[doc = include_str!("../../docs/src/desired-state.md")]
    pub mod desired_state {}
    #[doc = include_str!("../../docs/src/workflows.md")]
    pub mod workflows {}
    #[doc = include_str!("../../docs/src/performance.md")]
    pub mod performance {}
    /// The contributor guide.
    pub mod contributing {
        #[doc = include_str!("../../docs/src/contributing/index.md")]
        pub mod index {}
        #[doc = include_str!("../../docs/src/contributing/architecture.md")]
        pub mod architecture {}
        #[doc = include_str!("../../docs/src/contributing/add-operation.md")]
        pub mod add_operation {}
        #[doc = include_str!("../../docs/src/contributing/add-resource-kind.md")]
        pub mod add_resource_kind {}
        #[doc = include_str!("../../docs/src/contributing/add-cli-command.md")]
        pub mod add_cli_command {}
        #[doc = include_str!("../../docs/src/contributing/spec.md")]
        pub mod spec {}
        #[doc = include_str!("../../docs/src/contributing/releasing.md")]
        pub mod releasing {}
    }
}

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
