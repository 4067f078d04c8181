//! What each role does with the state (see the generator's `emit/catalog/family.rs` for how roles
//! are inferred). A role returns the candidate answer (stored object, page, activity) that the
//! handler makes valid for the operation's response schema; `None` means a canned answer.

use crate::config::SimConfig;
use crate::errors::Refusal;
use crate::model::{Method, Role, Route, Table};
use crate::query::{Ask, page};
use crate::state::{Activity, State, rfc3339};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};

/// One request, as the roles see it.
pub(crate) struct Call<'a> {
    pub api: usize,
    pub table: &'a Table,
    pub route: &'a Route,
    /// Path parameter values in template order.
    pub params: &'a [String],
    pub query: &'a [(String, String)],
    pub body: Option<&'a Value>,
    pub tenant: &'a str,
    /// The request path (a settings document's key).
    pub path: &'a str,
    pub config: &'a SimConfig,
}

/// The family whose creations are customer tenants of their creator: it may act for them, and
/// its customer queries list them.
pub(crate) const TENANTS: &str = "/tenants";

fn is_item(role: Role) -> bool {
    matches!(
        role,
        Role::Read | Role::Replace | Role::Merge | Role::Delete | Role::Upsert
    )
}

impl Call<'_> {
    /// The collection the request addresses: family and parent ids.
    pub(crate) fn collection(&self) -> String {
        let parents = if is_item(self.route.role) {
            &self.params[..self.params.len().saturating_sub(1)]
        } else {
            self.params
        };
        format!("{}:{}|{}", self.api, self.route.family, parents.join("/"))
    }

    fn item_id(&self) -> String {
        self.params.last().cloned().unwrap_or_default()
    }

    /// The name of the family's item path parameter (`venueId`, `serialNumber`).
    fn item_param(&self) -> Option<&str> {
        self.table
            .routes
            .iter()
            .filter(|r| r.family == self.route.family && is_item(r.role))
            .find_map(|r| r.path_params.last().map(|p| p.name.as_str()))
    }
}

/// Runs the call's role.
pub(crate) fn run(call: &Call<'_>, state: &mut State) -> Result<Option<Value>, Refusal> {
    match call.route.role {
        Role::Create => create(call, state).map(Some),
        Role::Read => items(call, state)
            .and_then(|c| c.get(&call.item_id()).cloned())
            .map(Some)
            .ok_or_else(|| Refusal::not_found("the object")),
        Role::Replace | Role::Merge => update(call, state).map(Some),
        Role::Upsert => Ok(Some(upsert(call, state))),
        Role::Delete => items_mut(call, state)
            .shift_remove(&call.item_id())
            .map(Some)
            .ok_or_else(|| Refusal::not_found("the object")),
        Role::BulkDelete => {
            let ids: Vec<String> = call
                .body
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            let c = items_mut(call, state);
            for id in ids {
                c.shift_remove(&id);
            }
            Ok(None)
        }
        Role::List | Role::Query => {
            let all: Vec<Value> = items(call, state)
                .map(|c| c.values().cloned().collect())
                .unwrap_or_default();
            let ask = if call.route.role == Role::List {
                Ask::from_params(call.query)
            } else {
                Ask::from_body(call.body)
            };
            Ok(Some(page(call.table, call.route, &ask, all)))
        }
        Role::QueryAcross => {
            let all = across(call, state);
            Ok(Some(page(
                call.table,
                call.route,
                &Ask::from_body(call.body),
                all,
            )))
        }
        Role::OwnTenant => Ok(Some(own_tenant(call, state))),
        Role::CustomerQuery => {
            let all = customers(call, state);
            Ok(Some(page(
                call.table,
                call.route,
                &Ask::from_body(call.body),
                all,
            )))
        }
        Role::SettingsRead => Ok(settings(call, state).get(&settings_key(call)).cloned()),
        Role::SettingsWrite => Ok(Some(write_settings(call, state))),
        Role::ActivityRead => activity(call, state).map(Some),
        Role::ActivityQuery => Ok(Some(activity_page(call, state))),
        Role::Canned => Ok(None),
    }
}

