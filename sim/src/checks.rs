//! The request checks of an operation: query and header parameters, the body against its
//! schema, a `{tenantId}` path parameter against the acting tenant.

use crate::auth::may_act_for;
use crate::config::SimConfig;
use crate::errors::Refusal;
use crate::model::{BodyKind, Role, Route, Table};
use crate::state::State;
use axum::http::HeaderMap;
use serde_json::{Map, Value};

/// A query value typed as its schema says (left a string when it does not parse, so that
/// validation names the problem).
fn typed(t: &Table, text: &str, schema: &Value) -> Value {
    let s = t.deref(schema);
    let parsed = match s.get("type").and_then(Value::as_str) {
        Some("integer") => text.parse::<i64>().ok().map(Value::from),
        Some("number") => text.parse::<f64>().ok().map(Value::from),
        Some("boolean") => text.parse::<bool>().ok().map(Value::from),
        _ => None,
    };
    parsed.unwrap_or_else(|| Value::String(text.to_owned()))
}

/// A body's problem as the simulator words it: `the body: ...` at the root, else its pointer.
fn in_body(p: &ruckus_one_catalog::Problem) -> String {
    if p.pointer.is_empty() {
        format!("the body: {}", p.message)
    } else {
        p.to_string()
    }
}

pub(crate) fn query(
    t: &Table,
    route: &Route,
    query: &[(String, String)],
    headers: &HeaderMap,
) -> Result<(), Refusal> {
    for p in &route.query {
        let values: Vec<&String> = query
            .iter()
            .filter(|(n, _)| *n == p.name)
            .map(|(_, v)| v)
            .collect();
        if values.is_empty() && p.required {
            return Err(Refusal::bad_request(format!(
                "the query parameter `{}` is required",
                p.name
            )));
        }
        for v in values {
            t.validate(&typed(t, v, &p.schema), &p.schema)
                .map_err(|e| Refusal::bad_request(format!("query parameter `{}`: {e}", p.name)))?;
        }
    }
    for p in route.headers.iter().filter(|p| p.required) {
        if !headers.contains_key(p.name.as_str()) {
            return Err(Refusal::bad_request(format!(
                "the header `{}` is required",
                p.name
            )));
        }
    }
    Ok(())
}

/// The request body as JSON (a form as an object of strings), checked against the operation's
/// request schema; multipart and binary bodies are taken as they are (`None`).
pub(crate) fn body(t: &Table, route: &Route, bytes: &[u8]) -> Result<Option<Value>, Refusal> {
    let Some(rb) = &route.request else {
        return Ok(None);
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return if rb.required {
            Err(Refusal::bad_request("a request body is required"))
        } else {
            Ok(None)
        };
    }
    match rb.kind {
        BodyKind::Json => {
            let v: Value = serde_json::from_slice(bytes)
                .map_err(|e| Refusal::bad_request(format!("the body is not JSON: {e}")))?;
            if !rb.schema.is_null() {
                t.validate(&v, &rb.schema)
                    .map_err(|e| Refusal::bad_request(in_body(&e)))?;
            }
            Ok(Some(v))
        }
        BodyKind::Form => {
            let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(bytes)
                .map_err(|e| Refusal::bad_request(format!("the body is not a form: {e}")))?;
            let m: Map<String, Value> = fields
                .into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect();
            Ok(Some(Value::Object(m)))
        }
        BodyKind::Multipart | BodyKind::Binary => Ok(None),
    }
}

/// A `{tenantId}` path parameter must be the tenant the call acts as, or one it may act for.
pub(crate) fn tenant_param(
    config: &SimConfig,
    state: &State,
    route: &Route,
    params: &[String],
    tenant: &str,
) -> Result<(), Refusal> {
    for (param, value) in route.path_params.iter().zip(params) {
        if param.name == "tenantId" && !may_act_for(config, state, tenant, value) {
            return Err(Refusal::new(
                403,
                "SIM-403",
                format!("the path names tenant {value}, the call acts as {tenant}"),
            ));
        }
    }
    Ok(())
}

/// A list or query asking for a negative page or page size is refused (instead of answering
/// the first page): in the query parameters (`page`, `pageSize`, `size`) or the query body.
pub(crate) fn paging(
    route: &Route,
    query: &[(String, String)],
    body: Option<&Value>,
) -> Result<(), Refusal> {
    if !matches!(
        route.role,
        Role::List | Role::Query | Role::QueryAcross | Role::CustomerQuery
    ) {
        return Ok(());
    }
    let negative = |name: &str, value: Option<&Value>| match value {
        Some(Value::Number(n)) if n.as_f64().is_some_and(|v| v < 0.0) => {
            Err(Refusal::bad_request(format!("{name} must not be negative")))
        }
        _ => Ok(()),
    };
    for (name, text) in query {
        if matches!(name.as_str(), "page" | "pageSize" | "size") {
            negative(
                name,
                text.trim().parse::<f64>().ok().map(Value::from).as_ref(),
            )?;
        }
    }
    for name in ["page", "pageSize"] {
        negative(name, body.and_then(|b| b.get(name)))?;
    }
    Ok(())
}
