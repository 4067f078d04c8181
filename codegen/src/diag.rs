//! Diagnostics: what is wrong with a spec, and where.

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem found in a spec file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// The spec file, as the caller named it (relative paths stay relative).
    pub file: PathBuf,
    /// 1-based line; 0 when the problem is about the file as a whole (e.g. it is missing).
    pub line: usize,
    /// What is wrong, in one sentence, without control characters (see [`escape`]).
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at `file:line`. Control characters, bidirectional controls and line
    /// breaks in `message` (it often quotes spec text) are written as escapes.
    pub fn new(file: &Path, line: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_path_buf(),
            line,
            message: escape(&message.into()),
        }
    }
}

/// `s` with every character that could change how a terminal or editor shows it (control
/// characters, line breaks, bidirectional controls, line separators) written as `\u{..}`, so a
/// diagnostic never echoes them raw.
pub fn escape(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn needs_escape(c: char) -> bool {
    crate::chars::forbidden(c) || c == '\n' || c == '\t'
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error: {}:{}: {}",
            escape(&self.file.display().to_string()),
            self.line,
            self.message
        )
    }
}

/// At most this many diagnostics are located and reported; the rest are counted. Locating one
/// searches its file, so a spec with tens of thousands of problems would otherwise take time
/// quadratic in its size.
pub const MAX_REPORTED: usize = 100;

/// A list of diagnostics, sorted by file and line when reported.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    /// Problems past [`MAX_REPORTED`], counted only.
    more: usize,
}

impl Diagnostics {
    /// Records one problem.
    pub fn push(&mut self, d: Diagnostic) {
        self.push_with(|| d);
    }

    /// Records one problem, located by `d` only while fewer than [`MAX_REPORTED`] are.
    pub fn push_with(&mut self, d: impl FnOnce() -> Diagnostic) {
        if self.list.len() < MAX_REPORTED {
            self.list.push(d());
        } else {
            self.more += 1;
        }
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The problems in file and line order, duplicates removed; past [`MAX_REPORTED`], one more
    /// diagnostic (at the last one's place) says how many were left out.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.list.sort();
        self.list.dedup();
        if self.more > 0
            && let Some(last) = self.list.last()
        {
            let more = Diagnostic::new(
                &last.file,
                last.line,
                format!(
                    "{} more problems are not shown (the first {MAX_REPORTED} found are)",
                    self.more
                ),
            );
            self.list.push(more);
        }
        self.list
    }
}
