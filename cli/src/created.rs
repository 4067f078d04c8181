//! What a create made: after its activity, the object read back (found by the id the answer
//! carries, else by the identity the body gave it, within its parent), or at least its id and
//! name; without waiting, the request id and the id when the answer carries it.

use crate::call::{self, single};
use crate::exit::Failure;
use crate::ops::{self, Op};
use crate::opts::Opts;
use crate::request::Call;
use ruckus_one_catalog::ResourceKind;
use ruckus_one_runtime::Client;
use ruckus_one_state::Connection;
use ruckus_one_state::lookup::{self, Lookup};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The kind `op` creates, when it is a create of the resource layer.
pub(crate) fn kind(op: Op) -> Option<&'static ResourceKind> {
    crate::resolve::kind_of_operation(op)
        .filter(|k| k.operations.create.as_deref() == Some(op.route.id.as_str()))
}

/// The id an accepted write's answer names (`response.id`, else `id`).
pub(crate) fn id_in(answer: &Value) -> Option<String> {
    answer
        .pointer("/response/id")
        .or_else(|| answer.get("id"))
        .and_then(|v| match v {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
}

/// The value of the path parameter `name` in `call`.
fn path_value<'c>(call: &'c Call, name: &str) -> Option<&'c str> {
    let at = call
        .op
        .route
        .path_params
        .iter()
        .position(|p| p.name == name)?;
    call.path.get(at)?.as_deref()
}

/// Prints what the create `call` of `kind` made (its activity finished): the object read
/// back, else its id and name, else `activity` when the object cannot be found.
pub(crate) async fn show(
    client: &Client,
    call: &Call,
    opts: &Opts,
    kind: &ResourceKind,
    known: Option<String>,
    activity: &Value,
) -> Result<(), Failure> {
    let name = call.body.as_ref().and_then(|b| lookup::name_of(kind, b));
    let mut under = BTreeMap::new();
    if let Some(p) = &kind.parent_param
        && let Some(v) = path_value(call, p).or_else(|| call.path.last()?.as_deref())
    {
        under.insert(p.clone(), v.to_owned());
    }
    let id = match (known, &name) {
        (Some(id), _) => Some(id),
        (None, Some(n)) => {
            let conn = Connection::new(client, None)?;
            match lookup::find(&conn, kind, &under, n).await? {
                Lookup::Found(f) => Some(f.id),
                _ => None,
            }
        }
        (None, None) => None,
    };
    let Some(id) = id else {
        return single(opts, activity);
    };
    match read_back(client, call, kind, &under, &id).await {
        Some(object) => single(opts, &object),
        None => single(opts, &json!({"id": id, "name": name})),
    }
}

/// The object `id` of `kind` as its read answers, when it has a read and the read succeeds.
async fn read_back(
    client: &Client,
    call: &Call,
    kind: &ResourceKind,
    under: &BTreeMap<String, String>,
    id: &str,
) -> Option<Value> {
    let read = ops::by_id(call.op.table, kind.operations.read.as_deref()?)?;
    let path = read
        .route
        .path_params
        .iter()
        .map(|p| {
            if kind.id_param.as_deref() == Some(p.name.as_str()) {
                Some(id.to_owned())
            } else {
                path_value(call, &p.name)
                    .map(str::to_owned)
                    .or_else(|| under.get(&p.name).cloned())
            }
        })
        .collect();
    let get = Call {
        op: read,
        path,
        query: Vec::new(),
        body: None,
        version: 0,
    };
    call::build(client, &get).ok()?.send_json().await.ok()
}
