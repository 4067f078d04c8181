//! Finding a curated operation's description operation, and the schemas of its bodies.

use crate::openapi::{Document, MediaType, Operation as DescOperation, Schema, normalise_path};
use indexmap::IndexMap;
use ruckus_codegen::spec::{MediaTypeEntry, Operation};
use std::collections::BTreeMap;

/// A description operation: its file and the operation.
pub type Found<'a> = (&'a str, &'a DescOperation);

/// Description operations by `(file, operationId)` and by `(METHOD, path)`.
pub struct DescIndex<'a> {
    by_id: BTreeMap<(String, String), (Found<'a>, String, String)>,
    by_key: BTreeMap<(String, String), Vec<Found<'a>>>,
}

impl<'a> DescIndex<'a> {
    pub fn new(docs: &'a BTreeMap<String, Document>) -> Self {
        let mut by_id = BTreeMap::new();
        let mut by_key: BTreeMap<_, Vec<_>> = BTreeMap::new();
        for (file, doc) in docs {
            for (path, method, op) in doc.operations() {
                let key = (method.to_uppercase(), normalise_path(path));
                if let Some(id) = &op.operation_id {
                    by_id.insert(
                        (file.clone(), id.clone()),
                        ((file.as_str(), op), key.0.clone(), key.1.clone()),
                    );
                }
                by_key.entry(key).or_default().push((file.as_str(), op));
            }
        }
        DescIndex { by_id, by_key }
    }

    /// The description operation an operation cites (when its method and path agree), else the
    /// first with its method and path.
    pub fn find(&self, op: &Operation) -> Option<Found<'a>> {
        let key = (op.method.as_str().to_uppercase(), normalise_path(&op.path));
        for cite in cites(op) {
            if let Some((found, m, p)) = self.by_id.get(&cite)
                && (m, p) == (&key.0, &key.1)
            {
                return Some(*found);
            }
        }
        self.by_key.get(&key).and_then(|v| v.first().copied())
    }
}

/// `(file, operationId)` pairs an operation's provenance strings cite.
fn cites(op: &Operation) -> Vec<(String, String)> {
    let mut provenances = vec![
        op.provenance.as_deref(),
        op.media_types_provenance.as_deref(),
    ];
    provenances.push(op.request.as_ref().and_then(|r| r.provenance.as_deref()));
    provenances.extend(op.responses.iter().map(|r| r.provenance.as_deref()));
    provenances
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let mut words = p.trim().strip_prefix("reference:")?.split_whitespace();
            Some((words.next()?.to_owned(), words.next()?.to_owned()))
        })
        .collect()
}

/// The media types an operation's default version sends and accepts.
pub fn default_media(op: &Operation) -> (String, String) {
    let (mut request, mut response) = (None, None);
    for m in &op.media_types {
        let (c, a) = match m {
            MediaTypeEntry::Both(s) => (Some(s), Some(s)),
            MediaTypeEntry::Split(s) => (s.content_type.as_ref(), s.accept.as_ref()),
        };
        if request.is_none() {
            request = c.cloned();
        }
        if response.is_none() {
            response = a.cloned();
        }
    }
    let json = || "application/json".to_owned();
    (request.unwrap_or_else(json), response.unwrap_or_else(json))
}

/// The request body schema for `media`.
pub fn request_schema<'v>(
    doc: &'v Document,
    op: &'v DescOperation,
    media: &str,
) -> Option<&'v Schema> {
    let body = doc.request_body(op.request_body.as_ref()?)?;
    pick(&body.content, media)
}

/// The schema of the `status` answer for `media`.
pub fn response_schema<'v>(
    doc: &'v Document,
    op: &'v DescOperation,
    status: u16,
    media: &str,
) -> Option<&'v Schema> {
    pick(&doc.answer(op, status)?.content, media)
}

/// The schema for `media` in a body's `content`, else plain JSON's, else any JSON type's.
fn pick<'v>(content: &'v IndexMap<String, MediaType>, media: &str) -> Option<&'v Schema> {
    let get = |m: &str| content.get(m).and_then(|c| c.schema.as_ref());
    get(media).or_else(|| get("application/json")).or_else(|| {
        content
            .iter()
            .find(|(k, _)| k.ends_with("json"))
            .and_then(|(_, c)| c.schema.as_ref())
    })
}

/// The version an operation is named after: `v1` for `get_widget_v1` whose default media type
/// is `application/vnd.ruckus.v1+json`; empty for the others.
pub fn version_of(op: &Operation) -> String {
    let (request, response) = default_media(op);
    let media = match &op.media_types.first() {
        Some(MediaTypeEntry::Split(s)) if s.content_type.is_none() => response,
        _ => request,
    };
    let tag = version_tag(&media);
    if op.id.ends_with(&format!("_{tag}")) {
        tag
    } else {
        String::new()
    }
}

/// `application/vnd.ruckus.v1.1+json` -> `v1_1`; plain JSON -> `json`.
fn version_tag(media: &str) -> String {
    let version = media
        .strip_prefix("application/vnd.")
        .map(|rest| rest.strip_suffix("+json").unwrap_or(rest))
        .and_then(|rest| rest.split_once('.'))
        .map(|(_vendor, version)| version.replace(['.', '-'], "_").to_lowercase());
    version.unwrap_or_else(|| "json".into())
}
