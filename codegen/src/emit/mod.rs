//! Emitters: the IR becomes a map of file path (relative to `generated/`) to contents.

mod builder;
mod conformance;
mod conformance_support;
mod corpus;
pub(crate) mod describe;
mod docs;
mod field_doc;
mod gates;
mod krate;
pub(crate) mod openapi;
mod ops;
mod samples;
pub(crate) mod sim;
mod text;
mod types;
mod unions;

pub use text::PREAMBLE;

/// Names generated code already uses, each defined beside the emitter that creates it; the
/// validator asks here so a spec cannot take one of them.
pub(crate) mod reserved {
    pub use super::krate::{
        RESERVED_API_NAMES as API_NAMES, RESERVED_CLIENT_METHODS as CLIENT_METHODS,
    };
    pub use super::ops::RESERVED_BUILDER_METHODS as BUILDER_METHODS;
    pub use super::types::RESERVED_TYPE_NAMES as TYPE_NAMES;
}

use crate::diag::Diagnostic;
use crate::ir::Ir;
use proc_macro2::TokenStream;
use std::collections::BTreeMap;
use std::path::Path;

/// Every generated file, keyed by its path relative to `generated/` (sorted, so the output
/// never depends on discovery order).
pub fn emit(ir: &Ir) -> Result<BTreeMap<String, String>, Diagnostic> {
    text::take_invalid_ident();
    let files = emit_files(ir)?;
    match text::take_invalid_ident() {
        None => Ok(files),
        Some(bad) => Err(Diagnostic::new(
            Path::new(&ir.krate.name),
            0,
            format!(
                "internal generator error: `{bad}` reached the emitter but is no Rust identifier"
            ),
        )),
    }
}

fn emit_files(ir: &Ir) -> Result<BTreeMap<String, String>, Diagnostic> {
    let mut files = BTreeMap::new();
    let krate = &ir.krate.name;
    files.insert(format!("{krate}/Cargo.toml"), krate::cargo_toml(ir));
    files.insert(
        format!("{krate}/src/lib.rs"),
        rust(krate::lib_rs(ir), "lib.rs")?,
    );
    for api in &ir.apis {
        files.insert(
            format!("{krate}/src/{}/mod.rs", api.name),
            rust(krate::api_mod(api, ir.krate.area_features), &api.name)?,
        );
        for area in &api.areas {
            let path = format!("{krate}/src/{}/{}.rs", api.name, area.name);
            let examples = ir.krate.doc_examples.then(|| krate.replace('-', "_"));
            let pieces = krate::area_file(api, area, examples.as_deref(), ir.krate.area_features);
            files.insert(path, rust_pieces(pieces, &area.spec_file)?);
        }
    }
    for (path, tokens) in conformance::files(ir) {
        let text = rust(tokens, &path)?;
        files.insert(format!("{krate}/{path}"), text);
    }
    for (path, tokens) in corpus::files(ir) {
        files.insert(format!("{krate}/{path}"), rust(tokens, &path)?);
    }
    for (path, text) in docs::docs(ir) {
        files.insert(path, text);
    }
    Ok(files)
}

/// Formats tokens with prettyplease behind the preamble. Tokens that do not parse are a bug in
/// the generator, reported as a diagnostic rather than a panic.
fn rust(tokens: TokenStream, what: &str) -> Result<String, Diagnostic> {
    rust_pieces(std::iter::once(tokens), what)
}

/// [`rust`] of a file given as pieces (inner attributes first, then items), each parsed and
/// formatted on its own as it comes: memory holds one piece's tokens and syntax tree at a time
/// (about 200 bytes per byte of Rust for a whole file), plus the text. prettyplease prints the
/// items of a file one after the other, so the text is the same as for the whole file at once.
fn rust_pieces(
    pieces: impl IntoIterator<Item = TokenStream>,
    what: &str,
) -> Result<String, Diagnostic> {
    let mut text = format!("// {PREAMBLE}\n#![cfg_attr(rustfmt, rustfmt::skip)]\n");
    for tokens in pieces {
        let file: syn::File = syn::parse2(tokens).map_err(|e| {
            Diagnostic::new(
                Path::new(what),
                0,
                format!("internal generator error: emitted Rust does not parse: {e}"),
            )
        })?;
        // prettyplease's layout is the canonical one; `cargo fmt` leaves generated files alone.
        text.push_str(&prettyplease::unparse(&file));
    }
    Ok(text)
}
