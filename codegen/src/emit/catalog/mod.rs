//! The operation catalog's tables (`catalog/<api>.json`, and `catalog/index.json`: where each
//! API's header, areas' routes and schemas are in its table, the model of `ruckus-one-catalog`):
//! per API its prefix, authentication, error families and rate limits, one route per generated
//! operation (summary, method, path, parameters, request and response media types and schemas,
//! statuses, versions, paging, whether it is asynchronous, its service, resource family and
//! role) and the export's schemas without their prose. The simulator, the command line and the
//! MCP server read them; nothing here is code. Also the coverage page
//! `docs/simulator-coverage.md`: what the simulator does and checks per operation.

mod columns;
mod command;
mod coverage;
mod family;

use super::openapi::shared::{
    named_schema, param_schema, ref_schema, request_types, response_types,
};
use super::text::PREAMBLE;
use crate::ir::{ApiIr, AuthIr, BodyKind, Ir, Lifecycle, OpIr, ParamIr, ResponseKind};
use family::Role;
use ruckus_one_catalog::{
    ApiIndex, ApiInfo, AreaIndex, ErrorFamily, Hosts, Paging, Param, RateLimit, RequestBody,
    ResponseBody, Route, Span, TenantLimit, TokenInfo, Version,
};
use serde_yaml::{Mapping, Value};
use std::collections::BTreeMap;

/// Keys of the export's schemas the tables leave out (prose and provenance): none of their
/// readers (the simulator, the command line, the MCP server) uses them.
const PROSE_KEYS: [&str; 5] = [
    "description",
    "x-provenance",
    "x-deprecation",
    "x-constraints",
    "deprecated",
];

/// `(path relative to generated/, text)` of every table and the coverage page.
pub fn files(ir: &Ir) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut roles = Vec::new();
    let mut index = Vec::new();
    let commands = command::names(ir);
    for api in &ir.apis {
        let api_roles = family::roles(api);
        let (text, api_index) = table(ir, api, &api_roles, &commands);
        out.insert(format!("catalog/{}.json", api.name), text);
        index.push(api_index);
        roles.push(api_roles);
    }
    out.insert("catalog/index.json".to_owned(), index_text(&index));
    out.insert(
        "docs/simulator-coverage.md".to_owned(),
        coverage::page(ir, &roles),
    );
    out
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
}

/// A schema of the export as JSON, without its prose.
fn schema(v: Value) -> serde_json::Value {
    serde_json::to_value(strip(v)).unwrap_or(serde_json::Value::Null)
}

/// The table, one route and one schema per line so that a spec change reads as a small diff,
/// and where its parts are in it (for the index).
fn table(
    ir: &Ir,
    api: &ApiIr,
    roles: &BTreeMap<String, (String, Role)>,
    commands: &command::Names,
) -> (String, ApiIndex) {
    let mut s = format!("{{\"generated\":{},\n\"api\":", json(&PREAMBLE));
    let header = push(&mut s, &json(&api_header(api, &ir.auth)));
    s.push_str(",\n\"routes\":[\n");
    let mut areas = Vec::new();
    for area in &api.areas {
        let routes: Vec<Route> = area
            .operations
            .iter()
            .filter(|o| o.is_generated())
            .map(|op| {
                let mut r = route(api, &area.name, op, roles.get(&op.id));
                r.command = commands.get(&api.name, &op.id);
                r.columns = columns::of(api, op);
                r
            })
            .collect();
        let Some(first) = routes.first() else {
            continue;
        };
        if !areas.is_empty() {
            s.push_str(",\n");
        }
        let text: Vec<String> = routes.iter().map(json).collect();
        areas.push(AreaIndex {
            area: area.name.clone(),
            command: first.command.first().cloned().unwrap_or_default(),
            ids: routes.iter().map(|r| r.id.clone()).collect(),
            routes: push(&mut s, &text.join(",\n")),
        });
    }
    s.push_str("],\n\"schemas\":{\n");
    let mut schemas = BTreeMap::new();
    for (i, t) in api.areas.iter().flat_map(|a| &a.types).enumerate() {
        if i > 0 {
            s.push_str(",\n");
        }
        s.push_str(&json(&t.name));
        s.push(':');
        let span = push(&mut s, &json(&schema(named_schema(t))));
        schemas.insert(t.name.clone(), span);
    }
    s.push_str("}}\n");
    let index = ApiIndex {
        name: api.name.clone(),
        header,
        areas,
        schemas,
    };
    (s, index)
}

/// Appends `text` to `s`; where it is in `s`.
fn push(s: &mut String, text: &str) -> Span {
    let start = s.len();
    s.push_str(text);
    Span(start, s.len())
}

/// The index of the tables, one API per line.
fn index_text(apis: &[ApiIndex]) -> String {
    let lines: Vec<String> = apis.iter().map(json).collect();
    format!(
        "{{\"generated\":{},\n\"apis\":[\n{}]}}\n",
        json(&PREAMBLE),
        lines.join(",\n")
    )
}

