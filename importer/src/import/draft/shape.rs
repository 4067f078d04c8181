//! The facts of one drafted route: parameters, bodies, statuses, media types, paging.

use super::Route;
use super::multipart;
use crate::audit::openapi::DescPaging;
use crate::openapi::{MediaType, Schema};
use indexmap::IndexMap;
use ruckus_codegen::spec::{
    BodyKind, MediaTypeEntry, PageStyle, Pagination, ParamLocation, Parameter, Part, RequestBody,
    Response, ResponseKind, SplitMediaType, TypeExpr,
};
use ruckus_codegen::{RESERVED_BUILDER_METHODS, names};
use std::collections::BTreeSet;

/// Headers the runtime sets on every request; the spec's delegated tenant header
/// (`auth.tenant_header`) is one too.
const RUNTIME_HEADERS: &[&str] = &["authorization", "content-type", "accept"];

/// Whether the client sets the header `name` itself (case ignored): a description's parameter
/// of that name is not drafted.
fn own_header(name: &str, tenant_header: &str) -> bool {
    let name = name.to_lowercase();
    RUNTIME_HEADERS.contains(&name.as_str()) || name == tenant_header.to_lowercase()
}

/// Path parameters (every placeholder, in path order), then query and header parameters in
/// description order.
pub fn parameters(r: &Route<'_>) -> Vec<Parameter> {
    let declared: Vec<_> =
        r.op.parameters
            .iter()
            .filter_map(|p| r.doc.parameter(p))
            .collect();
    let mut out = Vec::new();
    for ph in placeholders(r.path) {
        out.push(param(&ph, ParamLocation::Path, "string", true));
    }
    let mut seen = BTreeSet::new();
    for p in declared {
        let (Some(name), Some(location)) = (p.name.as_deref(), p.location.as_deref()) else {
            continue;
        };
        let location = match location {
            "query" => ParamLocation::Query,
            "header" if !own_header(name, r.tenant_header) => ParamLocation::Header,
            _ => continue,
        };
        if name.is_empty() || name.chars().any(char::is_control) || !seen.insert(name) {
            continue;
        }
        let ty = p.schema.as_ref().map_or("string", |s| scalar(r, s));
        out.push(param(name, location, ty, p.required));
    }
    out
}

fn param(name: &str, location: ParamLocation, ty: &str, required: bool) -> Parameter {
    let rust = names::snake(name).unwrap_or_default();
    Parameter {
        name: name.to_owned(),
        location,
        rust_name: RESERVED_BUILDER_METHODS
            .contains(&rust.as_str())
            .then(|| format!("{rust}_param")),
        ty: TypeExpr::Name(ty.to_owned()),
        required: required || location == ParamLocation::Path,
        description: None,
        provenance: None,
        constraints: Default::default(),
    }
}

/// The spec scalar for a parameter schema (`string` for anything else).
fn scalar(r: &Route<'_>, s: &Schema) -> &'static str {
    let s = r.doc.resolve(s);
    match (s.single_type(), s.format.as_deref()) {
        (Some("integer"), Some("int64")) => "int64",
        (Some("integer"), _) => "integer",
        (Some("number"), _) => "number",
        (Some("boolean"), _) => "boolean",
        _ => "string",
    }
}

/// `{a}` and `{b}` of `/x/{a}/y/{b}`, in order.
fn placeholders(path: &str) -> Vec<String> {
    path.split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(name, _)| name.to_owned()))
        .collect()
}

/// The bodies of a route.
pub struct Bodies<'v> {
    pub request: Option<RequestBody>,
    pub responses: Vec<Response>,
    pub media_types: Vec<MediaTypeEntry>,
    /// Whether `media_types` lists vendor versions (then it has a provenance).
    pub versioned: bool,
    pub request_schema: Option<&'v Schema>,
    pub response_schema: Option<&'v Schema>,
}

fn is_json(media: &str) -> bool {
    media.ends_with("json") || media == "*/*"
}

