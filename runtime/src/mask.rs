//! Masking secrets that a server echoes in an answer, in whatever encoding
//! it echoes them.
//!
//! A secret (the client secret, an access token, the unit token) can come
//! back inside an error body as is, JSON-escaped (`\/`, `\"`, `\\`,
//! `\uXXXX`), percent-encoded in upper or lower case (also twice, `%252F`),
//! form-encoded (`+` for a space) or as HTML character references
//! (`&#47;`, `&#x2F;`, `&amp;`). Each character of the secret may appear in
//! any of these forms, independently of the others, so mixed encodings are
//! found too. Every occurrence is replaced by `***` on the whole body,
//! before anything is shortened for a message.

use std::sync::Arc;

use bytes::Bytes;

/// Secrets shorter than this are not searched for (they would match
/// ordinary text).
pub(crate) const MIN_MASKED_LEN: usize = 6;

/// What replaces a secret.
const MASK: &[u8] = b"***";

/// A partial secret at the end of a truncated body is masked when it has at
/// least this many characters.
const MIN_PARTIAL_CHARS: usize = 3;

/// The secrets to mask in texts received from the service. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Masker {
    secrets: Arc<Vec<Vec<char>>>,
}

impl std::fmt::Debug for Masker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Masker({} secrets)", self.secrets.len())
    }
}

impl Masker {
    /// A masker for `secrets`; empty and short ones are ignored.
    pub(crate) fn new<'s>(secrets: impl IntoIterator<Item = &'s str>) -> Masker {
        let mut list: Vec<Vec<char>> = secrets
            .into_iter()
            .filter(|s| s.chars().count() >= MIN_MASKED_LEN)
            .map(|s| s.chars().collect())
            .collect();
        // Longer secrets first, so that a secret containing another is
        // masked whole.
        list.sort_by_key(|s| std::cmp::Reverse(s.len()));
        list.dedup();
        Masker {
            secrets: Arc::new(list),
        }
    }

    /// `body` with every occurrence of every secret replaced by `***`;
    /// `body` itself when none occurs. With `truncated` (the body is the
    /// start of a longer one), a beginning of a secret at the very end is
    /// masked too.
    pub(crate) fn mask_bytes(&self, body: Bytes, truncated: bool) -> Bytes {
        let mut current: Option<Vec<u8>> = None;
        for secret in self.secrets.iter() {
            let hay = current.as_deref().unwrap_or(&body);
            if let Some(masked) = mask_one(hay, secret, truncated) {
                current = Some(masked);
            }
        }
        current.map_or(body, Bytes::from)
    }

    /// `text` with every occurrence of every secret replaced by `***`.
    pub(crate) fn mask_str(&self, text: &str) -> String {
        let masked = self.mask_bytes(Bytes::copy_from_slice(text.as_bytes()), false);
        String::from_utf8_lossy(&masked).into_owned()
    }
}

/// How far an encoded character matched.
enum CharMatch {
    /// The character is encoded in this many bytes.
    Full(usize),
    /// The haystack ends inside a possible encoding of the character.
    Cut,
    No,
}

/// The ways a character is found at some position: the lengths of its
/// encodings there (several when one is a prefix of another, as `&` of
/// `&amp;`), and whether the haystack ends inside a possible encoding.
#[derive(Default)]
struct Options {
    lengths: [usize; 8],
    count: usize,
    cut: bool,
}

impl Options {
    fn add(&mut self, found: CharMatch) {
        match found {
            CharMatch::Full(n) => {
                if self.count < self.lengths.len() && !self.lengths[..self.count].contains(&n) {
                    self.lengths[self.count] = n;
                    self.count += 1;
                }
            }
            CharMatch::Cut => self.cut = true,
            CharMatch::No => {}
        }
    }

    fn lengths(&self) -> &[usize] {
        &self.lengths[..self.count]
    }
}

/// Limit on the positions tried for one match, against pathological
/// ambiguity.
const MAX_STEPS: usize = 100_000;

/// `hay` with the occurrences of `secret` masked; `None` when there is none.
fn mask_one(hay: &[u8], secret: &[char], truncated: bool) -> Option<Vec<u8>> {
    let first = secret.first()?;
    let mut first_utf8 = [0u8; 4];
    let first_byte = first.encode_utf8(&mut first_utf8).as_bytes()[0];
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < hay.len() {
        let b = hay[i];
        let may_start = b == first_byte || matches!(b, b'%' | b'+' | b'\\' | b'&');
        if may_start {
            let mut steps = 0;
            if let Some(end) = search(hay, i, secret, 0, truncated, &mut steps) {
                let out = out.get_or_insert_with(|| Vec::with_capacity(hay.len()));
                out.extend_from_slice(&hay[copied..i]);
                out.extend_from_slice(MASK);
                copied = end;
                i = end.max(i + 1);
                continue;
            }
        }
        i += 1;
    }
    let mut out = out?;
    out.extend_from_slice(&hay[copied..]);
    Some(out)
}

