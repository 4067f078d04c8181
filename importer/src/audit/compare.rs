//! Comparing the spec's operations with the descriptions' operations of the same method and
//! path (parameter names ignored). Every disagreement is a [`Finding`] of one [`FindingKind`].

use super::openapi::{DescOp, Descriptions, normalise_path};
use ruckus_codegen::closed::BodyKind;
use ruckus_codegen::ir::{Ir, OpIr, ResponseKind, TypeRef, VersionIr};
use std::collections::{BTreeMap, BTreeSet};

/// The audit's vocabulary: eight kinds of disagreement, then the two listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingKind {
    Status,
    RequestMedia,
    ResponseMedia,
    Versions,
    RequestBody,
    ContentKind,
    Paging,
    ErrorBody,
    /// A description operation the spec does not have.
    Missing,
    /// A spec operation no description lists.
    Unlisted,
}

impl FindingKind {
    /// The kinds of disagreement, in report order.
    pub const DISAGREEMENTS: [FindingKind; 8] = [
        FindingKind::Status,
        FindingKind::RequestMedia,
        FindingKind::ResponseMedia,
        FindingKind::Versions,
        FindingKind::RequestBody,
        FindingKind::ContentKind,
        FindingKind::Paging,
        FindingKind::ErrorBody,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Status => "status",
            FindingKind::RequestMedia => "request-media",
            FindingKind::ResponseMedia => "response-media",
            FindingKind::Versions => "versions",
            FindingKind::RequestBody => "request-body",
            FindingKind::ContentKind => "content-kind",
            FindingKind::Paging => "paging",
            FindingKind::ErrorBody => "error-body",
            FindingKind::Missing => "missing",
            FindingKind::Unlisted => "unlisted",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone)]
pub struct Finding {
    /// `api/area`; empty for a missing operation.
    pub area: String,
    /// The spec's operation id; empty for a missing operation.
    pub id: String,
    pub method: String,
    /// With the API prefix.
    pub path: String,
    pub kind: FindingKind,
    pub spec: String,
    pub description: String,
    /// `<file> <operationId>`; empty for an unlisted operation.
    pub source: String,
    /// Not a disagreement: worth knowing (the description accepts `*/*`, or its paging shape is
    /// unclear where the spec pages).
    pub info: bool,
}

/// Typed bodies where a description declares a schema (issue: a typed network API).
#[derive(Default)]
pub struct Coverage {
    pub request_declared: usize,
    pub request_typed: usize,
    pub response_declared: usize,
    pub response_typed: usize,
    /// `<id> request|response` of the declared bodies the spec keeps raw.
    pub raw: Vec<String>,
}

/// The audit of one spec area.
pub struct AreaAudit {
    /// `api/area`.
    pub name: String,
    pub ops: usize,
    pub matched: usize,
    pub coverage: Coverage,
    /// In spec operation order, then kind order; unlisted operations included.
    pub findings: Vec<Finding>,
}

impl AreaAudit {
    /// Disagreements (info excluded) of one kind.
    pub fn count(&self, kind: FindingKind) -> usize {
        self.findings
            .iter()
            .filter(|f| f.kind == kind && !f.info)
            .count()
    }

    pub fn infos(&self) -> usize {
        self.findings.iter().filter(|f| f.info).count()
    }
}

pub struct Audit {
    pub areas: Vec<AreaAudit>,
    /// APIs none of whose operations a description lists: name and operation count.
    pub skipped: Vec<(String, usize)>,
    /// Description operations the spec does not have, by file.
    pub missing: Vec<Finding>,
    pub files: usize,
    pub desc_ops: usize,
    /// The distinct `(METHOD, path)` routes no description marks deprecated, and how many of
    /// them are spec operations.
    pub routes: usize,
    pub routes_covered: usize,
}

/// What differs on one operation: kind, the spec's side, the description's side, info or not.
struct Diff(FindingKind, String, String, bool);

