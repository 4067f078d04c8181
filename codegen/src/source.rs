//! Spec files as text, with a way to find the line a spec element is on.
//!
//! serde_yaml reports positions of syntax and shape errors but keeps no spans for values, so
//! semantic diagnostics find their line by searching the text for a path of anchors, e.g.
//! `["operations:", "id: get_license", "path:"]`. Each anchor is searched inside the YAML block
//! of the previous match (by indentation), preferring the shallowest match, so a type's own
//! `provenance:` is found rather than one of its fields'. An anchor may list alternatives
//! separated by `|` (`value: red|red`). A missing anchor leaves the last match, which is still
//! close.

use crate::diag::Diagnostic;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One spec file: its path (as shown in diagnostics) and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as shown in diagnostics.
    pub path: PathBuf,
    /// The whole text.
    pub text: String,
    /// Per line: where it is and its shape, computed on the first search (a spec with many
    /// problems is searched once per diagnostic).
    index: OnceLock<Vec<Line>>,
}

/// One line of a spec file, measured once.
#[derive(Debug, Clone)]
struct Line {
    /// Leading spaces.
    indent: usize,
    /// Column of the key, after any list dash.
    key_col: usize,
    /// Not blank, not a comment.
    content: bool,
    /// Starts with `- `.
    item: bool,
    /// What anchors are matched against: the line after its indentation and list dash, escapes
    /// decoded and quotes removed.
    body: String,
}

impl SourceFile {
    /// A spec file read from `path`.
    pub fn new(path: PathBuf, text: String) -> Self {
        SourceFile {
            path,
            text,
            index: OnceLock::new(),
        }
    }

    fn index(&self) -> &[Line] {
        self.index.get_or_init(|| {
            self.text
                .lines()
                .map(|l| {
                    let t = l.trim_start();
                    let content = is_content(l);
                    Line {
                        indent: indent(l),
                        key_col: key_column(l),
                        content,
                        item: t.starts_with("- "),
                        body: if content { body(l) } else { String::new() },
                    }
                })
                .collect()
        })
    }

    /// The 1-based line of the last anchor matched in sequence (1 when none matches).
    pub fn line_of(&self, anchors: &[&str]) -> usize {
        self.line_of_nth(anchors, 1)
    }

    /// Like [`line_of`](Self::line_of), taking the `nth` (1-based) match of the last anchor:
    /// duplicates are reported where they repeat.
    pub fn line_of_nth(&self, anchors: &[&str], nth: usize) -> usize {
        let lines = self.index();
        let (mut start, mut end) = (0, lines.len());
        let mut found = None;
        for (k, anchor) in anchors.iter().enumerate() {
            let hits: Vec<usize> = (start..end)
                .filter(|&i| lines[i].content && matches(&lines[i].body, anchor))
                .collect();
            let Some(shallowest) = hits.iter().map(|&i| lines[i].key_col).min() else {
                break;
            };
            let shallow: Vec<usize> = hits
                .into_iter()
                .filter(|&i| lines[i].key_col == shallowest)
                .collect();
            let pick = if k + 1 == anchors.len() {
                shallow.get(nth.saturating_sub(1)).or(shallow.last())
            } else {
                shallow.first()
            };
            let Some(&i) = pick else { break };
            found = Some(i);
            (start, end) = (i + 1, block_end(lines, i));
        }
        found.map_or(1, |i| i + 1)
    }

    /// A diagnostic at the line found by `anchors`.
    pub fn diag(&self, anchors: &[&str], message: impl Into<String>) -> Diagnostic {
        self.diag_nth(anchors, 1, message)
    }

    /// A diagnostic at the `nth` match of the last anchor.
    pub fn diag_nth(&self, anchors: &[&str], nth: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.path, self.line_of_nth(anchors, nth), message)
    }

    /// A diagnostic about the whole file.
    pub fn diag_file(path: &Path, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(path, 0, message)
    }
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Column where the key starts, after any list dash.
fn key_column(line: &str) -> usize {
    let t = line.trim_start();
    let after_dash = match t.strip_prefix("- ") {
        Some(rest) => 2 + (rest.len() - rest.trim_start().len()),
        None => 0,
    };
    indent(line) + after_dash
}

