//! One-field updates. An operation that replaces a whole object (a `PUT` whose path has a
//! `GET`) is sent as: the object read, cut to the fields the write takes (none the service
//! sets), with the flags, `--set` and `--json` merged on top. Where the same path has a `PATCH`
//! taking an object, the fields given are sent to it instead. `--replace` sends exactly the
//! body given.

use crate::body;
use crate::exit::Failure;
use crate::ops::{self, Op};
use crate::request::Call;
use ruckus_one_catalog::{Method, Route};
use ruckus_one_runtime::Client;
use serde_json::{Map, Value};

/// The operation at `op`'s path with `method`, in its area or as the resource layer names it.
fn sibling(op: Op, method: Method) -> Option<Op> {
    let same = |r: &Route| r.method == method && r.path == op.route.path;
    let area = op.route.command.first()?;
    if let Some(found) = ops::area(area).ok()?.into_iter().find(|o| same(o.route)) {
        return Some(found);
    }
    let kind = crate::resolve::kind_of_operation(op)?;
    let o = &kind.operations;
    [&o.read, &o.update]
        .into_iter()
        .flatten()
        .filter_map(|id| ops::by_id(op.table, id))
        .find(|o| same(o.route))
}

/// The read that goes with a whole-object write `op`, when there is one.
pub(crate) fn read_of(op: Op) -> Option<Op> {
    let takes_object = body::object(op.table, &op.route.request.as_ref()?.schema).is_some()
        || body::union(op).is_some();
    (op.route.method == Method::Put && takes_object)
        .then(|| sibling(op, Method::Get))
        .flatten()
}

/// The object an update `call` (PUT or PATCH) changed, read back by the GET of its path once
/// its activity ended; `None` for other calls, or when there is no such read or it fails.
pub(crate) async fn read_back(client: &Client, call: &Call) -> Option<Value> {
    if !matches!(call.op.route.method, Method::Put | Method::Patch) {
        return None;
    }
    let get = Call {
        op: sibling(call.op, Method::Get)?,
        path: call.path.clone(),
        query: Vec::new(),
        body: None,
        version: 0,
    };
    crate::call::build(client, &get)
        .ok()?
        .send_json()
        .await
        .ok()
}

/// A `PATCH` of the same path taking an object.
fn patch_of(op: Op) -> Option<Op> {
    let patch = sibling(op, Method::Patch)?;
    let schema = op.table.deref(&patch.route.request.as_ref()?.schema);
    (schema.get("type").and_then(Value::as_str) != Some("array")).then_some(patch)
}

/// Turns `call` (a whole-object write) into one that changes only the fields given: a PATCH
/// where there is one, else the object read with the given fields on top. Other calls are
/// left as they are.
pub(crate) async fn prepare(client: &Client, call: &mut Call) -> Result<(), Failure> {
    let Some(read) = read_of(call.op) else {
        return Ok(());
    };
    let given = call.body.take().unwrap_or(Value::Object(Map::new()));
    if let Some(patch) = patch_of(call.op) {
        call.op = patch;
        call.version = 0;
        call.body = Some(given);
        return Ok(());
    }
    let get = Call {
        op: read,
        path: call.path.clone(),
        query: Vec::new(),
        body: None,
        version: 0,
    };
    let current: Value = match crate::call::build(client, &get)?.send_json().await {
        Ok(v) => v,
        // Nothing to read (yet): the body goes as given.
        Err(e) if e.status() == Some(404) => {
            call.body = Some(given);
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let mut merged = writable(call.op, current);
    merge(&mut merged, given);
    call.body = Some(merged);
    Ok(())
}

/// `doc` (an object as read) cut to the fields the body of `op` takes, without those the
/// service sets.
pub(crate) fn writable(op: Op, doc: Value) -> Value {
    let Some(request) = op.route.request.as_ref() else {
        return doc;
    };
    let mut schema = op.table.deref(&request.schema);
    let mut keep_first: Option<String> = None;
    if let Some(u) = body::union(op) {
        let chosen = doc.get(&u.property).and_then(Value::as_str);
        match u.variants.iter().find(|(n, _)| Some(n.as_str()) == chosen) {
            Some((_, s)) => schema = s,
            None => return doc,
        }
        keep_first = Some(u.property);
    }
    let mut out = cut(op, schema, doc.clone(), "");
    if let (Some(p), Value::Object(m)) = (keep_first, &mut out)
        && let Some(v) = doc.get(&p)
    {
        m.insert(p, v.clone());
    }
    out
}

fn cut(op: Op, schema: &'static Value, doc: Value, prefix: &str) -> Value {
    let Some(s) = body::object(op.table, schema) else {
        return doc;
    };
    let (Some(props), Value::Object(fields)) =
        (s.get("properties").and_then(Value::as_object), doc)
    else {
        return Value::Null;
    };
    let mut out = Map::new();
    for (name, v) in fields {
        let Some(sub) = props.get(&name) else {
            continue;
        };
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        if body::service_set(op, &path, sub) {
            continue;
        }
        let v = if v.is_object() {
            cut(op, sub, v, &path)
        } else {
            v
        };
        out.insert(name, v);
    }
    Value::Object(out)
}

/// `top` merged into `base`: objects field by field, anything else replaced.
pub(crate) fn merge(base: &mut Value, top: Value) {
    match (base, top) {
        (Value::Object(b), Value::Object(t)) => {
            for (k, v) in t {
                match b.get_mut(&k) {
                    Some(at) => merge(at, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, t) => *b = t,
    }
}

#[cfg(test)]
mod tests {
    use super::merge;
    use serde_json::json;

    #[test]
    fn given_fields_go_on_top_of_the_object_read() {
        let mut base = json!({"name": "Old", "address": {"city": "Lyon", "country": "France"}});
        merge(
            &mut base,
            json!({"name": "New", "address": {"city": "Paris"}}),
        );
        assert_eq!(
            base,
            json!({"name": "New", "address": {"city": "Paris", "country": "France"}})
        );
    }
}
