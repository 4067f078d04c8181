//! Names wherever an id is asked: each path value of a call that names an object of a resource
//! kind (a venue's `--venue-id`, an AP's `--serial-number`) may be the object's id, its name,
//! or for a device its serial number or MAC address; the state crate's
//! [`lookup`](ruckus_one_state::lookup) finds which object is meant, within its parent. A parent
//! left out is taken from the child found (`aps get --serial-number S` finds the AP's venue).

use crate::exit::{Exit, Failure};
use crate::fields::kebab;
use crate::ops::{self, Op};
use crate::request::Call;
use ruckus_one_catalog::{Catalog, ResourceKind};
use ruckus_one_runtime::Client;
use ruckus_one_state::lookup::{self, Found, Lookup};
use ruckus_one_state::{Connection, Resources};
use std::collections::BTreeMap;

/// The resource layer, or a failure naming why it did not parse.
pub(crate) fn resources() -> Result<&'static Resources, Failure> {
    Ok(Catalog::resources()?)
}

/// The resource kind `op` works on, when the resource layer has one.
pub(crate) fn kind_of_operation(op: Op) -> Option<&'static ResourceKind> {
    lookup::kind_of_operation(resources().ok()?, &op.table.api.name, &op.route.id)
}

/// What a path parameter of an operation (of `api`, at `path`) takes besides an id, when it
/// names an object of a resource kind (`None` otherwise), and whether it may be left out (the
/// parent of a kind listed across parents: the child found tells it).
pub(crate) fn names_taken(op: Op, param: &str) -> Option<(&'static str, bool)> {
    let kinds = kinds_of_path(op).ok()?;
    let at = kinds.iter().position(|(p, _)| p == param)?;
    let kind = kinds[at].1;
    let left_out = kinds[at + 1..].iter().any(|(_, child)| {
        child.parent.as_deref() == Some(kind.name.as_str()) && lists_across(op, child)
    });
    let device = kind.identity.iter().any(|i| i == "/serialNumber");
    let takes = if device {
        "its serial number, MAC address (any spelling) or name"
    } else {
        "its id or name"
    };
    Some((takes, left_out))
}

/// The kinds the path parameters of `op` name (see [`lookup::kinds_of_path`]), the routes read
/// from the areas they are in only.
fn kinds_of_path(op: Op) -> Result<Vec<(String, &'static ResourceKind)>, Failure> {
    let route_path = |id: &str| ops::by_id(op.table, id).map(|o| o.route.path.clone());
    Ok(lookup::kinds_of_path(
        resources()?,
        &op.table.api.name,
        &op.route.path,
        &route_path,
    ))
}

/// The kind's list does not take its parent in its path (a query across parents).
fn lists_across(op: Op, kind: &ResourceKind) -> bool {
    let (Some(list), Some(param)) = (&kind.operations.list, &kind.parent_param) else {
        return false;
    };
    ops::by_id(op.table, list)
        .is_some_and(|o| !o.route.path_params.iter().any(|p| &p.name == param))
}

/// Puts ids for the names among `call`'s path values (parents first), and the ids of parents
/// left out that a child found tells.
pub(crate) async fn path(client: &Client, call: &mut Call) -> Result<(), Failure> {
    let route = call.op.route;
    let given = call
        .path
        .iter()
        .flatten()
        .any(|v| !lookup::looks_like_id(v));
    let missing = call.path.iter().any(Option::is_none);
    if !given && !missing {
        return Ok(());
    }
    let kinds = kinds_of_path(call.op)?;
    let conn = Connection::new(client, None)?;
    let mut parent_at: Option<(usize, &ResourceKind)> = None;
    for (param, kind) in &kinds {
        let Some(at) = route.path_params.iter().position(|p| &p.name == param) else {
            continue;
        };
        let Some(text) = call.path[at].clone() else {
            parent_at = Some((at, kind));
            continue;
        };
        let mut under = BTreeMap::new();
        if let (Some((p_at, _)), Some(pp)) = (parent_at, &kind.parent_param)
            && let Some(Some(id)) = call.path.get(p_at)
        {
            under.insert(pp.clone(), id.clone());
        }
        // A kind that cannot be listed takes ids only.
        let found = if lookup::looks_like_id(&text) || kind.operations.list.is_none() {
            None
        } else {
            one(&conn, kind, &under, &text, param).await?
        };
        let id = found.as_ref().map_or(text, |f| f.id.clone());
        if let (Some((p_at, _)), Some(f)) = (parent_at, &found)
            && call.path[p_at].is_none()
            && let Some(pid) = kind
                .parent_param
                .as_ref()
                .and_then(|pp| f.row.get(pp))
                .and_then(|v| v.as_str())
        {
            call.path[p_at] = Some(pid.to_owned());
        }
        call.path[at] = Some(id);
        parent_at = Some((at, kind));
    }
    Ok(())
}

