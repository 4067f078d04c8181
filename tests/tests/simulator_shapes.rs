//! The simulator answers as the service does: for every read the vendor-written answers show
//! (`../shared/reference/payloads/ui-fixtures`, see its README), the simulator's answer to the
//! same operation has the answer's fields. Compared per field name: the answer's own fields
//! (a page's envelope, an object's fields) and, for pages and lists, the fields of its rows. A
//! field the vendor's answer has and the simulator's lacks is *missing*; a field the simulator
//! sends that neither the vendor's answers nor the operation's described schema has is *extra*.
//! Both fail the test unless `spec/payload_artefacts.yaml` lists the file and field (a field a
//! hand-made mock added). Placeholders (`{}`, `[]`) prove nothing and are skipped, as are
//! the answers listed as of another shape.
//! A union answer compares with the vendor's answers of the variant the simulator answered.
//!
//! The simulator's answer comes from a real call through the client: stateful reads and
//! queries first create an object of the family with the simulator's own sample body.

#[path = "sim_calls/mod.rs"]
mod sim_calls;

use ruckus_one::Client;
use ruckus_one_sim::Simulator;
use ruckus_one_sim::model::{Model, Role, Route, Table};
use serde::Deserialize;
use serde_json::Value;
use sim_calls::{created_id, path, request, send};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn payloads() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/payloads");
    if dir.join("index.tsv").is_file() {
        Some(dir)
    } else {
        eprintln!("skip: no vendor payloads at {}", dir.display());
        None
    }
}

/// The parts of `spec/payload_artefacts.yaml` this test reads.
#[derive(Deserialize)]
struct Artefacts {
    #[serde(default)]
    other_shape: Vec<Listed>,
    #[serde(default)]
    fields: Vec<ListedField>,
}

#[derive(Deserialize)]
struct Listed {
    file: String,
}

#[derive(Deserialize)]
struct ListedField {
    file: String,
    at: String,
}

fn artefacts() -> Artefacts {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/payload_artefacts.yaml");
    let text = std::fs::read_to_string(&path).expect("spec/payload_artefacts.yaml");
    serde_yaml::from_str(&text).expect("payload_artefacts.yaml parses")
}

/// A vendor answer of a read: `(file, operation id, Accept, body)`.
struct Answer {
    file: String,
    operation: String,
    accept: String,
    body: Value,
}

fn answers(dir: &Path) -> Vec<Answer> {
    let text = std::fs::read_to_string(dir.join("index.tsv")).expect("index.tsv");
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let [file, _, operation, _, kind, accept] = cells[..] else {
                return None;
            };
            if kind != "response" || !file.starts_with("ui-fixtures/") {
                return None;
            }
            let body = std::fs::read_to_string(dir.join(file)).ok()?;
            Some(Answer {
                file: file.to_owned(),
                operation: operation.split_whitespace().next()?.to_owned(),
                accept: accept.to_owned(),
                body: serde_json::from_str(&body).ok()?,
            })
        })
        .collect()
}

/// The route answering `a`: the named operation, or the one on its method and path whose
/// media types include the answer's `Accept`.
fn route_of<'m>(model: &'m Model, a: &Answer) -> Option<(&'m Table, &'m Route)> {
    let (table, named) = model.routes().find(|(_, r)| r.id == a.operation)?;
    let chosen = table
        .routes
        .iter()
        .filter(|r| r.method == named.method && r.path == named.path)
        .find(|r| r.response.types.contains(&a.accept))
        .unwrap_or(named);
    Some((table, chosen))
}

fn is_read(route: &Route) -> bool {
    matches!(
        route.role,
        Role::Read
            | Role::List
            | Role::Query
            | Role::QueryAcross
            | Role::OwnTenant
            | Role::SettingsRead
    ) || (route.role == Role::Canned && route.method == ruckus_one_catalog::Method::Get)
}

/// The field names of the objects in `v`: itself if an object, each item if a list.
fn keys(v: &Value) -> BTreeSet<String> {
    match v {
        Value::Object(m) => m.keys().cloned().collect(),
        Value::Array(items) => items.iter().flat_map(keys).collect(),
        _ => BTreeSet::new(),
    }
}

/// The rows of an answer: the paging's items field, or the answer itself when it is a list.
fn rows<'v>(route: &Route, v: &'v Value) -> Option<&'v Value> {
    match (&route.paging, v) {
        (_, Value::Array(_)) => Some(v),
        (Some(p), Value::Object(m)) => m.get(&p.items),
        _ => None,
    }
}

