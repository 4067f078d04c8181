//! What the engine derives from a resource kind: its depth, an object's name, the path
//! parameters of a call on an object.

use crate::connection::{Params, id_text};
use crate::error::Error;
use crate::model::Address;
use ruckus_one_catalog::{ResourceKind, ResourceShape, Resources};
use serde_json::Value;

/// The name a settings object has (one per parent).
pub const SETTINGS_NAME: &str = "settings";

/// The kind named `name`, or an error naming it.
pub(crate) fn kind<'r>(resources: &'r Resources, name: &str) -> Result<&'r ResourceKind, Error> {
    resources
        .kind(name)
        .ok_or_else(|| Error::Resources(format!("no resource kind `{name}`")))
}

/// The position of `name` in the layer's order (parents and referenced kinds first).
pub(crate) fn rank(resources: &Resources, name: &str) -> usize {
    resources
        .kinds
        .iter()
        .position(|k| k.name == name)
        .unwrap_or(usize::MAX)
}

/// How many parents an object of `kind` has.
pub(crate) fn depth(resources: &Resources, kind: &ResourceKind) -> usize {
    let mut d = 0;
    let mut cur = kind;
    while let Some(p) = cur.parent.as_deref().and_then(|p| resources.kind(p)) {
        d += 1;
        cur = p;
        if d > resources.kinds.len() {
            break;
        }
    }
    d
}

/// The kind at the top of `kind`'s parent chain.
pub(crate) fn top<'r>(resources: &'r Resources, kind: &'r ResourceKind) -> &'r ResourceKind {
    let mut cur = kind;
    for _ in 0..resources.kinds.len() {
        match cur.parent.as_deref().and_then(|p| resources.kind(p)) {
            Some(p) => cur = p,
            None => break,
        }
    }
    cur
}

/// The references of an activation that name the activated object (path parameters).
pub(crate) fn param_refs(kind: &ResourceKind) -> impl Iterator<Item = (&str, &str)> {
    kind.references
        .iter()
        .filter_map(|r| Some((r.param.as_deref()?, r.kind.as_str())))
}

/// An object's name from its document: its identity fields' values joined by `/` (a
/// collection), the names it activates (an activation), [`SETTINGS_NAME`] (settings).
pub(crate) fn name_of(kind: &ResourceKind, doc: &Value) -> Option<String> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    };
    let parts: Option<Vec<String>> = match kind.shape {
        ResourceShape::Settings => return Some(SETTINGS_NAME.to_owned()),
        ResourceShape::Collection => kind
            .identity
            .iter()
            .map(|p| doc.pointer(p).and_then(text))
            .collect(),
        ResourceShape::Activation => param_refs(kind)
            .map(|(param, _)| doc.get(param).and_then(text))
            .collect(),
    };
    parts.filter(|p| !p.is_empty()).map(|p| p.join("/"))
}

/// The address of the `target` object a reference of the object at `from` names `name`: in
/// the same parents as far as the target kind is deep.
pub(crate) fn referenced(
    resources: &Resources,
    from: &Address,
    target: &str,
    name: &str,
) -> Address {
    let d = resources
        .kind(target)
        .map(|k| depth(resources, k))
        .unwrap_or(0)
        .min(from.parents.len());
    Address {
        kind: target.to_owned(),
        parents: from.parents[..d].to_vec(),
        name: name.to_owned(),
    }
}

/// The path parameters of a call on the object at `address` (and of a list under its
/// parent): its parents' ids, its own id (`own`), and for an activation the ids of what it
/// activates. `id_of` gives a known object's id.
pub(crate) fn params(
    resources: &Resources,
    kind: &ResourceKind,
    address: &Address,
    own: Option<&str>,
    doc: Option<&Value>,
    id_of: &dyn Fn(&Address) -> Option<String>,
) -> Result<Params, Error> {
    let mut out = Params::new();
    let (mut cur_kind, mut cur) = (kind, address.clone());
    while let Some(parent) = cur_kind.parent.as_deref() {
        let pk = self::kind(resources, parent)?;
        let pa = cur
            .parent(parent)
            .ok_or_else(|| Error::Resources(format!("{address} has no parent {parent}")))?;
        let id = id_of(&pa).ok_or_else(|| Error::UnresolvedReference {
            object: address.to_string(),
            target: pa.to_string(),
        })?;
        if let Some(param) = &cur_kind.parent_param {
            out.insert(param.clone(), id);
        }
        cur_kind = pk;
        cur = pa;
    }
    if let (Some(param), Some(id)) = (&kind.id_param, own) {
        out.insert(param.clone(), id.to_owned());
    }
    if let Some(doc) = doc {
        for (param, target) in param_refs(kind) {
            let Some(name) = doc.get(param).and_then(id_text) else {
                continue;
            };
            let ta = referenced(resources, address, target, &name);
            let id = id_of(&ta).ok_or_else(|| Error::UnresolvedReference {
                object: address.to_string(),
                target: ta.to_string(),
            })?;
            out.insert(param.to_owned(), id);
        }
    }
    Ok(out)
}
