//! A populated scope for one resource kind: its parent chain and the kinds it refers to, then
//! objects of the kind, each made through the kind's own operation (a create, a settings
//! write, an activation's `PUT`) with a body the simulator's conformer makes valid for the
//! operation's request schema, identity fields set to readable values and reference fields
//! to the ids of the referenced objects.

use ruckus_one_catalog::{
    Catalog, FieldFlag, ResourceKind, ResourceShape, Resources, Route, Table,
};
use ruckus_one_runtime::Client;
use ruckus_one_runtime::internal::{Request, described};
use ruckus_one_sim::conform::Samples;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The simulator clock's sample for `date-time` fields (any fixed time).
const NOW: &str = "2026-01-01T00:00:00Z";

/// One object made: the path parameters that address it (its parents' ids and its own), and
/// the body it was made with when a deferred reference was left out of it.
#[derive(Debug, Clone)]
struct Made {
    params: BTreeMap<String, String>,
    id: Option<String>,
    pending: Option<Value>,
}

/// The objects made so far, by kind, in the order made.
#[derive(Default)]
pub struct Population {
    made: BTreeMap<String, Vec<Made>>,
}

/// The kinds `kind` needs (its parent chain, the kinds it refers to, and theirs) and `kind`,
/// in the layer's order.
pub fn needed<'r>(resources: &'r Resources, kind: &ResourceKind) -> Vec<&'r ResourceKind> {
    let mut want = BTreeSet::new();
    let mut todo = vec![kind.name.clone()];
    while let Some(name) = todo.pop() {
        if !want.insert(name.clone()) {
            continue;
        }
        let Some(k) = resources.kind(&name) else {
            continue;
        };
        todo.extend(k.parent.iter().cloned());
        todo.extend(k.references.iter().map(|r| r.kind.clone()));
    }
    resources
        .kinds
        .iter()
        .filter(|k| want.contains(&k.name))
        .collect()
}

/// Makes, through `client`, what `kind` needs and then `count` objects of `kind` (one for a
/// settings kind or an activation).
pub async fn populate(
    client: &Client,
    resources: &Resources,
    kind: &ResourceKind,
    count: usize,
) -> Result<(), String> {
    let mut population = Population::default();
    for k in needed(resources, kind) {
        let n = if k.name == kind.name { count } else { 1 };
        let n = match k.shape {
            ResourceShape::Collection => n,
            _ => 1,
        };
        for i in 1..=n {
            population
                .make(client, k, i)
                .await
                .map_err(|e| format!("{} #{i}: {e}", k.name))?;
        }
    }
    population.set_deferred(client, resources).await
}

impl Population {
    /// The path parameters of a call on a new object of `kind` (its parents' ids, and for an
    /// activation the id of what it activates).
    fn params(&self, kind: &ResourceKind) -> Result<BTreeMap<String, String>, String> {
        let mut params = BTreeMap::new();
        if let Some(parent) = &kind.parent {
            let p = self.first(parent)?;
            params.extend(p.params.clone());
            if let (Some(param), Some(id)) = (&kind.parent_param, &p.id) {
                params.insert(param.clone(), id.clone());
            }
        }
        for r in &kind.references {
            if let Some(param) = &r.param {
                let target = self.first(&r.kind)?;
                let id = target.id.clone().ok_or(format!("no id for {}", r.kind))?;
                params.insert(param.clone(), id);
            }
        }
        Ok(params)
    }

    /// Sets the deferred references left out of the objects made before what they name, by
    /// an update of each.
    async fn set_deferred(&mut self, client: &Client, resources: &Resources) -> Result<(), String> {
        let pending: Vec<(String, Made)> = self
            .made
            .iter()
            .flat_map(|(k, m)| m.iter().map(move |m| (k.clone(), m.clone())))
            .filter(|(_, m)| m.pending.is_some())
            .collect();
        for (name, made) in pending {
            let kind = resources.kind(&name).ok_or("no such kind")?;
            let mut body = made.pending.clone().unwrap_or_default();
            let item = match &mut body {
                Value::Array(items) => &mut items[0],
                one => one,
            };
            self.references(kind, item, true)?;
            let op = kind.operations.update.as_deref().ok_or("no update")?;
            let (_, table) = Catalog::get()
                .map_err(|e| e.to_string())?
                .api(&kind.api)
                .ok_or("no API")?;
            let route = table.route(op).ok_or(format!("no operation {op}"))?;
            send(client, table, route, &made.params, Some(&body))
                .await
                .map_err(|e| format!("{name}: setting its deferred references: {e}"))?;
        }
        Ok(())
    }

