//! Names wherever an id is asked: each path value of a call that names an object of a resource
//! kind (a venue's `--venue-id`, an AP's `--serial-number`) may be the object's id, its name,
//! or for a device its serial number or MAC address; the state crate's
//! [`lookup`](ruckus_one_state::lookup) finds which object is meant, within its parent. A parent
//! left out is taken from the child found (`aps get --serial-number S` finds the AP's venue).

use crate::exit::{Exit, Failure};
use crate::fields::kebab;
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
pub(crate) fn kind_of_operation(op: crate::ops::Op) -> Option<&'static ResourceKind> {
    lookup::kind_of_operation(resources().ok()?, &op.table.api.name, &op.route.id)
}

/// Whether a path parameter of `call`'s operation names an object whose child in the same path
/// can tell its id (the parent of a kind listed across parents): it may then be left out.
pub(crate) fn may_be_left_out(api: &str, path: &str, param: &str) -> bool {
    let Ok(resources) = resources() else {
        return false;
    };
    let Ok(kinds) = lookup::kinds_of_path(resources, api, path) else {
        return false;
    };
    let Some(at) = kinds.iter().position(|(p, _)| p == param) else {
        return false;
    };
    kinds[at + 1..].iter().any(|(_, child)| {
        child.parent.as_deref() == Some(kinds[at].1.name.as_str()) && lists_across(child)
    })
}

/// The kind's list does not take its parent in its path (a query across parents).
fn lists_across(kind: &ResourceKind) -> bool {
    let (Some(list), Some(param)) = (&kind.operations.list, &kind.parent_param) else {
        return false;
    };
    let Ok(catalog) = Catalog::get() else {
        return false;
    };
    catalog
        .api(&kind.api)
        .and_then(|(_, t)| t.route(list))
        .is_some_and(|r| !r.path_params.iter().any(|p| &p.name == param))
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
    let resources = resources()?;
    let kinds = lookup::kinds_of_path(resources, &call.op.table.api.name, &route.path)?;
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
        let found = if lookup::looks_like_id(&text) {
            None
        } else {
            Some(one(&conn, kind, &under, &text, param).await?)
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
/// (a usage error listing each with its id).
async fn one(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    under: &BTreeMap<String, String>,
    text: &str,
    param: &str,
) -> Result<Found, Failure> {
    match lookup::find(conn, kind, under, text).await? {
        Lookup::Found(f) => Ok(f),
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