/// The end of an occurrence of `secret` (whose first `matched` characters
/// are already matched) starting at `at`. With `partial`, the end of `hay`
/// reached after at least [`MIN_PARTIAL_CHARS`] characters counts as an
/// occurrence too.
fn search(
    hay: &[u8],
    mut at: usize,
    secret: &[char],
    mut matched: usize,
    partial: bool,
    steps: &mut usize,
) -> Option<usize> {
    let partial_end =
        |matched: usize| (partial && matched >= MIN_PARTIAL_CHARS).then_some(hay.len());
    for (index, &c) in secret.iter().enumerate() {
        *steps += 1;
        if *steps > MAX_STEPS {
            return None;
        }
        if at == hay.len() {
            return partial_end(matched);
        }
        let options = char_options(hay, at, c);
        match options.lengths() {
            [] => {
                return if options.cut {
                    partial_end(matched)
                } else {
                    None
                };
            }
            [n] if !(options.cut && partial) => {
                at += n;
                matched += 1;
            }
            lengths => {
                for n in lengths {
                    let rest = &secret[index + 1..];
                    if let Some(end) = search(hay, at + n, rest, matched + 1, partial, steps) {
                        return Some(end);
                    }
                }
                return if options.cut {
                    partial_end(matched)
                } else {
                    None
                };
            }
        }
    }
    Some(at)
}

/// The encodings of `c` found at `hay[at..]`.
fn char_options(hay: &[u8], at: usize, c: char) -> Options {
    let rest = &hay[at..];
    let mut options = Options::default();
    let mut utf8 = [0u8; 4];
    let bytes = c.encode_utf8(&mut utf8).as_bytes();
    if let [b] = bytes {
        // Itself, `%XX` or `%25XX`.
        if rest[0] == *b {
            options.add(CharMatch::Full(1));
        }
        let [h, l] = hex_byte(*b);
        options.add(match_prefix(rest, &[b'%', h, l]));
        options.add(match_prefix(rest, &[b'%', b'2', b'5', h, l]));
    } else {
        // Each byte itself or percent-encoded (bytes of a multi-byte
        // character are never `%`, so this is unambiguous).
        options.add(match_percent(rest, bytes));
    }
    if c == ' ' {
        options.add(match_prefix(rest, b"+"));
    }
    if let Some(escape) = json_short_escape(c) {
        options.add(match_prefix(rest, escape));
    }
    if let Some(entity) = html_named_entity(c) {
        options.add(match_prefix(rest, entity));
    }
    options.add(match_json_unicode(rest, c));
    options.add(match_html_numeric(rest, c));
    options
}

/// Whether `rest` starts with `encoded` (ASCII, compared in any case).
fn match_prefix(rest: &[u8], encoded: &[u8]) -> CharMatch {
    if rest.len() >= encoded.len() {
        if rest[..encoded.len()].eq_ignore_ascii_case(encoded) {
            CharMatch::Full(encoded.len())
        } else {
            CharMatch::No
        }
    } else if encoded[..rest.len()].eq_ignore_ascii_case(rest) {
        CharMatch::Cut
    } else {
        CharMatch::No
    }
}

/// Each byte of `bytes` as itself, `%XX` or `%25XX` (hex digits in any
/// case).
fn match_percent(rest: &[u8], bytes: &[u8]) -> CharMatch {
    let mut at = 0;
    'bytes: for &b in bytes {
        let here = &rest[at..];
        if here.is_empty() {
            return CharMatch::Cut;
        }
        if here[0] == b {
            at += 1;
            continue;
        }
        let mut cut = false;
        let [h, l] = hex_byte(b);
        for encoded in [&[b'%', h, l][..], &[b'%', b'2', b'5', h, l]] {
            match match_prefix(here, encoded) {
                CharMatch::Full(n) => {
                    at += n;
                    continue 'bytes;
                }
                CharMatch::Cut => cut = true,
                CharMatch::No => {}
            }
        }
        return if cut { CharMatch::Cut } else { CharMatch::No };
    }
    CharMatch::Full(at)
}

/// The two upper-case hex digits of `b`.
fn hex_byte(b: u8) -> [u8; 2] {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]
}

/// JSON's two-character escapes.
fn json_short_escape(c: char) -> Option<&'static [u8]> {
    Some(match c {
        '/' => b"\\/",
        '\\' => b"\\\\",
        '"' => b"\\\"",
        '\u{8}' => b"\\b",
        '\u{c}' => b"\\f",
        '\n' => b"\\n",
        '\r' => b"\\r",
        '\t' => b"\\t",
        _ => return None,
    })
}

/// HTML's named references for the characters HTML escaping changes.
fn html_named_entity(c: char) -> Option<&'static [u8]> {
    Some(match c {
        '&' => b"&amp;",
        '<' => b"&lt;",
        '>' => b"&gt;",
        '"' => b"&quot;",
        '\'' => b"&apos;",
        _ => return None,
    })
}

