//! Small pure rules: path templates, URLs and header names, wire names, media types, dates,
//! constraint values, lengths.

use std::collections::BTreeMap;

/// Longest title (API, area) in characters: titles are repeated in headings and lists.
pub(super) const MAX_TITLE_CHARS: usize = 200;
/// Longest path prefix and error family name in characters: they are repeated for every
/// operation of the API.
pub(super) const MAX_REPEATED_CHARS: usize = 100;

/// Characters a URL may hold outside a placeholder (RFC 3986: unreserved, sub-delims, `:`,
/// `@`, `/`, `?`, `#`, `[`, `]` and `%` of percent-encoding).
fn url_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/?#[]%".contains(c)
}

/// Characters of a URL path (placeholders `{name}` aside).
fn path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/%".contains(c)
}

/// What is wrong with a URL path or path prefix, if anything: only the characters a URL path
/// may hold (and `{`, `}` of placeholders when `placeholders`).
pub(super) fn path_chars(path: &str, what: &str, placeholders: bool) -> Result<(), String> {
    match path
        .chars()
        .find(|c| !(path_char(*c) || (placeholders && (*c == '{' || *c == '}'))))
    {
        Some(c) => Err(format!(
            "{what} `{path}` holds {}, which a URL path may not hold (percent-encode it)",
            shown(c)
        )),
        None => Ok(()),
    }
}

/// What is wrong with a URL (or a URL template whose placeholders are `{name}`), if anything.
pub(super) fn url_chars(url: &str, what: &str, template: bool) -> Result<(), String> {
    match url
        .chars()
        .find(|c| !(url_char(*c) || (template && (*c == '{' || *c == '}'))))
    {
        Some(c) => Err(format!(
            "{what} `{url}` holds {}, which a URL may not hold (percent-encode it)",
            shown(c)
        )),
        None => Ok(()),
    }
}

/// Whether `s` is a name of ASCII letters, digits and `extra`, 1 to `max` characters long.
pub(super) fn plain_name(s: &str, extra: &str, max: usize) -> bool {
    !s.is_empty()
        && s.len() <= max
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// What is wrong with a wire name (a field name, enum value, query parameter, multipart
/// part), if anything: it may hold any text but a control character, a line break or tab, or
/// a bidirectional control.
pub(super) fn wire_text(s: &str, what: &str) -> Result<(), String> {
    match s
        .chars()
        .find(|c| c.is_control() || crate::chars::forbidden(*c))
    {
        Some(c) => Err(format!(
            "{what} `{s}` holds {}; names may not hold control characters",
            crate::chars::describe(c)
        )),
        None => Ok(()),
    }
}

/// A character named for a diagnostic: `` ` `` as `a backtick`, others quoted.
fn shown(c: char) -> String {
    match c {
        '`' => "a backtick".to_owned(),
        ' ' => "a space".to_owned(),
        c if c.is_control() || crate::chars::forbidden(c) => crate::chars::describe(c),
        c => format!("`{c}`"),
    }
}

/// Constraint values as text for the docs (`min_length: 2`).
pub(super) fn constraints(map: &BTreeMap<String, serde_yaml::Value>) -> Vec<(String, String)> {
    map.iter()
        .map(|(k, v)| {
            let text = match v {
                serde_yaml::Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_owned(),
            };
            (k.clone(), text)
        })
        .collect()
}

/// The `{name}` placeholders of a path, in order; an error message for a malformed path.
pub(super) fn path_placeholders(path: &str) -> Result<Vec<String>, String> {
    if !path.starts_with('/') {
        return Err(format!("path `{path}` must start with `/`"));
    }
    path_chars(path, "path", true)?;
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            return Err(format!("path `{path}` has an unclosed `{{`"));
        };
        let name = &rest[start + 1..start + len];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "path `{path}` has an invalid placeholder `{{{name}}}`"
            ));
        }
        if out.iter().any(|n| n == name) {
            return Err(format!(
                "path `{path}` repeats the placeholder `{{{name}}}`"
            ));
        }
        out.push(name.to_owned());
        rest = &rest[start + len + 1..];
    }
    if rest.contains('}') {
        return Err(format!("path `{path}` has an unmatched `}}`"));
    }
    Ok(out)
}

