//! One change to a spec's text, and how it is applied line by line.

use super::spec::{Spec, Text};

/// One change to a spec. Positions are taken modulo what they index (files, lines, chars), so
/// any numbers make a valid mutation.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Replaces the value after the key on a line (`key: value`, `- value`).
    Value {
        file: usize,
        line: usize,
        text: Text,
    },
    /// Replaces the key on a line.
    Key {
        file: usize,
        line: usize,
        text: Text,
    },
    /// Inserts text at a character position of a line.
    Insert {
        file: usize,
        line: usize,
        at: usize,
        text: String,
    },
    /// Inserts raw bytes (maybe not UTF-8) at a byte position of a line.
    Bytes {
        file: usize,
        line: usize,
        at: usize,
        bytes: Vec<u8>,
    },
    /// Deletes a line.
    Delete { file: usize, line: usize },
    /// Repeats a line.
    Duplicate { file: usize, line: usize },
    /// Moves a line's indentation by `delta` columns.
    Indent { file: usize, line: usize, delta: i8 },
    /// Replaces a line's value with `depth` nested flow collections, or (not `flow`) puts
    /// `depth` nested keys under the line.
    Nest {
        file: usize,
        line: usize,
        depth: usize,
        flow: bool,
    },
    /// An anchor on one line's value and aliases to it on later lines.
    Alias {
        file: usize,
        line: usize,
        copies: usize,
    },
    /// The same as [`Mutation::Alias`] and [`Mutation::Nest`] (flow), written with JSON-style
    /// quoted keys (`"key": &a ...`, `"k1": {` on lines of their own), which a scanner of the
    /// text missed: an anchor and aliases when `depth` is 0, else `depth` nested flow mappings.
    Json {
        file: usize,
        line: usize,
        depth: usize,
    },
    /// Cuts the file after a line.
    Truncate { file: usize, line: usize },
    /// Repeats a line's value `times` times (long strings).
    Repeat {
        file: usize,
        line: usize,
        times: usize,
    },
    /// Replaces the value of the `nth` line (modulo their count) whose key holds text shown in
    /// docs (`description`, `title`, `name`).
    Prose { file: usize, nth: usize, text: Text },
}

/// Keys whose values are shown in docs.
const PROSE_KEYS: &[&[u8]] = &[b"description", b"title", b"name"];

/// The lines of a file (without their `\n`), as bytes.
fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
    if out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

fn join(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    out
}

/// Where a line's value starts: after `key: ` or `- `, else its first non-space byte.
fn value_start(line: &[u8]) -> usize {
    let indent = line.iter().take_while(|b| **b == b' ').count();
    let mut i = indent;
    while line[i..].starts_with(b"- ") {
        i += 2;
    }
    match line[i..].windows(2).position(|w| w == b": ") {
        Some(p) => i + p + 2,
        None if line.ends_with(b":") => line.len(),
        None => i,
    }
}

/// Where a line's key starts and ends (`name` in `  - name: x`); None when it has no key.
fn key_span(line: &[u8]) -> Option<(usize, usize)> {
    let mut i = line.iter().take_while(|b| **b == b' ').count();
    while line[i..].starts_with(b"- ") {
        i += 2;
    }
    let end = line[i..].iter().position(|b| *b == b':').map(|p| i + p)?;
    Some((i, end))
}

/// `key: value` -> `"key": value` (no change without a key).
fn quote_key(line: &mut Vec<u8>) {
    if let Some((start, end)) = key_span(line) {
        line.insert(end, b'"');
        line.insert(start, b'"');
    }
}

/// [`Mutation::Json`] on line `i` of `ls`.
fn json_style(ls: &mut Vec<Vec<u8>>, i: usize, depth: usize) {
    let n = ls.len();
    if depth == 0 {
        quote_key(&mut ls[i]);
        let at = value_start(&ls[i]);
        ls[i].splice(at..at, b"&a ".iter().copied());
        for j in (i + 1..n).take(3) {
            quote_key(&mut ls[j]);
            let at = value_start(&ls[j]);
            ls[j].truncate(at);
            ls[j].extend_from_slice(b"*a");
        }
        return;
    }
    quote_key(&mut ls[i]);
    let at = value_start(&ls[i]);
    ls[i].truncate(at);
    ls[i].push(b'{');
    let base = ls[i].iter().take_while(|b| **b == b' ').count() + 1;
    let mut nested: Vec<Vec<u8>> = (1..depth)
        .map(|d| format!("{}\"k{d}\": {{", " ".repeat(base)).into_bytes())
        .collect();
    nested.push(format!("{}{}", " ".repeat(base), "}".repeat(depth)).into_bytes());
    ls.splice(i + 1..i + 1, nested);
}

impl Mutation {
    /// Applies the mutation to `spec`.
    pub fn apply(&self, spec: &mut Spec) {
        let file = spec.pick(self.file());
        let bytes = spec.files.get_mut(&file).expect("picked from the map");
        let mut ls = lines(bytes);
        if !self.edit_line(&mut ls) {
            self.edit_structure(&mut ls);
        }
        *bytes = join(&ls);
    }