/// The media type the spec writes for a JSON one: a vendor version, else plain JSON.
fn spec_media(media: &str, vendor: &str) -> String {
    let versioned = media
        .strip_prefix(&format!("application/vnd.{vendor}."))
        .and_then(|rest| rest.strip_suffix("+json"))
        .is_some_and(|v| {
            v.starts_with('v') && v[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
        });
    if versioned {
        media.to_owned()
    } else {
        "application/json".to_owned()
    }
}

/// The request body, the success answers and the media types of a route.
pub fn bodies<'v>(r: &Route<'v>, vendor: &str) -> Result<Bodies<'v>, String> {
    let body =
        r.op.request_body
            .as_ref()
            .and_then(|b| r.doc.request_body(b));
    let req_json: BTreeSet<String> = body
        .map(|b| json_media(&b.content, vendor))
        .unwrap_or_default();
    let mut successes = Vec::new();
    for (status, resp) in &r.op.responses {
        if (200..300).contains(status) {
            let content = r.doc.response(resp).map(|x| &x.content);
            successes.push((*status, content));
        }
    }
    let resp_json: BTreeSet<String> = successes
        .iter()
        .filter(|(s, _)| *s != 204)
        .filter_map(|(_, c)| *c)
        .flat_map(|c| json_media(c, vendor))
        .collect();
    let (mut media_types, mut versioned) = media_types(&req_json, &resp_json);
    let default = |set: &BTreeSet<String>| {
        media_types
            .first()
            .and_then(|m| match m {
                MediaTypeEntry::Both(s) => Some(s.clone()),
                MediaTypeEntry::Split(s) => s.content_type.clone().or(s.accept.clone()),
            })
            .filter(|m| set.contains(m))
            .unwrap_or_else(|| "application/json".to_owned())
    };
    let (request, request_schema) = match body {
        None => (None, None),
        Some(b) => request(&b.content, b.required, &default(&req_json)),
    };
    let (responses, response_schema) = responses(&successes, &default(&resp_json));
    if let (
        Some(b),
        Some(RequestBody {
            kind: Some(BodyKind::Multipart),
            ..
        }),
    ) = (body, &request)
    {
        let versions = multipart::versions(&b.content, vendor);
        let plain_body = b
            .content
            .keys()
            .any(|k| k.starts_with("multipart/") && !versions.contains(k));
        versioned |= !versions.is_empty();
        let json_answer = resp_json.contains("application/json");
        media_types = multipart::join(media_types, &versions, plain_body, json_answer, vendor);
    }
    Ok(Bodies {
        request,
        responses,
        media_types,
        versioned,
        request_schema,
        response_schema,
    })
}

/// The JSON media types of a body, as the spec writes them.
fn json_media(content: &IndexMap<String, MediaType>, vendor: &str) -> BTreeSet<String> {
    content
        .keys()
        .filter(|k| is_json(k))
        .map(|k| spec_media(k, vendor))
        .collect()
}

/// `v1.1` -> `[1, 1]`, for ordering versions.
fn version_key(media: &str) -> Vec<u32> {
    media
        .split('.')
        .filter_map(|p| p.trim_start_matches('v').split('+').next()?.parse().ok())
        .collect()
}

/// The media types to offer: every vendor version (highest first, the default), then plain
/// JSON where offered; none when only plain JSON is.
fn media_types(req: &BTreeSet<String>, resp: &BTreeSet<String>) -> (Vec<MediaTypeEntry>, bool) {
    let all: BTreeSet<&String> = req.iter().chain(resp).collect();
    if all.iter().all(|m| *m == "application/json") {
        return (Vec::new(), false);
    }
    let mut ordered: Vec<&String> = all.into_iter().collect();
    ordered.sort_by(|a, b| {
        let plain = |m: &str| m == "application/json";
        plain(a)
            .cmp(&plain(b))
            .then_with(|| version_key(b).cmp(&version_key(a)))
    });
    let out = ordered
        .into_iter()
        .map(|m| {
            let in_req = req.is_empty() || req.contains(m);
            let in_resp = resp.is_empty() || resp.contains(m);
            match (in_req, in_resp) {
                (true, true) => MediaTypeEntry::Both(m.clone()),
                (true, false) => MediaTypeEntry::Split(SplitMediaType {
                    content_type: Some(m.clone()),
                    accept: None,
                }),
                _ => MediaTypeEntry::Split(SplitMediaType {
                    content_type: None,
                    accept: Some(m.clone()),
                }),
            }
        })
        .collect();
    (out, true)
}

/// The schema of `media` in a body's content, else of any JSON media type.
fn schema_of<'v>(content: &'v IndexMap<String, MediaType>, media: &str) -> Option<&'v Schema> {
    content
        .iter()
        .find(|(k, _)| *k == media)
        .or_else(|| content.iter().find(|(k, _)| is_json(k)))
        .and_then(|(_, m)| m.schema.as_ref())
}

fn request<'v>(
    content: &'v IndexMap<String, MediaType>,
    required: bool,
    media: &str,
) -> (Option<RequestBody>, Option<&'v Schema>) {
    let mut body = RequestBody {
        kind: None,
        ty: None,
        required,
        media_type: None,
        parts: Vec::new(),
        description: None,
        provenance: None,
    };
    let first = content.keys().next().map(String::as_str);
    match first {
        None => {
            body.ty = Some(TypeExpr::Name("json".into()));
            (Some(body), None)
        }
        Some(_) if content.keys().any(|k| is_json(k)) => {
            body.ty = Some(TypeExpr::Name("json".into()));
            (Some(body), schema_of(content, media))
        }
        Some(m) if m.starts_with("multipart/") => {
            body.kind = Some(BodyKind::Multipart);
            body.parts = vec![Part {
                name: "file".into(),
                description: None,
            }];
            (Some(body), None)
        }
        Some(m) => {
            body.kind = Some(BodyKind::Binary);
            body.media_type = Some(m.to_owned());
            (Some(body), None)
        }
    }
}