    /// Sets the reference fields of `item` to the ids of the first objects made of their
    /// kinds; a deferred one whose object is not made yet is left out (`false`), unless
    /// `all`.
    fn references(&self, kind: &ResourceKind, item: &mut Value, all: bool) -> Result<bool, String> {
        let mut complete = true;
        for r in &kind.references {
            let Some(field) = &r.field else { continue };
            let base = field.trim_end_matches("/*");
            let made = self.made.get(&r.kind).and_then(|m| m.first());
            let id = match made {
                Some(m) => m.id.clone().unwrap_or_default(),
                None if r.deferred && !all => {
                    remove(item, base);
                    complete = false;
                    continue;
                }
                None => return Err(format!("no {} was made first", r.kind)),
            };
            let value = match field.ends_with("/*") {
                true => json!([id]),
                false => Value::String(id),
            };
            set(item, base, value);
        }
        Ok(complete)
    }

    fn first(&self, kind: &str) -> Result<&Made, String> {
        self.made
            .get(kind)
            .and_then(|m| m.first())
            .ok_or_else(|| format!("no {kind} was made first"))
    }

    async fn make(&mut self, client: &Client, kind: &ResourceKind, n: usize) -> Result<(), String> {
        let catalog = Catalog::get().map_err(|e| e.to_string())?;
        let (_, table) = catalog
            .api(&kind.api)
            .ok_or(format!("no API {}", kind.api))?;
        let op = match kind.shape {
            ResourceShape::Settings => kind.operations.update.as_deref(),
            _ => kind.operations.create.as_deref(),
        }
        .ok_or("no operation makes it")?;
        let route = table.route(op).ok_or(format!("no operation {op}"))?;
        let mut params = self.params(kind)?;
        let (body, complete) = match &route.request {
            Some(rb) if !rb.schema.is_null() => {
                let (body, complete) = self.body(table, kind, &rb.schema, n)?;
                (Some(body), complete)
            }
            _ => (None, true),
        };
        let answer = send(client, table, route, &params, body.as_ref()).await?;
        let one = match &body {
            Some(Value::Array(items)) => items.first().cloned(),
            other => other.clone(),
        };
        let id = match kind.shape {
            ResourceShape::Collection => {
                let from_body = kind
                    .id_field
                    .as_deref()
                    .and_then(|f| one.as_ref()?.pointer(f))
                    .and_then(text);
                let id = from_body.or_else(|| created_id(&answer));
                Some(id.ok_or_else(|| format!("{op} named no id: {answer}"))?)
            }
            ResourceShape::Activation => kind
                .references
                .iter()
                .find_map(|r| params.get(r.param.as_deref()?).cloned()),
            ResourceShape::Settings => None,
        };
        if let (Some(p), Some(id)) = (&kind.id_param, &id) {
            params.insert(p.clone(), id.clone());
        }
        self.made.entry(kind.name.clone()).or_default().push(Made {
            params,
            id,
            pending: (!complete).then(|| body.unwrap_or_default()),
        });
        Ok(())
    }

