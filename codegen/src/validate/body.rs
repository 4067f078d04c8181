//! An operation's request body and its media-type versions.

use super::rules::{MediaFamily, valid_media_type, version_label, wire_text};
use super::types::Inline;
use super::{ApiCtx, At, Validator};
use crate::ir::{BodyIr, BodyKind, ResponseIr, ResponseKind, TypeRef, VersionIr};
use crate::names::Unique;
use crate::spec;
use std::collections::BTreeSet;

/// The `Content-Type` a body of `kind` has unless the spec says otherwise.
fn default_content_type(kind: BodyKind) -> &'static str {
    match kind {
        BodyKind::Json => "application/json",
        BodyKind::Form => "application/x-www-form-urlencoded",
        BodyKind::Multipart => "multipart/form-data",
        BodyKind::Binary => "application/octet-stream",
    }
}

impl Validator {
    pub(super) fn request(
        &mut self,
        b: &spec::RequestBody,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        builder: &str,
        inline: &mut Inline<'_>,
    ) -> Option<BodyIr> {
        let kind = b.kind.unwrap_or(BodyKind::Json);
        let typed = matches!(kind, BodyKind::Json | BodyKind::Form);
        let ty = match (&b.ty, typed) {
            (Some(t), true) => {
                let name = format!("{builder}Request");
                Some(self.type_ref(t, &at.with(&["type:"]), ctx, &name, inline)?)
            }
            (None, true) => {
                self.err(
                    at,
                    format!("a {} request body needs a `type`", kind.as_str()),
                );
                return None;
            }
            (Some(_), false) => {
                self.err(
                    &at.with(&["type:"]),
                    format!("a {} request body takes no `type`", kind.as_str()),
                );
                return None;
            }
            (None, false) => None,
        };
        if kind == BodyKind::Form && !matches!(ty, Some(TypeRef::Named { .. })) {
            self.err(at, "a form request body must be an object type");
            return None;
        }
        if !b.parts.is_empty() && kind != BodyKind::Multipart {
            self.err(
                &at.with(&["parts:"]),
                "`parts` belong to multipart request bodies",
            );
            return None;
        }
        for p in &b.parts {
            if let Err(msg) = wire_text(&p.name, "part name") {
                self.err(&at.with(&["parts:", &format!("name: {}", p.name)]), msg);
                return None;
            }
        }
        if let Some(mt) = &b.media_type
            && !valid_media_type(mt)
        {
            self.err(
                &at.with(&["media_type:"]),
                format!("`{mt}` is not a media type"),
            );
            return None;
        }
        Some(BodyIr {
            kind,
            ty,
            required: b.required,
            parts: b
                .parts
                .iter()
                .map(|p| (p.name.clone(), p.description.clone()))
                .collect(),
            description: b.description.clone(),
            provenance: self.provenance(at, b.provenance.as_deref()),
        })
    }

    /// The representations an operation offers; empty after reporting a problem.
    pub(super) fn versions(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        request: &Option<BodyIr>,
        success: &ResponseIr,
        vendor: &str,
    ) -> Vec<VersionIr> {
        let default_ct = request.as_ref().map(|b| {
            op.request
                .as_ref()
                .and_then(|r| r.media_type.clone())
                .unwrap_or_else(|| default_content_type(b.kind).to_owned())
        });
        if op.media_types.is_empty() {
            return vec![VersionIr {
                label: "default".into(),
                variant: "Default".into(),
                content_type: default_ct,
                accept: success.media_type.clone(),
            }];
        }
        let shape = Shape {
            request: request.as_ref().map(|b| b.kind),
            resp_json: success.kind == ResponseKind::Json,
            explicit_accept: op
                .responses
                .iter()
                .find(|r| r.status == success.status)
                .is_some_and(|r| r.media_type.is_some()),
            default_ct,
            default_accept: &success.media_type,
            vendor,
        };
        let mat = at.with(&["media_types:"]);
        let versioned_body = matches!(shape.request, Some(BodyKind::Json | BodyKind::Multipart));
        if !versioned_body && !shape.resp_json {
            self.err(
                &mat,
                "`media_types` select JSON or multipart representations, but the request is neither and the response is not JSON",
            );
            return vec![];
        }
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut variants = Unique::default();
        for entry in &op.media_types {
            let Some(v) = self.version(entry, &mat, &shape, &mut seen) else {
                return vec![];
            };
            out.push(VersionIr {
                variant: variants.claim(v.variant, "_"),
                ..v
            });
        }
        out
    }

