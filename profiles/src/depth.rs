//! How deeply a YAML text nests, found without parsing it: the parser is slow on deep nesting
//! (100,000 levels of `[` took a minute), so a file nested deeper than the store ever writes is
//! refused before it is parsed. Block nesting is counted by indentation (and `- ` entries on
//! one line), flow nesting by `[` and `{` where YAML reads them as such: inside flow
//! collections, or at the start of a value; quoted scalars are skipped.

/// The deepest nesting of `text`.
pub(crate) fn deepest(text: &str) -> usize {
    let mut scan = Scan::default();
    for line in text.lines() {
        scan.line(line);
    }
    scan.deepest
}

#[derive(Default)]
struct Scan {
    deepest: usize,
    /// Open flow collections.
    flow: usize,
    /// Indentations of the open block collections.
    indents: Vec<usize>,
    /// Inside a quoted scalar: its quote.
    quote: Option<char>,
}

impl Scan {
    fn line(&mut self, line: &str) {
        let body = line.trim_start_matches(' ');
        let mut depth_here = 0;
        if self.flow == 0 && self.quote.is_none() {
            if body.is_empty() || body.starts_with('#') {
                return;
            }
            let indent = line.len() - body.len();
            while self.indents.last().is_some_and(|&top| top > indent) {
                self.indents.pop();
            }
            if self.indents.last().is_none_or(|&top| top < indent) {
                self.indents.push(indent);
            }
            depth_here = self.indents.len();
        }
        self.chars(body, depth_here);
    }

    fn chars(&mut self, body: &str, mut block: usize) {
        // At the start of a value: where a quote or a flow collection may begin.
        let mut at_value = self.quote.is_none();
        let mut prev = ' ';
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            match self.quote {
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some(q) if c == q => self.quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev == ' ' => break,
                    '\'' | '"' if at_value => self.quote = Some(c),
                    '[' | '{' if at_value || self.flow > 0 => {
                        self.flow += 1;
                        at_value = true;
                    }
                    ']' | '}' if self.flow > 0 => self.flow -= 1,
                    ',' if self.flow > 0 => at_value = true,
                    '-' | '?' | ':' if at_value || self.flow == 0 => {
                        // `- `, `? ` and `: ` start a value (a `-` entry nests one more).
                        if matches!(chars.clone().next(), None | Some(' ')) {
                            if c == '-' && self.flow == 0 {
                                block += 1;
                            }
                            at_value = true;
                        } else {
                            at_value = false;
                        }
                    }
                    ' ' => {}
                    _ => at_value = false,
                },
            }
            prev = c;
            self.deepest = self.deepest.max(block + self.flow);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::deepest;

    #[test]
    fn counts_block_and_flow_nesting() {
        assert_eq!(deepest("profiles:\n  lab:\n    client_id: a\n"), 3);
        assert_eq!(deepest("a: [[[1]]]\n"), 4);
        assert_eq!(deepest(&format!("a: {}", "[".repeat(1000))), 1001);
        assert_eq!(deepest("- - - a\n"), 4);
    }

    #[test]
    fn brackets_inside_scalars_do_not_count() {
        assert_eq!(deepest("secret: a[b{c[d\n"), 1);
        assert_eq!(deepest("secret: '[[[[' \nb: \"{{\\\"{{\"\n"), 1);
        assert_eq!(deepest("note: it's [fine\n"), 1);
        // A quote inside a plain scalar opens nothing: the brackets after it still count.
        assert_eq!(deepest(&format!("a: x 'y\nb: {}", "[".repeat(50))), 51);
    }
}
