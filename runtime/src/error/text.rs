//! Texts for messages: one line, bounded length.

/// Longest message shown by `Display`.
pub(super) const MESSAGE_MAX: usize = 300;

/// `text` on one line, for `Display`: control characters and runs of white
/// space become one space, and at most `max` characters are kept.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if count >= max {
            out.push('…');
            return out;
        }
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= max {
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

/// At most 200 characters of a body, for messages.
pub(crate) fn snippet(raw: &[u8]) -> String {
    const MAX: usize = 200;
    let text = String::from_utf8_lossy(raw);
    let mut out: String = text.chars().take(MAX).collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}