/// Every property a schema declares (through `$ref`, `allOf`, `oneOf`, `anyOf`).
fn declared(table: &Table, schema: &Value, depth: usize, out: &mut BTreeSet<String>) {
    if depth > 8 {
        return;
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        if let Some(target) = table.resolve(r) {
            declared(table, target, depth + 1, out);
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for b in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            declared(table, b, depth + 1, out);
        }
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        out.extend(props.keys().cloned());
    }
}

/// The discriminator of a union answer type, if it is one.
fn discriminator<'t>(table: &'t Table, schema: &'t Value) -> Option<&'t str> {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => table.resolve(r)?,
        None => schema,
    };
    schema.get("discriminator")?.get("propertyName")?.as_str()
}

/// The schema of a declared property `name` of `schema` (first found).
fn property<'t>(
    table: &'t Table,
    schema: &'t Value,
    name: &str,
    depth: usize,
) -> Option<&'t Value> {
    if depth > 8 {
        return None;
    }
    if let Some(p) = schema.get("properties").and_then(|p| p.get(name)) {
        return Some(p);
    }
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| table.resolve(r))
    {
        return property(table, target, name, depth + 1);
    }
    ["allOf", "oneOf", "anyOf"]
        .iter()
        .flat_map(|k| {
            schema
                .get(*k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .find_map(|b| property(table, b, name, depth + 1))
}

/// The schema of one row: the one the spec gives apart, else the items of the paging field or
/// of the answer's list.
fn row_schema<'t>(table: &'t Table, route: &'t Route) -> Option<&'t Value> {
    if let Some(row) = route.paging.as_ref().and_then(|p| p.row.as_ref()) {
        return Some(row);
    }
    let list = match &route.paging {
        Some(p) => property(table, &route.response.schema, &p.items, 0)?,
        None => &route.response.schema,
    };
    let list = match list.get("$ref").and_then(Value::as_str) {
        Some(r) => table.resolve(r)?,
        None => list,
    };
    list.get("items")
}

/// The simulator's answer to `route`, after creating an object of its family when it reads
/// state (an object the family already holds will do: a create the simulator refuses as a
/// duplicate leaves one).
async fn simulated(
    sim: &Simulator,
    client: &Client,
    table: &Table,
    route: &Route,
) -> Result<Value, String> {
    let create = table
        .routes
        .iter()
        .find(|r| r.role == Role::Create && r.family == route.family && !route.family.is_empty());
    let mut id = None;
    if let Some(create) = create.filter(|_| route.role != Role::Canned) {
        match request(client, table, create, None).send_raw().await {
            Ok(raw) => {
                id = serde_json::from_slice(raw.body())
                    .ok()
                    .as_ref()
                    .and_then(created_id)
            }
            Err(e) if e.status() == Some(409) => {}
            Err(e) => return Err(format!("create: {e}")),
        }
        let prefix = if table.api.name == "analytics" {
            "/ai"
        } else {
            ""
        };
        let collection = format!("{prefix}{}", path(create, None));
        let kept = sim.objects(&sim.tenant_id(), &collection);
        id = id.or_else(|| kept.last().and_then(created_id));
    }
    // A family nothing creates in is written item by item (an upsert).
    let upsert = table
        .routes
        .iter()
        .find(|r| r.role == Role::Upsert && r.family == route.family);
    if let (None, Some(upsert), Role::Read) = (create, upsert, route.role) {
        let item = match route.path_params.last() {
            Some(p) if p.name == "tenantId" => ruckus_one_sim::config::DEFAULT_TENANT_ID,
            _ => "shape-1",
        };
        send(request(client, table, upsert, Some(item)), "upsert").await?;
        id = Some(item.to_owned());
    }
    let item = if route.role == Role::Read {
        id.as_deref()
    } else {
        None
    };
    if route.role == Role::Read && item.is_none() {
        return Err("no object to read".into());
    }
    send(request(client, table, route, item), "read").await
}

/// A JSON pointer with its list indexes as `*`.
fn any_row(at: &str) -> String {
    at.split('/')
        .map(|s| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// One comparison's findings.
#[derive(Default)]
struct Tally {
    answers: usize,
    fields: usize,
    other_variant: usize,
    missing: Vec<String>,
    extra: Vec<String>,
    unreachable: Vec<String>,
}

fn compare(
    tally: &mut Tally,
    listed: &BTreeSet<(String, String)>,
    (file, at): (&str, &str),
    (vendor, ours): (BTreeSet<String>, BTreeSet<String>),
    described: &BTreeSet<String>,
) {
    tally.fields += vendor.len();
    for k in vendor.difference(&ours) {
        let pointer = format!("{at}/{k}");
        let whole_file = (file.to_owned(), String::new());
        if !listed.contains(&(file.to_owned(), pointer.clone())) && !listed.contains(&whole_file) {
            tally.missing.push(format!("{file}: {pointer} missing"));
        }
    }
    for k in ours.difference(&vendor).filter(|k| !described.contains(*k)) {
        tally.extra.push(format!(
            "{file}: {at}/{k} sent but neither described nor answered"
        ));
    }
}

#[tokio::test]
async fn simulator_answers_have_the_fields_the_service_sends() {
    let Some(dir) = payloads() else { return };
    let listed = artefacts();
    let other_shape: BTreeSet<String> = listed.other_shape.into_iter().map(|l| l.file).collect();
    // A listed value of a row stands for its field in every row (`/data/3/name` -> `/data/*/name`),
    // as the rows' fields are compared by name.
    let fields: BTreeSet<(String, String)> = listed
        .fields
        .into_iter()
        .map(|f| (f.file, any_row(&f.at)))
        .collect();
    let model = Model::get().expect("tables");
    let (sim, client) = sim_calls::start().await;
    let mut by_route: BTreeMap<(usize, &str), Vec<Answer>> = BTreeMap::new();
    for a in answers(&dir) {
        let placeholder = keys(&a.body).is_empty();
        if placeholder || other_shape.contains(&a.file) {
            continue;
        }
        if let Some((table, route)) = route_of(model, &a).filter(|(_, r)| is_read(r)) {
            let api = model
                .apis
                .iter()
                .position(|t| std::ptr::eq(t, table))
                .unwrap_or(0);
            by_route
                .entry((api, route.id.as_str()))
                .or_default()
                .push(a);
        }
    }
    let mut tally = Tally::default();
    for ((api, id), vendor) in &by_route {
        let table = &model.apis[*api];
        let Some(route) = table.route(id) else {
            continue;
        };
        let ours = match simulated(&sim, &client, table, route).await {
            Ok(v) => v,
            Err(e) => {
                tally.unreachable.push(format!("{id}: {e}"));
                continue;
            }
        };
        let mut envelope = BTreeSet::new();
        declared(table, &route.response.schema, 0, &mut envelope);
        let mut row = BTreeSet::new();
        if let Some(s) = row_schema(table, route) {
            declared(table, s, 0, &mut row);
        }
        // The service leaves out fields without a value: a field any of its answers sends is
        // one it sends.
        let answered: BTreeSet<String> = vendor.iter().flat_map(|a| keys(&a.body)).collect();
        let answered_rows: BTreeSet<String> = vendor
            .iter()
            .filter_map(|a| rows(route, &a.body))
            .flat_map(keys)
            .collect();
        envelope.extend(answered);
        row.extend(answered_rows);
        let tag = discriminator(table, &route.response.schema);
        for a in vendor {
            // A union's answers compare with the simulator's of the same variant only.
            if let Some(tag) = tag {
                if a.body.get(tag) != ours.get(tag) {
                    tally.other_variant += 1;
                    continue;
                }
            }
            tally.answers += 1;
            let our_rows = rows(route, &ours);
            match (rows(route, &a.body), our_rows) {
                (Some(theirs), Some(mine)) if keys(theirs).is_empty() || keys(mine).is_empty() => {}
                (Some(theirs), Some(mine)) => {
                    let at = route
                        .paging
                        .as_ref()
                        .map_or(String::new(), |p| format!("/{}/*", p.items));
                    compare(
                        &mut tally,
                        &fields,
                        (&a.file, &at),
                        (keys(theirs), keys(mine)),
                        &row,
                    );
                }
                _ => {}
            }
            if a.body.is_object() {
                compare(
                    &mut tally,
                    &fields,
                    (&a.file, ""),
                    (keys(&a.body), keys(&ours)),
                    &envelope,
                );
            }
        }
    }
    println!(
        "{} operations, {} vendor answers ({} of another union variant than the simulator's not \
         compared), {} fields compared: {} missing, {} extra; {} operations not reached",
        by_route.len(),
        tally.answers,
        tally.other_variant,
        tally.fields,
        tally.missing.len(),
        tally.extra.len(),
        tally.unreachable.len()
    );
    for line in tally
        .missing
        .iter()
        .chain(&tally.extra)
        .chain(&tally.unreachable)
    {
        println!("  {line}");
    }
    assert!(
        by_route.len() > 100,
        "{} operations compared",
        by_route.len()
    );
    assert!(tally.missing.is_empty() && tally.extra.is_empty() && tally.unreachable.is_empty());
}
