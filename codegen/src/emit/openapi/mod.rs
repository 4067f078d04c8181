//! OpenAPI 3.1 export: one description per API (`openapi/<api>.yaml`) of what the generated
//! client sends and accepts: servers, the token flow, every generated operation (removed ones
//! are left out, experimental ones tagged) with its parameters, bodies and responses per media
//! type and version, and a schema per named type. Provenance travels as `x-provenance` in the
//! spec's own notation.
//!
//! The document is built as a YAML mapping, whose keys keep their insertion order, so the output
//! is deterministic and reads in spec order. Spec prose (titles, descriptions, notes) passes
//! through [`prose`], the rule of the Rust and Markdown outputs: no raw HTML, no links, nothing
//! that starts a block; the export's own Markdown (lists, code spans) is written around it.

mod schema;
mod yaml;

use super::describe::{self, Style};
use super::text::{PREAMBLE, code, prose};
use crate::ir::{
    ApiIr, AreaIr, AuthKind, BodyIr, BodyKind, Ir, Lifecycle, OpIr, ParamIr, Provenance,
    ResponseIr, ResponseKind, VersionIr,
};
use schema::{constraints, schema_of, type_schema};
use serde_yaml::{Mapping, Value};
use std::collections::BTreeMap;
use yaml::{Obj, empty, reference, sentence, spec_provenance};

/// The security scheme name of the shared OAuth2 token flow.
const OAUTH: &str = "clientCredentials";
/// The security scheme name of a caller-supplied bearer token (the resident portal's unit token).
const BEARER: &str = "unitToken";
/// The tag of experimental operations.
const EXPERIMENTAL: &str = "experimental";

/// `(path relative to generated/, text)` for every API's export.
pub fn files(ir: &Ir) -> BTreeMap<String, String> {
    ir.apis
        .iter()
        .map(|api| {
            let yaml = serde_yaml::to_string(&document(ir, api))
                .expect("a YAML value of strings, numbers and mappings always serializes");
            (
                format!("openapi/{}.yaml", api.name),
                format!("# {PREAMBLE}\n{yaml}"),
            )
        })
        .collect()
}

fn document(ir: &Ir, api: &ApiIr) -> Value {
    let scheme = match api.auth.value {
        AuthKind::ClientCredentials => OAUTH,
        AuthKind::UnitToken => BEARER,
    };
    let security = vec![Value::from(Obj::new().set(scheme, Vec::<Value>::new()))];
    Obj::new()
        .set("openapi", "3.1.0")
        .set("info", info(ir, api))
        .set("servers", servers(api))
        .set("security", security)
        .set("tags", tags(api))
        .set("paths", paths(api))
        .set("components", components(ir, api, scheme))
        .into()
}

fn info(ir: &Ir, api: &ApiIr) -> Obj {
    let description = format!(
        "{}\n\nExported from the curated spec the `{}` client crate is generated from: every \
         operation the client offers, with the facts' provenance in `x-provenance` \
         (`documented`, `inferred: <why>` or `reference: <section>`).",
        prose(&api.description),
        ir.krate.name
    );
    Obj::new()
        .set("title", prose(&api.title))
        .set("version", ir.krate.version.as_str())
        .set("description", description)
}

/// The regional hosts with the API's prefix; regions sharing a host share an entry.
fn servers(api: &ApiIr) -> Vec<Value> {
    let regions = [
        ("North America", &api.hosts.north_america),
        ("Europe", &api.hosts.europe),
        ("Asia", &api.hosts.asia),
    ];
    let mut urls: Vec<(String, Vec<&str>)> = Vec::new();
    for (region, host) in regions {
        let url = format!("{}{}", host.trim_end_matches('/'), api.prefix.value);
        match urls.iter_mut().find(|(u, _)| *u == url) {
            Some((_, names)) => names.push(region),
            None => urls.push((url, vec![region])),
        }
    }
    urls.into_iter()
        .map(|(url, names)| {
            let description = format!(
                "{}. The client's base URL is a setting: any other host (a proxy, a test \
                 server) can take its place.",
                names.join(", ")
            );
            Obj::new()
                .set("url", url)
                .set("description", description)
                .set("x-provenance", spec_provenance(&api.hosts.provenance))
                .into()
        })
        .collect()
}

