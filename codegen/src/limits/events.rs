//! The structural limits, checked on the YAML parser's own events: nesting depth, anchors and
//! aliases, and characters that double-quoted escapes decode to.
//!
//! The parser is libyaml as `unsafe-libyaml` provides it, the very parser serde_yaml reads spec
//! files with, so what is refused here is exactly what serde_yaml would have built: a key
//! written `"key": &a`, a flow mapping opened after a quoted key, any spelling the YAML grammar
//! allows is seen as the parser sees it. The walk stops at the first refusal, so a file nested a
//! million levels deep costs as much as one nested just past the limit, and an alias is refused
//! before anything is expanded. Syntax errors are left to serde_yaml, which reports them with the
//! same parser's message.

#![allow(
    unsafe_code,
    reason = "libyaml's parser is driven through its C-shaped API: one parser and one event at a time, each freed by its owner"
)]

use super::Limits;
use crate::chars::{describe, forbidden};
use std::mem::MaybeUninit;
use unsafe_libyaml as unsafe_yaml;

/// A refusal: the 1-based line and the message.
pub(super) type Refusal = (usize, String);

/// Walks the events of `text` and refuses the first that breaks a limit.
pub(super) fn check(text: &str, limits: &Limits) -> Result<(), Refusal> {
    let Some(mut parser) = Parser::new(text) else {
        // libyaml could not allocate its parser; serde_yaml will report the same.
        return Ok(());
    };
    let mut depth = 0usize;
    loop {
        let Some(event) = parser.next() else {
            return Ok(());
        };
        let line = event.line();
        match event.kind() {
            Kind::End => return Ok(()),
            Kind::Alias => return Err((line, anchors_refused())),
            Kind::Open { anchored } => {
                if anchored {
                    return Err((line, anchors_refused()));
                }
                depth += 1;
                if depth > limits.max_depth {
                    return Err((
                        line,
                        format!(
                            "the spec nests deeper than {} levels here (set {} to raise the limit)",
                            limits.max_depth,
                            super::ENV_DEPTH
                        ),
                    ));
                }
            }
            Kind::Close => depth = depth.saturating_sub(1),
            Kind::Scalar { anchored, value } => {
                if anchored {
                    return Err((line, anchors_refused()));
                }
                if let Some(c) = value.chars().find(|c| forbidden(*c)) {
                    return Err((
                        line,
                        format!(
                            "a double-quoted escape here stands for {}, which spec files may not contain",
                            describe(c)
                        ),
                    ));
                }
            }
            Kind::Other => {}
        }
    }
}

fn anchors_refused() -> String {
    "YAML anchors and aliases (`&name`, `*name`) are not supported in spec files; write the value out"
        .to_owned()
}

/// What the walk needs of one event.
enum Kind {
    /// The stream's end.
    End,
    Alias,
    /// A mapping or sequence opens.
    Open {
        anchored: bool,
    },
    /// A mapping or sequence closes.
    Close,
    Scalar {
        anchored: bool,
        value: String,
    },
    /// Stream and document starts and document ends.
    Other,
}

