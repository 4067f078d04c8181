//! Spec files as text, with a way to find the line a spec element is on.
//!
//! serde_yaml reports positions of syntax and shape errors but keeps no spans for values, so
//! semantic diagnostics find their line by searching the text for a path of anchors, e.g.
//! `["operations:", "id: get_license", "path:"]`: each anchor is searched from the line where
//! the previous one matched. A missing anchor leaves the last match, which is still close.

use crate::diag::Diagnostic;
use std::path::{Path, PathBuf};

/// One spec file: its path (as shown in diagnostics) and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as shown in diagnostics.
    pub path: PathBuf,
    /// The whole text.
    pub text: String,
}

impl SourceFile {
    /// The 1-based line of the last anchor matched in sequence (1 when none matches).
    pub fn line_of(&self, anchors: &[&str]) -> usize {
        let lines: Vec<&str> = self.text.lines().collect();
        let mut at = 0usize;
        let mut found = None;
        for anchor in anchors {
            match (at..lines.len()).find(|&i| matches(lines[i], anchor)) {
                Some(i) => {
                    found = Some(i);
                    at = i + 1;
                }
                None => break,
            }
        }
        found.map_or(1, |i| i + 1)
    }

    /// A diagnostic at the line found by `anchors`.
    pub fn diag(&self, anchors: &[&str], message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.path, self.line_of(anchors), message)
    }

    /// A diagnostic about the whole file.
    pub fn diag_file(path: &Path, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(path, 0, message)
    }
}

/// Whether a line holds `anchor` as its key (`key:`) or key and value (`key: value`),
/// ignoring indentation, a list dash and quotes.
fn matches(line: &str, anchor: &str) -> bool {
    let normalized: String = line.chars().filter(|c| *c != '"' && *c != '\'').collect();
    let t = normalized.trim_start();
    let t = t.strip_prefix("- ").map_or(t, str::trim_start);
    match t.strip_prefix(anchor) {
        Some(rest) => {
            anchor.ends_with(':') || rest.is_empty() || rest.starts_with([' ', '\t', '#'])
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_anchor_lines() {
        let f = SourceFile {
            path: "x.yaml".into(),
            text: "types:\n  - name: License\n    fields:\n      - name: id\n  - name: LicenseItem\n    fields:\n      - name: id\n".into(),
        };
        assert_eq!(f.line_of(&["types:", "name: LicenseItem", "name: id"]), 7);
        assert_eq!(f.line_of(&["types:", "name: License", "name: id"]), 4);
        assert_eq!(f.line_of(&["name: Missing"]), 1);
        assert_eq!(f.line_of(&["types:", "name: License", "name: nope"]), 2);
    }
}
