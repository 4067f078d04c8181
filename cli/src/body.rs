//! A write's JSON body as its schema describes it: the fields a person may set (nested ones as
//! dotted paths, `address.city`), which are required, the variants of a union (a Wi-Fi
//! network's `type`: `psk`, `open`, `aaa`, ...), a skeleton to fill in, the check that every
//! required field is there before anything is sent.
//!
//! Fields the service sets (`readOnly` in the schema, or `service_set` in the resource layer
//! for the kind the operation writes) are not offered.

use crate::exit::Failure;
use crate::ops::Op;
use ruckus_one_catalog::{FieldFlag, Table};
use serde_json::Value;

/// How deep nested objects are offered as dotted flags (`a.b.c`); deeper fields are set with
/// `--set` or `--json`.
const FLAG_DEPTH: usize = 3;

/// One field of the body.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// Dotted wire path (`address.city`).
    pub path: String,
    /// Its schema (`$ref`s followed).
    pub schema: &'static Value,
    /// Required (in every variant it belongs to, with its parents).
    pub required: bool,
    /// The union's variants it belongs to; empty when the body is not a union.
    pub variants: Vec<String>,
    /// The values it takes, when it is an enum (of every variant it belongs to).
    pub choices: Vec<String>,
}

/// A body that is one of several shapes, told apart by one field.
#[derive(Debug, Clone)]
pub(crate) struct Union {
    /// The field that says which (`type`).
    pub property: String,
    /// Each variant's value and schema.
    pub variants: Vec<(String, &'static Value)>,
}

/// The object schema of `op`'s body, when it takes a JSON object (or a union of objects).
fn root(op: Op) -> Option<&'static Value> {
    let body = op.route.request.as_ref()?;
    let s = op.table.deref(&body.schema);
    (s.get("properties").is_some() || union(op).is_some()).then_some(s)
}

/// The union of `op`'s body, when its schema is a `oneOf` with a discriminator.
pub(crate) fn union(op: Op) -> Option<Union> {
    let body = op.route.request.as_ref()?;
    let s = op.table.deref(&body.schema);
    let d = s.get("discriminator")?;
    let property = d.get("propertyName")?.as_str()?.to_owned();
    let variants = d
        .get("mapping")?
        .as_object()?
        .iter()
        .filter_map(|(name, r)| {
            let target = op.table.deref(op.table.resolve(r.as_str()?)?);
            Some((name.clone(), target))
        })
        .collect();
    Some(Union { property, variants })
}

/// The object a schema describes, through `$ref`s and a nullable `anyOf`/`oneOf`.
pub(crate) fn object(table: &'static Table, schema: &'static Value) -> Option<&'static Value> {
    let s = table.deref(schema);
    if s.get("properties").is_some() {
        return Some(s);
    }
    let alts = s.get("anyOf").or_else(|| s.get("oneOf"))?.as_array()?;
    let objects: Vec<&'static Value> = alts
        .iter()
        .map(|a| table.deref(a))
        .filter(|a| a.get("properties").is_some())
        .collect();
    match objects.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// The service sets the field at `path` (dotted): the schema says `readOnly`, or the resource
/// layer says so for the kind `op` writes.
pub(crate) fn service_set(op: Op, path: &str, schema: &Value) -> bool {
    if op.table.deref(schema).get("readOnly") == Some(&Value::Bool(true)) {
        return true;
    }
    let pointer = format!("/{}", path.replace('.', "/"));
    crate::resolve::kind_of_operation(op).is_some_and(|k| {
        k.fields
            .iter()
            .any(|f| f.flag == FieldFlag::ServiceSet && f.path == pointer)
    })
}

/// A `PATCH` sends the fields that change: none is required.
fn partial(op: Op) -> bool {
    op.route.method == ruckus_one_catalog::Method::Patch
}

/// The fields a person may set, parents' order, nested ones after their parent's siblings.
pub(crate) fn fields(op: Op) -> Vec<Field> {
    let Some(root) = root(op) else {
        return Vec::new();
    };
    let required = !partial(op);
    match union(op) {
        None => {
            let mut out = Vec::new();
            walk(op, root, "", required, 1, &mut out);
            out
        }
        Some(u) => {
            let mut merged: Vec<Field> = Vec::new();
            for (name, schema) in &u.variants {
                let mut one = Vec::new();
                walk(op, schema, "", required, 1, &mut one);
                for f in one {
                    match merged.iter_mut().find(|m| m.path == f.path) {
                        Some(m) => {
                            m.variants.push(name.clone());
                            m.required &= f.required;
                            for c in f.choices {
                                if !m.choices.contains(&c) {
                                    m.choices.push(c);
                                }
                            }
                        }
                        None => merged.push(Field {
                            variants: vec![name.clone()],
                            ..f
                        }),
                    }
                }
            }
            merged
        }
    }
}