/// A libyaml parser over a borrowed text. It lives on the heap (libyaml keeps pointers into
/// it) and is freed on drop; the text outlives it.
struct Parser<'t> {
    sys: Box<MaybeUninit<unsafe_yaml::yaml_parser_t>>,
    _text: &'t str,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Option<Self> {
        let mut sys = Box::new(MaybeUninit::<unsafe_yaml::yaml_parser_t>::uninit());
        // SAFETY: libyaml initialises the parser in place (it zeroes it first); on failure it
        // holds nothing to free. The input pointer stays valid while `self` lives, as `_text`
        // borrows the text for `'t`.
        unsafe {
            let p = sys.as_mut_ptr();
            if unsafe_yaml::yaml_parser_initialize(p).fail {
                return None;
            }
            unsafe_yaml::yaml_parser_set_encoding(p, unsafe_yaml::YAML_UTF8_ENCODING);
            unsafe_yaml::yaml_parser_set_input_string(p, text.as_ptr(), text.len() as u64);
        }
        Some(Parser { sys, _text: text })
    }

    /// The next event, or `None` on a syntax error (serde_yaml reports it; the walk stops there,
    /// so the parser is never asked again after an error).
    fn next(&mut self) -> Option<Event> {
        let mut event = MaybeUninit::<unsafe_yaml::yaml_event_t>::uninit();
        // SAFETY: the parser was initialised in `new`; `yaml_parser_parse` fills `event` when
        // it succeeds, and the event is deleted once read (in `Event::drop`).
        unsafe {
            let p = self.sys.as_mut_ptr();
            if unsafe_yaml::yaml_parser_parse(p, event.as_mut_ptr()).fail {
                return None;
            }
            Some(Event(event.assume_init()))
        }
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` (a parser that failed to initialise is never built).
        unsafe { unsafe_yaml::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// One parsed event, deleted on drop.
struct Event(unsafe_yaml::yaml_event_t);

impl Event {
    /// The 1-based line the event starts on.
    fn line(&self) -> usize {
        self.0.start_mark.line as usize + 1
    }

    fn kind(&self) -> Kind {
        let e = &self.0;
        // SAFETY: each arm reads the union member its event type defines; libyaml sets anchor
        // pointers to null or to a NUL-terminated string, and a scalar's value to `length`
        // bytes.
        unsafe {
            match e.type_ {
                unsafe_yaml::YAML_STREAM_END_EVENT => Kind::End,
                unsafe_yaml::YAML_ALIAS_EVENT => Kind::Alias,
                unsafe_yaml::YAML_SEQUENCE_START_EVENT => Kind::Open {
                    anchored: !e.data.sequence_start.anchor.is_null(),
                },
                unsafe_yaml::YAML_MAPPING_START_EVENT => Kind::Open {
                    anchored: !e.data.mapping_start.anchor.is_null(),
                },
                unsafe_yaml::YAML_SEQUENCE_END_EVENT | unsafe_yaml::YAML_MAPPING_END_EVENT => {
                    Kind::Close
                }
                unsafe_yaml::YAML_SCALAR_EVENT => {
                    let s = &e.data.scalar;
                    let bytes = if s.value.is_null() {
                        &[][..]
                    } else {
                        std::slice::from_raw_parts(s.value, s.length as usize)
                    };
                    Kind::Scalar {
                        anchored: !s.anchor.is_null(),
                        value: String::from_utf8_lossy(bytes).into_owned(),
                    }
                }
                _ => Kind::Other,
            }
        }
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: the event was filled by a successful `yaml_parser_parse`.
        unsafe { unsafe_yaml::yaml_event_delete(&mut self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(text: &str, limits: &Limits) -> Option<usize> {
        check(text, limits).err().map(|(l, _)| l)
    }

    fn default_line(text: &str) -> Option<usize> {
        line_of(text, &Limits::default())
    }

    #[test]
    fn ordinary_yaml_passes() {
        let text = "a: 1\nb:\n  - name: x # comment &x *y\n    values: [a, b, {c: d}]\n    path: >-\n      /a/{b}\n      [{{\n    d: \"it's & *x \\\" [\"\n    e: 'it''s [ *'\n    f: plain {with [ brackets\n      and more { *here\n    g: |\n      & * [ {\n";
        assert_eq!(check(text, &Limits::default()), Ok(()));
    }

    #[test]
    fn anchors_and_aliases_are_refused_at_their_line_however_written() {
        assert_eq!(default_line("a: 1\nb: &x [1]\nc: *x\n"), Some(2));
        assert_eq!(default_line("a: 1\nb: [1, *x]\n"), Some(2));
        assert_eq!(default_line("a:\n  - 1\n  - *x\n"), Some(3));
        assert_eq!(default_line("a: {b: &x 1}\n"), Some(1));
        // JSON-style keys, which a scanner of the text missed.
        assert_eq!(default_line("\"a\": 1\n\"key\": &a [1]\n"), Some(2));
        assert_eq!(default_line("{\"a\": 1,\n \"b\": *a}\n"), Some(2));
        let msg = check("a: *x\n", &Limits::default()).unwrap_err().1;
        assert!(msg.contains("anchors and aliases"), "{msg}");
    }

    #[test]
    fn deep_nesting_is_refused_at_the_line_that_crosses_the_limit() {
        let limits = Limits {
            max_depth: 5,
            ..Limits::default()
        };
        assert_eq!(check("a: [[[[]]]]\n", &limits), Ok(()));
        assert_eq!(line_of("a: 1\nb: [[[[[]]]]]\n", &limits), Some(2));
        let block: String = (0..6)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert_eq!(line_of(&block, &limits), Some(6));
        // JSON-style nesting over several lines.
        assert_eq!(
            line_of(
                "\"a\": {\n\"b\": {\n\"c\": {\n\"d\": {\n\"e\": {\n}}}}}\n",
                &limits
            ),
            Some(5)
        );
        let msg = check("a: [[[[[[]]]]]]\n", &limits).unwrap_err().1;
        assert!(msg.contains("deeper than 5"), "{msg}");
    }

    #[test]
    fn a_deep_file_costs_what_the_limit_allows() {
        // A million open brackets: the walk stops just past the limit, so this returns at
        // once; a walk of the whole nesting would take minutes (the parser is quadratic).
        let text = format!("a: {}", "[".repeat(1_000_000));
        let (line, msg) = check(&text, &Limits::default()).unwrap_err();
        assert_eq!(line, 1);
        assert!(msg.contains("deeper than 32"), "{msg}");
    }

    #[test]
    fn escapes_decoding_to_forbidden_characters_are_refused() {
        assert_eq!(default_line("a: \"x\\u202Ey\"\n"), Some(1));
        assert_eq!(default_line("a: 1\nb: \"x\\ry\"\n"), Some(2));
        assert_eq!(default_line("a: \"x\\e[31m\"\n"), Some(1));
        assert_eq!(
            default_line("a: 'x\\ry'\n"),
            None,
            "no escapes in single quotes"
        );
        assert_eq!(default_line("a: \"x\\ty\\n\"\n"), None);
    }

    #[test]
    fn syntax_errors_are_left_to_serde_yaml() {
        assert_eq!(check("a: [\n", &Limits::default()), Ok(()));
        assert_eq!(check("a: b: c\n", &Limits::default()), Ok(()));
    }
}