    /// One media-type entry, or None after reporting what is wrong with it.
    fn version(
        &mut self,
        entry: &spec::MediaTypeEntry,
        mat: &At<'_>,
        shape: &Shape<'_>,
        seen: &mut BTreeSet<(Option<String>, String)>,
    ) -> Option<VersionIr> {
        let (given_ct, given_accept, label) = self.entry_sides(entry, mat, shape)?;
        let shown = given_ct
            .clone()
            .or_else(|| given_accept.clone())
            .unwrap_or_default();
        let content_type = given_ct.or_else(|| shape.default_ct.clone());
        let accept = given_accept.unwrap_or_else(|| shape.default_accept.to_owned());
        if !seen.insert((content_type.clone(), accept.clone())) {
            self.err(
                &mat.with(&[&shown]),
                format!("duplicate media type `{shown}`"),
            );
            return None;
        }
        let variant = if label == "json" {
            "Json".to_owned()
        } else {
            format!("V{}", label.trim_start_matches('v').replace('.', "_"))
        };
        Some(VersionIr {
            variant,
            label,
            content_type,
            accept,
        })
    }

    /// The `Content-Type` and `Accept` an entry names and its label (that of its first media
    /// type), or None after reporting a media type that is not a version or does not fit the
    /// operation's bodies.
    fn entry_sides(
        &mut self,
        entry: &spec::MediaTypeEntry,
        mat: &At<'_>,
        shape: &Shape<'_>,
    ) -> Option<(Option<String>, Option<String>, String)> {
        let req_json = shape.request == Some(BodyKind::Json);
        let (given_ct, given_accept) = match entry {
            spec::MediaTypeEntry::Both(mt) => match version_label(mt, shape.vendor) {
                // A multipart version only ever describes the request body.
                Some((_, MediaFamily::Multipart)) => (Some(mt.clone()), None),
                _ => (
                    req_json.then(|| mt.clone()),
                    (shape.resp_json && !shape.explicit_accept).then(|| mt.clone()),
                ),
            },
            spec::MediaTypeEntry::Split(split) => {
                (split.content_type.clone(), split.accept.clone())
            }
        };
        let mut labels = Vec::new();
        let sides = [(&given_ct, true), (&given_accept, false)];
        for (mt, is_ct) in sides.iter().filter_map(|(m, c)| Some(((*m).as_ref()?, *c))) {
            let at = mat.with(&[&format!("{mt}|content_type: {mt}|accept: {mt}")]);
            let Some((label, family)) = version_label(mt, shape.vendor) else {
                self.err(
                    &at,
                    format!(
                        "media type `{mt}` must be application/json or application/vnd.{v}.<version>+json, or multipart/vnd.{v}.<version>+form-data for a multipart request body",
                        v = shape.vendor
                    ),
                );
                return None;
            };
            if let Some(msg) = misfit(mt, family, is_ct, shape.request) {
                self.err(&at, msg);
                return None;
            }
            labels.push(label);
        }
        let Some(label) = labels.first().cloned() else {
            self.err(
                mat,
                "a media type entry needs a `content_type` or an `accept`",
            );
            return None;
        };
        Some((given_ct, given_accept, label))
    }
}

/// What is wrong with sending media type `mt` of `family` as the `Content-Type` (`is_ct`) or
/// the `Accept` of an operation whose request body is `request`, if anything: a JSON type sets
/// only a JSON body's `Content-Type`, a multipart one only a multipart body's.
fn misfit(mt: &str, family: MediaFamily, is_ct: bool, request: Option<BodyKind>) -> Option<String> {
    let body = request.map_or("this operation has no request body".to_owned(), |k| {
        format!("this operation's request body is {}", k.as_str())
    });
    match (family, is_ct, request) {
        (MediaFamily::Multipart, false, _) => Some(format!(
            "media type `{mt}` is a multipart request type; it cannot be an `accept`"
        )),
        (MediaFamily::Multipart, true, Some(BodyKind::Multipart))
        | (MediaFamily::Json, true, Some(BodyKind::Json))
        | (MediaFamily::Json, false, _) => None,
        (MediaFamily::Multipart, true, _) => Some(format!(
            "media type `{mt}` is for a multipart request body, but {body}"
        )),
        (MediaFamily::Json, true, _) => Some(format!(
            "media type `{mt}` is for a JSON request body, but {body}"
        )),
    }
}

/// What an operation's media-type entries are resolved against.
struct Shape<'s> {
    /// The request body's kind: a JSON entry sets a JSON body's `Content-Type`, a multipart one a
    /// multipart body's.
    request: Option<BodyKind>,
    /// The success response is JSON (a media type entry sets `Accept`).
    resp_json: bool,
    /// The success response names its own media type, which a plain entry leaves alone.
    explicit_accept: bool,
    default_ct: Option<String>,
    default_accept: &'s str,
    vendor: &'s str,
}
