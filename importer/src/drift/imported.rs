//! The imported files the plan would change, compared with those on disk: types and their
//! fields, the fields added to curated types, and drafted operations. Provenance and the
//! import's own descriptions are left out (a newer file name changes every provenance line).
//!
//! Drafted operations are compared for additions and shape only: a removed, deprecated or newly
//! versioned route is found on the spec's operations ([`super::routes`]), drafted ones included.

use super::{Class, Item};
use crate::import::Changes;
use serde_yaml::{Mapping, Value};
use std::collections::BTreeMap;

/// Keys that are prose or provenance, not facts a client depends on.
const PROSE: [&str; 4] = [
    "description",
    "provenance",
    "media_types_provenance",
    "notes",
];

/// The differences between the imported files on disk and the texts the plan would write.
pub fn compare(changes: &Changes) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for (path, new) in changes {
        let old = std::fs::read_to_string(path).unwrap_or_default();
        let parse = |text: &str| -> Result<Mapping, String> {
            match serde_yaml::from_str::<Value>(text) {
                Ok(Value::Mapping(m)) => Ok(m),
                Ok(_) => Ok(Mapping::new()),
                Err(e) => Err(format!("{}: {e}", path.display())),
            }
        };
        let old = parse(&old)?;
        let new = parse(new.as_deref().unwrap_or_default())?;
        types(&old, &new, &mut items);
        additions(&old, &new, &mut items);
        operations(&old, &new, &mut items);
    }
    Ok(items)
}

/// The entries of the list `key`, each by its `name` (`METHOD path` for operations).
fn entries<'a>(
    area: &'a Mapping,
    key: &str,
    name: fn(&Mapping) -> String,
) -> BTreeMap<String, &'a Mapping> {
    let Some(Value::Sequence(list)) = area.get(key) else {
        return BTreeMap::new();
    };
    list.iter()
        .filter_map(Value::as_mapping)
        .map(|m| (name(m), m))
        .collect()
}

