//! The strings that broke the generator once, and the random source that picks mutations.

use super::mutation::Mutation;
use super::spec::Text;

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
        match self.below(24) {
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
            19..=20 => Mutation::Json {
                file,
                line,
                depth: [0, 0, 3, 33, 5_000][self.below(5)],
            },
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