/// The descriptions' operations by `(METHOD, path)`; the first file listing one wins.
type Index<'d> = BTreeMap<(String, String), &'d DescOp>;

/// Audits every operation of the spec against the descriptions.
pub fn audit(ir: &Ir, descs: &Descriptions) -> Audit {
    let mut index = Index::new();
    for d in &descs.ops {
        index.entry(d.key()).or_insert(d);
    }
    let mut out = Audit {
        areas: Vec::new(),
        skipped: Vec::new(),
        missing: Vec::new(),
        files: descs.files.len(),
        desc_ops: descs.ops.len(),
        routes: 0,
        routes_covered: 0,
    };
    for api in &ir.apis {
        let prefix = &api.prefix.value;
        let ops = api.areas.iter().flat_map(|a| &a.operations);
        if !ops.clone().any(|op| index.contains_key(&key(prefix, op))) {
            out.skipped.push((api.name.clone(), ops.count()));
            continue;
        }
        for area in api.areas.iter().filter(|a| !a.operations.is_empty()) {
            let name = format!("{}/{}", api.name, area.name);
            out.areas.push(audit_area(
                name,
                prefix,
                &api.media_vendor.value,
                &area.operations,
                &index,
            ));
        }
    }
    let spec_keys: BTreeSet<(String, String)> = ir
        .apis
        .iter()
        .flat_map(|api| {
            let ops = api.areas.iter().flat_map(|a| &a.operations);
            ops.map(|op| key(&api.prefix.value, op))
        })
        .collect();
    out.missing = missing(descs, &spec_keys);
    let live: BTreeSet<(String, String)> = descs
        .ops
        .iter()
        .filter(|d| !d.deprecated)
        .map(|d| d.key())
        .collect();
    out.routes = live.len();
    out.routes_covered = live.iter().filter(|k| spec_keys.contains(*k)).count();
    out
}

/// An operation's `(METHOD, path)` with the API prefix and `{}` for every parameter.
fn key(prefix: &str, op: &OpIr) -> (String, String) {
    let path = format!("{prefix}{}", op.path);
    (op.method.as_str().to_owned(), normalise_path(&path))
}

fn audit_area(name: String, prefix: &str, vendor: &str, ops: &[OpIr], index: &Index) -> AreaAudit {
    let mut audit = AreaAudit {
        name,
        ops: ops.len(),
        matched: 0,
        coverage: Coverage::default(),
        findings: Vec::new(),
    };
    // An operation split by version is one route of the description: its versions and its
    // success statuses are those of every spec operation on the route.
    let mut by_route: BTreeMap<(String, String), Route<'_>> = BTreeMap::new();
    for op in ops {
        let route = by_route.entry(key(prefix, op)).or_default();
        route.versions.extend(op.versions.iter());
        route.statuses.extend(
            op.responses
                .iter()
                .map(|r| r.status)
                .filter(|s| (200..300).contains(s)),
        );
    }
    for op in ops {
        let d = index.get(&key(prefix, op));
        let diffs = match d {
            Some(d) => compare(op, &by_route[&key(prefix, op)], vendor, d),
            None => vec![Diff(
                FindingKind::Unlisted,
                String::new(),
                String::new(),
                false,
            )],
        };
        audit.matched += usize::from(d.is_some());
        if let Some(d) = d {
            cover(&mut audit.coverage, op, d);
        }
        for Diff(kind, spec, description, info) in diffs {
            audit.findings.push(Finding {
                area: audit.name.clone(),
                id: op.id.clone(),
                method: op.method.as_str().to_owned(),
                path: format!("{prefix}{}", op.path),
                kind,
                spec,
                description,
                source: d.map(|d| d.source()).unwrap_or_default(),
                info,
            });
        }
    }
    audit
}

/// Whether a JSON body's type is raw JSON (`json`, a not-shown shape, or a list or map of them).
fn raw_json(ty: Option<&TypeRef>) -> bool {
    match ty {
        None | Some(TypeRef::Json | TypeRef::NotShown(_)) => true,
        Some(TypeRef::Array(inner) | TypeRef::Map(inner)) => raw_json(Some(inner)),
        Some(_) => false,
    }
}

