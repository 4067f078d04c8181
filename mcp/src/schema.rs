//! The JSON Schemas of the tables, as the model needs them: trimmed (types, required, enums,
//! limits; references resolved to a bounded depth), an example built from them, and the
//! check of a value before it is sent.

use ruckus_one_catalog::Table;
use serde_json::{Map, Value, json};

/// References followed when a schema is shown or an example is built; deeper ones are shown
/// by name.
const MAX_DEPTH: usize = 3;
/// Properties shown per object.
const MAX_PROPERTIES: usize = 40;
/// Problems reported per check.
const MAX_PROBLEMS: usize = 10;

/// The keywords kept when a schema is shown (the others are prose or serialisation details).
const KEPT: &[&str] = &[
    "type",
    "enum",
    "const",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "default",
];

/// The name a `$ref` points at.
fn ref_name(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}

/// `schema` with its references resolved through `table` (to [`MAX_DEPTH`]) and only the
/// keywords that constrain a value.
pub fn trim(schema: &Value, table: &Table, depth: usize) -> Value {
    let Some(obj) = schema.as_object() else {
        return schema.clone();
    };
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        return match table.resolve(reference) {
            Some(target) if depth < MAX_DEPTH => trim(target, table, depth + 1),
            _ => json!({ "ref": ref_name(reference) }),
        };
    }
    let mut out = Map::new();
    for key in KEPT {
        if let Some(v) = obj.get(*key) {
            out.insert((*key).to_owned(), v.clone());
        }
    }
    if let Some(Value::Object(props)) = obj.get("properties") {
        let shown: Map<String, Value> = props
            .iter()
            .take(MAX_PROPERTIES)
            .map(|(k, v)| (k.clone(), trim(v, table, depth)))
            .collect();
        if props.len() > MAX_PROPERTIES {
            out.insert("moreProperties".into(), json!(props.len() - MAX_PROPERTIES));
        }
        out.insert("properties".into(), Value::Object(shown));
    }
    if let Some(required) = obj.get("required") {
        out.insert("required".into(), required.clone());
    }
    if let Some(items) = obj.get("items") {
        out.insert("items".into(), trim(items, table, depth));
    }
    if obj.get("additionalProperties") == Some(&Value::Bool(false)) {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(list)) = obj.get(key) {
            let list = list.iter().take(6).map(|s| trim(s, table, depth)).collect();
            out.insert(key.into(), Value::Array(list));
        }
    }
    Value::Object(out)
}

/// A small value of `schema`: an object with its required properties (or its first few when
/// none is required), the first enum member, the lower limits.
pub fn example(schema: &Value, table: &Table, depth: usize) -> Value {
    let Some(obj) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        return match table.resolve(reference) {
            Some(target) if depth < MAX_DEPTH + 1 => example(target, table, depth + 1),
            _ => json!({}),
        };
    }
    if let Some(v) = obj.get("default").or_else(|| obj.get("const")) {
        return v.clone();
    }
    if let Some(Value::Array(members)) = obj.get("enum") {
        return members.first().cloned().unwrap_or(Value::Null);
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(first) = obj.get(key).and_then(|l| l.get(0)) {
            return example(first, table, depth);
        }
    }
    match main_type(obj) {
        Some("object") => object_example(obj, table, depth),
        Some("array") => match obj.get("items") {
            Some(items) if depth < MAX_DEPTH + 1 => json!([example(items, table, depth + 1)]),
            _ => json!([]),
        },
        Some("integer") | Some("number") => obj.get("minimum").cloned().unwrap_or(json!(1)),
        Some("boolean") => json!(true),
        Some("string") => string_example(obj),
        _ => Value::Null,
    }
}

fn object_example(obj: &Map<String, Value>, table: &Table, depth: usize) -> Value {
    let Some(Value::Object(props)) = obj.get("properties") else {
        return json!({});
    };
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let chosen: Vec<(&String, &Value)> = if required.is_empty() {
        props.iter().take(3).collect()
    } else {
        props
            .iter()
            .filter(|(k, _)| required.contains(&k.as_str()))
            .collect()
    };
    let out = chosen
        .into_iter()
        .map(|(k, v)| (k.clone(), example(v, table, depth)))
        .collect();
    Value::Object(out)
}

fn string_example(obj: &Map<String, Value>) -> Value {
    let min = obj.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let text = match obj.get("format").and_then(Value::as_str) {
        Some(format) => format!("<{format}>"),
        None => "example".to_owned(),
    };
    let text = if text.len() < min {
        format!("{text:x<min$}")
    } else {
        text
    };
    Value::String(text)
}

