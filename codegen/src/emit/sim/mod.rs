//! The simulator's tables (`ruckus-one-sim/<api>.json`): per API its prefix, authentication,
//! error families and activity operation, one route entry per generated operation (method, path,
//! parameters, request and response media types and schemas, statuses, paging, whether it is
//! asynchronous, its resource family and role) and the export's schemas without their prose.
//! The simulator (`sim/`, hand-written) reads them; nothing here is code. Also the coverage page
//! `docs/simulator-coverage.md`: what the simulator does and checks per operation.

mod coverage;
mod family;

use super::openapi::shared::{
    named_schema, param_schema, ref_schema, request_types, response_types,
};
use super::text::PREAMBLE;
use crate::ir::{ApiIr, BodyKind, Ir, Lifecycle, OpIr, ParamIr, ResponseKind};
use family::Role;
use serde_yaml::{Mapping, Value};
use std::collections::BTreeMap;

/// Keys of the export's schemas the simulator has no use for (prose and provenance).
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
    for api in &ir.apis {
        let api_roles = family::roles(api);
        out.insert(
            format!("ruckus-one-sim/{}.json", api.name),
            table(api, &api_roles),
        );
        roles.push(api_roles);
    }
    out.insert(
        "docs/simulator-coverage.md".to_owned(),
        coverage::page(ir, &roles),
    );
    out
}

fn json(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
}

fn table(api: &ApiIr, roles: &BTreeMap<String, (String, Role)>) -> String {
    let mut s = format!("{{\"generated\":{},\n", json(&PREAMBLE.into()));
    s.push_str(&format!(
        "\"api\":{},\n\"routes\":[\n",
        json(&api_header(api))
    ));
    let routes: Vec<String> = api
        .areas
        .iter()
        .flat_map(|a| a.operations.iter().map(move |o| (a, o)))
        .filter(|(_, o)| o.is_generated())
        .map(|(area, op)| json(&route(api, &area.name, op, roles.get(&op.id))))
        .collect();
    s.push_str(&routes.join(",\n"));
    s.push_str("],\n\"schemas\":{\n");
    let schemas: Vec<String> = api
        .areas
        .iter()
        .flat_map(|a| &a.types)
        .map(|t| {
            format!(
                "{}:{}",
                json(&t.name.as_str().into()),
                json(&strip(named_schema(t)))
            )
        })
        .collect();
    s.push_str(&schemas.join(",\n"));
    s.push_str("}}\n");
    s
}

fn map(pairs: Vec<(&str, Value)>) -> Value {
    let mut m = Mapping::new();
    for (k, v) in pairs {
        m.insert(k.into(), v);
    }
    Value::Mapping(m)
}

fn api_header(api: &ApiIr) -> Value {
    let families: Vec<Value> = api
        .families
        .iter()
        .map(|f| {
            let schema = f
                .body
                .as_deref()
                .map_or(Value::Mapping(Mapping::new()), |b| {
                    map(vec![("$ref", format!("#/components/schemas/{b}").into())])
                });
            map(vec![
                ("name", f.name.as_str().into()),
                ("kind", f.kind.as_str().into()),
                ("schema", schema),
            ])
        })
        .collect();
    // The published limits: a token bucket per tenant (or property, workflow) and service.
    let limits: Vec<Value> = api
        .services
        .iter()
        .filter_map(|s| {
            let (max, per_second, scope) = s.rate_limit?;
            Some(map(vec![
                ("service", s.name.as_str().into()),
                ("max", max.into()),
                ("per_second", per_second.into()),
                ("scope", scope.as_str().into()),
            ]))
        })
        .collect();
    // The tenant-wide limit, and how long a tenant is refused after it exceeded it.
    let tenant_limit = api.tenant_limit.as_ref().map_or(Value::Null, |l| {
        map(vec![
            ("max", l.max.into()),
            ("per_minute", l.per_minute.into()),
            ("restoration_seconds", l.restoration_seconds.into()),
        ])
    });
    map(vec![
        ("name", api.name.as_str().into()),
        ("prefix", api.prefix.value.as_str().into()),
        ("auth", api.auth.value.as_str().into()),
        ("default_family", api.default_family.as_str().into()),
        ("families", families.into()),
        ("rate_limits", limits.into()),
        ("tenant_limit", tenant_limit),
    ])
}