/// Every object of the family under every parent, parents in order of their ids, each object
/// with its parents' ids under their path parameter names when it lacks them (inferred: the
/// service's cross-venue rows carry their `venueId`, and queries filter by it).
fn across(call: &Call<'_>, state: &mut State) -> Vec<Value> {
    let family = &call.route.family;
    let parent_names: Vec<&str> = call
        .table
        .routes
        .iter()
        .filter(|r| &r.family == family)
        .find_map(|r| match r.role {
            Role::Create | Role::List | Role::Query => Some(&r.path_params[..]),
            _ if is_item(r.role) => r.path_params.split_last().map(|(_, p)| p),
            _ => None,
        })
        .unwrap_or_default()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    let prefix = format!("{}:{family}|", call.api);
    let collections = &state.tenant(call.tenant).collections;
    let mut parents: Vec<(&str, &IndexMap<String, Value>)> = collections
        .iter()
        .filter_map(|(key, items)| Some((key.strip_prefix(&prefix)?, items)))
        .collect();
    parents.sort_by(|a, b| a.0.cmp(b.0));
    let mut all = Vec::new();
    for (ids, items) in parents {
        let ids: Vec<&str> = ids.split('/').collect();
        for item in items.values() {
            let mut item = item.clone();
            if let (Value::Object(obj), true) = (&mut item, ids.len() == parent_names.len()) {
                for (name, id) in parent_names.iter().zip(&ids) {
                    obj.entry(*name)
                        .or_insert_with(|| Value::String((*id).to_owned()));
                }
            }
            all.push(item);
        }
    }
    all
}

/// The calling tenant's customers: those the configuration names, then those it created (as
/// stored, in order of creation). Each row has its `id`, and `tenantType` `MSP_EC` (the tenant
/// type the spec gives an MSP's end customer) unless stored otherwise.
fn customers(call: &Call<'_>, state: &mut State) -> Vec<Value> {
    let ids: Vec<String> = crate::auth::customers_of(call.config, state, call.tenant)
        .map(str::to_owned)
        .collect();
    // The caller's records of its tenants (the customer queries are of the same API).
    let records = state
        .tenant(call.tenant)
        .collections
        .get(&format!("{}:{TENANTS}|", call.api));
    ids.iter()
        .map(|id| {
            let mut row = match records.and_then(|r| r.get(id)) {
                Some(Value::Object(obj)) => obj.clone(),
                _ => Map::new(),
            };
            row.insert("id".to_owned(), Value::String(id.clone()));
            row.entry("tenantType")
                .or_insert_with(|| Value::String("MSP_EC".to_owned()));
            Value::Object(row)
        })
        .collect()
}

/// The calling tenant's own tenant: as last written (`PUT /tenants/self`), else the record an
/// MSP that manages it holds of it (its name, its type), else nothing but its id; the `id` is
/// always the tenant's own.
fn own_tenant(call: &Call<'_>, state: &mut State) -> Value {
    let key = settings_key(call);
    let tenant = call.tenant;
    let mut document = match state.tenant(tenant).settings.get(&key) {
        Some(Value::Object(stored)) => stored.clone(),
        _ => {
            let records = format!("{}:{TENANTS}|", call.api);
            crate::auth::managers_of(call.config, state, tenant)
                .iter()
                .find_map(|msp| {
                    let record = state.tenants.get(msp)?.collections.get(&records)?;
                    record.get(tenant)?.as_object().cloned()
                })
                .unwrap_or_default()
        }
    };
    document.insert("id".to_owned(), Value::String(tenant.to_owned()));
    Value::Object(document)
}

fn items<'s>(call: &Call<'_>, state: &'s mut State) -> Option<&'s IndexMap<String, Value>> {
    state
        .tenant(call.tenant)
        .collections
        .get(&call.collection())
}

fn items_mut<'s>(call: &Call<'_>, state: &'s mut State) -> &'s mut IndexMap<String, Value> {
    state
        .tenant(call.tenant)
        .collections
        .entry(call.collection())
        .or_default()
}

