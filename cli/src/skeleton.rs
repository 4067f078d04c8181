//! `COMMAND --skeleton`: a body to fill in, from the operation's schema, required fields first
//! (YAML, or JSON with `-o json`). Each value is the schema's default, else an enum's first
//! value, else an empty value of its type. Fields the service sets are left out.

use crate::body;
use crate::exit::Failure;
use crate::ops::Op;
use serde_json::Value;
use serde_yaml::{Mapping, Value as Yaml};

/// How deep nested objects are written out (deeper ones are `{}`).
const DEPTH: usize = 4;

/// The skeleton of `op`'s body; `variant` chooses a union's variant (else its first, named in
/// the skeleton).
pub(crate) fn of(op: Op, variant: Option<&str>) -> Result<Yaml, Failure> {
    let Some(request) = op.route.request.as_ref() else {
        return Err(Failure::usage(format!(
            "{} takes no request body",
            op.route.id
        )));
    };
    let mut out = Mapping::new();
    let schema = match body::union(op) {
        Some(u) => {
            let chosen = match variant {
                Some(v) => u.variants.iter().find(|(n, _)| n == v),
                None => u.variants.first(),
            };
            let Some((name, schema)) = chosen else {
                let names: Vec<&str> = u.variants.iter().map(|(n, _)| n.as_str()).collect();
                return Err(Failure::usage(format!(
                    "--{}: one of {}",
                    crate::fields::kebab(&u.property),
                    names.join(", ")
                )));
            };
            out.insert(Yaml::from(u.property.clone()), Yaml::from(name.clone()));
            *schema
        }
        None => op.table.deref(&request.schema),
    };
    object(op, schema, "", 0, &mut out);
    Ok(Yaml::Mapping(out))
}

fn object(op: Op, schema: &'static Value, prefix: &str, depth: usize, out: &mut Mapping) {
    let Some(s) = body::object(op.table, schema) else {
        return;
    };
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = s.get("properties").and_then(Value::as_object) else {
        return;
    };
    // Required fields in the schema's order, then the others by name: the same whatever
    // order the properties' map keeps.
    let rank = |n: &str| required.iter().position(|r| *r == n).unwrap_or(usize::MAX);
    let mut names: Vec<&String> = props.keys().collect();
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    for name in names {
        let sub = &props[name];
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        if body::service_set(op, &path, sub) {
            continue;
        }
        out.insert(Yaml::from(name.clone()), value(op, sub, &path, depth));
    }
}

fn value(op: Op, schema: &'static Value, path: &str, depth: usize) -> Yaml {
    let s = op.table.deref(schema);
    if let Some(d) = s.get("default").or_else(|| schema.get("default"))
        && !d.is_null()
        && let Ok(y) = serde_yaml::to_value(d)
    {
        return y;
    }
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
        && let Ok(y) = serde_yaml::to_value(first)
    {
        return y;
    }
    if body::object(op.table, schema).is_some() {
        let mut m = Mapping::new();
        if depth < DEPTH {
            object(op, schema, path, depth + 1, &mut m);
        }
        return Yaml::Mapping(m);
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    match types.iter().find(|t| **t != "null").copied() {
        Some("string") => Yaml::from(""),
        Some("integer") => Yaml::from(0),
        Some("number") => Yaml::from(0.0),
        Some("boolean") => Yaml::from(false),
        Some("array") => Yaml::Sequence(Vec::new()),
        _ => Yaml::Null,
    }
}

/// Prints the skeleton: JSON when `json`, else YAML.
pub(crate) fn print(skeleton: &Yaml, json: bool) -> Result<(), Failure> {
    let text = if json {
        serde_json::to_string_pretty(skeleton).map_err(|e| e.to_string())
    } else {
        serde_yaml::to_string(skeleton).map_err(|e| e.to_string())
    };
    let text = text.map_err(Failure::other)?;
    crate::out::line(text.trim_end())
}
