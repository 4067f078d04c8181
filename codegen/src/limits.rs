//! Limits on spec input, checked before the YAML parser sees the text.
//!
//! serde_yaml takes time quadratic in the nesting depth of flow collections and expands aliases
//! before its repetition limit stops them, so a hostile or broken file could keep the generator
//! busy for minutes or use gigabytes. Every spec file is therefore read in three bounded steps:
//!
//! 1. at most [`Limits::max_file_bytes`] bytes are read; a larger file is refused at the line
//!    where the limit is crossed;
//! 2. the bytes must be UTF-8; the first bad byte is reported at its line;
//! 3. one linear pass over the text ([`scan`]) refuses, each at its own line: a line longer than
//!    [`Limits::max_line_bytes`], nesting (indentation plus flow `[`/`{`) deeper than
//!    [`Limits::max_depth`], YAML anchors and aliases (`&a`, `*a`: the spec format has no use for
//!    them, and they are how alias bombs are built), and control characters, bidirectional
//!    controls and line separators, written raw or as a double-quoted escape (`"\u202E"`).
//!
//! Only then does serde_yaml parse the text. The limits are documented in `spec/README.md` and
//! can be raised with environment variables ([`ENV_FILE_BYTES`], [`ENV_LINE_BYTES`],
//! [`ENV_DEPTH`]).

use crate::chars::{describe, forbidden};
use crate::diag::Diagnostic;
use std::io::Read;
use std::iter::Peekable;
use std::path::Path;
use std::str::Chars;

/// Environment variable overriding [`Limits::max_file_bytes`].
pub const ENV_FILE_BYTES: &str = "RUCKUS_SPEC_MAX_FILE_BYTES";
/// Environment variable overriding [`Limits::max_line_bytes`].
pub const ENV_LINE_BYTES: &str = "RUCKUS_SPEC_MAX_LINE_BYTES";
/// Environment variable overriding [`Limits::max_depth`].
pub const ENV_DEPTH: &str = "RUCKUS_SPEC_MAX_DEPTH";

/// Bounds on one spec file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file, in bytes (default 4 MiB; the largest area file is about 160 KB).
    pub max_file_bytes: u64,
    /// Longest accepted line, in bytes, line break excluded (default 8 KiB).
    pub max_line_bytes: usize,
    /// Deepest accepted nesting: indentation levels plus open flow collections (default 32;
    /// the spec nests about 10 deep).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 4 * 1024 * 1024,
            max_line_bytes: 8 * 1024,
            max_depth: 32,
        }
    }
}

impl Limits {
    /// The defaults, each overridden by its environment variable when that is set.
    pub fn from_env() -> Result<Self, Diagnostic> {
        let d = Limits::default();
        Ok(Limits {
            max_file_bytes: env_number(ENV_FILE_BYTES)?.map_or(d.max_file_bytes, |n| n as u64),
            max_line_bytes: env_number(ENV_LINE_BYTES)?.unwrap_or(d.max_line_bytes),
            max_depth: env_number(ENV_DEPTH)?.unwrap_or(d.max_depth),
        })
    }
}

fn env_number(name: &str) -> Result<Option<usize>, Diagnostic> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Ok(v) if v.trim().parse::<usize>().is_ok_and(|n| n > 0) => Ok(v.trim().parse().ok()),
        Ok(v) => Err(Diagnostic::new(
            Path::new(name),
            0,
            format!("environment variable {name}=`{v}` must be a whole number above 0"),
        )),
        Err(std::env::VarError::NotUnicode(_)) => Err(Diagnostic::new(
            Path::new(name),
            0,
            format!("environment variable {name} must be a whole number above 0"),
        )),
    }
}

