//! Small pure rules: path templates, media types, dates, constraint values.

use std::collections::BTreeMap;

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

/// `json` for application/json, `v1.1` for application/vnd.<vendor>.v1.1+json.
pub(super) fn version_label(mt: &str, vendor: &str) -> Option<String> {
    if mt == "application/json" {
        return Some("json".into());
    }
    let v = mt
        .strip_prefix(&format!("application/vnd.{vendor}."))?
        .strip_suffix("+json")?;
    let ok = v.starts_with('v')
        && v.len() > 1
        && v[1..]
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    ok.then(|| v.to_owned())
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
            version_label("application/vnd.ruckus.v1.1+json", "ruckus").as_deref(),
            Some("v1.1")
        );
        assert_eq!(
            version_label("application/vnd.other.v1+json", "ruckus"),
            None
        );
        assert!(valid_date("2025-06-30"));
        assert!(!valid_date("2025-13-01"));
        assert!(!valid_date("30.06.2025"));
    }
}