fn str_of(m: &Mapping, key: &str) -> String {
    m.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn type_name(m: &Mapping) -> String {
    str_of(m, "name")
}

fn addition_target(m: &Mapping) -> String {
    str_of(m, "type")
}

fn route(m: &Mapping) -> String {
    format!("{} {}", str_of(m, "method"), str_of(m, "path"))
}

/// A mapping without its prose keys (at any depth) and the keys in `also`.
fn facts(m: &Mapping, also: &[&str]) -> Mapping {
    m.iter()
        .filter(|(k, _)| {
            k.as_str()
                .is_none_or(|k| !PROSE.contains(&k) && !also.contains(&k))
        })
        .map(|(k, v)| (k.clone(), without_prose(v)))
        .collect()
}

fn without_prose(v: &Value) -> Value {
    match v {
        Value::Mapping(m) => Value::Mapping(facts(m, &[])),
        Value::Sequence(s) => Value::Sequence(s.iter().map(without_prose).collect()),
        v => v.clone(),
    }
}

/// A value on one line (`string`, `array<Venue>`, `{minimum: 1}`).
fn show(v: Option<&Value>) -> String {
    match v {
        None => "none".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => serde_yaml::to_string(v)
            .unwrap_or_default()
            .trim()
            .replace('\n', ", "),
    }
}

fn types(old: &Mapping, new: &Mapping, items: &mut Vec<Item>) {
    let (old, new) = (
        entries(old, "types", type_name),
        entries(new, "types", type_name),
    );
    for (name, o) in &old {
        let subject = format!("type {name}");
        let Some(n) = new.get(name) else {
            items.push(schema(&subject, "removed".into()));
            continue;
        };
        fields(&subject, o, n, items);
        values(&subject, o, n, items);
        let (o, n) = (
            facts(o, &["fields", "values"]),
            facts(n, &["fields", "values"]),
        );
        for key in keys(&o, &n) {
            if o.get(&key) != n.get(&key) {
                let detail = format!("{key}: {} -> {}", show(o.get(&key)), show(n.get(&key)));
                items.push(schema(&subject, detail));
            }
        }
    }
    for name in new.keys().filter(|n| !old.contains_key(*n)) {
        items.push(schema(&format!("type {name}"), "added".into()));
    }
}

fn schema(subject: &str, detail: String) -> Item {
    Item {
        class: Class::SchemaChanged,
        subject: subject.to_owned(),
        detail,
    }
}

/// The keys of either mapping, as strings, sorted.
fn keys(a: &Mapping, b: &Mapping) -> std::collections::BTreeSet<String> {
    a.keys()
        .chain(b.keys())
        .filter_map(|k| k.as_str().map(str::to_owned))
        .collect()
}

/// The fields of two versions of a type (or of an addition), by wire name.
fn fields(subject: &str, old: &Mapping, new: &Mapping, items: &mut Vec<Item>) {
    let (old, new) = (
        entries(old, "fields", type_name),
        entries(new, "fields", type_name),
    );
    for (name, o) in &old {
        let Some(n) = new.get(name) else {
            items.push(schema(subject, format!("field `{name}` removed")));
            continue;
        };
        let (o, n) = (facts(o, &[]), facts(n, &[]));
        for key in keys(&o, &n) {
            if o.get(&key) != n.get(&key) {
                let what = if key == "type" { "type" } else { key.as_str() };
                let detail = format!(
                    "field `{name}` {what}: {} -> {}",
                    show(o.get(&key)),
                    show(n.get(&key))
                );
                items.push(schema(subject, detail));
            }
        }
    }
    for (name, n) in new.iter().filter(|(n, _)| !old.contains_key(*n)) {
        let ty = show(n.get("type"));
        items.push(schema(subject, format!("field `{name}` added ({ty})")));
    }
}

/// Enumeration values added and removed.
fn values(subject: &str, old: &Mapping, new: &Mapping, items: &mut Vec<Item>) {
    let list = |m: &Mapping| -> Vec<String> {
        let Some(Value::Sequence(vs)) = m.get("values") else {
            return Vec::new();
        };
        vs.iter()
            .map(|v| match v {
                Value::Mapping(full) => show(full.get("value")),
                v => show(Some(v)),
            })
            .collect()
    };
    let (old, new) = (list(old), list(new));
    let added: Vec<&str> = new
        .iter()
        .filter(|v| !old.contains(v))
        .map(String::as_str)
        .collect();
    let removed: Vec<&str> = old
        .iter()
        .filter(|v| !new.contains(v))
        .map(String::as_str)
        .collect();
    if !added.is_empty() {
        items.push(schema(
            subject,
            format!("values added: {}", added.join(", ")),
        ));
    }
    if !removed.is_empty() {
        items.push(schema(
            subject,
            format!("values removed: {}", removed.join(", ")),
        ));
    }
}

fn additions(old: &Mapping, new: &Mapping, items: &mut Vec<Item>) {
    let (old, new) = (
        entries(old, "additions", addition_target),
        entries(new, "additions", addition_target),
    );
    let empty = Mapping::new();
    for name in old
        .keys()
        .chain(new.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let subject = format!("type {name} (fields the import adds)");
        let o = old.get(name).copied().unwrap_or(&empty);
        let n = new.get(name).copied().unwrap_or(&empty);
        fields(&subject, o, n, items);
    }
}

/// Drafted operations the plan adds, and changes to the shape of those it keeps.
fn operations(old: &Mapping, new: &Mapping, items: &mut Vec<Item>) {
    let (old, new) = (
        entries(old, "operations", route),
        entries(new, "operations", route),
    );
    let ignored = ["id", "name", "operation_id", "lifecycle", "media_types"];
    for (key, n) in &new {
        let Some(o) = old.get(key) else {
            items.push(Item {
                class: Class::OperationAdded,
                subject: key.clone(),
                detail: format!("the import would draft `{}`", str_of(n, "id")),
            });
            continue;
        };
        let (o, n) = (facts(o, &ignored), facts(n, &ignored));
        let changed: Vec<String> = keys(&o, &n)
            .into_iter()
            .filter(|k| o.get(k.as_str()) != n.get(k.as_str()))
            .collect();
        if !changed.is_empty() {
            let detail = format!("drafted operation's {} changed", changed.join(", "));
            items.push(schema(key, detail));
        }
    }
}
