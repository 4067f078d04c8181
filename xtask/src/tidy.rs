//! `cargo xtask tidy`: the hand-written Rust of the generator, the importer, xtask, the test
//! support, the benchmarks, the runtime and the simulator stays in readable rooms: no file over
//! [`MAX_FILE_LINES`] lines, no function over [`MAX_FN_LINES`] (from its `fn` line to its closing
//! brace). Prints every room too large and fails when there is one. `generated/` is not looked at (it is generator
//! output); nothing else is exempt.

use crate::workspace::{out, workspace_root};
use std::path::{Path, PathBuf};

/// The most lines a hand-written file may have.
pub const MAX_FILE_LINES: usize = 600;
/// The most lines a function may have.
pub const MAX_FN_LINES: usize = 100;

/// The directories checked, relative to the workspace root: every hand-written crate. No file
/// in them is exempt.
const DIRS: &[&str] = &[
    "catalog/src",
    "codegen/src",
    "importer/src",
    "xtask/src",
    "runtime/src",
    "sim/src",
    "mcp/src",
    "cli/src",
    "profiles/src",
    "state/src",
    "workflows/src",
    "tests/src",
    "benches/src",
    "benches/stats/src",
];

/// A function: its name, first line (1-based) and length in lines.
#[derive(Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// Runs the check on the workspace and prints what is too large.
pub fn run() -> Result<(), String> {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in DIRS {
        rust_files(&root.join(dir), &mut files)?;
    }
    let mut problems = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            problems.push(format!("{rel}: {lines} lines (at most {MAX_FILE_LINES})"));
        }
        for f in functions(&text) {
            if f.lines > MAX_FN_LINES {
                problems.push(format!(
                    "{rel}:{}: fn {} is {} lines (at most {MAX_FN_LINES})",
                    f.line, f.name, f.lines
                ));
            }
        }
    }
    if problems.is_empty() {
        eprintln!(
            "tidy: {} files, none over {MAX_FILE_LINES} lines, no function over {MAX_FN_LINES}",
            files.len()
        );
        return Ok(());
    }
    out(&problems
        .iter()
        .map(|p| format!("{p}\n"))
        .collect::<String>());
    Err(format!("tidy: {} room(s) too large", problems.len()))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The functions with a body in Rust source `text`, outermost and nested alike.
pub fn functions(text: &str) -> Vec<Function> {
    let code = blank_out(text);
    let bytes = code.as_bytes();
    let line_at = |at: usize| 1 + bytes[..at].iter().filter(|b| **b == b'\n').count();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find("fn ") {
        let start = at + found;
        at = start + 3;
        let word_start = start == 0 || !is_ident(bytes[start - 1]);
        let name: String = code[at..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !word_start || name.is_empty() {
            continue;
        }
        let Some(open) = body_start(bytes, at) else {
            continue;
        };
        let Some(close) = matching_brace(bytes, open) else {
            continue;
        };
        let line = line_at(start);
        out.push(Function {
            name,
            line,
            lines: line_at(close) - line + 1,
        });
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The `{` that opens the body of the function whose signature starts at `at`: the first one
/// outside parentheses and brackets; none for a declaration ending in `;`.
fn body_start(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in bytes.iter().enumerate().skip(at) {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b';' if depth == 0 => return None,
            b'{' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

fn matching_brace(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` with comments, string and character literals replaced by spaces (line breaks kept),
/// so that braces and `fn` inside them are not counted.
fn blank_out(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, run: &[char]| {
        out.extend(run.iter().map(|c| if *c == '\n' { '\n' } else { ' ' }));
    };
    while i < chars.len() {
        let end = literal_end(&chars, i);
        if end > i {
            blank(&mut out, &chars[i..end]);
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Where the comment or literal starting at `i` ends; `i` when none starts there.
fn literal_end(c: &[char], i: usize) -> usize {
    let at = |j: usize| c.get(j).copied();
    let find = |from: usize, pat: &[char]| {
        (from..c.len())
            .find(|&j| c[j..].starts_with(pat))
            .map_or(c.len(), |j| j + pat.len())
    };
    let prev_ident = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    match (at(i), at(i + 1)) {
        (Some('/'), Some('/')) => find(i, &['\n']),
        (Some('/'), Some('*')) => find(i + 2, &['*', '/']),
        (Some('r' | 'b'), _) if !prev_ident => {
            // r"..", r#".."#, br"..", b".."
            let mut j = i + 1;
            if c[i] == 'b' && at(j) == Some('r') {
                j += 1;
            }
            let raw = c[i] == 'r' || j > i + 1;
            let hashes = (j..c.len()).take_while(|&k| c[k] == '#').count();
            if at(j + hashes) != Some('"') || (!raw && hashes > 0) {
                return i;
            }
            if raw {
                let mut close = vec!['"'];
                close.extend(std::iter::repeat_n('#', hashes));
                find(j + hashes + 1, &close)
            } else {
                string_end(c, j + 1)
            }
        }
        (Some('"'), _) => string_end(c, i + 1),
        // A character literal, not a lifetime: `'x'`, `'\n'`, `'\u{1F600}'`.
        (Some('\''), Some('\\')) => find(i + 2, &['\'']),
        (Some('\''), Some(_)) if at(i + 2) == Some('\'') => i + 3,
        _ => i,
    }
}

/// The end of a string literal whose contents start at `from`.
fn string_end(c: &[char], from: usize) -> usize {
    let mut j = from;
    while j < c.len() {
        match c[j] {
            '\\' => j += 2,
            '"' => return j + 1,
            _ => j += 1,
        }
    }
    c.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_measured_from_fn_to_the_closing_brace() {
        let text = "fn a() {\n    let s = \"}\";\n    let c = '}';\n}\n\nimpl X {\n    fn b<'a>(x: &'a [u8; 2]) -> u8 {\n        // }\n        x[0]\n    }\n}\n\nfn decl();\nconst R: &str = r#\"fn c() { \"#;\n";
        assert_eq!(
            functions(text),
            [
                Function {
                    name: "a".into(),
                    line: 1,
                    lines: 4
                },
                Function {
                    name: "b".into(),
                    line: 7,
                    lines: 4
                },
            ]
        );
    }

    #[test]
    fn literals_and_comments_are_blanked_keeping_lines() {
        let text = "let a = b\"{\"; /* { \n } */ let l: &'static str = \"\\\"{\";";
        let blank = blank_out(text);
        assert_eq!(blank.lines().count(), 2);
        assert!(!blank.contains('{') && !blank.contains('}'), "{blank:?}");
        assert!(blank.contains("'static"), "{blank:?}");
    }
}
