//! Descriptions shared by the rustdoc, Markdown and TSV outputs: provenance and request and
//! response bodies, each worded in one place for every output.

use super::text::{code, prose, type_doc};
use crate::ir::{BodyIr, BodyKind, Provenance, ResponseIr, ResponseKind};

/// Which output a description is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Rustdoc of generated items.
    Rustdoc,
    /// The Markdown reference under `generated/docs/`.
    Markdown,
    /// The spec's own notation (`inferred: <why>`), for `cargo xtask list`.
    Spec,
}

/// A fact's provenance with its reason or source.
pub fn provenance(p: &Provenance, style: Style) -> String {
    match (style, p) {
        (_, Provenance::Documented) => "documented".into(),
        (Style::Rustdoc, Provenance::Inferred(why)) => format!("inferred ({})", prose(why)),
        (Style::Rustdoc, Provenance::Reference(src)) => format!("reference ({})", prose(src)),
        (Style::Markdown, Provenance::Inferred(why)) => format!("**inferred**: {}", prose(why)),
        (Style::Markdown, Provenance::Reference(src)) => format!("reference: {}", prose(src)),
        (Style::Spec, Provenance::Inferred(why)) => format!("inferred: {why}"),
        (Style::Spec, Provenance::Reference(src)) => format!("reference: {src}"),
    }
}

/// `Provenance: ...` for rustdoc.
pub fn provenance_line(p: &Provenance) -> String {
    format!("Provenance: {}.", provenance(p, Style::Rustdoc))
}

/// What a request body holds: its type, its multipart parts or raw bytes.
pub fn request_body(b: &BodyIr, style: Style) -> String {
    if let Some(t) = &b.ty {
        return type_doc(t);
    }
    if style == Style::Markdown {
        let parts: Vec<String> = b
            .parts
            .iter()
            .map(|(n, d)| match d {
                Some(d) => format!("{} ({})", code(n), prose(d)),
                None => code(n),
            })
            .collect();
        return if parts.is_empty() {
            "raw bytes".into()
        } else {
            format!("parts {}", parts.join(", "))
        };
    }
    if b.kind != BodyKind::Multipart {
        return "raw bytes".into();
    }
    let parts: Vec<String> = b.parts.iter().map(|(n, _)| code(n)).collect();
    if parts.is_empty() {
        "multipart form".into()
    } else {
        format!("multipart form with parts {}", parts.join(", "))
    }
}

/// What a response carries, with its description in parentheses. Rustdoc names the media
/// type in the text; Markdown has a column of its own for it.
pub fn response_body(r: &ResponseIr, style: Style) -> String {
    let what = match (&r.ty, r.kind) {
        (Some(t), _) => type_doc(t),
        (None, ResponseKind::Binary) => "bytes".into(),
        (None, ResponseKind::Text) => "text".into(),
        (None, ResponseKind::Json) => "raw JSON".into(),
        (None, ResponseKind::Empty) => String::new(),
    };
    let body = match (style, r.kind) {
        (_, ResponseKind::Empty) => match style {
            Style::Markdown => "none".into(),
            Style::Rustdoc | Style::Spec => "no body".into(),
        },
        (Style::Markdown, _) => what,
        // Plain JSON is the default media type and goes unsaid.
        (Style::Rustdoc | Style::Spec, ResponseKind::Json)
            if r.media_type == "application/json" =>
        {
            what
        }
        (Style::Rustdoc | Style::Spec, _) => format!("{} {what}", code(&r.media_type)),
    };
    let desc = r
        .description
        .as_deref()
        .map(|d| format!(" ({})", prose(d)))
        .unwrap_or_default();
    format!("{body}{desc}")
}
