//! Objects put in by a seed file or a test: a collection path (`/venues/v1/aps`) names the
//! family and the parent ids, as the requests that create in it do.

use crate::config::Seed;
use crate::model::{Model, Role};
use crate::router::Router;
use crate::state::State;
use serde_json::Value;

fn is_collection(role: Role) -> bool {
    matches!(
        role,
        Role::Create | Role::List | Role::Query | Role::BulkDelete
    )
}

/// The key of the collection at `path`, and the name of its items' id parameter: found by a
/// route on the collection (create, list, query) or on an item of it (a relationship `PUT`).
fn locate(model: &Model, router: &Router, path: &str) -> Option<(String, Option<String>)> {
    let path = path.trim_end_matches('/');
    let query = format!("{path}/query");
    let item = format!("{path}/-");
    let tries = [
        ("POST", path, false),
        ("GET", path, false),
        ("POST", query.as_str(), false),
        ("PUT", item.as_str(), true),
    ];
    for (method, p, on_item) in tries {
        let Ok(m) = router.find(model, method, p) else {
            continue;
        };
        let table = model.apis.get(m.api)?;
        let Some(route) = m
            .routes
            .iter()
            .filter_map(|i| table.routes.get(*i))
            .find(|r| {
                if on_item {
                    matches!(r.role, Role::Upsert | Role::Replace)
                } else {
                    is_collection(r.role)
                }
            })
        else {
            continue;
        };
        let item_param = table
            .routes
            .iter()
            .filter(|r| {
                r.family == route.family
                    && matches!(r.role, Role::Read | Role::Delete | Role::Upsert)
            })
            .find_map(|r| r.path_params.last().map(|p| p.name.clone()));
        let parents = if on_item {
            &m.params[..m.params.len().saturating_sub(1)]
        } else {
            &m.params[..]
        };
        let key = format!("{}:{}|{}", m.api, route.family, parents.join("/"));
        return Some((key, item_param));
    }
    None
}

pub(crate) fn collection_key(model: &Model, router: &Router, path: &str) -> Option<String> {
    locate(model, router, path).map(|(k, _)| k)
}

pub(crate) fn insert(
    model: &Model,
    router: &Router,
    state: &mut State,
    tenant: &str,
    path: &str,
    object: Value,
) -> Result<(), String> {
    let (key, item_param) = locate(model, router, path)
        .ok_or_else(|| format!("{path} is no collection the simulator keeps"))?;
    let Value::Object(mut obj) = object else {
        return Err(format!("the objects of {path} must be JSON objects"));
    };
    let given = |f: &str| obj.get(f).and_then(Value::as_str).map(str::to_owned);
    let id = match item_param
        .as_deref()
        .and_then(given)
        .or_else(|| given("id"))
    {
        Some(id) => id,
        None => state.new_id(),
    };
    obj.entry("id").or_insert_with(|| Value::String(id.clone()));
    state
        .tenant(tenant)
        .collections
        .entry(key)
        .or_default()
        .insert(id, Value::Object(obj));
    Ok(())
}

/// Puts a seed's objects into a new simulator's state.
pub(crate) fn load(
    model: &Model,
    router: &Router,
    seed: &Seed,
    state: &mut State,
) -> Result<(), String> {
    for (tenant, collections) in &seed.objects {
        for (path, objects) in collections {
            for object in objects {
                insert(model, router, state, tenant, path, object.clone())?;
            }
        }
    }
    Ok(())
}
