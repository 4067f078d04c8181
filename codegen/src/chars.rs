//! Characters no spec text may hold, and how diagnostics name them. A leaf: the limits scanner,
//! the diagnostics, the validator and the emitters' sanitizers all ask here.

/// A character no spec text may hold, raw or escaped: control characters other than tab and
/// line feed (a carriage return only as part of a CRLF line end), bidirectional controls (they
/// make text read differently from what it is, and rustc denies them in generated code), and
/// the Unicode line and paragraph separators (YAML counts them as line breaks, so every line
/// number after them would be off).
pub fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n') || is_bidi(c) || c == '\u{2028}' || c == '\u{2029}'
}

/// A bidirectional control or mark.
pub fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `U+202E (a bidirectional control character)`: a character named without writing it.
pub fn describe(c: char) -> String {
    let what = match c {
        '\r' => "a carriage return",
        '\u{2028}' | '\u{2029}' => "a Unicode line or paragraph separator",
        c if is_bidi(c) => "a bidirectional control character",
        _ => "a control character",
    };
    format!("U+{:04X} ({what})", c as u32)
}