/// The success answers: one shape for all, and beside a JSON answer the empty statuses (such as
/// a `204`) the route also answers; a route without one answers an empty 200.
fn responses<'v>(
    successes: &[(u16, Option<&'v IndexMap<String, MediaType>>)],
    media: &str,
) -> (Vec<Response>, Option<&'v Schema>) {
    let empty = |status| Response {
        status,
        kind: None,
        ty: None,
        media_type: None,
        description: None,
        provenance: None,
    };
    let with_body = successes
        .iter()
        .find(|(s, c)| *s != 204 && c.is_some_and(|c| !c.is_empty()));
    let Some((_, Some(content))) = with_body else {
        let mut out: Vec<Response> = successes.iter().map(|(s, _)| empty(*s)).collect();
        if out.is_empty() {
            out.push(Response {
                provenance: Some(
                    "inferred: the official description lists no success status; 200 assumed"
                        .into(),
                ),
                ..empty(200)
            });
        }
        return (out, None);
    };
    let first = content.keys().next().cloned().unwrap_or_default();
    let (kind, media_type, schema) = if content.keys().any(|k| is_json(k)) {
        (None, None, schema_of(content, media))
    } else if first.starts_with("text/") {
        let m = (first != "text/plain").then_some(first);
        (Some(ResponseKind::Text), m, None)
    } else {
        (Some(ResponseKind::Binary), Some(first), None)
    };
    let has_body = |s: u16, c: Option<&IndexMap<String, MediaType>>| {
        s != 204 && c.is_some_and(|c| !c.is_empty())
    };
    let out = successes
        .iter()
        .filter_map(|(s, c)| match (has_body(*s, *c), kind) {
            (true, _) => Some(Response {
                kind,
                ty: kind.is_none().then(|| TypeExpr::Name("json".into())),
                media_type: media_type.clone(),
                ..empty(*s)
            }),
            // An empty status beside a JSON answer stays (the client takes either); beside a
            // text or binary answer it is dropped, since the spec has one success shape.
            (false, None) => Some(empty(*s)),
            (false, Some(_)) => None,
        })
        .collect();
    (out, schema)
}

/// Paging where the description shows a shape the spec's `pagination` supports.
pub fn pagination(paging: Option<DescPaging>, source: &str) -> Option<Pagination> {
    let p = paging?;
    let items = p.items?;
    let first_page = (p.style == PageStyle::Spring).then_some(0);
    Some(Pagination {
        style: p.style,
        items,
        first_page,
        item_type: None,
        columns: Vec::new(),
        provenance: Some(format!("reference: {source}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn vendor_versions_come_first_highest_first_then_plain_json() {
        let v1 = "application/vnd.ruckus.v1+json";
        let v11 = "application/vnd.ruckus.v1.1+json";
        let json = "application/json";
        let (out, versioned) = media_types(&set(&[v1, v11, json]), &set(&[v1, json]));
        assert!(versioned);
        let shown: Vec<String> = out
            .iter()
            .map(|m| match m {
                MediaTypeEntry::Both(s) => s.clone(),
                MediaTypeEntry::Split(s) => format!("{:?}/{:?}", s.content_type, s.accept),
            })
            .collect();
        assert_eq!(
            shown,
            [
                format!("{:?}/None", Some(v11)),
                v1.to_owned(),
                json.to_owned()
            ]
        );
        assert!(media_types(&set(&[json]), &set(&[json])).0.is_empty());
    }

    #[test]
    fn json_flavours_other_than_vendor_versions_are_plain_json() {
        assert_eq!(
            spec_media("application/hal+json", "ruckus"),
            "application/json"
        );
        assert_eq!(
            spec_media("application/vnd.ruckus.v1+json", "ruckus"),
            "application/vnd.ruckus.v1+json"
        );
        assert_eq!(
            spec_media("application/ruckus.one.v1-synchronous+json", "ruckus"),
            "application/json"
        );
    }

    /// Issue 48: a `204` beside a JSON answer was dropped, so nine drafts declared one of their
    /// two success statuses; beside a text answer it still is (one success shape).
    #[test]
    fn an_empty_204_stays_beside_a_json_answer() {
        let content = |media: &str| {
            let mut c = IndexMap::new();
            c.insert(media.to_owned(), MediaType { schema: None });
            c
        };
        let json = content("application/json");
        let (out, _) = responses(&[(200, Some(&json)), (204, None)], "application/json");
        let shown: Vec<(u16, bool)> = out.iter().map(|r| (r.status, r.ty.is_some())).collect();
        assert_eq!(shown, [(200, true), (204, false)]);
        let text = content("text/csv");
        let (out, _) = responses(&[(200, Some(&text)), (204, None)], "application/json");
        assert_eq!(out.iter().map(|r| r.status).collect::<Vec<_>>(), [200]);
    }

    #[test]
    fn placeholders_in_path_order() {
        assert_eq!(placeholders("/a/{x}/b/{y}"), ["x", "y"]);
        assert!(placeholders("/a").is_empty());
    }
}