fn api_header(api: &ApiIr, auth: &AuthIr) -> ApiInfo {
    let families = api
        .families
        .iter()
        .map(|f| ErrorFamily {
            name: f.name.clone(),
            kind: f.kind,
            schema: f.body.as_deref().map_or_else(
                || serde_json::json!({}),
                |b| serde_json::json!({"$ref": format!("#/components/schemas/{b}")}),
            ),
        })
        .collect();
    // The published limits: a token bucket per tenant (or property, workflow) and service.
    let rate_limits = api
        .services
        .iter()
        .filter_map(|s| {
            let (max, per_second, scope) = s.rate_limit?;
            Some(RateLimit {
                service: s.name.clone(),
                max,
                per_second,
                scope,
            })
        })
        .collect();
    // The tenant-wide limit, and how long a tenant is refused after it exceeded it.
    let tenant_limit = api.tenant_limit.as_ref().map(|l| TenantLimit {
        max: l.max,
        per_minute: l.per_minute,
        restoration_seconds: l.restoration_seconds,
    });
    ApiInfo {
        name: api.name.clone(),
        title: api.title.clone(),
        hosts: Hosts {
            asia: api.hosts.asia.clone(),
            europe: api.hosts.europe.clone(),
            north_america: api.hosts.north_america.clone(),
        },
        token: TokenInfo {
            url: auth.token_url.value.clone(),
            url_without_tenant: auth.token_url_without_tenant.value.clone(),
            tenant_header: auth.tenant_header.value.clone(),
        },
        activity: api.activity_operation.clone(),
        activity_query: api.activity_query_operation.clone(),
        prefix: api.prefix.value.clone(),
        auth: api.auth.value,
        default_family: api.default_family.clone(),
        families,
        rate_limits,
        tenant_limit,
    }
}

fn route(api: &ApiIr, area: &str, op: &OpIr, role: Option<&(String, Role)>) -> Route {
    let service = api
        .services
        .iter()
        .find(|s| s.static_name == op.service)
        .map_or("", |s| s.name.as_str());
    let (family, role) = role.map_or(("", Role::Canned), |(f, r)| (f.as_str(), *r));
    let paging = op.pagination.as_ref().map(|p| Paging {
        style: p.style,
        items: p.items.clone(),
        first_page: p.first_page.into(),
        row: p.item_type.as_ref().map(|t| schema(ref_schema(t))),
    });
    let versions = op
        .versions
        .iter()
        .map(|v| Version {
            label: v.label.clone(),
            content_type: v.content_type.clone(),
            accept: v.accept.clone(),
        })
        .collect();
    Route {
        id: op.id.clone(),
        area: area.to_owned(),
        summary: op.name.clone(),
        method: op.method,
        path: op.path.clone(),
        lifecycle: op.lifecycle.status(),
        removal: match &op.lifecycle {
            Lifecycle::Deprecated { removal, .. } => removal.clone(),
            _ => None,
        },
        provenance: super::describe::provenance(&op.provenance, super::describe::Style::Spec),
        status: op.success.status,
        statuses: op
            .responses
            .iter()
            .filter(|r| (200..300).contains(&r.status))
            .map(|r| r.status)
            .collect(),
        asynchronous: op.asynchronous,
        reads: op.reads(),
        path_params: params(&op.path_params),
        query: params(&op.query),
        headers: params(&op.headers),
        request: request(op),
        response: response(op),
        versions,
        paging,
        error_family: op.error_family.clone(),
        service: service.to_owned(),
        family: family.to_owned(),
        role,
        command: Vec::new(),
        columns: Vec::new(),
    }
}

fn params(ps: &[ParamIr]) -> Vec<Param> {
    ps.iter()
        .map(|p| Param {
            name: p.wire.clone(),
            required: p.required,
            description: p.description.clone().unwrap_or_default(),
            schema: schema(param_schema(p)),
        })
        .collect()
}

fn request(op: &OpIr) -> Option<RequestBody> {
    let b = op.request.as_ref()?;
    let body_schema = match (b.kind, &b.ty) {
        (BodyKind::Json | BodyKind::Form, Some(t)) => schema(ref_schema(t)),
        _ => serde_json::Value::Null,
    };
    Some(RequestBody {
        kind: b.kind,
        required: b.required,
        types: request_types(op),
        schema: body_schema,
    })
}

fn response(op: &OpIr) -> ResponseBody {
    let r = &op.success;
    let body_schema = match r.kind {
        ResponseKind::Json => {
            r.ty.as_ref()
                .map_or_else(|| serde_json::json!({}), |t| schema(ref_schema(t)))
        }
        ResponseKind::Text => serde_json::json!({"type": "string"}),
        ResponseKind::Binary | ResponseKind::Empty => serde_json::Value::Null,
    };
    let types = match r.kind {
        ResponseKind::Empty => Vec::new(),
        _ => response_types(op),
    };
    ResponseBody {
        kind: r.kind,
        media_type: r.media_type.clone(),
        types,
        schema: body_schema,
    }
}

/// A schema without prose: [`PROSE_KEYS`] go, property names stay.
fn strip(v: Value) -> Value {
    match v {
        Value::Mapping(m) => {
            let mut out = Mapping::new();
            for (k, val) in m {
                let key = k.as_str().unwrap_or_default();
                if PROSE_KEYS.contains(&key) {
                    continue;
                }
                let val = match (key, val) {
                    ("properties", Value::Mapping(props)) => {
                        Value::Mapping(props.into_iter().map(|(n, s)| (n, strip(s))).collect())
                    }
                    (_, val) => strip(val),
                };
                out.insert(k, val);
            }
            Value::Mapping(out)
        }
        Value::Sequence(items) => Value::Sequence(items.into_iter().map(strip).collect()),
        other => other,
    }
}