/// Reads a spec file within `limits`: at most `max_file_bytes` bytes, valid UTF-8, and passing
/// [`scan`]. Every refusal names the file and a line (1-based).
pub fn read(path: &Path, limits: &Limits) -> Result<String, Diagnostic> {
    let cannot = |e: std::io::Error| Diagnostic::new(path, 0, format!("cannot read the file: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(limits.max_file_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > limits.max_file_bytes {
        let within = &bytes[..limits.max_file_bytes as usize];
        let line = line_at(within, within.len());
        return Err(Diagnostic::new(
            path,
            line,
            format!(
                "the file is larger than {} bytes, the limit (set {ENV_FILE_BYTES} to raise it); the limit is crossed on this line",
                limits.max_file_bytes
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = line_at(bytes, at);
        let column = at
            - bytes[..at]
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1);
        Diagnostic::new(
            path,
            line,
            format!(
                "the file is not valid UTF-8: byte 0x{:02X} at column {} (byte {}) of this line",
                bytes[at],
                column + 1,
                at + 1
            ),
        )
    })?;
    scan(path, &text, limits)?;
    Ok(text)
}

/// The 1-based line of byte `at`.
fn line_at(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at].iter().filter(|b| **b == b'\n').count()
}

/// One linear pass over a spec file's text (see the module docs): the first line that breaks a
/// limit or holds an anchor, an alias or a forbidden character is reported.
pub fn scan(path: &Path, text: &str, limits: &Limits) -> Result<(), Diagnostic> {
    Scanner {
        limits,
        flow: 0,
        quote: None,
        at_node: true,
        indents: Vec::new(),
        block_scalar: None,
        plain: None,
        key_col: 0,
        dash_col: None,
    }
    .run(text)
    .map_err(|(line, message)| Diagnostic::new(path, line, message))
}

/// What one line held, for the scalar that may go on below it.
#[derive(Default)]
struct Line {
    /// A key's colon.
    keyed: bool,
    /// A plain scalar value.
    plain_value: bool,
    /// A block scalar indicator (`|`, `>`).
    block_indicator: bool,
}

struct Scanner<'l> {
    limits: &'l Limits,
    /// Open flow collections (`[`, `{`).
    flow: usize,
    /// Inside a quoted scalar that goes on past the line end: its quote character.
    quote: Option<char>,
    /// The next character starts a node (where `[`, `{`, quotes, `&` and `*` mean something).
    at_node: bool,
    /// Indentation columns of the open block nodes.
    indents: Vec<usize>,
    /// Inside a block scalar (`|`, `>`): the indentation of the line that opened it.
    block_scalar: Option<usize>,
    /// A plain scalar value may go on on more indented lines: the indentation of its parent.
    plain: Option<usize>,
    /// Column of the current block line's content after any `- ` entries (its key, if any).
    key_col: usize,
    /// Column of the current block line's last `- ` entry.
    dash_col: Option<usize>,
}

type Refusal = (usize, String);