/// The one object `text` names, or a failure: not found (exit 4), or several with that name
/// (a usage error listing each with its id). `None`: the list was refused (the value is then
/// sent as it is, the service's answer being the better error).
async fn one(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    under: &BTreeMap<String, String>,
    text: &str,
    param: &str,
) -> Result<Option<Found>, Failure> {
    let Ok(looked_up) = lookup::find(conn, kind, under, text).await else {
        return Ok(None);
    };
    match looked_up {
        Lookup::Found(f) => Ok(Some(f)),
        Lookup::NotFound => Err(Failure::new(
            Exit::NotFound,
            format!(
                "--{}: no {} has the id or name `{text}`",
                kebab(param),
                kind.name
            ),
        )),
        Lookup::Ambiguous(all) => {
            let listed: Vec<String> = all
                .iter()
                .map(|f| format!("{} (id {})", f.name.as_deref().unwrap_or("?"), f.id))
                .collect();
            Err(Failure::usage(format!(
                "--{}: {} objects of kind {} are named `{text}`: {}; give the id",
                kebab(param),
                all.len(),
                kind.name,
                listed.join(", ")
            )))
        }
    }
}

/// The kind whose object a query or top-level body field `name` of `op` names by id, when its
/// names are looked up: a listable kind directly under the tenant, or under a parent whose id
/// the call holds when the field reads as a reference (`apGroupId`; a bare `id` or a
/// `serialNumber` may be the identity of the object the call makes) of another kind than
/// the operation's own.
pub(crate) fn field_kind(op: Op, name: &str) -> Option<&'static ResourceKind> {
    let resources = resources().ok()?;
    let api = op.table.api.name.as_str();
    let reference = name.len() > 2 && name.ends_with("Id");
    let own = kind_of_operation(op);
    resources.kinds.iter().find(|k| {
        k.api == api
            && k.operations.list.is_some()
            && k.id_param.as_deref() == Some(name)
            && (k.parent.is_none() || (reference && own.is_none_or(|o| o.name != k.name)))
    })
}

/// Puts ids for names in `call`'s query values and top-level body fields that hold the id of
/// a listable object: one directly under the tenant (a `venueId` field names a venue), or one
/// under a parent whose id the call holds (an `apGroupId` field names an AP group of the
/// venue in the path). The same lookup as a path value; top-level kinds first, so a parent
/// named in the body is an id by the time its children are looked up.
pub(crate) async fn fields(client: &Client, call: &mut Call) -> Result<(), Failure> {
    resources()?;
    let kind_of = |name: &str| field_kind(call.op, name);
    let mut wanted: Vec<(String, String, &ResourceKind)> = Vec::new();
    for (name, value) in &call.query {
        if let Some(kind) = kind_of(name) {
            wanted.push(((*name).to_owned(), value.clone(), kind));
        }
    }
    if let Some(serde_json::Value::Object(body)) = &call.body {
        for (name, value) in body {
            if let (Some(kind), Some(text)) = (kind_of(name), value.as_str()) {
                wanted.push((name.clone(), text.to_owned(), kind));
            }
        }
    }
    wanted.retain(|(_, text, _)| !lookup::looks_like_id(text));
    if wanted.is_empty() {
        return Ok(());
    }
    wanted.sort_by_key(|(_, _, kind)| kind.parent.is_some());
    let conn = Connection::new(client, None)?;
    for (name, text, kind) in wanted {
        let mut under = BTreeMap::new();
        if let Some(pp) = &kind.parent_param {
            // A child kind needs its parent's id from the call; without it, ids only.
            let Some(parent) =
                value_of(call, pp).filter(|v| lookup::looks_like_id(v) || !v.is_empty())
            else {
                continue;
            };
            under.insert(pp.clone(), parent);
        }
        let Some(found) = one(&conn, kind, &under, &text, &name).await? else {
            continue;
        };
        for (_, v) in call.query.iter_mut().filter(|(n, _)| *n == name) {
            *v = found.id.clone();
        }
        if let Some(serde_json::Value::Object(body)) = &mut call.body
            && let Some(v) = body.get_mut(&name)
            && v.as_str() == Some(text.as_str())
        {
            *v = serde_json::Value::String(found.id.clone());
        }
    }
    Ok(())
}

/// The value `call` gives the parameter or top-level body field `name`: its path value, its
/// query value, else its body field.
fn value_of(call: &Call, name: &str) -> Option<String> {
    let route = call.op.route;
    if let Some(at) = route.path_params.iter().position(|p| p.name == name) {
        return call.path.get(at).cloned().flatten();
    }
    if let Some((_, v)) = call.query.iter().find(|(n, _)| *n == name) {
        return Some(v.clone());
    }
    match &call.body {
        Some(serde_json::Value::Object(body)) => body.get(name)?.as_str().map(str::to_owned),
        _ => None,
    }
}
