//! Spec mutations and the properties every generator run must have, shared by `cargo xtask
//! fuzz` (random mutations, long runs) and the property test `tests/spec_mutations.rs`
//! (proptest strategies over the same [`Mutation`]s, in CI).
//!
//! A case starts from the valid broken-spec base (`tests/fixtures/broken/base/`), applies a few
//! mutations to its text (values, keys, structure, raw bytes, unicode and control characters,
//! deep nesting, aliases), generates, and [`check`]s the outcome:
//!
//! - the generator returned (a panic is caught and reported by the caller);
//! - a rejection names a line (>= 1) for every diagnostic and echoes no control character;
//! - an accepted spec gives Rust that parses (`syn::parse_file`), no control or bidirectional
//!   character anywhere in the output, rustdoc and Markdown without HTML or code blocks, and
//!   Markdown tables whose rows all have their header's number of cells.

#![allow(dead_code)] // each includer uses its own part

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The base spec, relative to the workspace root.
pub const BASE: &str = "tests/fixtures/broken/base";
/// The top-level file of a spec directory.
pub const TOP: &str = "ruckus-one.yaml";

/// A spec as files: path relative to the spec directory -> bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Spec {
    /// Reads every file under `dir`.
    pub fn read(dir: &Path) -> std::io::Result<Spec> {
        let mut files = BTreeMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d)? {
                let path = entry?.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Ok(rel) = path.strip_prefix(dir) {
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    files.insert(rel, std::fs::read(&path)?);
                }
            }
        }
        Ok(Spec { files })
    }

    /// The base spec of the workspace at `root`.
    pub fn base(root: &Path) -> Spec {
        Spec::read(&root.join(BASE)).expect("the base spec is readable")
    }

    /// Writes the spec into `dir` (emptied first) and returns its top-level file.
    pub fn write(&self, dir: &Path) -> std::io::Result<PathBuf> {
        let _ = std::fs::remove_dir_all(dir);
        for (rel, bytes) in &self.files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, bytes)?;
        }
        Ok(dir.join(TOP))
    }

    /// Total size in bytes.
    pub fn size(&self) -> usize {
        self.files.values().map(Vec::len).sum()
    }

    /// The `i`th file (modulo the count), as a key.
    fn pick(&self, i: usize) -> String {
        let keys: Vec<&String> = self.files.keys().collect();
        keys[i % keys.len()].clone()
    }
}

/// What a mutation puts into the spec.
#[derive(Debug, Clone)]
pub enum Text {
    /// Written as it is (may break the YAML).
    Raw(String),
    /// Written as a double-quoted YAML string, control characters as escapes.
    Quoted(String),
}

impl Text {
    fn yaml(&self) -> String {
        match self {
            Text::Raw(s) => s.clone(),
            Text::Quoted(s) => quoted(s),
        }
    }
}

/// A YAML double-quoted string holding `s`.
pub fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || (c as u32) > 0xFFFF && c.is_whitespace() => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

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

impl Mutation {
    /// Applies the mutation to `spec`.
    pub fn apply(&self, spec: &mut Spec) {
        let file = match self {
            Mutation::Value { file, .. }
            | Mutation::Key { file, .. }
            | Mutation::Insert { file, .. }
            | Mutation::Bytes { file, .. }
            | Mutation::Delete { file, .. }
            | Mutation::Duplicate { file, .. }
            | Mutation::Indent { file, .. }
            | Mutation::Nest { file, .. }
            | Mutation::Alias { file, .. }
            | Mutation::Truncate { file, .. }
            | Mutation::Repeat { file, .. }
            | Mutation::Prose { file, .. } => spec.pick(*file),
        };
        let bytes = spec.files.get_mut(&file).expect("picked from the map");
        let mut ls = lines(bytes);
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
            Mutation::Delete { line, .. } => {
                ls.remove(line % n);
            }
            Mutation::Duplicate { line, .. } => {
                let l = ls[line % n].clone();
                ls.insert(line % n, l);
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
            Mutation::Truncate { line, .. } => {
                ls.truncate(line % n + 1);
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
        }
        *bytes = join(&ls);
    }
}

/// Strings that broke the generator or its output once, and their neighbours.
pub const NASTY: &[&str] = &[
    "size²",
    "٣x",
    "größe",
    "🦀",
    "\u{202E}evil",
    "\u{2066}x\u{2069}",
    "\u{200F}",
    "a\rb",
    "\r",
    "a\nb",
    "\t",
    "\u{0}",
    "\u{1b}[31mred",
    "\u{85}",
    "\u{2028}",
    "\u{feff}",
    "```",
    "~~~",
    "```\nfn main() { panic!() }\n```",
    "# heading",
    "- item",
    "1. item",
    "---",
    "===",
    "`",
    "``",
    "a`<script>alert(1)</script>`",
    "<script>alert(1)</script>",
    "<b>x</b>",
    "[link](http://example.invalid)",
    "|",
    "a|b",
    "\\",
    "\"",
    "'",
    "{",
    "[",
    "}",
    "]",
    "&a",
    "*a",
    "!!binary aGk=",
    "%",
    "",
    " ",
    "type",
    "self",
    "Self",
    "gen",
    "_",
    "r#type",
    "0",
    "-1",
    "99999999999999999999",
    "true",
    "null",
    "~",
    "string",
    "json",
    "array<Item>",
    "map<Color>",
    "array<array<Item>>",
    "Item",
    "Color",
    "NotAType",
    "/items/{itemId}",
    "/items/{x}",
    "/{a}/{a}",
    "{itemId}",
    "https://x.invalid",
    "GET",
    "FETCH",
    "path",
    "query",
    "header",
    "json",
    "binary",
    "inferred: because",
    "reference:",
    "2025-13-45",
    "application/vnd.ruckus.v1+json",
    "demo",
    "items",
    "common",
    "../../etc",
];

/// A tiny deterministic random source (splitmix64) for the fuzz driver.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// A random string: a nasty one, a mix of nasty ones, or random characters from every
    /// Unicode plane (controls included).
    pub fn text(&mut self) -> String {
        match self.below(4) {
            0 | 1 => NASTY[self.below(NASTY.len())].to_owned(),
            2 => format!(
                "{}{}",
                NASTY[self.below(NASTY.len())],
                NASTY[self.below(NASTY.len())]
            ),
            _ => (0..1 + self.below(12))
                .filter_map(|_| {
                    let c = match self.below(4) {
                        0 => self.below(0x80) as u32,
                        1 => self.below(0x800) as u32,
                        2 => 0x2000 + self.below(0x100) as u32,
                        _ => self.below(0x11_0000) as u32,
                    };
                    char::from_u32(c)
                })
                .collect(),
        }
    }