fn cover(c: &mut Coverage, op: &OpIr, d: &DescOp) {
    if d.request_schema {
        c.request_declared += 1;
        match &op.request {
            Some(b) if b.kind == BodyKind::Json && raw_json(b.ty.as_ref()) => {
                c.raw.push(format!("{} request", op.id))
            }
            _ => c.request_typed += 1,
        }
    }
    if d.response_schema {
        c.response_declared += 1;
        if op.success.kind == ResponseKind::Json && raw_json(op.success.ty.as_ref()) {
            c.raw.push(format!("{} response", op.id));
        } else {
            c.response_typed += 1;
        }
    }
}

/// The description operations whose `(METHOD, path)` no spec operation has.
fn missing(descs: &Descriptions, spec_keys: &BTreeSet<(String, String)>) -> Vec<Finding> {
    descs
        .ops
        .iter()
        .filter(|d| !spec_keys.contains(&d.key()))
        .map(|d| Finding {
            area: String::new(),
            id: String::new(),
            method: d.method.clone(),
            path: d.path.clone(),
            kind: FindingKind::Missing,
            spec: String::new(),
            description: d.operation_id.clone(),
            source: d.source(),
            // A deprecated route the spec lacks is worth knowing, not a gap.
            info: d.deprecated,
        })
        .collect()
}

/// The spec operations on one method and path: an operation whose versions have their own
/// types (or answer with their own status) is split into one operation per version.
#[derive(Default)]
struct Route<'a> {
    versions: Vec<&'a VersionIr>,
    /// The 2xx statuses of all of them.
    statuses: BTreeSet<u16>,
}

/// Every difference between a spec operation and its description, in kind order.
fn compare(op: &OpIr, route: &Route<'_>, vendor: &str, d: &DescOp) -> Vec<Diff> {
    let versions_ = &route.versions;
    let mut out: Vec<Diff> = [
        status(&route.statuses, d),
        request_media(op, versions_, vendor, d),
        response_media(op, versions_, vendor, d),
        versions(versions_, vendor, d),
        request_body(op, d),
    ]
    .into_iter()
    .flatten()
    .collect();
    out.extend(content_kind(op, d));
    out.extend(paging(op, d));
    out.extend(error_body(op, d));
    out
}

/// `a, b`, or `none` for an empty list.
fn join<I: IntoIterator<Item = S>, S: ToString>(items: I) -> String {
    let items: Vec<String> = items.into_iter().map(|s| s.to_string()).collect();
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// `v1.1` of `application/vnd.<vendor>.v1.1+json` (any main type and suffix).
pub fn version_of(media: &str, vendor: &str) -> Option<String> {
    let (_, sub) = media.split_once('/')?;
    let rest = sub.strip_prefix(&format!("vnd.{vendor}."))?;
    let label = rest.split('+').next()?;
    let digits = label.strip_prefix('v')?;
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .then(|| label.to_owned())
}

/// The media types that are not vendor versions (those belong to `versions`).
fn unversioned<'a>(media: &'a BTreeSet<String>, vendor: &str) -> BTreeSet<&'a str> {
    media
        .iter()
        .filter(|m| version_of(m, vendor).is_none())
        .map(String::as_str)
        .collect()
}

fn status(spec: &BTreeSet<u16>, d: &DescOp) -> Option<Diff> {
    (*spec != d.statuses).then(|| Diff(FindingKind::Status, join(spec), join(&d.statuses), false))
}

fn spec_content_types(versions: &[&VersionIr]) -> BTreeSet<String> {
    versions
        .iter()
        .filter_map(|v| v.content_type.clone())
        .collect()
}