impl Scanner<'_> {
    fn run(mut self, text: &str) -> Result<(), Refusal> {
        for (i, raw) in text.split('\n').enumerate() {
            let n = i + 1;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if line.len() > self.limits.max_line_bytes {
                return Err((
                    n,
                    format!(
                        "the line is {} bytes long, over the limit of {} (set {ENV_LINE_BYTES} to raise it)",
                        line.len(),
                        self.limits.max_line_bytes
                    ),
                ));
            }
            if let Some(c) = line.chars().find(|c| forbidden(*c)) {
                return Err((
                    n,
                    format!(
                        "the line holds {}, which spec files may not contain",
                        describe(c)
                    ),
                ));
            }
            self.line(line).map_err(|m| (n, m))?;
        }
        Ok(())
    }

    fn line(&mut self, line: &str) -> Result<(), String> {
        let trimmed = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - trimmed.len();
        let blank = trimmed.is_empty() || trimmed.starts_with('#');
        if let Some(parent) = self.block_scalar {
            if trimmed.is_empty() || indent > parent {
                return Ok(()); // literal text
            }
            self.block_scalar = None;
        }
        if self.quote.is_none() && self.flow == 0 {
            if let Some(parent) = self.plain {
                if blank || indent > parent {
                    return Ok(()); // a plain scalar goes on
                }
                self.plain = None;
            }
            if blank {
                return Ok(());
            }
            // Block context: the line's indentation (and any `- ` entries) open nodes.
            while self.indents.last().is_some_and(|&top| top >= indent) {
                self.indents.pop();
            }
            self.indents.push(indent);
            let mut col = indent;
            let mut rest = trimmed;
            self.dash_col = None;
            while let Some(after) = rest
                .strip_prefix('-')
                .filter(|a| a.is_empty() || a.starts_with([' ', '\t']))
            {
                let content = after.trim_start_matches([' ', '\t']);
                if content.is_empty() || content.starts_with('#') {
                    break;
                }
                self.dash_col = Some(col);
                col += rest.len() - content.len();
                self.indents.push(col);
                rest = content;
            }
            self.key_col = col;
            self.at_node = true;
            self.check_depth()?;
        }
        self.tokens(line)
    }

    fn check_depth(&self) -> Result<(), String> {
        let depth = self.indents.len() + self.flow;
        if depth > self.limits.max_depth {
            return Err(format!(
                "the spec nests deeper than {} levels here (set {ENV_DEPTH} to raise the limit)",
                self.limits.max_depth
            ));
        }
        Ok(())
    }

    /// The characters of one line: quotes, escapes, flow collections, anchors and aliases,
    /// comments, and whether a block or plain scalar goes on below it.
    fn tokens(&mut self, line: &str) -> Result<(), String> {
        let mut chars = line.chars().peekable();
        let mut prev_space = true;
        let mut line_state = Line::default();
        while let Some(c) = chars.next() {
            if let Some(q) = self.quote {
                self.quoted(q, c, &mut chars)?;
                prev_space = false;
                continue;
            }
            let space = c == ' ' || c == '\t';
            if c == '#' && prev_space {
                break; // a comment
            }
            if space {
                prev_space = true;
                continue;
            }
            if self.at_node {
                line_state.block_indicator = false;
                self.node_start(c, &mut chars, &mut line_state)?;
            } else {
                self.within_node(c, &mut chars, &mut line_state);
            }
            prev_space = false;
        }
        if self.flow == 0 && self.quote.is_none() {
            // The node whose value this is: the line's key, else its `- ` entry.
            let parent = if line_state.keyed {
                self.key_col
            } else {
                self.dash_col.unwrap_or(self.key_col)
            };
            if line_state.block_indicator {
                self.block_scalar = Some(parent);
            } else if line_state.plain_value && !self.at_node {
                self.plain = Some(parent);
            }
        }
        Ok(())
    }

    /// A character inside a quoted scalar opened with `q`.
    fn quoted(&mut self, q: char, c: char, chars: &mut Peekable<Chars<'_>>) -> Result<(), String> {
        match (q, c) {
            ('"', '\\') => {
                // Nothing after the backslash: an escaped line break.
                if let Some(e) = chars.next() {
                    escaped(e, chars)?;
                }
            }
            ('"', '"') => self.close_quote(),
            ('\'', '\'') if chars.peek() == Some(&'\'') => {
                chars.next();
            }
            ('\'', '\'') => self.close_quote(),
            _ => {}
        }
        Ok(())
    }

    /// A character where a node may start: a flow collection, a quote, an indicator, or a
    /// plain scalar.
    fn node_start(
        &mut self,
        c: char,
        chars: &mut Peekable<Chars<'_>>,
        line: &mut Line,
    ) -> Result<(), String> {
        match c {
            '[' | '{' => {
                self.flow += 1;
                self.check_depth()?;
            }
            '"' | '\'' => {
                self.quote = Some(c);
                self.at_node = false;
            }
            '&' | '*' => {
                return Err(
                    "YAML anchors and aliases (`&name`, `*name`) are not supported in spec files; write the value out"
                        .to_owned(),
                );
            }
            '!' => {
                // A tag: the node follows it.
                while chars.next_if(|c| *c != ' ' && *c != '\t').is_some() {}
            }
            '-' | '?' | ':' if chars.peek().is_none_or(|n| *n == ' ' || *n == '\t') => {}
            '|' | '>' if self.flow == 0 => {
                while chars
                    .next_if(|c| matches!(c, '-' | '+' | '0'..='9'))
                    .is_some()
                {}
                line.block_indicator = true;
                self.at_node = false;
            }
            ']' | '}' | ',' if self.flow > 0 => {
                self.flow_punct(c);
                line.plain_value = false;
            }
            _ => {
                self.at_node = false;
                line.plain_value = true;
            }
        }
        Ok(())
    }

    /// A character inside a node: a key's colon, or flow punctuation.
    fn within_node(&mut self, c: char, chars: &mut Peekable<Chars<'_>>, line: &mut Line) {
        match c {
            ':' if chars
                .peek()
                .is_none_or(|n| matches!(n, ' ' | '\t' | ',' | ']' | '}')) =>
            {
                self.at_node = true;
                line.plain_value = false;
                line.keyed = true;
            }
            ']' | '}' | ',' if self.flow > 0 => {
                self.flow_punct(c);
                line.plain_value = false;
            }
            _ => {}
        }
    }

    fn close_quote(&mut self) {
        self.quote = None;
        self.at_node = false;
    }

    fn flow_punct(&mut self, c: char) {
        if c == ',' {
            self.at_node = true;
        } else {
            self.flow -= 1;
            self.at_node = false;
        }
    }
}