    fn yaml_text(&mut self) -> Text {
        let s = self.text();
        if self.below(2) == 0 {
            Text::Raw(s)
        } else {
            Text::Quoted(s)
        }
    }

    /// One random mutation.
    pub fn mutation(&mut self) -> Mutation {
        let (file, line) = (self.below(16), self.below(64));
        match self.below(22) {
            0..=6 => Mutation::Value {
                file,
                line,
                text: self.yaml_text(),
            },
            7..=8 => Mutation::Key {
                file,
                line,
                text: self.yaml_text(),
            },
            9..=10 => Mutation::Insert {
                file,
                line,
                at: self.below(80),
                text: self.text(),
            },
            11 => Mutation::Bytes {
                file,
                line,
                at: self.below(80),
                bytes: (0..1 + self.below(3))
                    .map(|_| self.next_u64() as u8)
                    .collect(),
            },
            12..=13 => Mutation::Delete { file, line },
            14 => Mutation::Duplicate { file, line },
            15 => Mutation::Indent {
                file,
                line,
                delta: (self.below(9) as i8) - 4,
            },
            16 => Mutation::Nest {
                file,
                line,
                depth: [3, 20, 33, 100, 5_000][self.below(5)],
                flow: self.below(2) == 0,
            },
            17 => Mutation::Alias {
                file,
                line,
                copies: self.below(6),
            },
            18 => Mutation::Truncate { file, line },
            _ => Mutation::Repeat {
                file,
                line,
                times: [2, 50, 2_000][self.below(3)],
            },
        }
    }

    /// A gentle mutation: a value replaced by a quoted string without the characters spec files
    /// may not hold, so that many such specs are accepted and their output checked.
    pub fn gentle(&mut self) -> Mutation {
        let text: String = self
            .text()
            .chars()
            .filter(|c| !ruckus_codegen::chars::forbidden(*c))
            .collect();
        Mutation::Prose {
            file: self.below(16),
            nth: self.below(64),
            text: Text::Quoted(text),
        }
    }

    /// Half the time 1 or 2 gentle mutations, else 1 to `max` of any kind.
    pub fn mutations(&mut self, max: usize) -> Vec<Mutation> {
        if self.below(2) == 0 {
            (0..1 + self.below(2)).map(|_| self.gentle()).collect()
        } else {
            (0..1 + self.below(max)).map(|_| self.mutation()).collect()
        }
    }
}

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
                        for problem in markup_problems(&block, true) {
                            out.push((Kind::Markup, format!("{path}:{line}: rustdoc {problem}")));
                        }
                    }
                } else if path.ends_with(".md") {
                    for problem in markup_problems(text, false) {
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

/// Raw HTML or code blocks in Markdown (the generator writes neither), headings in rustdoc
/// (the generator writes none there) and, in a Markdown page, a second title or a heading
/// deeper than the generator's `###`.
pub fn markup_problems(markdown: &str, rustdoc: bool) -> Vec<String> {
    use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag};
    let mut out = Vec::new();
    let mut titles = 0;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            // The generated Markdown files start with a `<!-- @generated -->` comment.
            Event::Html(h) | Event::InlineHtml(h) if !h.starts_with("<!-- @generated") => {
                out.push(format!("renders raw HTML {:?}", h.as_ref()));
            }
            Event::Start(Tag::CodeBlock(_)) => out.push("opens a code block".to_owned()),
            Event::Start(Tag::Heading { level, .. }) => {
                if rustdoc {
                    out.push(format!("has a heading ({level})"));
                } else if level == HeadingLevel::H1 {
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