fn as_object(body: Option<&Value>) -> Map<String, Value> {
    match body {
        Some(Value::Object(m)) => m.clone(),
        Some(other) if !other.is_null() => {
            let mut m = Map::new();
            m.insert("value".to_owned(), other.clone());
            m
        }
        _ => Map::new(),
    }
}

/// A string or number field as text (an id).
fn id_text(obj: &Map<String, Value>, field: &str) -> Option<String> {
    match obj.get(field)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Whether `id` names a tenant the simulator knows: one with a credential, state or records,
/// a configured customer or MSP, or a created customer.
fn tenant_exists(call: &Call<'_>, state: &State, id: &str) -> bool {
    let config = call.config;
    let records = format!("{}:{TENANTS}|", call.api);
    state.tenants.contains_key(id)
        || config.credentials().any(|c| c.tenant_id == id)
        || config
            .seed
            .customers
            .iter()
            .any(|(msp, customers)| msp == id || customers.iter().any(|c| c == id))
        || state.customers.values().flatten().any(|c| c == id)
        || state.tenants.values().any(|t| {
            t.collections
                .get(&records)
                .is_some_and(|c| c.contains_key(id))
        })
}

/// Whether the family's objects have integer ids (their schemas say so).
fn integer_ids(call: &Call<'_>) -> bool {
    let t = call.table;
    let mut schemas: Vec<&Value> = vec![&call.route.response.schema];
    schemas.extend(call.route.request.as_ref().map(|b| &b.schema));
    schemas.extend(
        t.routes
            .iter()
            .filter(|r| r.family == call.route.family && matches!(r.role, Role::Read | Role::List))
            .map(|r| &r.response.schema),
    );
    schemas.into_iter().any(|s| {
        let mut s = s;
        for _ in 0..8 {
            if let Some(items) = s.get("items") {
                s = items;
            } else if let Some(Some(target)) = t.referenced(s) {
                s = target;
            } else {
                break;
            }
        }
        s.pointer("/properties/id/type").and_then(Value::as_str) == Some("integer")
    })
}

/// Creates one object per entry of a batch body (a list, or the tenants' holder), else one. The
/// candidate answer: the created object (the first of a batch), or for an asynchronous batch
/// every created object, as a list (its accepted answer names each, see
/// `handler::accept_async`).
fn create(call: &Call<'_>, state: &mut State) -> Result<Value, Refusal> {
    let (bodies, batch): (Vec<Option<&Value>>, bool) = match call.body {
        Some(Value::Array(list)) => (list.iter().map(Some).collect(), true),
        // Customer tenants come in a holder: `{"data": [1 to 100 of them]}`
        // (`AddTenantRequestHolder`), each one tenant.
        Some(Value::Object(holder)) if call.route.family == TENANTS => match holder.get("data") {
            Some(Value::Array(list)) => (list.iter().map(Some).collect(), true),
            _ => (vec![call.body], false),
        },
        other => (vec![other], false),
    };
    let key = call.item_param().map(str::to_owned);
    let numeric = integer_ids(call);
    let mut created = Vec::with_capacity(bodies.len());
    for body in bodies {
        let mut obj = as_object(body);
        let given = key
            .as_deref()
            .and_then(|k| id_text(&obj, k))
            .or_else(|| id_text(&obj, "id"));
        let tenant = call.route.family == TENANTS;
        if let Some(named) = given
            .as_deref()
            .filter(|t| tenant && tenant_exists(call, state, t))
        {
            // Naming an existing tenant would make the caller its MSP.
            return Err(Refusal::new(
                409,
                "SIM-409",
                format!("the tenant {named} exists"),
            ));
        }
        let id = match given {
            // A tenant's id is the service's to give.
            Some(id) if !tenant => id,
            _ if numeric => state.new_number().to_string(),
            _ => state.new_id(),
        };
        let id_value = match id.parse::<u64>() {
            Ok(n) if numeric => json!(n),
            _ => Value::String(id.clone()),
        };
        if tenant {
            for field in key.iter().map(String::as_str).chain(["id", "tenantId"]) {
                if field == "id" || obj.contains_key(field) {
                    obj.insert(field.to_owned(), id_value.clone());
                }
            }
        }
        obj.entry("id").or_insert(id_value);
        let c = items_mut(call, state);
        if c.contains_key(&id) {
            return Err(Refusal::new(
                409,
                "SIM-409",
                format!("an object with id {id} exists"),
            ));
        }
        let v = Value::Object(obj);
        c.insert(id.clone(), v.clone());
        if call.route.family == TENANTS {
            // A tenant created by a tenant is its customer: it may act for it.
            state
                .customers
                .entry(call.tenant.to_owned())
                .or_default()
                .push(id);
        }
        created.push(v);
    }
    Ok(if batch && call.route.asynchronous {
        Value::Array(created)
    } else {
        created.into_iter().next().unwrap_or_else(|| json!({}))
    })
}

/// RFC 7386 JSON merge patch.
pub(crate) fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = json!({});
    }
    if let Value::Object(t) = target {
        for (k, v) in p {
            if v.is_null() {
                t.remove(k);
            } else {
                merge(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
}

fn update(call: &Call<'_>, state: &mut State) -> Result<Value, Refusal> {
    let id = call.item_id();
    let role = call.route.role;
    let c = items_mut(call, state);
    let Some(existing) = c.get_mut(&id) else {
        return Err(Refusal::not_found("the object"));
    };
    if role == Role::Merge {
        merge(existing, &Value::Object(as_object(call.body)));
    } else {
        *existing = Value::Object(as_object(call.body));
    }
    if let Value::Object(m) = existing {
        m.entry("id").or_insert_with(|| Value::String(id.clone()));
    }
    Ok(existing.clone())
}

fn upsert(call: &Call<'_>, state: &mut State) -> Value {
    let id = call.item_id();
    let mut obj = as_object(call.body);
    obj.entry("id").or_insert_with(|| Value::String(id.clone()));
    let v = Value::Object(obj);
    items_mut(call, state).insert(id, v.clone());
    v
}

fn settings_key(call: &Call<'_>) -> String {
    format!("{}:{}", call.api, call.path.trim_end_matches('/'))
}

fn settings<'s>(
    call: &Call<'_>,
    state: &'s mut State,
) -> &'s mut std::collections::HashMap<String, Value> {
    &mut state.tenant(call.tenant).settings
}

fn write_settings(call: &Call<'_>, state: &mut State) -> Value {
    let key = settings_key(call);
    let patch = call.body.cloned().unwrap_or_else(|| json!({}));
    let doc = settings(call, state)
        .entry(key)
        .or_insert_with(|| json!({}));
    if call.route.method == Method::Patch {
        merge(doc, &patch);
    } else {
        *doc = patch;
    }
    doc.clone()
}

/// An activity as the activities API shows it.
pub(crate) fn activity_json(a: &Activity, now_ms: u64) -> Value {
    let status = a.status(now_ms);
    let mut v = json!({
        "id": a.id,
        "requestId": a.id,
        "status": status,
        "useCase": a.use_case,
        "startDatetime": rfc3339(a.started_ms),
    });
    if status == "SUCCESS" || status == "FAIL" {
        v["endDatetime"] = json!(rfc3339(a.started_ms.saturating_add(a.duration_ms)));
    }
    if let (Some(error), "FAIL") = (&a.failure, status) {
        v["error"] = json!(error.to_string());
        v["suggestion"] = json!("See the error.");
    }
    v
}

fn activity(call: &Call<'_>, state: &mut State) -> Result<Value, Refusal> {
    let now = state.clock.now_ms();
    let id = call.params.first().cloned().unwrap_or_default();
    state
        .tenant(call.tenant)
        .activities
        .get(&id)
        .filter(|a| now >= a.visible_ms)
        .map(|a| activity_json(a, now))
        .ok_or_else(|| Refusal::not_found("the activity"))
}

fn activity_page(call: &Call<'_>, state: &mut State) -> Value {
    let now = state.clock.now_ms();
    let all: Vec<Value> = state
        .tenant(call.tenant)
        .activities
        .values()
        .filter(|a| now >= a.visible_ms)
        .map(|a| activity_json(a, now))
        .collect();
    page(call.table, call.route, &Ask::from_body(call.body), all)
}
