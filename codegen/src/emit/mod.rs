//! Emitters: the IR becomes a map of file path (relative to `generated/`) to contents.

mod builder;
pub(crate) mod cache;
pub(crate) mod catalog;
mod conformance;
mod conformance_support;
mod corpus;
pub(crate) mod describe;
mod docs;
mod examples;
mod field_doc;
mod gates;
mod index;
mod krate;
mod layout;
pub(crate) mod openapi;
mod ops;
mod samples;
mod services;
pub(crate) mod text;
mod types;
mod unions;
mod versions;

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
///
/// The files are made by independent jobs run on up to [`workers`] threads (each job makes its
/// tokens and formats them on its own thread: token streams cannot cross threads). The result
/// does not depend on the order the jobs finish in.
pub fn emit(ir: &Ir, cache: Option<&Path>) -> Result<BTreeMap<String, String>, Diagnostic> {
    let jobs = jobs(ir);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(job) = jobs.get(i) else {
                return done;
            };
            text::take_invalid_ident();
            let mut made = job(ir, cache);
            if let (Ok(_), Some(bad)) = (&made, text::take_invalid_ident()) {
                made = Err(Diagnostic::new(
                    Path::new(&ir.krate.name),
                    0,
                    format!(
                        "internal generator error: `{bad}` reached the emitter but is no Rust identifier"
                    ),
                ));
            }
            done.push((i, made));
        }
    };
    let mut results: Vec<(usize, Result<Files, Diagnostic>)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..crate::threads::workers(jobs.len()))
            .map(|_| scope.spawn(worker))
            .collect();
        let mut all = worker();
        for h in helpers {
            all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        all
    });
    // The first failing job in job order, whichever thread ran it.
    results.sort_by_key(|(i, _)| *i);
    let mut files = BTreeMap::new();
    for (_, made) in results {
        files.extend(made?);
    }
    Ok(files)
}

/// Files made by one job.
type Files = Vec<(String, String)>;
/// One job: files from the IR.
type Job = Box<dyn Fn(&Ir, Option<&Path>) -> Result<Files, Diagnostic> + Send + Sync>;

/// Every job, the longest first (the conformance test and the corpus table, then the area files
/// by size), so that two threads finish close together.
fn jobs(ir: &Ir) -> Vec<Job> {
    let krate = ir.krate.name.clone();
    let mut jobs: Vec<Job> = Vec::new();
    let k = krate.clone();
    jobs.push(Box::new(move |ir, cache| {
        conformance::files(ir)
            .into_iter()
            .map(|(path, tokens)| {
                let out = format!("{k}/{path}");
                let text = rust(tokens, &path, cache, &out)?;
                Ok((out, text))
            })
            .collect()
    }));
    let k = krate.clone();
    jobs.push(Box::new(move |ir, cache| {
        corpus::files(ir)
            .into_iter()
            .map(|(path, tokens)| {
                let out = format!("{k}/{path}");
                let text = rust(tokens, &path, cache, &out)?;
                Ok((out, text))
            })
            .collect()
    }));
    let mut areas: Vec<(usize, usize, usize)> = ir
        .apis
        .iter()
        .enumerate()
        .flat_map(|(a, api)| {
            api.areas
                .iter()
                .enumerate()
                .map(move |(i, area)| (a, i, area))
        })
        .map(|(a, i, area)| (area.operations.len() * 4 + area.types.len(), a, i))
        .collect();
    areas.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    for (_, a, i) in areas {
        let k = krate.clone();
        jobs.push(Box::new(move |ir, cache| {
            let (api, area) = (&ir.apis[a], &ir.apis[a].areas[i]);
            let path = format!("{k}/src/{}/{}.rs", api.name, area.name);
            let examples = ir.krate.doc_examples.then(|| k.replace('-', "_"));
            let pieces = krate::area_file(api, area, examples.as_deref(), ir.krate.area_features);
            layout::area_files(pieces, &area.spec_file, cache, &path, &area.name)
        }));
    }
    let k = krate.clone();
    jobs.push(Box::new(move |ir, cache| {
        let lib = format!("{k}/src/lib.rs");
        let mut files = vec![
            (format!("{k}/Cargo.toml"), krate::cargo_toml(ir)),
            (lib.clone(), rust(krate::lib_rs(ir), "lib.rs", cache, &lib)?),
        ];
        for api in &ir.apis {
            let tokens = krate::api_mod(api, ir.krate.area_features);
            let path = format!("{k}/src/{}/mod.rs", api.name);
            let text = rust(tokens, &api.name, cache, &path)?;
            files.push((path, text));
        }
        Ok(files)
    }));
    jobs.push(Box::new(|ir, _| Ok(docs::docs(ir))));
    jobs
}

/// Formats tokens with prettyplease behind the preamble (the file `output`, cached under
/// `cache`). Tokens that do not parse are a bug in the generator, reported as a diagnostic
/// rather than a panic.
fn rust(
    tokens: TokenStream,
    what: &str,
    cache: Option<&Path>,
    output: &str,
) -> Result<String, Diagnostic> {
    rust_pieces(std::iter::once(tokens), what, cache, output)
}

/// [`rust`] of a file given as pieces (inner attributes first, then items), each parsed and
/// formatted on its own as it comes: memory holds one piece's tokens and syntax tree at a time
/// (about 200 bytes per byte of Rust for a whole file), plus the text. prettyplease prints the
/// items of a file one after the other, so the text is the same as for the whole file at once.
/// Each piece's text is cached by its tokens ([`cache::Pieces`]).
fn rust_pieces(
    pieces: impl IntoIterator<Item = TokenStream>,
    what: &str,
    cache: Option<&Path>,
    output: &str,
) -> Result<String, Diagnostic> {
    let mut cached = cache::Pieces::open(cache, output);
    let mut text = format!("// {PREAMBLE}\n#![cfg_attr(rustfmt, rustfmt::skip)]\n");
    for tokens in pieces {
        text.push_str(&cached.get(tokens, |tokens| format(tokens, what))?);
    }
    cached.save();
    Ok(text)
}

/// One piece through syn and prettyplease, whose layout is the canonical one (`cargo fmt`
/// leaves generated files alone).
fn format(tokens: TokenStream, what: &str) -> Result<String, Diagnostic> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        Diagnostic::new(
            Path::new(what),
            0,
            format!("internal generator error: emitted Rust does not parse: {e}"),
        )
    })?;
    Ok(prettyplease::unparse(&file))
}
