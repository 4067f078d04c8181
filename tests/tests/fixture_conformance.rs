//! The conformance tests generated for the valid fixture specs (`fixtures/valid/*`), compiled
//! against the fixture clients of this crate and run like the client's own: every operation of
//! every fixture is called once against a local server, with every typed body set in full.
//! `build.rs` writes them; one module per fixture.
include!(concat!(env!("OUT_DIR"), "/fixture_conformance.rs"));