fn route(api: &ApiIr, area: &str, op: &OpIr, role: Option<&(String, Role)>) -> Value {
    let service = api
        .services
        .iter()
        .find(|s| s.static_name == op.service)
        .map_or("", |s| s.name.as_str());
    let (family, role) = role.map_or(("", Role::Canned), |(f, r)| (f.as_str(), *r));
    let statuses: Vec<Value> = op
        .responses
        .iter()
        .filter(|r| (200..300).contains(&r.status))
        .map(|r| r.status.into())
        .collect();
    let path_params: Vec<Value> = op
        .path_params
        .iter()
        .map(|p| p.wire.as_str().into())
        .collect();
    let paging = op.pagination.as_ref().map(|p| {
        map(vec![
            ("style", p.style.as_str().into()),
            ("items", p.items.as_str().into()),
            ("first_page", p.first_page.into()),
        ])
    });
    map(vec![
        ("id", op.id.as_str().into()),
        ("area", area.into()),
        ("method", op.method.as_str().into()),
        ("path", op.path.as_str().into()),
        (
            "experimental",
            matches!(op.lifecycle, Lifecycle::Experimental { .. }).into(),
        ),
        ("deprecated", deprecated(&op.lifecycle)),
        ("status", op.success.status.into()),
        ("statuses", statuses.into()),
        ("async", op.asynchronous.into()),
        ("path_params", path_params.into()),
        ("query", params(&op.query)),
        ("headers", params(&op.headers)),
        ("request", request(op)),
        ("response", response(op)),
        ("paging", paging.unwrap_or(Value::Null)),
        ("error_family", op.error_family.as_str().into()),
        ("service", service.into()),
        ("family", family.into()),
        ("role", role.as_str().into()),
    ])
}

fn params(ps: &[ParamIr]) -> Value {
    ps.iter()
        .map(|p| {
            map(vec![
                ("name", p.wire.as_str().into()),
                ("required", p.required.into()),
                ("schema", strip(param_schema(p))),
            ])
        })
        .collect::<Vec<Value>>()
        .into()
}

fn request(op: &OpIr) -> Value {
    let Some(b) = &op.request else {
        return Value::Null;
    };
    let schema = match (b.kind, &b.ty) {
        (BodyKind::Json | BodyKind::Form, Some(t)) => strip(ref_schema(t)),
        _ => Value::Null,
    };
    map(vec![
        ("kind", b.kind.as_str().into()),
        ("required", b.required.into()),
        (
            "types",
            request_types(op)
                .into_iter()
                .map(Value::from)
                .collect::<Vec<_>>()
                .into(),
        ),
        ("schema", schema),
    ])
}

fn response(op: &OpIr) -> Value {
    let r = &op.success;
    let schema = match r.kind {
        ResponseKind::Json => {
            r.ty.as_ref()
                .map_or(Value::Mapping(Mapping::new()), |t| strip(ref_schema(t)))
        }
        ResponseKind::Text => map(vec![("type", "string".into())]),
        ResponseKind::Binary | ResponseKind::Empty => Value::Null,
    };
    let types: Vec<Value> = match r.kind {
        ResponseKind::Empty => Vec::new(),
        _ => response_types(op).into_iter().map(Value::from).collect(),
    };
    map(vec![
        ("kind", r.kind.as_str().into()),
        ("media_type", r.media_type.as_str().into()),
        ("types", types.into()),
        ("schema", schema),
    ])
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

/// A deprecated operation's removal date (`""` when none is known), or `null`: the simulator
/// answers it with deprecation headers.
fn deprecated(lifecycle: &Lifecycle) -> Value {
    match lifecycle {
        Lifecycle::Deprecated { removal, .. } => removal.as_deref().unwrap_or("").into(),
        _ => Value::Null,
    }
}