    /// A valid body for `schema`: required fields filled, identity fields readable and
    /// distinct (`n`), reference fields the ids of the referenced objects.
    fn body(
        &self,
        table: &Table,
        kind: &ResourceKind,
        schema: &Value,
        n: usize,
    ) -> Result<(Value, bool), String> {
        let samples = Samples::required_only(table, NOW);
        let mut body = samples.conform(None, schema);
        let item = match &mut body {
            Value::Array(items) => {
                // A batch: one object.
                let item_schema = table
                    .deref(schema)
                    .get("items")
                    .cloned()
                    .unwrap_or_default();
                items.clear();
                items.push(samples.conform(None, &item_schema));
                &mut items[0]
            }
            one => one,
        };
        if !item.is_object() {
            *item = json!({});
        }
        for path in &kind.identity {
            set(item, path, identity_value(path, n));
        }
        // What the service sets is never sent (the conformer may have set one to tell
        // overlapping variants apart).
        for rule in kind
            .fields
            .iter()
            .filter(|f| f.flag == FieldFlag::ServiceSet)
        {
            remove(item, &rule.path);
        }
        let complete = self.references(kind, item, false)?;
        fill_secrets(table, kind, schema, &mut body, n);
        if let Err(e) = table.validate(&body, schema) {
            return Err(format!("the body made for it is not valid: {e}\n{body:#}"));
        }
        Ok((body, complete))
    }
}

/// Each secret field the body may carry set to a known value (the service shows a secret it
/// was never given as whatever it holds, which no create body need accept).
fn fill_secrets(table: &Table, kind: &ResourceKind, schema: &Value, body: &mut Value, n: usize) {
    let secrets = kind
        .fields
        .iter()
        .filter(|f| f.flag == FieldFlag::Secret && !f.path.contains('*'));
    for rule in secrets {
        let before = body.clone();
        let item = match &mut *body {
            Value::Array(items) => &mut items[0],
            one => one,
        };
        let parent = rule.path.rsplit_once('/').map_or("", |(p, _)| p);
        if !parent.is_empty() && item.pointer(parent).is_none() {
            continue;
        }
        set(item, &rule.path, json!(format!("Gate-secret-{n}-4711")));
        if !table.is_valid(body, schema) {
            *body = before;
        }
    }
}

/// A readable identity value, distinct for each `n`, of the type its field takes.
fn identity_value(path: &str, n: usize) -> Value {
    let field = path.rsplit('/').next().unwrap_or_default().to_lowercase();
    if field.contains("vlan") {
        json!(100 + n)
    } else if field.contains("mac") {
        json!(format!("00:11:22:33:44:{n:02X}"))
    } else if field.contains("serial") {
        json!(format!("GATE{n:08}"))
    } else {
        json!(format!("Gate {n}"))
    }
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn created_id(answer: &Value) -> Option<String> {
    let one = match answer {
        Value::Array(items) => items.first()?,
        other => other,
    };
    one.pointer("/response/id")
        .or_else(|| one.pointer("/response/0/id"))
        .or_else(|| one.get("id"))
        .and_then(text)
}

/// Sets the plain pointer `path` (objects made on the way).
fn set(doc: &mut Value, path: &str, value: Value) {
    let mut cur = doc;
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    for (i, seg) in segments.iter().enumerate() {
        if !cur.is_object() {
            *cur = json!({});
        }
        let m = cur.as_object_mut().expect("an object");
        if i + 1 == segments.len() {
            m.insert((*seg).to_owned(), value);
            return;
        }
        cur = m.entry(*seg).or_insert_with(|| json!({}));
    }
}

fn remove(doc: &mut Value, path: &str) {
    let Some((parent, last)) = path.rsplit_once('/') else {
        return;
    };
    let target = if parent.is_empty() {
        Some(doc)
    } else {
        doc.pointer_mut(parent)
    };
    if let Some(Value::Object(m)) = target {
        m.remove(last);
    }
}

/// Sends `route` with `params` and `body`; the answer's JSON (null when it has none).
async fn send(
    client: &Client,
    table: &'static Table,
    route: &'static Route,
    params: &BTreeMap<String, String>,
    body: Option<&Value>,
) -> Result<Value, String> {
    let values = route
        .path_params
        .iter()
        .map(|p| {
            params
                .get(&p.name)
                .map(String::as_str)
                .ok_or_else(|| format!("{}: no value for `{}`", route.id, p.name))
        })
        .collect::<Result<Vec<&str>, String>>()?;
    let mut req = Request::new(client, described::operation(table, route), &values);
    if let Some(b) = body {
        req.json(b);
    }
    let raw = req
        .send_raw()
        .await
        .map_err(|e| format!("{}: {e}", route.id))?;
    Ok(serde_json::from_slice(raw.body()).unwrap_or(Value::Null))
}