/// The bodies a media type of `media_types` describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MediaFamily {
    /// JSON request bodies and answers (`application/json`, `application/vnd.<vendor>.vN+json`).
    Json,
    /// Multipart request bodies (`multipart/vnd.<vendor>.vN+form-data`); never an answer.
    Multipart,
}

/// The label and family of a media type `media_types` may name: `json` for application/json,
/// `v1.1` for application/vnd.<vendor>.v1.1+json and for multipart/vnd.<vendor>.v1.1+form-data.
pub(super) fn version_label(mt: &str, vendor: &str) -> Option<(String, MediaFamily)> {
    if mt == "application/json" {
        return Some(("json".into(), MediaFamily::Json));
    }
    let versioned = |main: &str, suffix: &str| {
        mt.strip_prefix(&format!("{main}/vnd.{vendor}."))?
            .strip_suffix(suffix)
    };
    let (v, family) = match versioned("application", "+json") {
        Some(v) => (v, MediaFamily::Json),
        None => (
            versioned("multipart", "+form-data")?,
            MediaFamily::Multipart,
        ),
    };
    let ok = v.starts_with('v')
        && v.len() > 1
        && v[1..]
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    ok.then(|| (v.to_owned(), family))
}

pub(super) fn valid_media_type(mt: &str) -> bool {
    let mut parts = mt.splitn(2, '/');
    let ok = |s: Option<&str>| {
        s.is_some_and(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.*_".contains(c))
        })
    };
    ok(parts.next()) && ok(parts.next())
}

pub(super) fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| d[r].parse::<u32>().ok();
    matches!((num(0..4), num(5..7), num(8..10)), (Some(_), Some(m), Some(day)) if (1..=12).contains(&m) && (1..=31).contains(&day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_versions() {
        assert_eq!(path_placeholders("/a/{x}/b/{y}").unwrap(), vec!["x", "y"]);
        assert!(path_placeholders("a/{x}").is_err());
        assert!(path_placeholders("/a/{x").is_err());
        assert!(path_placeholders("/a/{x}/{x}").is_err());
        assert_eq!(
            version_label("application/vnd.ruckus.v1.1+json", "ruckus"),
            Some(("v1.1".into(), MediaFamily::Json))
        );
        assert_eq!(
            version_label("multipart/vnd.ruckus.v2+form-data", "ruckus"),
            Some(("v2".into(), MediaFamily::Multipart))
        );
        for refused in [
            "application/vnd.other.v1+json",
            "multipart/vnd.other.v1+form-data",
            "multipart/vnd.ruckus.v1+json",
            "application/vnd.ruckus.v1+form-data",
            "multipart/vnd.ruckus.x1+form-data",
            "multipart/form-data",
        ] {
            assert_eq!(version_label(refused, "ruckus"), None, "{refused}");
        }
        assert!(path_chars("/a/{x}/b-c_d.e~f", "path", true).is_ok());
        let err = path_chars("/a/`<script>`", "path", true).unwrap_err();
        assert!(err.contains("a backtick"), "{err}");
        assert!(path_chars("/a b", "path", true).is_err());
        assert!(path_chars("/{x}", "prefix", false).is_err());
        assert!(url_chars("{host}/oauth2/token/{tenant_id}", "url", true).is_ok());
        assert!(url_chars("https://a.example/x?y=1", "host", false).is_ok());
        assert!(url_chars("https://a.example/`", "host", false).is_err());
        assert!(wire_text("size² `x` <b>", "field name").is_ok());
        assert!(
            wire_text("a\rb", "field name")
                .unwrap_err()
                .contains("U+000D")
        );
        assert!(wire_text("a\u{202e}b", "field name").is_err());
        assert!(valid_date("2025-06-30"));
        assert!(!valid_date("2025-13-01"));
        assert!(!valid_date("30.06.2025"));
    }
}
