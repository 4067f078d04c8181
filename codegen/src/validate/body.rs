//! An operation's request body and its media-type versions.

use super::rules::{valid_media_type, version_label, wire_text};
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
            req_json: request.as_ref().is_some_and(|b| b.kind == BodyKind::Json),
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
        if !shape.req_json && !shape.resp_json {
            self.err(
                &mat,
                "`media_types` select JSON representations, but neither the request nor the response is JSON",
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
        let (given_ct, given_accept) = match entry {
            spec::MediaTypeEntry::Both(mt) => (
                shape.req_json.then(|| mt.clone()),
                (shape.resp_json && !shape.explicit_accept).then(|| mt.clone()),
            ),
            spec::MediaTypeEntry::Split(split) => {
                (split.content_type.clone(), split.accept.clone())
            }
        };
        let shown = given_ct
            .clone()
            .or_else(|| given_accept.clone())
            .unwrap_or_default();
        let mut labels = Vec::new();
        for mt in given_ct.iter().chain(given_accept.iter()) {
            match version_label(mt, shape.vendor) {
                Some(label) => labels.push(label),
                None => {
                    self.err(
                        &mat.with(&[&format!("{mt}|content_type: {mt}|accept: {mt}")]),
                        format!(
                            "media type `{mt}` must be application/json or application/vnd.{}.<version>+json",
                            shape.vendor
                        ),
                    );
                    return None;
                }
            }
        }
        let Some(label) = labels.first().cloned() else {
            self.err(
                mat,
                "a media type entry needs a `content_type` or an `accept`",
            );
            return None;
        };
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
}

/// What an operation's media-type entries are resolved against.
struct Shape<'s> {
    /// The request body is JSON (a media type entry sets its `Content-Type`).
    req_json: bool,
    /// The success response is JSON (a media type entry sets `Accept`).
    resp_json: bool,
    /// The success response names its own media type, which a plain entry leaves alone.
    explicit_accept: bool,
    default_ct: Option<String>,
    default_accept: &'s str,
    vendor: &'s str,
}
