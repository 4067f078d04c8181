//! Every resource family the simulator keeps (a collection something creates in), through the
//! client: create → read → update → query or list → delete → read again (404), each step where
//! the spec has the operation, with bodies built from the operation's request schema and the
//! media types it declares. The figures are printed; every family must pass.

use ruckus_one::{Client, Config, Credentials, Method, RawRequest};
use ruckus_one_sim::conform::Samples;
use ruckus_one_sim::model::{Model, Role, Route, Table};
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::{Value, json};
use std::time::Duration;

fn method(m: &str) -> Method {
    match m {
        "POST" => Method::Post,
        "PUT" => Method::Put,
        "PATCH" => Method::Patch,
        "DELETE" => Method::Delete,
        _ => Method::Get,
    }
}

/// The route's path with its parameters filled: parents `p1`, `p2`..., the item id last.
fn path(route: &Route, item: Option<&str>) -> String {
    let mut out = route.path.clone();
    let n = route.path_params.len();
    for (i, p) in route.path_params.iter().enumerate() {
        let value = match item {
            Some(id) if i + 1 == n => id.to_owned(),
            _ => format!("p{}", i + 1),
        };
        out = out.replace(&format!("{{{p}}}"), &value);
    }
    out
}

struct Family<'t> {
    table: &'t Table,
    create: &'t Route,
    read: Option<&'t Route>,
    update: Option<&'t Route>,
    query: Option<&'t Route>,
    delete: Option<&'t Route>,
}

fn families(table: &Table) -> Vec<Family<'_>> {
    let find = |family: &str, roles: &[Role]| {
        table
            .routes
            .iter()
            .find(|r| r.family == family && roles.contains(&r.role))
    };
    table
        .routes
        .iter()
        .filter(|r| r.role == Role::Create)
        .filter(|r| {
            let first = table
                .routes
                .iter()
                .find(|x| x.family == r.family && x.role == Role::Create);
            first.is_some_and(|f| std::ptr::eq(f, *r))
        })
        .map(|create| Family {
            table,
            create,
            read: find(&create.family, &[Role::Read]),
            update: find(&create.family, &[Role::Replace, Role::Merge]),
            query: find(&create.family, &[Role::Query, Role::List]),
            delete: find(&create.family, &[Role::Delete]),
        })
        .collect()
}

fn request<'c>(
    client: &'c Client,
    table: &Table,
    route: &Route,
    item: Option<&str>,
) -> RawRequest<'c> {
    let p = path(route, item);
    let mut req = match table.api.name.as_str() {
        "analytics" => client.analytics().raw(method(&route.method), &p),
        _ => client.network().raw(method(&route.method), &p),
    };
    let samples = Samples {
        table,
        now: "2026-01-01T00:00:00Z",
    };
    for q in route.query.iter().filter(|q| q.required) {
        match samples.conform(None, &q.schema) {
            Value::String(s) => req = req.query(&q.name, s),
            other => req = req.query(&q.name, other),
        }
    }
    if let Some(accept) = route.response.types.first() {
        req = req.accept(accept);
    }
    if let Some(body) = route.request.as_ref().filter(|b| b.kind == "json") {
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
fn created_id(answer: &Value) -> Option<String> {
    let id = answer
        .get("id")
        .or_else(|| answer.get("response").and_then(|r| r.get("id")))?;
    match id {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

async fn send(req: RawRequest<'_>, what: &str) -> Result<Value, String> {
    let raw = req.send_raw().await.map_err(|e| format!("{what}: {e}"))?;
    Ok(serde_json::from_slice(raw.body()).unwrap_or(Value::Null))
}

async fn exercise(sim: &Simulator, client: &Client, f: &Family<'_>) -> Result<(), String> {
    let answer = send(request(client, f.table, f.create, None), "create").await?;
    // Writes that answer with the request id alone: the new object's id as a list would show it.
    let prefix = if f.table.api.name == "analytics" {
        "/ai"
    } else {
        ""
    };
    let collection = format!("{prefix}{}", path(f.create, None));
    let kept = sim.objects(&sim.tenant_id(), &collection);
    let id = created_id(&answer)
        .or_else(|| kept.last().and_then(created_id))
        .ok_or_else(|| format!("create: no id in {answer}"))?;
    if let Some(read) = f.read {
        send(request(client, f.table, read, Some(&id)), "read").await?;
    }
    if let Some(update) = f.update {
        send(request(client, f.table, update, Some(&id)), "update").await?;
    }
    if let Some(query) = f.query {
        let page = send(request(client, f.table, query, None), "query").await?;
        if !page.to_string().contains(&id) {
            return Err(format!("query: {id} not in {page}"));
        }
    }
    if let Some(delete) = f.delete {
        send(request(client, f.table, delete, Some(&id)), "delete").await?;
        if let Some(read) = f.read {
            match request(client, f.table, read, Some(&id)).send_raw().await {
                Err(e) if e.status() == Some(404) => {}
                other => return Err(format!("read after delete: {other:?}")),
            }
        }
    }
    Ok(())
}

#[tokio::test]
async fn resource_families_create_read_update_query_delete() {
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
    let model = Model::get().expect("tables");
    let (mut passed, mut complete, mut complete_passed, mut failures) = (0, 0, 0, Vec::new());
    let all: Vec<Family<'_>> = model.apis.iter().flat_map(families).collect();
    for f in &all {
        let full =
            f.read.is_some() && f.update.is_some() && f.query.is_some() && f.delete.is_some();
        complete += usize::from(full);
        match exercise(&sim, &client, f).await {
            Ok(()) => {
                passed += 1;
                complete_passed += usize::from(full);
            }
            Err(e) => failures.push(format!("{} {}: {e}", f.table.api.name, f.create.family)),
        }
    }
    println!(
        "{passed} of {} families pass every step they have; {complete_passed} of {complete} with all five steps",
        all.len()
    );
    for f in &failures {
        println!("failed: {f}");
    }
    assert!(all.len() > 80, "{}", all.len());
    assert!(complete > 60, "{complete}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
