//! Bounds on what a description may be, checked on its text before the YAML parser reads it:
//! the parser spends time that grows faster than the nesting (a 200,000-level file kept it busy
//! for minutes before it gave up), so a file too large or nested too deep is refused at once.
//!
//! The nesting is estimated in one pass over the text: block levels by indentation (each `- `
//! opens one more), flow levels by `[` and `{` where a value begins, quoted scalars and block
//! scalars skipped. The official files nest 14 levels at most; the estimate may run a little
//! over the exact depth, never far under it, and the model's reader checks the exact depth of
//! schemas again.

/// The limits a description is read within.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest file, in bytes (the largest official file is 1.4 MB).
    pub max_bytes: usize,
    /// The deepest nesting of the YAML text and of schemas in one another.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 * 1024 * 1024,
            max_depth: 64,
        }
    }
}

impl Limits {
    /// An error saying which limit the text exceeds.
    pub fn check(&self, text: &str) -> Result<(), String> {
        if text.len() > self.max_bytes {
            return Err(format!(
                "{} bytes, more than the {}-byte limit for a description; not read",
                text.len(),
                self.max_bytes
            ));
        }
        if let Some(line) = too_deep(text, self.max_depth) {
            return Err(format!(
                "nested deeper than {} levels (line {line}); not read",
                self.max_depth
            ));
        }
        Ok(())
    }
}

/// The line (1-based) where the text's nesting first exceeds `max`, if it does. One pass: the
/// work is linear in the text's length.
pub fn too_deep(text: &str, max: usize) -> Option<usize> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        max,
    };
    s.run().err()
}

/// `Err(line)`: the nesting exceeds the limit on that line.
type Scan = Result<(), usize>;

struct Scanner<'t> {
    b: &'t [u8],
    i: usize,
    line: usize,
    max: usize,
}

impl Scanner<'_> {
    /// The byte at `at`; a line end past the text.
    fn at(&self, at: usize) -> u8 {
        self.b.get(at).copied().unwrap_or(b'\n')
    }

    fn spaces(&self, mut j: usize) -> usize {
        while j < self.b.len() && self.b[j] == b' ' {
            j += 1;
        }
        j
    }

    /// Block structure, one line at a time.
    fn run(&mut self) -> Scan {
        let mut indents: Vec<usize> = Vec::new();
        while self.i < self.b.len() {
            let mut j = self.spaces(self.i);
            let indent = j - self.i;
            if matches!(self.at(j), b'\n' | b'\r' | b'#') {
                self.next_line();
                continue;
            }
            while indents.last().is_some_and(|&top| top > indent) {
                indents.pop();
            }
            if indents.last().is_none_or(|&top| top < indent) {
                indents.push(indent);
            }
            let mut depth = indents.len();
            while self.at(j) == b'-' && matches!(self.at(j + 1), b' ' | b'\n' | b'\r') {
                depth += 1;
                j = self.spaces(j + 1);
            }
            if depth > self.max {
                return Err(self.line);
            }
            self.i = j;
            self.entry(depth, indent)?;
        }
        Ok(())
    }

    /// The rest of a line from where an entry begins: a flow collection, a quoted scalar, a
    /// block scalar, or `key: value`. Leaves `i` at the start of a later line.
    fn entry(&mut self, depth: usize, indent: usize) -> Scan {
        let mut j = self.i;
        loop {
            match self.at(j) {
                b'[' | b'{' => {
                    self.i = j;
                    return self.flow(depth);
                }
                b'"' | b'\'' => {
                    self.i = j;
                    self.quoted();
                    j = self.spaces(self.i);
                    if self.at(j) != b':' {
                        // A quoted value: the entry ends here.
                        self.i = j;
                        self.next_line();
                        return Ok(());
                    }
                }
                _ => {
                    // A plain key up to `: ` (or `:` at the line's end), or a plain value.
                    while !self.line_end(j) && !self.key_end(j) {
                        j += 1;
                    }
                    if !self.key_end(j) {
                        self.i = j;
                        self.next_line();
                        return Ok(());
                    }
                }
            }
            j = self.spaces(j + 1);
            match self.at(j) {
                b'[' | b'{' | b'"' | b'\'' => {}
                b'|' | b'>' => {
                    self.i = j;
                    self.next_line();
                    self.block_scalar(indent);
                    return Ok(());
                }
                _ => {
                    self.i = j;
                    self.next_line();
                    return Ok(());
                }
            }
        }
    }

    fn line_end(&self, j: usize) -> bool {
        matches!(self.at(j), b'\n' | b'\r')
            || (self.at(j) == b'#' && j > 0 && self.b[j - 1] == b' ')
    }

    fn key_end(&self, j: usize) -> bool {
        self.at(j) == b':' && matches!(self.at(j + 1), b' ' | b'\n' | b'\r')
    }

    /// A flow collection from `i` (at `[` or `{`) to its end, across lines.
    fn flow(&mut self, base: usize) -> Scan {
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'[' | b'{' => {
                    depth += 1;
                    if base + depth > self.max {
                        return Err(self.line);
                    }
                }
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.next_line();
                        return Ok(());
                    }
                }
                b'"' | b'\'' => {
                    self.quoted();
                    continue;
                }
                b'#' if self.i > 0 && matches!(self.b[self.i - 1], b' ' | b'\t' | b'\n') => {
                    self.skip_to_line_end();
                    continue;
                }
                b'\n' => self.line += 1,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    /// A quoted scalar from `i` (at its quote) to just after its end, across lines.
    fn quoted(&mut self) {
        let quote = self.b[self.i];
        self.i += 1;
        while self.i < self.b.len() {
            let c = self.b[self.i];
            let escaped = (c == b'\\' && quote == b'"')
                || (c == b'\'' && quote == b'\'' && self.at(self.i + 1) == b'\'');
            if escaped {
                // The next byte is part of the scalar (`\"`, `''`).
                self.i += 1;
            } else if c == b'\n' {
                self.line += 1;
            } else if c == quote {
                self.i += 1;
                return;
            }
            self.i += 1;
        }
    }

    /// The lines of a block scalar: blank, or indented more than its key.
    fn block_scalar(&mut self, indent: usize) {
        while self.i < self.b.len() {
            let j = self.spaces(self.i);
            let blank = matches!(self.at(j), b'\n' | b'\r');
            if !blank && j - self.i <= indent {
                return;
            }
            self.next_line();
        }
    }

    fn skip_to_line_end(&mut self) {
        while self.i < self.b.len() && self.b[self.i] != b'\n' {
            self.i += 1;
        }
    }

    fn next_line(&mut self) {
        self.skip_to_line_end();
        if self.i < self.b.len() {
            self.i += 1;
            self.line += 1;
        }
    }
}
