//! The vendor versions of a multipart request body (`multipart/vnd.<vendor>.v1+form-data`)
//! joined to a route's media types. Such a media type only ever sets the `Content-Type`; the
//! plain representation stays the `application/json` entry, whose `Content-Type` is the body's
//! default (`multipart/form-data`).

use indexmap::IndexMap;
use ruckus_codegen::spec::{MediaTypeEntry, SplitMediaType};

use crate::openapi::MediaType;

/// `v1.1` of `multipart/vnd.<vendor>.v1.1+form-data`.
fn version<'m>(media: &'m str, vendor: &str) -> Option<&'m str> {
    let v = media
        .strip_prefix(&format!("multipart/vnd.{vendor}."))?
        .strip_suffix("+form-data")?;
    let digits = v.strip_prefix('v')?;
    let ok = !digits.is_empty()
        && digits
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    ok.then_some(v)
}

/// `v1.1` of `application/vnd.<vendor>.v1.1+json`.
fn json_version<'m>(media: &'m str, vendor: &str) -> Option<&'m str> {
    media
        .strip_prefix(&format!("application/vnd.{vendor}."))?
        .strip_suffix("+json")
}

/// The versioned multipart media types of a request body's content, in description order.
pub fn versions(content: &IndexMap<String, MediaType>, vendor: &str) -> Vec<String> {
    content
        .keys()
        .filter(|k| version(k, vendor).is_some())
        .cloned()
        .collect()
}

/// `entries` (the route's JSON media types) with the multipart versions `multipart` joined: a
/// version the answer also has becomes that entry's `Content-Type`; another is an entry of its
/// own, before the plain ones. The plain `application/json` entry is added when the body is
/// also offered unversioned and the answer is plain JSON (`json_answer`), so the plain body
/// stays on offer. Versions come highest first.
pub fn join(
    mut entries: Vec<MediaTypeEntry>,
    multipart: &[String],
    plain_body: bool,
    json_answer: bool,
    vendor: &str,
) -> Vec<MediaTypeEntry> {
    let mut own = Vec::new();
    for m in multipart {
        let Some(label) = version(m, vendor) else {
            continue;
        };
        let partner = entries.iter_mut().find(|e| match e {
            MediaTypeEntry::Both(j) => json_version(j, vendor) == Some(label),
            MediaTypeEntry::Split(s) => {
                s.content_type.is_none()
                    && s.accept.as_deref().and_then(|a| json_version(a, vendor)) == Some(label)
            }
        });
        match partner {
            Some(entry) => {
                let accept = match entry {
                    MediaTypeEntry::Both(j) => j.clone(),
                    MediaTypeEntry::Split(s) => s.accept.clone().unwrap_or_default(),
                };
                *entry = MediaTypeEntry::Split(SplitMediaType {
                    content_type: Some(m.clone()),
                    accept: Some(accept),
                });
            }
            None => own.push(m.clone()),
        }
    }
    own.sort_by_key(|m| std::cmp::Reverse(key(version(m, vendor).unwrap_or_default())));
    let plain =
        |e: &MediaTypeEntry| matches!(e, MediaTypeEntry::Both(j) if j == "application/json");
    let at = entries.iter().position(plain).unwrap_or(entries.len());
    entries.splice(at..at, own.into_iter().map(MediaTypeEntry::Both));
    if plain_body && json_answer && !multipart.is_empty() && !entries.iter().any(plain) {
        entries.push(MediaTypeEntry::Both("application/json".into()));
    }
    entries
}

/// `v1.1` -> `[1, 1]`, for ordering versions.
fn key(label: &str) -> Vec<u32> {
    label
        .trim_start_matches('v')
        .split('.')
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = "multipart/vnd.ruckus.v1+form-data";

    fn shown(entries: &[MediaTypeEntry]) -> Vec<String> {
        entries
            .iter()
            .map(|e| match e {
                MediaTypeEntry::Both(s) => s.clone(),
                MediaTypeEntry::Split(s) => format!("{:?} / {:?}", s.content_type, s.accept),
            })
            .collect()
    }

    #[test]
    fn only_well_formed_vendor_multipart_versions_count() {
        assert_eq!(version(V1, "ruckus"), Some("v1"));
        assert_eq!(
            version("multipart/vnd.ruckus.v2.1+form-data", "ruckus"),
            Some("v2.1")
        );
        assert_eq!(version("multipart/form-data", "ruckus"), None);
        assert_eq!(version("multipart/vnd.other.v1+form-data", "ruckus"), None);
        assert_eq!(version("multipart/vnd.ruckus.v1+mixed", "ruckus"), None);
        assert_eq!(version("multipart/vnd.ruckus.v+form-data", "ruckus"), None);
    }

    /// `uploadFile`: a versioned multipart body beside a plain one, a plain JSON answer.
    #[test]
    fn a_version_only_the_body_has_comes_before_plain_json() {
        let out = join(Vec::new(), &[V1.to_owned()], true, true, "ruckus");
        assert_eq!(shown(&out), [V1, "application/json"]);
        let out = join(Vec::new(), &[V1.to_owned()], false, true, "ruckus");
        assert_eq!(shown(&out), [V1]);
        assert!(join(Vec::new(), &[], true, true, "ruckus").is_empty());
    }

    /// `createUiConfig`: the body and the answer both have `v1`, which pairs them.
    #[test]
    fn a_version_the_answer_has_too_is_paired_with_it() {
        let entries = vec![
            MediaTypeEntry::Both("application/vnd.ruckus.v1+json".into()),
            MediaTypeEntry::Both("application/json".into()),
        ];
        let out = join(entries, &[V1.to_owned()], true, true, "ruckus");
        assert_eq!(
            shown(&out),
            [
                format!(
                    "{:?} / {:?}",
                    Some(V1),
                    Some("application/vnd.ruckus.v1+json")
                ),
                "application/json".to_owned()
            ]
        );
    }

    #[test]
    fn unpaired_versions_come_highest_first() {
        let v2 = "multipart/vnd.ruckus.v2+form-data".to_owned();
        let out = join(
            Vec::new(),
            &[V1.to_owned(), v2.clone()],
            true,
            true,
            "ruckus",
        );
        assert_eq!(shown(&out), [v2.as_str(), V1, "application/json"]);
    }
}
