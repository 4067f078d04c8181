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

/// The position of `name` in the order changes are made in: after its parent and the kinds
/// it refers to (other than by a deferred reference), else in the layer's order. The layer
/// is written in that order already; it is checked here rather than trusted.
pub(crate) fn rank(resources: &Resources, name: &str) -> usize {
    order(resources)
        .iter()
        .position(|k| *k == name)
        .unwrap_or(usize::MAX)
}

/// The kinds' names, each after those it depends on (a cycle is cut where it closes).
pub(crate) fn order(resources: &Resources) -> Vec<&str> {
    fn visit<'r>(
        r: &'r Resources,
        k: &'r ResourceKind,
        seen: &mut Vec<&'r str>,
        out: &mut Vec<&'r str>,
    ) {
        if seen.contains(&k.name.as_str()) {
            return;
        }
        seen.push(&k.name);
        let needs = k
            .parent
            .iter()
            .chain(k.references.iter().filter(|x| !x.deferred).map(|x| &x.kind));
        for dep in needs.filter_map(|n| r.kind(n)) {
            visit(r, dep, seen, out);
        }
        out.push(&k.name);
    }
    let (mut seen, mut out) = (Vec::new(), Vec::new());
    for k in &resources.kinds {
        visit(resources, k, &mut seen, &mut out);
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_and_referenced_kinds_come_first_whatever_the_listing() {
        let kind = |name: &str, parent: Option<&str>, refs: &[&str]| {
            serde_json::from_value::<ResourceKind>(serde_json::json!({
                "name": name, "api": "network", "title": "t", "shape": "collection",
                "parent": parent, "operations": {}, "provenance": "x",
                "references": refs.iter().map(|r| serde_json::json!({"kind": r, "field": "/x"})).collect::<Vec<_>>(),
            }))
            .unwrap()
        };
        let resources = Resources {
            generated: String::new(),
            kinds: vec![
                kind("activation", Some("venue"), &["network"]),
                kind("group", Some("venue"), &[]),
                kind("network", None, &[]),
                kind("venue", None, &[]),
            ],
        };
        assert_eq!(
            order(&resources),
            ["venue", "network", "activation", "group"]
        );
        assert!(rank(&resources, "venue") < rank(&resources, "group"));
    }
}