fn is_content(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty() && !t.starts_with('#')
}

/// The end (exclusive) of the YAML block that starts at line `i`: a list item holds the deeper
/// lines after it; a key also holds list items at its own indentation (compact style).
fn block_end(lines: &[Line], i: usize) -> usize {
    let (own, is_item) = (lines[i].indent, lines[i].item);
    (i + 1..lines.len())
        .find(|&j| {
            let l = &lines[j];
            l.content && (l.indent < own || (l.indent == own && (is_item || !l.item)))
        })
        .unwrap_or(lines.len())
}

/// A line as anchors see it: without its indentation and list dash, escapes decoded, quotes
/// removed.
fn body(line: &str) -> String {
    let normalized: String = unescape(line)
        .chars()
        .filter(|c| *c != '"' && *c != '\'')
        .collect();
    let t = normalized.trim_start();
    t.strip_prefix("- ").map_or(t, str::trim_start).to_owned()
}

/// Whether a line's [`body`] holds one of the anchor's alternatives as its key (`key:`) or key
/// and value (`key: value`).
fn matches(body: &str, anchor: &str) -> bool {
    anchor.split('|').any(|alt| match body.strip_prefix(alt) {
        Some(rest) => alt.ends_with(':') || rest.is_empty() || rest.starts_with([' ', '\t', '#']),
        None => false,
    })
}

/// The line with double-quoted escapes (`\n`, `\t`, `\u202E`, ...) decoded, so that a value
/// written with escapes is found by its decoded text.
fn unescape(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\\') {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let hex = |n: usize, chars: &mut std::str::Chars<'_>| {
            let digits: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
        };
        let decoded = match chars.next() {
            Some('n') => Some('\n'),
            Some('t') => Some('\t'),
            Some('r') => Some('\r'),
            Some('0') => Some('\0'),
            Some('e') => Some('\u{1b}'),
            Some('x') => hex(2, &mut chars),
            Some('u') => hex(4, &mut chars),
            Some('U') => hex(8, &mut chars),
            Some(other) => Some(other),
            None => None,
        };
        out.extend(decoded);
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("x.yaml".into(), text.into())
    }

    #[test]
    fn finds_nested_anchor_lines() {
        let f = file(
            "types:\n  - name: License\n    fields:\n      - name: id\n  - name: LicenseItem\n    fields:\n      - name: id\n",
        );
        assert_eq!(f.line_of(&["types:", "name: LicenseItem", "name: id"]), 7);
        assert_eq!(f.line_of(&["types:", "name: License", "name: id"]), 4);
        assert_eq!(f.line_of(&["name: Missing"]), 1);
        assert_eq!(f.line_of(&["types:", "name: License", "name: nope"]), 2);
    }

    #[test]
    fn finds_values_written_with_escapes() {
        let f = file("fields:\n  - name: a\n  - name: \"col\\nor\"\n");
        assert_eq!(f.line_of(&["fields:", "name: col\nor"]), 3);
    }

    #[test]
    fn prefers_the_element_own_key_and_counts_repeats() {
        let f = file(
            "types:\n  - name: T\n    fields:\n      - name: a\n        provenance: documented\n      - name: a\n    provenance: guessed\n    values:\n      - value: red\n      - red\n",
        );
        assert_eq!(f.line_of(&["types:", "name: T", "provenance:"]), 7);
        assert_eq!(
            f.line_of_nth(&["types:", "name: T", "fields:", "name: a"], 2),
            6
        );
        assert_eq!(
            f.line_of_nth(&["types:", "name: T", "values:", "value: red|red"], 2),
            10
        );
    }
}