/// One tag per area with generated operations, and `experimental` when some operation is.
fn tags(api: &ApiIr) -> Vec<Value> {
    let mut out: Vec<Value> = api
        .areas
        .iter()
        .filter(|a| a.operations.iter().any(OpIr::is_generated))
        .map(|a| {
            Obj::new()
                .set("name", a.name.as_str())
                .set("description", prose(&a.title))
                .into()
        })
        .collect();
    let experimental = api
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .any(|o| matches!(o.lifecycle, Lifecycle::Experimental { .. }));
    if experimental {
        out.push(
            Obj::new()
                .set("name", EXPERIMENTAL)
                .set(
                    "description",
                    "May change without notice; the client offers these operations behind its \
                     `experimental` cargo feature.",
                )
                .into(),
        );
    }
    out
}

/// Path items in the order their first operation appears. OpenAPI has one operation per method
/// and path; a second operation on the same route (the spec allows one with other media types)
/// is listed in the first one's `x-same-route`.
fn paths(api: &ApiIr) -> Mapping {
    let mut paths = Mapping::new();
    for area in &api.areas {
        for op in area.operations.iter().filter(|o| o.is_generated()) {
            let item = paths
                .entry(op.path.as_str().into())
                .or_insert_with(|| Value::Mapping(Mapping::new()));
            let Value::Mapping(item) = item else {
                unreachable!("path items are mappings")
            };
            let method = Value::from(op.method.as_str().to_lowercase());
            let operation = Value::from(operation(api, area, op));
            match item.get_mut(&method) {
                Some(Value::Mapping(first)) => {
                    let same = first
                        .entry("x-same-route".into())
                        .or_insert_with(|| Value::Sequence(Vec::new()));
                    if let Value::Sequence(list) = same {
                        list.push(operation);
                    }
                }
                _ => {
                    item.insert(method, operation);
                }
            }
        }
    }
    paths
}

fn operation(api: &ApiIr, area: &AreaIr, op: &OpIr) -> Obj {
    let experimental = matches!(op.lifecycle, Lifecycle::Experimental { .. });
    let mut tags = vec![Value::from(area.name.as_str())];
    if experimental {
        tags.push(EXPERIMENTAL.into());
    }
    let params: Vec<Value> = op
        .path_params
        .iter()
        .chain(&op.query)
        .chain(&op.headers)
        .map(parameter)
        .collect();
    let removal = match &op.lifecycle {
        Lifecycle::Deprecated { removal, .. } => removal.clone(),
        _ => None,
    };
    Obj::new()
        .set("operationId", op.id.as_str())
        .set("summary", prose(&op.name))
        .opt("description", operation_description(op))
        .set("tags", tags)
        .when(
            matches!(op.lifecycle, Lifecycle::Deprecated { .. }),
            "deprecated",
            true,
        )
        .when(!params.is_empty(), "parameters", params)
        .opt(
            "requestBody",
            op.request.as_ref().map(|b| request_body(op, b)),
        )
        .set("responses", responses(api, op))
        .set("x-provenance", spec_provenance(&op.provenance))
        .when(experimental, "x-experimental", true)
        .opt("x-removal", removal)
        .set("x-error-family", op.error_family.as_str())
        .when(op.asynchronous, "x-asynchronous", true)
        .opt(
            "x-pagination",
            op.pagination.as_ref().map(|p| {
                Obj::new()
                    .set("style", p.style.as_str())
                    .set("items", p.items.as_str())
                    .set("first_page", p.first_page)
                    .set("x-provenance", spec_provenance(&p.provenance))
            }),
        )
}