/// `\uXXXX` (any case), or a surrogate pair for characters beyond the BMP.
fn match_json_unicode(rest: &[u8], c: char) -> CharMatch {
    let mut units = [0u16; 2];
    let units = c.encode_utf16(&mut units);
    let mut at = 0;
    for &unit in units.iter() {
        let [h1, h2] = hex_byte((unit >> 8) as u8);
        let [h3, h4] = hex_byte(unit as u8);
        match match_prefix(&rest[at..], &[b'\\', b'u', h1, h2, h3, h4]) {
            CharMatch::Full(n) => at += n,
            other => return other,
        }
    }
    CharMatch::Full(at)
}

/// `&#NN;` or `&#xHH;` (any case, leading zeros allowed).
fn match_html_numeric(rest: &[u8], c: char) -> CharMatch {
    if !rest.starts_with(b"&#") {
        return if rest == b"&" {
            CharMatch::Cut
        } else {
            CharMatch::No
        };
    }
    let (radix, digits_at) = match rest.get(2) {
        Some(b'x' | b'X') => (16, 3),
        Some(_) => (10, 2),
        None => return CharMatch::Cut,
    };
    let mut value: u32 = 0;
    let mut at = digits_at;
    while let Some(&b) = rest.get(at) {
        if b == b';' {
            return if at > digits_at && value == c as u32 {
                CharMatch::Full(at + 1)
            } else {
                CharMatch::No
            };
        }
        let Some(d) = (b as char).to_digit(radix) else {
            return CharMatch::No;
        };
        value = value.saturating_mul(radix).saturating_add(d);
        if value > 0x10_FFFF || at - digits_at > 10 {
            return CharMatch::No;
        }
        at += 1;
    }
    CharMatch::Cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(text: &str, secret: &str) -> String {
        Masker::new([secret]).mask_str(text)
    }

    #[test]
    fn every_echo_shape_is_masked() {
        let secret = "a/b+c d&e\"f~é";
        let shapes = [
            "a/b+c d&e\"f~é".to_owned(),
            // JSON, with and without the optional `\/`.
            serde_json::to_string(secret)
                .unwrap()
                .trim_matches('"')
                .to_owned(),
            r#"a\/b+c d&e\"f~\u00e9"#.to_owned(),
            r#"\u0061\u002F\u0062+c d&e\"f~\u00E9"#.to_owned(),
            // Percent-encoded, upper and lower case, form-encoded, twice.
            "a%2Fb%2Bc%20d%26e%22f~%C3%A9".to_owned(),
            "a%2fb%2bc%20d%26e%22f%7e%c3%a9".to_owned(),
            serde_urlencoded::to_string([("", secret)])
                .unwrap()
                .trim_start_matches('=')
                .to_owned(),
            "a%252Fb%252Bc%2520d%2526e%2522f~%25C3%25A9".to_owned(),
            // HTML.
            "a&#47;b+c d&amp;e&quot;f~&#xE9;".to_owned(),
            "a&#x2f;b&#43;c d&#38;e&#34;f~é".to_owned(),
        ];
        for shape in shapes {
            let text = format!("before {shape} after");
            assert_eq!(mask(&text, secret), "before *** after", "{shape}");
        }
    }

    #[test]
    fn every_occurrence_and_nothing_else() {
        assert_eq!(
            mask("x SECRET1 y SECRET1SECRET1", "SECRET1"),
            "x *** y ******"
        );
        assert_eq!(mask("SECRET nothing", "SECRET1"), "SECRET nothing");
        assert_eq!(mask("short", "abc"), "short");
        assert_eq!(mask("%%%\\\\&&&++", "SECRET1"), "%%%\\\\&&&++");
        assert_eq!(mask("%2", "%2FSECRET"), "%2");
        let masker = Masker::new(["token-123", "token-123-longer"]);
        assert_eq!(masker.mask_str("a token-123-longer b"), "a *** b");
    }

    #[test]
    fn partial_secret_at_the_end_of_a_truncated_body() {
        let masker = Masker::new(["s3cr3t/value"]);
        for cut in ["s3c", "s3cr3t%2", "s3cr3t\\", "s3cr3t\\/va", "s3cr3t&#4"] {
            let body = Bytes::from(format!("text {cut}"));
            let masked = masker.mask_bytes(body.clone(), true);
            assert_eq!(&masked[..], b"text ***", "{cut}");
            // Not truncated: the body really ends there.
            assert_eq!(masker.mask_bytes(body.clone(), false), body, "{cut}");
        }
        let body = Bytes::from_static(b"text s3");
        assert_eq!(masker.mask_bytes(body.clone(), true), body);
    }

    #[test]
    fn not_utf8_and_large_bodies() {
        let masker = Masker::new(["SECRET-1"]);
        let mut body = vec![0xffu8; 100_000];
        body.extend_from_slice(b"SECRET-1");
        body.extend(std::iter::repeat_n(b'%', 100_000));
        let masked = masker.mask_bytes(Bytes::from(body), false);
        assert_eq!(masked.len(), 200_003);
        assert_eq!(&masked[100_000..100_003], b"***");
    }
}
