//! Where an area's code goes: a directory by concern, the same for every area. The module file
//! `<api>/<area>.rs` holds the area's docs and its handler, and includes the files of
//! `<api>/<area>/` (those with items), one per concern:
//!
//! - `types.rs`: the declarations of the area's models (structs) and aliases, with their docs;
//! - `enums.rs`: its enums and unions with their docs, conversions (`as_str`, `From`), `Display`
//!   and `Debug`;
//! - `builders.rs`: how its models are made (`new` and the `with_...` setters, or `builder()`
//!   and the builder);
//! - `serialize.rs`: the `Serialize` impls (and the models' `WriteFields`);
//! - `deserialize.rs`: the `Deserialize` impls;
//! - `requests.rs`: the request builders and descriptors of its operations.
//!
//! The parts are brought back with `include!`: the items stay in the area's module, so no path
//! and no name changes, generated code keeps its `super::` paths, and a reader and rustdoc see
//! the same API as from one file. A file never splits by length.

use super::cache;
use super::krate::AreaPieces;
use super::text::PREAMBLE;
use super::types::TypeItems;
use crate::diag::Diagnostic;
use proc_macro2::TokenStream;
use std::path::Path;

/// The files of an area's directory, in the order its module file includes them: file name and
/// what it holds (the file's first comment).
const PARTS: [(&str, &str); 6] = [
    (
        "types",
        "the declarations of the area's models and aliases, with their docs",
    ),
    (
        "enums",
        "the area's enums and unions, with their docs and conversions",
    ),
    (
        "builders",
        "how the area's models are made: `new` and the `with_...` setters, or a builder",
    ),
    (
        "serialize",
        "the `Serialize` (and `WriteFields`) impls of the area's types",
    ),
    ("deserialize", "the `Deserialize` impls of the area's types"),
    (
        "requests",
        "the request builders and descriptors of the area's operations",
    ),
];

/// `(path, text)` of the files of one area whose module file is `path` (`.../<area>.rs`).
pub fn area_files(
    pieces: AreaPieces,
    what: &str,
    cache: Option<&Path>,
    path: &str,
    area: &str,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let mut cached = cache::Pieces::open(cache, path);
    let mut text = |tokens: TokenStream| match tokens.is_empty() {
        true => Ok(String::new()),
        false => cached.get(tokens, |t| super::format(t, what)),
    };
    let mut join = |parts: Vec<TokenStream>| {
        let mut out = String::new();
        for tokens in parts {
            out.push_str(&text(tokens)?);
        }
        Ok::<_, Diagnostic>(out)
    };
    let docs = join(vec![pieces.docs])?;
    let mut parts = Vec::from(by_concern(pieces.types));
    parts.push(pieces.requests);
    let bodies = parts
        .into_iter()
        .map(&mut join)
        .collect::<Result<Vec<_>, _>>()?;
    let handler = join(pieces.handler)?;
    cached.save();
    let dir = path.trim_end_matches(".rs");
    let mut files = Vec::new();
    let mut includes = String::new();
    for ((name, holds), body) in PARTS.iter().zip(bodies) {
        if body.is_empty() {
            continue;
        }
        includes.push_str(&format!("include!(\"{area}/{name}.rs\");\n"));
        let head =
            format!("// {PREAMBLE}\n// In `{area}`: {holds} (included by `../{area}.rs`).\n");
        files.push((format!("{dir}/{name}.rs"), format!("{head}{body}")));
    }
    let root =
        format!("// {PREAMBLE}\n#![cfg_attr(rustfmt, rustfmt::skip)]\n{docs}{includes}{handler}");
    files.insert(0, (path.to_owned(), root));
    Ok(files)
}

/// The types' items by concern (the first five of [`PARTS`]), each list in the types' order.
fn by_concern(types: Vec<TypeItems>) -> [Vec<TokenStream>; 5] {
    let mut out: [Vec<TokenStream>; 5] = Default::default();
    for t in types {
        for (list, tokens) in out.iter_mut().zip(t.into_parts()) {
            list.push(tokens);
        }
    }
    out
}