/// Only when both sides have a body; differences in versioned types are `versions`.
fn request_media(op: &OpIr, versions: &[&VersionIr], vendor: &str, d: &DescOp) -> Option<Diff> {
    let (Some(_), Some(body)) = (&op.request, &d.request) else {
        return None;
    };
    let spec = spec_content_types(versions);
    (unversioned(&spec, vendor) != unversioned(&body.media, vendor)).then(|| {
        Diff(
            FindingKind::RequestMedia,
            join(&spec),
            join(&body.media),
            false,
        )
    })
}

/// The media types of all 2xx responses.
fn desc_success_media(d: &DescOp) -> BTreeSet<String> {
    d.success_media.values().flatten().cloned().collect()
}

/// Only when both sides answer with content; `*/*` makes a difference info.
fn response_media(op: &OpIr, versions: &[&VersionIr], vendor: &str, d: &DescOp) -> Option<Diff> {
    let desc = desc_success_media(d);
    if op.success.kind == ResponseKind::Empty || desc.is_empty() {
        return None;
    }
    let spec: BTreeSet<String> = versions.iter().map(|v| v.accept.clone()).collect();
    let mut theirs = unversioned(&desc, vendor);
    let any = theirs.remove("*/*");
    // A spec that accepts `*/*` takes whatever the service sends.
    let spec_any = spec.contains("*/*");
    (unversioned(&spec, vendor) != theirs).then(|| {
        let mut shown = join(&desc);
        if any {
            shown.push_str(" [info: */* is any]");
        } else if spec_any {
            shown.push_str(" [info: the client accepts any]");
        }
        Diff(
            FindingKind::ResponseMedia,
            join(&spec),
            shown,
            any || spec_any,
        )
    })
}

fn versions(versions: &[&VersionIr], vendor: &str, d: &DescOp) -> Option<Diff> {
    let spec: BTreeSet<String> = versions
        .iter()
        .flat_map(|v| v.content_type.iter().chain([&v.accept]))
        .filter_map(|m| version_of(m, vendor))
        .collect();
    let desc: BTreeSet<String> = d
        .request
        .iter()
        .flat_map(|b| b.media.iter())
        .chain(desc_success_media(d).iter())
        .filter_map(|m| version_of(m, vendor))
        .collect();
    (spec != desc).then(|| Diff(FindingKind::Versions, join(&spec), join(&desc), false))
}

fn required(required: bool) -> &'static str {
    if required { "required" } else { "optional" }
}

fn request_body(op: &OpIr, d: &DescOp) -> Option<Diff> {
    let spec = op.request.as_ref().map(|b| b.required);
    let desc = d.request.as_ref().map(|b| b.required);
    let show = |r: Option<bool>| r.map_or("none".to_owned(), |r| format!("body ({})", required(r)));
    (spec != desc).then(|| Diff(FindingKind::RequestBody, show(spec), show(desc), false))
}

/// `json` for any `*json`, `multipart` for `multipart/*`, `form` for URL-encoded forms,
/// `binary` otherwise.
fn request_kind(media: &str) -> &'static str {
    if media.starts_with("multipart/") {
        "multipart"
    } else if media.ends_with("json") {
        "json"
    } else if media == "application/x-www-form-urlencoded" {
        "form"
    } else {
        "binary"
    }
}

/// `json`, `text` for `text/*`, `any` for `*/*`, `binary` otherwise.
fn response_kind(media: &str) -> &'static str {
    if media == "*/*" {
        "any"
    } else if media.ends_with("json") {
        "json"
    } else if media.starts_with("text/") {
        "text"
    } else {
        "binary"
    }
}

