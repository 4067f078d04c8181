//! A generator run on a mutated spec, and the properties its outcome must have.

use super::spec::Spec;
use std::collections::BTreeMap;
use std::path::Path;

/// What one generator run gave.
pub type Outcome = Result<BTreeMap<String, String>, Vec<ruckus_codegen::Diagnostic>>;

/// Writes `spec` to `dir` and runs the generator on it (panics propagate to the caller).
pub fn generate(spec: &Spec, dir: &Path) -> Outcome {
    let top = spec.write(dir).expect("write the spec");
    ruckus_codegen::generate(&top)
}

/// Kinds of property violations, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A diagnostic with line 0.
    Unlocated,
    /// A diagnostic whose text holds a control or bidirectional character.
    RawControl,
    /// Emitted Rust that does not parse.
    RustParse,
    /// A control or bidirectional character in an output file.
    OutputControl,
    /// HTML, a code block or a broken table in rustdoc or Markdown.
    Markup,
}

/// Checks the properties (see the module docs); empty when all hold.
pub fn check(outcome: &Outcome) -> Vec<(Kind, String)> {
    let mut out = Vec::new();
    match outcome {
        Err(diags) => {
            for d in diags {
                if d.line == 0 {
                    out.push((Kind::Unlocated, d.to_string()));
                }
                if d.to_string().chars().any(is_bad_char) {
                    out.push((Kind::RawControl, format!("{d:?}")));
                }
            }
        }
        Ok(files) => {
            for (path, text) in files {
                if let Some(c) = text.chars().find(|c| is_bad_char(*c) && *c != '\n') {
                    out.push((
                        Kind::OutputControl,
                        format!("{path}: holds U+{:04X}", c as u32),
                    ));
                }
                if path.ends_with(".rs") {
                    if let Err(e) = syn::parse_file(text) {
                        out.push((Kind::RustParse, format!("{path}: {e}")));
                    }
                    for (line, block) in doc_blocks(text) {
                        let kind = if path.ends_with("src/lib.rs") && is_page(text, line, &block) {
                            Doc::CratePage
                        } else {
                            Doc::Item
                        };
                        for problem in markup_problems(&block, kind) {
                            out.push((Kind::Markup, format!("{path}:{line}: rustdoc {problem}")));
                        }
                    }
                } else if path.ends_with(".md") {
                    for problem in markup_problems(text, Doc::Page) {
                        out.push((Kind::Markup, format!("{path}: {problem}")));
                    }
                    for problem in table_problems(text) {
                        out.push((Kind::Markup, format!("{path}: {problem}")));
                    }
                }
            }
        }
    }
    out
}

/// Whether the rustdoc block starting on `line` is one of the crate's pages, whose headings
/// and examples are the generator's own: the crate page (`//!`) or the operation index (the
/// docs of `pub mod operations`).
fn is_page(rust: &str, line: usize, block: &str) -> bool {
    let mut lines = rust.lines().skip(line - 1);
    if lines
        .next()
        .is_some_and(|l| l.trim_start().starts_with("//!"))
    {
        return true;
    }
    let mut after = rust.lines().skip(line - 1 + block.lines().count());
    after
        .find(|l| !l.trim_start().starts_with("#["))
        .is_some_and(|l| l.trim_start().starts_with("pub mod operations"))
}

/// Control characters (other than a line feed) and bidirectional controls.
fn is_bad_char(c: char) -> bool {
    ruckus_codegen::chars::forbidden(c) || c == '\r'
}

/// The rustdoc of a Rust file: each run of `///` or `//!` lines, as Markdown, with the line
/// it starts on.
pub fn doc_blocks(rust: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in rust.lines().enumerate() {
        let t = line.trim_start();
        let doc = t.strip_prefix("///").or_else(|| t.strip_prefix("//!"));
        match (doc, &mut current) {
            (Some(d), Some((_, text))) => {
                text.push_str(d.strip_prefix(' ').unwrap_or(d));
                text.push('\n');
            }
            (Some(d), None) => {
                current = Some((i + 1, format!("{}\n", d.strip_prefix(' ').unwrap_or(d))));
            }
            (None, _) => out.extend(current.take()),
        }
    }
    out.extend(current);
    out
}

/// Where a piece of Markdown is shown.
#[derive(Clone, Copy, PartialEq)]
pub enum Doc {
    /// The rustdoc of an item: the generator writes no heading and no code block there.
    Item,
    /// The crate's page: headings down to `###` and code blocks (its examples) are the
    /// generator's own.
    CratePage,
    /// A Markdown page: one title, headings down to `###`, no code block.
    Page,
}

/// Raw HTML anywhere; code blocks outside the crate page (the generator writes none); headings
/// in an item's rustdoc, and elsewhere a second page title or a heading deeper than `###`.
pub fn markup_problems(markdown: &str, doc: Doc) -> Vec<String> {
    use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag};
    let mut out = Vec::new();
    let mut titles = 0;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            // The generated Markdown files start with a `<!-- @generated -->` comment.
            Event::Html(h) | Event::InlineHtml(h) if !h.starts_with("<!-- @generated") => {
                out.push(format!("renders raw HTML {:?}", h.as_ref()));
            }
            Event::Start(Tag::CodeBlock(_)) if doc != Doc::CratePage => {
                out.push("opens a code block".to_owned())
            }
            Event::Start(Tag::Heading { level, .. }) => {
                if doc == Doc::Item {
                    out.push(format!("has a heading ({level})"));
                } else if level == HeadingLevel::H1 && doc == Doc::Page {
                    titles += 1;
                    if titles > 1 {
                        out.push("has a second title (`# `)".to_owned());
                    }
                } else if level > HeadingLevel::H3 {
                    out.push(format!("has a heading {level}"));
                }
            }
            _ => {}
        }
    }
    out
}

/// Table rows whose cell count differs from their header's (a line break or pipe in a value).
pub fn table_problems(markdown: &str) -> Vec<String> {
    let cells = |line: &str| {
        let b = line.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
            .count()
    };
    let mut out = Vec::new();
    let mut header: Option<usize> = None;
    for (i, line) in markdown.lines().enumerate() {
        if line.starts_with('|') {
            let n = cells(line);
            match header {
                None => header = Some(n),
                Some(h) if h != n => out.push(format!(
                    "line {}: a table row with {} cells under a header of {}",
                    i + 1,
                    n - 1,
                    h - 1
                )),
                Some(_) => {}
            }
        } else {
            if header.is_some() && !line.is_empty() {
                out.push(format!(
                    "line {}: a table is cut by a line that is no row",
                    i + 1
                ));
            }
            header = None;
        }
    }
    out
}