fn walk(
    op: Op,
    schema: &'static Value,
    prefix: &str,
    required: bool,
    depth: usize,
    out: &mut Vec<Field>,
) {
    let Some(s) = object(op.table, schema) else {
        return;
    };
    for (name, sub, req) in op.table.properties(s) {
        let path = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        if service_set(op, &path, sub) {
            continue;
        }
        let resolved = op.table.deref(sub);
        if let Some(inner) = object(op.table, sub) {
            if depth < FLAG_DEPTH {
                walk(op, inner, &path, required && req, depth + 1, out);
            }
            continue;
        }
        if crate::fields::is_scalar(resolved) {
            out.push(Field {
                path,
                schema: resolved,
                required: required && req,
                variants: Vec::new(),
                choices: crate::fields::kind_of(op, resolved).1,
            });
        }
    }
}

/// Fails (a usage error) when a required field of the body is missing: each named, as a flag.
pub(crate) fn check(op: Op, body: &Value) -> Result<(), Failure> {
    let Some(root) = root(op) else {
        return Ok(());
    };
    if !body.is_object() || partial(op) {
        return Ok(());
    }
    let schema = match union(op) {
        None => root,
        Some(u) => {
            let chosen = body.get(&u.property).and_then(Value::as_str);
            let names: Vec<&str> = u.variants.iter().map(|(n, _)| n.as_str()).collect();
            match u.variants.iter().find(|(n, _)| Some(n.as_str()) == chosen) {
                Some((_, s)) => s,
                None => {
                    return Err(Failure::usage(format!(
                        "--{} is required: one of {}",
                        crate::fields::kebab(&u.property),
                        names.join(", ")
                    )));
                }
            }
        }
    };
    let mut missing = Vec::new();
    required_missing(op, schema, body, "", 0, &mut missing);
    if missing.is_empty() {
        return Ok(());
    }
    let flags: Vec<String> = missing
        .iter()
        .map(|p| format!("--{}", crate::fields::flag_name(p)))
        .collect();
    Err(Failure::usage(format!(
        "{} {} required (a flag, --set PATH=VALUE or --json); `--skeleton` prints a body to fill in",
        flags.join(", "),
        if flags.len() == 1 { "is" } else { "are" }
    )))
}

fn required_missing(
    op: Op,
    schema: &'static Value,
    value: &Value,
    prefix: &str,
    depth: usize,
    out: &mut Vec<String>,
) {
    let Some(s) = object(op.table, schema) else {
        return;
    };
    if depth > 8 {
        return;
    }
    for (name, sub, req) in op.table.properties(s) {
        let path = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        match value.get(name) {
            Some(v) if v.is_object() => required_missing(op, sub, v, &path, depth + 1, out),
            Some(_) => {}
            None if req => {
                let before = out.len();
                if object(op.table, sub).is_some() {
                    required_missing(op, sub, &Value::Null, &path, depth + 1, out);
                }
                if out.len() == before {
                    out.push(path);
                }
            }
            None => {}
        }
    }
}

/// `op`'s body schema with its `$ref`s written out in place (a `$ref` back into a schema it is
/// inside is kept as it is), for `ruckus schema COMMAND`.
pub(crate) fn json_schema(op: Op) -> Option<Value> {
    let body = op.route.request.as_ref()?;
    let mut inside = Vec::new();
    Some(inline(op.table, &body.schema, &mut inside))
}

fn inline(table: &'static Table, schema: &Value, inside: &mut Vec<String>) -> Value {
    match schema {
        Value::Object(m) => {
            if let Some(r) = m.get("$ref").and_then(Value::as_str)
                && !inside.iter().any(|x| x == r)
                && inside.len() < 16
                && let Some(target) = table.resolve(r)
            {
                inside.push(r.to_owned());
                let out = inline(table, target, inside);
                inside.pop();
                return out;
            }
            Value::Object(
                m.iter()
                    .map(|(k, v)| (k.clone(), inline(table, v, inside)))
                    .collect(),
            )
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| inline(table, v, inside)).collect())
        }
        other => other.clone(),
    }
}