    /// The mutation's file number (any number: `Spec::pick` takes it modulo the files).
    fn file(&self) -> usize {
        match self {
            Mutation::Value { file, .. }
            | Mutation::Key { file, .. }
            | Mutation::Insert { file, .. }
            | Mutation::Bytes { file, .. }
            | Mutation::Delete { file, .. }
            | Mutation::Duplicate { file, .. }
            | Mutation::Indent { file, .. }
            | Mutation::Nest { file, .. }
            | Mutation::Alias { file, .. }
            | Mutation::Json { file, .. }
            | Mutation::Truncate { file, .. }
            | Mutation::Repeat { file, .. }
            | Mutation::Prose { file, .. } => *file,
        }
    }

    /// Edits within one line; false for a mutation that adds, removes or nests lines.
    fn edit_line(&self, ls: &mut [Vec<u8>]) -> bool {
        let n = ls.len();
        match self {
            Mutation::Value { line, text, .. } => {
                let l = &mut ls[line % n];
                let at = value_start(l);
                l.truncate(at);
                if at > 0 && !l.ends_with(b" ") {
                    l.push(b' ');
                }
                l.extend_from_slice(text.yaml().as_bytes());
            }
            Mutation::Prose { nth, text, .. } => {
                let hits: Vec<usize> = (0..n)
                    .filter(|&i| {
                        key_span(&ls[i]).is_some_and(|(a, b)| PROSE_KEYS.contains(&&ls[i][a..b]))
                    })
                    .collect();
                if let Some(&i) = hits.get(nth % hits.len().max(1)) {
                    let l = &mut ls[i];
                    let at = value_start(l);
                    l.truncate(at);
                    l.extend_from_slice(text.yaml().as_bytes());
                }
            }
            Mutation::Key { line, text, .. } => {
                let l = &mut ls[line % n];
                if let Some((a, b)) = key_span(l) {
                    l.splice(a..b, text.yaml().into_bytes());
                }
            }
            Mutation::Insert { line, at, text, .. } => {
                let l = &mut ls[line % n];
                let s = String::from_utf8_lossy(l).into_owned();
                let chars: Vec<char> = s.chars().collect();
                let at = at % (chars.len() + 1);
                let mut out: String = chars[..at].iter().collect();
                out.push_str(text);
                out.extend(&chars[at..]);
                *l = out.into_bytes();
            }
            Mutation::Bytes {
                line, at, bytes, ..
            } => {
                let l = &mut ls[line % n];
                let at = at % (l.len() + 1);
                l.splice(at..at, bytes.iter().copied());
            }
            Mutation::Indent { line, delta, .. } => {
                let l = &mut ls[line % n];
                if *delta >= 0 {
                    l.splice(0..0, std::iter::repeat_n(b' ', *delta as usize));
                } else {
                    let spaces = l.iter().take_while(|b| **b == b' ').count();
                    l.drain(..spaces.min(delta.unsigned_abs() as usize));
                }
            }
            Mutation::Repeat { line, times, .. } => {
                let l = &mut ls[line % n];
                let at = value_start(l);
                let value = l[at..].to_vec();
                for _ in 1..*times {
                    l.push(b' ');
                    l.extend_from_slice(&value);
                }
            }
            _ => return false,
        }
        true
    }

    /// Adds, removes or nests lines.
    fn edit_structure(&self, ls: &mut Vec<Vec<u8>>) {
        let n = ls.len();
        match self {
            Mutation::Delete { line, .. } => {
                ls.remove(line % n);
            }
            Mutation::Duplicate { line, .. } => {
                let l = ls[line % n].clone();
                ls.insert(line % n, l);
            }
            Mutation::Nest {
                line, depth, flow, ..
            } => {
                let i = line % n;
                if *flow {
                    let l = &mut ls[i];
                    let at = value_start(l);
                    l.truncate(at);
                    l.extend(std::iter::repeat_n(b'[', *depth));
                    l.extend(std::iter::repeat_n(b']', *depth));
                } else {
                    let base = ls[i].iter().take_while(|b| **b == b' ').count();
                    let nested: Vec<Vec<u8>> = (1..=*depth)
                        .map(|d| format!("{}k{d}:", " ".repeat(base + 2 * d)).into_bytes())
                        .collect();
                    ls.splice(i + 1..i + 1, nested);
                }
            }
            Mutation::Alias { line, copies, .. } => {
                let i = line % n;
                let l = &mut ls[i];
                let at = value_start(l);
                l.splice(at..at, b"&a ".iter().copied());
                for j in (i + 1..n).take(*copies) {
                    let l = &mut ls[j];
                    let at = value_start(l);
                    l.truncate(at);
                    l.extend_from_slice(b"*a");
                }
            }
            Mutation::Json { line, depth, .. } => json_style(ls, line % n, *depth),
            Mutation::Truncate { line, .. } => {
                ls.truncate(line % n + 1);
            }
            _ => {}
        }
    }
}
