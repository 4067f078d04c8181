//! Limits on spec input, checked as the file is read and as the YAML parser reads it.
//!
//! serde_yaml takes time quadratic in the nesting depth of flow collections and expands aliases
//! before its repetition limit stops them, so a hostile or broken file could keep the generator
//! busy for minutes or use gigabytes. Every spec file is therefore read in bounded steps:
//!
//! 1. at most [`Limits::max_file_bytes`] bytes are read; a larger file is refused at the line
//!    where the limit is crossed (and the loader refuses a spec whose files together exceed
//!    [`Limits::max_spec_bytes`]);
//! 2. the bytes must be UTF-8; the first bad byte is reported at its line;
//! 3. each line: no longer than [`Limits::max_line_bytes`], and without control characters,
//!    bidirectional controls or line separators written raw;
//! 4. the YAML parser's own events ([`events`]): nesting deeper than [`Limits::max_depth`], YAML
//!    anchors and aliases (the spec format has no use for them, and they are how alias bombs are
//!    built), and double-quoted escapes that decode to a forbidden character are refused at
//!    their line, by the parser serde_yaml uses, so no spelling of them can slip past.
//!
//! Only then does serde_yaml parse the text. The limits are documented in `spec/README.md` and
//! can be raised with environment variables ([`ENV_FILE_BYTES`], [`ENV_SPEC_BYTES`],
//! [`ENV_LINE_BYTES`], [`ENV_DEPTH`]).

mod events;

use crate::chars::{describe, forbidden};
use crate::diag::Diagnostic;
use std::io::Read;
use std::path::Path;

/// Environment variable overriding [`Limits::max_file_bytes`].
pub const ENV_FILE_BYTES: &str = "RUCKUS_SPEC_MAX_FILE_BYTES";
/// Environment variable overriding [`Limits::max_spec_bytes`].
pub const ENV_SPEC_BYTES: &str = "RUCKUS_SPEC_MAX_BYTES";
/// Environment variable overriding [`Limits::max_line_bytes`].
pub const ENV_LINE_BYTES: &str = "RUCKUS_SPEC_MAX_LINE_BYTES";
/// Environment variable overriding [`Limits::max_depth`].
pub const ENV_DEPTH: &str = "RUCKUS_SPEC_MAX_DEPTH";

/// Bounds on one spec file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file, in bytes (default 4 MiB; the largest area file is about 160 KB).
    pub max_file_bytes: u64,
    /// Largest accepted spec, all its files together, in bytes (default 32 MiB; the spec is
    /// about 2 MB).
    pub max_spec_bytes: u64,
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
            max_spec_bytes: 32 * 1024 * 1024,
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
            max_spec_bytes: env_number(ENV_SPEC_BYTES)?.map_or(d.max_spec_bytes, |n| n as u64),
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

/// Checks a spec file's text (see the module docs): the first line that breaks a limit or
/// holds an anchor, an alias or a forbidden character is reported.
pub fn scan(path: &Path, text: &str, limits: &Limits) -> Result<(), Diagnostic> {
    lines(text, limits)
        .and_then(|()| events::check(text, limits))
        .map_err(|(line, message)| Diagnostic::new(path, line, message))
}

/// The checks of each line as written: its length and the characters it holds.
fn lines(text: &str, limits: &Limits) -> Result<(), events::Refusal> {
    for (i, raw) in text.split('\n').enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.len() > limits.max_line_bytes {
            return Err((
                n,
                format!(
                    "the line is {} bytes long, over the limit of {} (set {ENV_LINE_BYTES} to raise it)",
                    line.len(),
                    limits.max_line_bytes
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
    }
    Ok(())
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
    fn control_and_bidi_characters_are_refused_raw_or_escaped() {
        assert_eq!(line_of("a: 1\nb: x\u{202E}y\n"), Some(2));
        assert_eq!(line_of("a: \"x\\u202Ey\"\n"), Some(1));
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
