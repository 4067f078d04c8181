//! Finding a secret whose characters may each be encoded differently.
//!
//! Each character of a needle may appear as itself (an ASCII letter in
//! either case), JSON-escaped (`\/`, `\"`, `\\`, `\uXXXX` in any case,
//! with the backslash itself escaped again when the JSON is nested in a JSON
//! string), percent-encoded (`%XX`, `%25XX`, any case), form-encoded (`+`
//! for a space) or as an HTML character reference (`&#NN;`, `&#xHH;`,
//! `&amp;`...), independently of its neighbours.

/// What replaces an echo.
const MASK: &[u8] = b"***";

/// A partial echo at the end of a truncated text is masked when it has at
/// least this many characters.
const MIN_PARTIAL_CHARS: usize = 3;

/// The longest run of backslashes before a JSON escape: JSON nested three
/// times (`\\\\\\\/`).
const MAX_BACKSLASHES: usize = 7;

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
pub(super) fn mask_one(hay: &[u8], secret: &[char], truncated: bool) -> Option<Vec<u8>> {
    let first = secret.first()?;
    let mut first_utf8 = [0u8; 4];
    let first_byte = first.encode_utf8(&mut first_utf8).as_bytes()[0];
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < hay.len() {
        if may_start(hay, i, first_byte) {
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

/// Whether an echo whose first character is encoded starting with
/// `first_byte` may start at `hay[i]`. A run of backslashes is only entered
/// at its start, so that a masked echo never leaves a dangling escape.
fn may_start(hay: &[u8], i: usize, first_byte: u8) -> bool {
    match hay[i] {
        b'\\' => i == 0 || hay[i - 1] != b'\\',
        b'%' | b'+' | b'&' => true,
        b => b.eq_ignore_ascii_case(&first_byte),
    }
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

/// The encodings of `c` found at `hay[at..]`; an ASCII letter in either
/// case.
fn char_options(hay: &[u8], at: usize, c: char) -> Options {
    let rest = &hay[at..];
    let mut options = Options::default();
    if c.is_ascii_alphabetic() {
        add_options(&mut options, rest, c.to_ascii_lowercase());
        add_options(&mut options, rest, c.to_ascii_uppercase());
    } else {
        add_options(&mut options, rest, c);
    }
    options
}

/// Adds the encodings of `c` found at the start of `rest` to `options`.
fn add_options(options: &mut Options, rest: &[u8], c: char) {
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
    if let Some(entity) = html_named_entity(c) {
        options.add(match_prefix(rest, entity));
    }
    if rest[0] == b'\\' {
        add_json_escapes(options, rest, c);
    }
    options.add(match_html_numeric(rest, c));
}

/// The JSON escapes of `c` at the start of `rest`, which starts with a
/// backslash: a two-character escape or `\uXXXX` (a surrogate pair beyond
/// the BMP), after 1 to [`MAX_BACKSLASHES`] backslashes (JSON in a JSON
/// string escapes them again); a backslash itself as 2 or 4 of them.
fn add_json_escapes(options: &mut Options, rest: &[u8], c: char) {
    let run = rest.iter().take_while(|&&b| b == b'\\').count();
    if c == '\\' {
        for n in [2, 4] {
            if run >= n {
                options.add(CharMatch::Full(n));
            } else if run == rest.len() {
                options.add(CharMatch::Cut);
            }
        }
        return;
    }
    if run > MAX_BACKSLASHES {
        return;
    }
    if run == rest.len() {
        options.add(CharMatch::Cut);
        return;
    }
    let after = &rest[run..];
    let found = match json_short_escape(c) {
        Some(letter) if after[0] == letter => CharMatch::Full(1),
        _ => match_json_unicode(after, c),
    };
    options.add(match found {
        CharMatch::Full(n) => CharMatch::Full(run + n),
        other => other,
    });
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

/// The letter of JSON's two-character escape of `c` (after the backslash).
fn json_short_escape(c: char) -> Option<u8> {
    Some(match c {
        '/' => b'/',
        '"' => b'"',
        '\u{8}' => b'b',
        '\u{c}' => b'f',
        '\n' => b'n',
        '\r' => b'r',
        '\t' => b't',
        _ => return None,
    })
}

/// HTML's named references for the ASCII characters HTML escaping changes,
/// and a few others servers use.
fn html_named_entity(c: char) -> Option<&'static [u8]> {
    Some(match c {
        '&' => b"&amp;",
        '<' => b"&lt;",
        '>' => b"&gt;",
        '"' => b"&quot;",
        '\'' => b"&apos;",
        '/' => b"&sol;",
        '=' => b"&equals;",
        '+' => b"&plus;",
        '%' => b"&percnt;",
        '#' => b"&num;",
        ' ' => b"&nbsp;",
        _ => return None,
    })
}

/// `uXXXX` (any case; the backslash is already matched), or a surrogate
/// pair `uXXXX\\uXXXX` for characters beyond the BMP.
fn match_json_unicode(rest: &[u8], c: char) -> CharMatch {
    let mut units = [0u16; 2];
    let units = c.encode_utf16(&mut units);
    let mut at = 0;
    for (index, &unit) in units.iter().enumerate() {
        let [h1, h2] = hex_byte((unit >> 8) as u8);
        let [h3, h4] = hex_byte(unit as u8);
        let unit_text = [b'\\', b'u', h1, h2, h3, h4];
        let expected = if index == 0 {
            &unit_text[1..]
        } else {
            &unit_text[..]
        };
        match match_prefix(&rest[at..], expected) {
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

    fn mask_all(hay: &[u8], secret: &str, truncated: bool) -> Vec<u8> {
        let secret: Vec<char> = secret.chars().collect();
        mask_one(hay, &secret, truncated).unwrap_or_else(|| hay.to_vec())
    }

    fn mask(text: &str, secret: &str) -> String {
        String::from_utf8(mask_all(text.as_bytes(), secret, false)).unwrap()
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
        assert_eq!(mask("%%%\\\\&&&++", "SECRET1"), "%%%\\\\&&&++");
        assert_eq!(mask("%2", "%2FSECRET"), "%2");
    }

    #[test]
    fn partial_secret_at_the_end_of_a_truncated_body() {
        let secret = "s3cr3t/value";
        for cut in ["s3c", "s3cr3t%2", "s3cr3t\\", "s3cr3t\\/va", "s3cr3t&#4"] {
            let body = format!("text {cut}");
            let masked = mask_all(body.as_bytes(), secret, true);
            assert_eq!(&masked[..], b"text ***", "{cut}");
            // Not truncated: the body really ends there.
            assert_eq!(
                mask_all(body.as_bytes(), secret, false),
                body.as_bytes(),
                "{cut}"
            );
        }
        assert_eq!(mask_all(b"text s3", secret, true), b"text s3");
    }

    #[test]
    fn letters_in_any_case_and_nested_json() {
        assert_eq!(mask("x SeCrEt/1 y", "secret/1"), "x *** y");
        assert_eq!(mask(r"x secret\\\/1 y", "secret/1"), "x *** y");
        assert_eq!(mask(r"x secret\\u002F1 y", "secret/1"), "x *** y");
        assert_eq!(mask(r"x \u0053ECRET/1 y", "secret/1"), "x *** y");
        assert_eq!(mask(r#"x sec\\\"ret1 y"#, "sec\"ret1"), "x *** y");
        assert_eq!(mask(r"x sec\\\\ret1 y", "sec\\ret1"), "x *** y");
        assert_eq!(mask("x secret&sol;1 y", "secret/1"), "x *** y");
        // A backslash run is only entered at its start.
        assert_eq!(mask(r"x \\\/secret1", "/secret1"), "x ***");
    }

    #[test]
    fn not_utf8_and_large_bodies() {
        let mut body = vec![0xffu8; 100_000];
        body.extend_from_slice(b"SECRET-1");
        body.extend(std::iter::repeat_n(b'%', 100_000));
        let masked = mask_all(&body, "SECRET-1", false);
        assert_eq!(masked.len(), 200_003);
        assert_eq!(&masked[100_000..100_003], b"***");
    }
}