/// The operation's description, lifecycle and notes as one text, if it has any.
fn operation_description(op: &OpIr) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(d) = &op.description {
        parts.push(prose(d));
    }
    if !matches!(op.lifecycle, Lifecycle::Stable) {
        parts.push(sentence(&format!(
            "Lifecycle: {}",
            prose(&op.lifecycle.describe())
        )));
    }
    if !op.notes.is_empty() {
        let notes: Vec<String> = op.notes.iter().map(|n| format!("- {}", prose(n))).collect();
        parts.push(format!("Notes:\n{}", notes.join("\n")));
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

fn parameter(p: &ParamIr) -> Value {
    let mut schema = schema_of(&p.ty);
    constraints(&mut schema, &p.constraints, &p.ty);
    Obj::new()
        .set("name", p.wire.as_str())
        .set("in", p.location.as_str())
        .set("required", p.required)
        .opt("description", p.description.as_deref().map(prose))
        .set("schema", schema)
        .when(
            !matches!(p.provenance, Provenance::Documented),
            "x-provenance",
            spec_provenance(&p.provenance),
        )
        .into()
}

/// The distinct values of one side of the operation's versions, each with the version labels
/// that use it (labels only when the operation offers several versions).
fn media_types<'o>(
    op: &'o OpIr,
    side: impl Fn(&'o VersionIr) -> Option<&'o str>,
) -> Vec<(&'o str, Vec<&'o str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for v in &op.versions {
        let Some(mt) = side(v) else { continue };
        match out.iter_mut().find(|(m, _)| *m == mt) {
            Some((_, labels)) => labels.push(&v.label),
            None => out.push((mt, vec![&v.label])),
        }
    }
    out
}

/// One `content` map: a media type object per media type, with its versions when several.
fn content(op: &OpIr, types: Vec<(&str, Vec<&str>)>, schema: Option<Value>) -> Mapping {
    let mut out = Mapping::new();
    for (mt, labels) in types {
        let labels: Vec<Value> = labels.into_iter().map(Value::from).collect();
        let entry = Obj::new().opt("schema", schema.clone()).when(
            op.versions.len() > 1,
            "x-versions",
            labels,
        );
        out.insert(mt.into(), entry.into());
    }
    out
}

fn request_body(op: &OpIr, b: &BodyIr) -> Value {
    let schema = match b.kind {
        BodyKind::Json | BodyKind::Form => Some(
            b.ty.as_ref()
                .map_or_else(empty, |t| Value::from(schema_of(t))),
        ),
        BodyKind::Multipart => {
            let mut props = Mapping::new();
            for (name, desc) in &b.parts {
                props.insert(
                    name.as_str().into(),
                    Obj::new()
                        .opt("description", desc.as_deref().map(prose))
                        .into(),
                );
            }
            Some(
                Obj::new()
                    .set("type", "object")
                    .set("properties", props)
                    .into(),
            )
        }
        BodyKind::Binary => None,
    };
    let types = media_types(op, |v| v.content_type.as_deref());
    Obj::new()
        .opt("description", b.description.as_deref().map(prose))
        .set("required", b.required)
        .set("content", content(op, types, schema))
        .into()
}

fn responses(api: &ApiIr, op: &OpIr) -> Mapping {
    let mut out = Mapping::new();
    for r in &op.responses {
        out.insert(r.status.to_string().into(), response(op, r).into());
    }
    if api.families.iter().any(|f| f.name == op.error_family) {
        let error = Obj::new().set(
            "$ref",
            format!(
                "#/components/responses/{}",
                error_response(&op.error_family)
            ),
        );
        out.insert("default".into(), error.into());
    }
    out
}

fn response(op: &OpIr, r: &ResponseIr) -> Obj {
    let description = match &r.description {
        Some(d) => prose(d),
        None => match r.kind {
            ResponseKind::Empty => "Success; no body.".to_owned(),
            _ => sentence(&format!(
                "Success: {}",
                describe::response_body(r, Style::Markdown)
            )),
        },
    };
    let schema = match r.kind {
        ResponseKind::Empty => None,
        ResponseKind::Json => Some(r.ty.as_ref().map_or_else(empty, |t| schema_of(t).into())),
        ResponseKind::Text => Some(Obj::new().set("type", "string").into()),
        ResponseKind::Binary => None,
    };
    let body = (r.kind != ResponseKind::Empty).then(|| {
        let types = if r.kind == op.success.kind {
            media_types(op, |v| Some(v.accept.as_str()))
        } else {
            vec![(r.media_type.as_str(), vec![])]
        };
        content(op, types, schema)
    });
    Obj::new()
        .set("description", description)
        .opt("content", body)
        .when(
            !matches!(r.provenance, Provenance::Documented),
            "x-provenance",
            spec_provenance(&r.provenance),
        )
}

/// The name of the shared response of an error family.
fn error_response(family: &str) -> String {
    format!("{family}_error")
}

fn components(ir: &Ir, api: &ApiIr, scheme: &str) -> Obj {
    let mut schemas = Mapping::new();
    for t in api.areas.iter().flat_map(|a| &a.types) {
        schemas.insert(t.name.as_str().into(), type_schema(t).into());
    }
    let mut errors = Mapping::new();
    for family in &api.families {
        let schema = family
            .body
            .as_deref()
            .map_or_else(empty, |b| reference(b).into());
        let mut json = Mapping::new();
        json.insert(
            "application/json".into(),
            Obj::new().set("schema", schema).into(),
        );
        let response = Obj::new()
            .set("description", sentence(&prose(&family.description)))
            .set("content", json)
            .set("x-error-family", family.name.as_str())
            .set("x-decoded-as", family.kind.as_str())
            .set("x-provenance", spec_provenance(&family.provenance));
        errors.insert(error_response(&family.name).into(), response.into());
    }
    let mut schemes = Mapping::new();
    schemes.insert(scheme.into(), security_scheme(ir, api).into());
    Obj::new()
        .set("schemas", schemas)
        .set("responses", errors)
        .set("securitySchemes", schemes)
}

fn security_scheme(ir: &Ir, api: &ApiIr) -> Obj {
    match api.auth.value {
        AuthKind::UnitToken => Obj::new()
            .set("type", "http")
            .set("scheme", "bearer")
            .set(
                "description",
                "A token the caller supplies (the client's `unit_token` setting), sent as \
                 `Authorization: Bearer <token>`.",
            )
            .set("x-provenance", spec_provenance(&api.auth.provenance)),
        AuthKind::ClientCredentials => {
            let host = api.hosts.north_america.trim_end_matches('/');
            let token_url = ir
                .auth
                .token_url_without_tenant
                .value
                .replace("{host}", host);
            let description = format!(
                "OAuth 2.0 client credentials; the token is sent as `Authorization: Bearer \
                 <token>`. The token URL is given for the North America host; other regions use \
                 their own host. With the owning tenant's id the client uses {} instead. \
                 A delegated tenant is selected with the {} header.",
                code(&ir.auth.token_url.value),
                code(&ir.auth.tenant_header.value)
            );
            let flow = Obj::new()
                .set("tokenUrl", token_url)
                .set("scopes", Mapping::new());
            Obj::new()
                .set("type", "oauth2")
                .set("description", description)
                .set("flows", Obj::new().set("clientCredentials", flow))
                .set(
                    "x-provenance",
                    spec_provenance(&ir.auth.token_url_without_tenant.provenance),
                )
        }
    }
}

/// The pieces of the export the catalog's route tables reuse (`emit/catalog`), so that what the
/// simulator, the command line and the MCP server check and send is exactly what the export
/// describes.
pub(crate) mod shared {
    use super::*;
    use crate::ir::{TypeIr, TypeRef};

    /// The export's schema of a named type.
    pub(crate) fn named_schema(t: &TypeIr) -> Value {
        type_schema(t).into()
    }

    /// The export's schema of a type reference.
    pub(crate) fn ref_schema(t: &TypeRef) -> Value {
        schema_of(t).into()
    }

    /// The export's schema of a parameter, with its constraints.
    pub(crate) fn param_schema(p: &ParamIr) -> Value {
        let mut schema = schema_of(&p.ty);
        constraints(&mut schema, &p.constraints, &p.ty);
        schema.into()
    }

    /// The distinct request media types of the operation's versions.
    pub(crate) fn request_types(op: &OpIr) -> Vec<String> {
        media_types(op, |v| v.content_type.as_deref())
            .into_iter()
            .map(|(m, _)| m.to_owned())
            .collect()
    }

    /// The distinct response media types of the operation's versions.
    pub(crate) fn response_types(op: &OpIr) -> Vec<String> {
        media_types(op, |v| Some(v.accept.as_str()))
            .into_iter()
            .map(|(m, _)| m.to_owned())
            .collect()
    }
}