/// The schema's type (the first one that is not `null` when it lists several).
fn main_type(obj: &Map<String, Value>) -> Option<&str> {
    match obj.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(list) => list.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// The problems of `value` against `schema`, each named by where it is (`body.address.city`).
pub fn check(value: &Value, schema: &Value, table: &Table, at: &str) -> Vec<String> {
    let mut problems = Vec::new();
    check_into(value, schema, table, at, 0, &mut problems);
    problems
}

fn check_into(
    value: &Value,
    schema: &Value,
    table: &Table,
    at: &str,
    depth: usize,
    problems: &mut Vec<String>,
) {
    if problems.len() >= MAX_PROBLEMS || depth > 12 {
        return;
    }
    let Some(obj) = schema.as_object() else {
        return;
    };
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        if let Some(target) = table.resolve(reference) {
            check_into(value, target, table, at, depth + 1, problems);
        }
        return;
    }
    if let Some(list) = obj
        .get("oneOf")
        .or_else(|| obj.get("anyOf"))
        .and_then(Value::as_array)
    {
        let fits = list.iter().any(|s| check(value, s, table, at).is_empty());
        if !fits && !list.is_empty() {
            problems.push(format!("{at}: matches none of the accepted shapes"));
        }
        return;
    }
    if !type_fits(value, obj) {
        problems.push(format!("{at}: expected {}", type_text(obj)));
        return;
    }
    if let Some(Value::Array(members)) = obj.get("enum")
        && !value.is_null()
        && !members.contains(value)
    {
        problems.push(format!(
            "{at}: must be one of {}",
            Value::Array(members.clone())
        ));
    }
    check_limits(value, obj, at, problems);
    match value {
        Value::Object(map) => check_object(map, obj, table, at, depth, problems),
        Value::Array(items) => {
            if let Some(item_schema) = obj.get("items") {
                for (i, item) in items.iter().enumerate() {
                    check_into(
                        item,
                        item_schema,
                        table,
                        &format!("{at}[{i}]"),
                        depth + 1,
                        problems,
                    );
                }
            }
        }
        _ => {}
    }
}

fn check_object(
    map: &Map<String, Value>,
    obj: &Map<String, Value>,
    table: &Table,
    at: &str,
    depth: usize,
    problems: &mut Vec<String>,
) {
    let props = obj.get("properties").and_then(Value::as_object);
    for name in obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = name.as_str()
            && !map.contains_key(name)
        {
            problems.push(format!("{at}.{name}: required"));
        }
    }
    for (key, v) in map {
        match props.and_then(|p| p.get(key)) {
            Some(s) => check_into(v, s, table, &format!("{at}.{key}"), depth + 1, problems),
            None if obj.get("additionalProperties") == Some(&Value::Bool(false)) => {
                problems.push(format!("{at}.{key}: not a known property"));
            }
            None => {}
        }
    }
}

fn check_limits(value: &Value, obj: &Map<String, Value>, at: &str, problems: &mut Vec<String>) {
    let limit = |k: &str| obj.get(k).and_then(Value::as_f64);
    let (len, what) = match value {
        Value::String(s) => (Some(s.chars().count() as f64), "characters"),
        Value::Array(a) => (Some(a.len() as f64), "items"),
        _ => (None, ""),
    };
    let (min_key, max_key) = if value.is_string() {
        ("minLength", "maxLength")
    } else {
        ("minItems", "maxItems")
    };
    if let Some(len) = len {
        if let Some(min) = limit(min_key).filter(|m| len < *m) {
            problems.push(format!("{at}: at least {min} {what}"));
        }
        if let Some(max) = limit(max_key).filter(|m| len > *m) {
            problems.push(format!("{at}: at most {max} {what}"));
        }
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = limit("minimum").filter(|m| n < *m) {
            problems.push(format!("{at}: at least {min}"));
        }
        if let Some(max) = limit("maximum").filter(|m| n > *m) {
            problems.push(format!("{at}: at most {max}"));
        }
    }
}

fn type_fits(value: &Value, obj: &Map<String, Value>) -> bool {
    let types: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => return true,
    };
    types.iter().any(|t| match *t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    })
}

fn type_text(obj: &Map<String, Value>) -> String {
    match obj.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "a value".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruckus_one_catalog::Catalog;

    fn venue() -> (&'static Table, Value) {
        let (_, table) = Catalog::get().unwrap().api("network").unwrap();
        (table, json!({"$ref": "#/components/schemas/Venue"}))
    }

    #[test]
    fn the_example_of_a_schema_passes_its_check() {
        let (table, schema) = venue();
        let example = example(&schema, table, 0);
        assert!(example.get("name").is_some(), "{example}");
        assert_eq!(
            check(&example, &schema, table, "body"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_wrong_value_is_named_where_it_is() {
        let (table, schema) = venue();
        let problems = check(&json!({"name": 5}), &schema, table, "body");
        assert!(
            problems.contains(&"body.name: expected string".to_owned()),
            "{problems:?}"
        );
        assert!(
            problems.contains(&"body.address: required".to_owned()),
            "{problems:?}"
        );
        let short = check(&json!({"name": "x", "address": {}}), &schema, table, "body");
        assert!(
            short.iter().any(|p| p.starts_with("body.name: at least 2")),
            "{short:?}"
        );
    }

    #[test]
    fn trimmed_schemas_resolve_references_and_stay_small() {
        let (table, schema) = venue();
        let trimmed = trim(&schema, table, 0);
        assert_eq!(trimmed["properties"]["name"]["maxLength"], json!(32));
        assert!(
            trimmed["properties"]["address"]["properties"].is_object(),
            "{trimmed}"
        );
    }
}
