//! Where an area's code goes: one file while it is small, else a directory by meaning. An
//! area whose file would pass [`MAX_FILE_LINES`] keeps its docs and handler in `<area>.rs` and
//! moves its types to `<area>/types.rs` and its request builders to `<area>/requests.rs`
//! (numbered `types_1.rs`, `types_2.rs`, ... where one would still be too long), brought back
//! with `include!`: the items stay in the area's module, so no path and no name changes, and a
//! reader and rustdoc see the same API either way.

use super::cache;
use super::krate::AreaPieces;
use super::text::PREAMBLE;
use crate::diag::Diagnostic;
use std::path::Path;

/// The most lines a generated file may have.
pub const MAX_FILE_LINES: usize = 10_000;

/// The most lines of one included part, leaving room under [`MAX_FILE_LINES`].
const PART_LINES: usize = 9_000;

/// `(path, text)` of the files of one area whose module file is `path` (`.../<area>.rs`).
pub fn area_files(
    pieces: AreaPieces,
    what: &str,
    cache: Option<&Path>,
    path: &str,
    area: &str,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let mut cached = cache::Pieces::open(cache, path);
    let mut text = |tokens| cached.get(tokens, |t| super::format(t, what));
    let docs = text(pieces.docs)?;
    let types = pieces
        .types
        .into_iter()
        .map(&mut text)
        .collect::<Result<Vec<_>, _>>()?;
    let handler = pieces
        .handler
        .into_iter()
        .map(&mut text)
        .collect::<Result<Vec<_>, _>>()?;
    let requests = pieces
        .requests
        .into_iter()
        .map(&mut text)
        .collect::<Result<Vec<_>, _>>()?;
    cached.save();
    let lines = |parts: &[String]| parts.iter().map(|p| p.lines().count()).sum::<usize>();
    let head = format!("// {PREAMBLE}\n#![cfg_attr(rustfmt, rustfmt::skip)]\n{docs}");
    if lines(&types) + lines(&handler) + lines(&requests) + head.lines().count() <= MAX_FILE_LINES {
        let body = [types, handler, requests].concat().concat();
        return Ok(vec![(path.to_owned(), format!("{head}{body}"))]);
    }
    let dir = path.trim_end_matches(".rs");
    let mut files = Vec::new();
    let mut includes = String::new();
    for (kind, parts) in [("types", types), ("requests", requests)] {
        let chunks = chunks(parts);
        let numbered = chunks.len() > 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let name = match numbered {
                true => format!("{kind}_{}.rs", i + 1),
                false => format!("{kind}.rs"),
            };
            includes.push_str(&format!("include!(\"{area}/{name}\");\n"));
            files.push((format!("{dir}/{name}"), format!("// {PREAMBLE}\n{chunk}")));
        }
    }
    let root = format!("{head}{includes}{}", handler.concat());
    files.insert(0, (path.to_owned(), root));
    Ok(files)
}

/// Consecutive pieces joined into parts of at most [`PART_LINES`] lines (a piece longer than
/// that is a part of its own).
fn chunks(parts: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut count = 0;
    for p in parts {
        let n = p.lines().count();
        if count > 0 && count + n > PART_LINES {
            out.push(std::mem::take(&mut current));
            count = 0;
        }
        current.push_str(&p);
        count += n;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}