/// Checks the character a double-quoted escape stands for (`\x1b`, `\u202E`, `\r`, ...).
fn escaped(e: char, rest: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<(), String> {
    let hex = |n: usize, rest: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        let digits: String = (0..n)
            .map_while(|_| rest.next_if(char::is_ascii_hexdigit))
            .collect();
        u32::from_str_radix(&digits, 16)
            .ok()
            .and_then(char::from_u32)
    };
    let c = match e {
        'x' => hex(2, rest),
        'u' => hex(4, rest),
        'U' => hex(8, rest),
        '0' => Some('\0'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'e' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        'r' => Some('\r'),
        'N' => Some('\u{85}'),
        'L' => Some('\u{2028}'),
        'P' => Some('\u{2029}'),
        _ => None,
    };
    match c {
        Some(c) if forbidden(c) => Err(format!(
            "a double-quoted escape here stands for {}, which spec files may not contain",
            describe(c)
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_str(text: &str, limits: &Limits) -> Result<(), (usize, String)> {
        scan(Path::new("x.yaml"), text, limits).map_err(|d| (d.line, d.message))
    }

    fn line_of(text: &str) -> Option<usize> {
        scan_str(text, &Limits::default()).err().map(|(l, _)| l)
    }

    #[test]
    fn ordinary_yaml_passes() {
        let text = "a: 1\nb:\n  - name: x # comment &x *y\n    values: [a, b, {c: d}]\n    path: >-\n      /a/{b}\n      [{{\n    d: \"it's & *x \\\" [\"\n    e: 'it''s [ *'\n    f: plain {with [ brackets\n      and more { *here\n    g: |\n      & * [ {\n";
        assert_eq!(scan_str(text, &Limits::default()), Ok(()));
    }

    #[test]
    fn anchors_and_aliases_are_refused_at_their_line() {
        assert_eq!(line_of("a: 1\nb: &x [1]\nc: *x\n"), Some(2));
        assert_eq!(line_of("a: [1, *x]\n"), Some(1));
        assert_eq!(line_of("a:\n  - 1\n  - *x\n"), Some(3));
        assert_eq!(line_of("a: {b: &x 1}\n"), Some(1));
    }

    #[test]
    fn deep_nesting_is_refused_at_the_line_that_crosses_the_limit() {
        let limits = Limits {
            max_depth: 5,
            ..Limits::default()
        };
        assert_eq!(scan_str("a: [[[[]]]]\n", &limits), Ok(()));
        let err = scan_str("a: 1\nb: [[[[[[1]]]]]]\n", &limits).unwrap_err();
        assert_eq!(err.0, 2);
        assert!(err.1.contains("deeper than 5"), "{}", err.1);
        let mut text = String::new();
        for i in 0..10 {
            text.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
        }
        assert_eq!(scan_str(&text, &limits).unwrap_err().0, 6);
        assert_eq!(scan_str("a: [\n[\n[\n[\n[\n[\n", &limits).unwrap_err().0, 5);
    }

    #[test]
    fn control_and_bidi_characters_are_refused_raw_or_escaped() {
        assert_eq!(line_of("a: 1\nb: x\u{202E}y\n"), Some(2));
        assert_eq!(line_of("a: \"x\\u202Ey\"\n"), Some(1));
        assert_eq!(line_of("a: 1\nb: \"x\\ry\"\n"), Some(2));
        assert_eq!(line_of("a: \"x\\e[31m\"\n"), Some(1));
        assert_eq!(line_of("a: x\ry\n"), Some(1));
        assert_eq!(line_of("a: 'x\\ry'\n"), None, "no escapes in single quotes");
        assert_eq!(line_of("a: x\r\nb: y\r\n"), None, "CRLF line ends are fine");
        assert_eq!(line_of("a: \"x\\ty\\n\"\n"), None);
        let (_, msg) = scan_str("a: x\u{1b}y\n", &Limits::default()).unwrap_err();
        assert!(msg.contains("U+001B") && !msg.contains('\u{1b}'), "{msg}");
    }

    #[test]
    fn long_lines_are_refused() {
        let limits = Limits {
            max_line_bytes: 10,
            ..Limits::default()
        };
        assert_eq!(
            scan_str("a: 12345\nb: 1234567890\n", &limits)
                .unwrap_err()
                .0,
            2
        );
    }

    #[test]
    fn the_real_spec_fits_the_default_limits_with_room() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let tight = Limits {
            max_depth: 16,
            max_line_bytes: 1024,
            ..Limits::default()
        };
        let mut stack = vec![dir];
        let mut files = 0;
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "yaml") {
                    files += 1;
                    if let Err(d) = read(&p, &tight) {
                        panic!("{d}");
                    }
                }
            }
        }
        assert!(files > 10);
    }
}
