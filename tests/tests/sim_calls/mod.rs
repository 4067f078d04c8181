//! Calls of any simulated operation through the client, built from the catalog's route: the
//! path filled, the required query parameters and a request body from the simulator's samples,
//! the first media types the route declares. Shared by the simulator tests of `tests/`.

use ruckus_one::{Client, Config, Credentials, Method, RawRequest};
use ruckus_one_catalog as catalog;
use ruckus_one_sim::conform::Samples;
use ruckus_one_sim::model::{Role, Route, Table};
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::{Value, json};
use std::time::Duration;

fn method(m: catalog::Method) -> Method {
    match m {
        catalog::Method::Post => Method::Post,
        catalog::Method::Put => Method::Put,
        catalog::Method::Patch => Method::Patch,
        catalog::Method::Delete => Method::Delete,
        catalog::Method::Get => Method::Get,
    }
}

/// The route's path with its parameters filled: parents `p1`, `p2`..., the item id last.
pub fn path(route: &Route, item: Option<&str>) -> String {
    let mut out = route.path.clone();
    let n = route.path_params.len();
    for (i, p) in route.path_params.iter().enumerate() {
        let value = match item {
            Some(id) if i + 1 == n => id.to_owned(),
            // The tenant acted as: the simulator refuses a path naming another.
            _ if p.name == "tenantId" => ruckus_one_sim::config::DEFAULT_TENANT_ID.to_owned(),
            _ => format!("p{}", i + 1),
        };
        out = out.replace(&format!("{{{}}}", p.name), &value);
    }
    out
}

pub fn request<'c>(
    client: &'c Client,
    table: &Table,
    route: &Route,
    item: Option<&str>,
) -> RawRequest<'c> {
    let p = path(route, item);
    let mut req = match table.api.name.as_str() {
        "analytics" => client.analytics().raw(method(route.method), &p),
        _ => client.network().raw(method(route.method), &p),
    };
    let samples = Samples::required_only(table, "2026-01-01T00:00:00Z");
    for q in route.query.iter().filter(|q| q.required) {
        match samples.conform(None, &q.schema) {
            Value::String(s) => req = req.query(&q.name, s),
            other => req = req.query(&q.name, other),
        }
    }
    if let Some(accept) = route.response.types.first() {
        req = req.accept(accept);
    }
    if let Some(body) = route
        .request
        .as_ref()
        .filter(|b| b.kind == catalog::BodyKind::Json)
    {
        let value = match route.role {
            // The smallest query: nothing but what the body requires (a sort order, say).
            Role::Query => match samples.conform(None, &body.schema) {
                Value::Array(_) => json!([]),
                Value::Object(sample) => {
                    let schema = match body.schema.get("$ref").and_then(Value::as_str) {
                        Some(reference) => table.resolve(reference).unwrap_or(&body.schema),
                        None => &body.schema,
                    };
                    let required = schema.get("required").and_then(Value::as_array);
                    let keep = |k: &String| required.is_some_and(|r| r.iter().any(|n| n == k));
                    Value::Object(sample.into_iter().filter(|(k, _)| keep(k)).collect())
                }
                other => other,
            },
            _ if body.schema.is_null() => json!({}),
            // A list body (a bulk create) gets one item.
            _ => match body.schema.get("items") {
                Some(item) => json!([samples.conform(None, item)]),
                None => samples.conform(None, &body.schema),
            },
        };
        req = req.json(&value);
        if let Some(ct) = body.types.first() {
            req = req.content_type(ct);
        }
    }
    req
}

/// The id in a create answer (`id`, or `response.id` of a 202 envelope).
pub fn created_id(answer: &Value) -> Option<String> {
    let id = answer
        .get("id")
        .or_else(|| answer.get("response").and_then(|r| r.get("id")))?;
    match id {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

pub async fn send(req: RawRequest<'_>, what: &str) -> Result<Value, String> {
    let raw = req.send_raw().await.map_err(|e| format!("{what}: {e}"))?;
    Ok(serde_json::from_slice(raw.body()).unwrap_or(Value::Null))
}

/// A simulator whose activities finish at once and which enforces no rate limit, and a client of
/// it for both APIs.
pub async fn start() -> (Simulator, Client) {
    let config = SimConfig::default()
        .activity_duration(Duration::ZERO)
        .rate_limits(false);
    let sim = Simulator::start_with(config).await.expect("simulator");
    let (id, secret) = sim.credentials();
    let client = Client::new(
        Config::new(Credentials::new(id, secret))
            .base_url(sim.base_url())
            .api_base_url("analytics", format!("{}/ai", sim.base_url())),
    )
    .expect("client");
    (sim, client)
}
