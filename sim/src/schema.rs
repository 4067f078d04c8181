//! Validation of JSON values against the subset of JSON Schema the OpenAPI export uses:
//! `$ref`, `type` (one or a list with `null`), `enum`, `oneOf` (with a `discriminator`, the tag
//! picks the variant, as OpenAPI says), `anyOf`, `properties`,
//! `required`, `additionalProperties`, `items`, length, size and range bounds, `int32`.
//! The same rules as a JSON Schema validator applies to the export (Schemathesis' check).

use crate::model::Table;
use serde_json::Value;

/// How deep a value is followed; deeper values are refused (never a stack overflow).
const MAX_DEPTH: usize = 64;

/// Checks `v` against `schema`; the error names where and what.
pub fn validate(t: &Table, v: &Value, schema: &Value) -> Result<(), String> {
    check(t, v, schema, "", 0)
}

/// Whether `v` is valid.
pub fn is_valid(t: &Table, v: &Value, schema: &Value) -> bool {
    check(t, v, schema, "", 0).is_ok()
}

fn at(path: &str) -> &str {
    if path.is_empty() { "the body" } else { path }
}

fn check(t: &Table, v: &Value, schema: &Value, path: &str, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("{}: nested too deeply", at(path)));
    }
    let Some(s) = schema.as_object() else {
        return match schema {
            Value::Bool(false) => Err(format!("{}: no value is allowed here", at(path))),
            _ => Ok(()),
        };
    };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let target = t
            .resolve(r)
            .ok_or_else(|| format!("{}: unknown schema {r}", at(path)))?;
        check(t, v, target, path, depth + 1)?;
    }
    if let Some(Value::Array(branches)) = s.get("anyOf") {
        if !branches
            .iter()
            .any(|b| check(t, v, b, path, depth + 1).is_ok())
        {
            return Err(format!("{}: matches none of the allowed shapes", at(path)));
        }
    }
    if let Some(Value::Array(branches)) = s.get("oneOf") {
        // A union with a discriminator: the tag picks the variant (OpenAPI's rule; the
        // variants themselves do not constrain the tag, the union writes it).
        if let Some(d) = s.get("discriminator").and_then(Value::as_object) {
            return discriminated(t, v, d, path, depth);
        }
        let n = branches
            .iter()
            .filter(|b| check(t, v, b, path, depth + 1).is_ok())
            .count();
        if n != 1 {
            return Err(format!(
                "{}: matches {n} of the {} variants (exactly one is required)",
                at(path),
                branches.len()
            ));
        }
    }
    if let Some(Value::Array(values)) = s.get("enum") {
        if !values.contains(v) {
            return Err(format!(
                "{}: {} is not one of the allowed values",
                at(path),
                short(v)
            ));
        }
    }
    if let Some(ty) = s.get("type") {
        if !type_matches(ty, v) {
            return Err(format!(
                "{}: expected {}, got {}",
                at(path),
                type_text(ty),
                kind(v)
            ));
        }
    }
    bounds(s, v, path)?;
    match v {
        Value::Object(m) => object(t, s, m, path, depth),
        Value::Array(items) => match s.get("items") {
            Some(item) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, x)| check(t, x, item, &format!("{path}/{i}"), depth + 1)),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// A value of a union with a discriminator: an object whose tag names one of the mapped
/// variants, valid against that variant.
fn discriminated(
    t: &Table,
    v: &Value,
    d: &serde_json::Map<String, Value>,
    path: &str,
    depth: usize,
) -> Result<(), String> {
    let field = d
        .get("propertyName")
        .and_then(Value::as_str)
        .unwrap_or("type");
    let Some(m) = v.as_object() else {
        return Err(format!("{}: expected object, got {}", at(path), kind(v)));
    };
    let Some(tag) = m.get(field).and_then(Value::as_str) else {
        return Err(format!("{}: the field `{field}` is required", at(path)));
    };
    let mapping = d.get("mapping").and_then(Value::as_object);
    let Some(target) = mapping.and_then(|mp| mp.get(tag)).and_then(Value::as_str) else {
        let known: Vec<&str> = mapping
            .map(|mp| mp.keys().map(String::as_str).collect())
            .unwrap_or_default();
        return Err(format!(
            "{}: `{field}` {} is not one of {}",
            at(path),
            short(&Value::String(tag.to_owned())),
            known.join(", ")
        ));
    };
    let variant = serde_json::json!({ "$ref": target });
    check(t, v, &variant, path, depth + 1)
}

fn object(
    t: &Table,
    s: &serde_json::Map<String, Value>,
    m: &serde_json::Map<String, Value>,
    path: &str,
    depth: usize,
) -> Result<(), String> {
    if let Some(Value::Array(required)) = s.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !m.contains_key(name) {
                return Err(format!("{}: the field `{name}` is required", at(path)));
            }
        }
    }
    let props = s.get("properties").and_then(Value::as_object);
    for (name, value) in m {
        let here = format!("{path}/{name}");
        match props.and_then(|p| p.get(name)) {
            Some(p) => check(t, value, p, &here, depth + 1)?,
            None => match s.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    return Err(format!("{here}: no such field"));
                }
                Some(extra @ Value::Object(_)) => check(t, value, extra, &here, depth + 1)?,
                _ => {}
            },
        }
    }
    Ok(())
}

fn bounds(s: &serde_json::Map<String, Value>, v: &Value, path: &str) -> Result<(), String> {
    let num = |k: &str| s.get(k).and_then(Value::as_f64);
    let size = match v {
        Value::String(x) => Some((x.chars().count(), "minLength", "maxLength", "characters")),
        Value::Array(x) => Some((x.len(), "minItems", "maxItems", "items")),
        _ => None,
    };
    if let Some((n, lo, hi, what)) = size {
        if num(lo).is_some_and(|m| (n as f64) < m) || num(hi).is_some_and(|m| (n as f64) > m) {
            return Err(format!("{}: {n} {what} is out of bounds", at(path)));
        }
    }
    if let Some(x) = v.as_f64() {
        let int32 = s.get("format").and_then(Value::as_str) == Some("int32");
        let out32 = int32 && !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&x);
        if out32 || num("minimum").is_some_and(|m| x < m) || num("maximum").is_some_and(|m| x > m) {
            return Err(format!("{}: {x} is out of range", at(path)));
        }
    }
    Ok(())
}

/// Whether `v` has the type (or one of the types) `ty` names.
pub fn type_matches(ty: &Value, v: &Value) -> bool {
    match ty {
        Value::String(t) => one_type(t, v),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(|t| one_type(t, v)),
        _ => true,
    }
}

fn one_type(t: &str, v: &Value) -> bool {
    match t {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "null" => v.is_null(),
        _ => true,
    }
}

fn type_text(ty: &Value) -> String {
    match ty {
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        other => other.as_str().unwrap_or("a value").to_owned(),
    }
}

/// The JSON kind of a value, for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}