/// The request kind when both sides have a body that names a media type; the response kind
/// unless the description accepts anything.
fn content_kind(op: &OpIr, d: &DescOp) -> Vec<Diff> {
    let mut out = Vec::new();
    if let (Some(b), Some(body)) = (&op.request, &d.request)
        && !body.media.is_empty()
    {
        let desc: BTreeSet<&str> = body.media.iter().map(|m| request_kind(m)).collect();
        if !desc.contains(b.kind.as_str()) {
            let spec = format!("request {}", b.kind.as_str());
            out.push(Diff(
                FindingKind::ContentKind,
                spec,
                format!("request {}", join(&desc)),
                false,
            ));
        }
    }
    let desc: BTreeSet<&str> = d
        .success_media
        .values()
        .flat_map(|media| match media.is_empty() {
            true => vec!["empty"],
            false => media.iter().map(|m| response_kind(m)).collect(),
        })
        .collect();
    if !desc.is_empty() && !desc.contains("any") && !desc.contains(op.success.kind.as_str()) {
        let spec = format!("response {}", op.success.kind.as_str());
        // The descriptions declare JSON for their CSV exports although these stream CSV (see the
        // descriptions' README): a text answer there is the known oddity, not a disagreement.
        let csv_export = op.success.kind == ResponseKind::Text
            && (op.path.ends_with("/csvFiles") || op.path.ends_with("/csvFile"));
        let shown = match csv_export {
            true => format!(
                "response {} [info: a CSV export declared as JSON]",
                join(&desc)
            ),
            false => format!("response {}", join(&desc)),
        };
        out.push(Diff(FindingKind::ContentKind, spec, shown, csv_export));
    }
    out
}

/// Reported when both sides have a clear answer that differs, or when the description clearly
/// pages and the spec does not; a paged spec operation whose description shows no clear shape
/// is info.
fn paging(op: &OpIr, d: &DescOp) -> Option<Diff> {
    let spec = op.pagination.as_ref();
    let spec_shown = spec.map_or("none".to_owned(), |p| {
        format!("{}:{}", p.style.as_str(), p.items)
    });
    let desc = d.paging.as_ref();
    let desc_shown = desc.map_or("none".to_owned(), |p| {
        format!("{}:{}", p.style.as_str(), p.items.as_deref().unwrap_or("?"))
    });
    let differs = match (spec, desc) {
        (None, None) => return None,
        (Some(_), None) => {
            let shown = "no clear paging shape [info]".to_owned();
            return Some(Diff(FindingKind::Paging, spec_shown, shown, true));
        }
        (None, Some(_)) => true,
        (Some(s), Some(p)) => s.style != p.style || p.items.as_ref().is_some_and(|i| *i != s.items),
    };
    differs.then_some(Diff(FindingKind::Paging, spec_shown, desc_shown, false))
}

fn error_body(op: &OpIr, d: &DescOp) -> Option<Diff> {
    if d.error_shapes.is_empty() || d.error_shapes.contains(&op.error_kind) {
        return None;
    }
    let spec = format!("{} ({})", op.error_kind.as_str(), op.error_family);
    let desc = join(d.error_shapes.iter().map(|k| k.as_str()));
    Some(Diff(FindingKind::ErrorBody, spec, desc, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_any_vendor_media_type() {
        let v = |m| version_of(m, "ruckus");
        assert_eq!(v("application/vnd.ruckus.v1+json").as_deref(), Some("v1"));
        assert_eq!(
            v("application/vnd.ruckus.v1.1+json").as_deref(),
            Some("v1.1")
        );
        assert_eq!(v("text/vnd.ruckus.v1+csv").as_deref(), Some("v1"));
        assert_eq!(v("application/json"), None);
        assert_eq!(v("application/vnd.other.v1+json"), None);
        assert_eq!(v("application/ruckus.one.v1-synchronous+json"), None);
    }

    #[test]
    fn media_types_map_to_kinds() {
        assert_eq!(
            request_kind("multipart/vnd.ruckus.v1+form-data"),
            "multipart"
        );
        assert_eq!(request_kind("application/vnd.ruckus.v1.1+json"), "json");
        assert_eq!(request_kind("application/x-www-form-urlencoded"), "form");
        assert_eq!(request_kind("image/png"), "binary");
        assert_eq!(response_kind("text/vnd.ruckus.v1+csv"), "text");
        assert_eq!(response_kind("application/hal+json"), "json");
        assert_eq!(response_kind("*/*"), "any");
        assert_eq!(response_kind("application/x-pkcs12"), "binary");
    }
}
