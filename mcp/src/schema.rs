//! The JSON Schemas of the tables, as the model needs them: trimmed (types, required, enums,
//! limits; references resolved to a bounded depth through the catalog), an example built from
//! them, and the catalog's check of a value before it is sent.

use ruckus_one_catalog::Table;
use serde_json::{Map, Value, json};

/// References followed when a schema is shown or an example is built; deeper ones are shown
/// by name.
const MAX_DEPTH: usize = 3;
/// Properties shown per object.
const MAX_PROPERTIES: usize = 40;
/// Problems reported per check.
const MAX_PROBLEMS: usize = 10;

/// The problems of `value` against `schema`, each named by where it is (`body/address/city`,
/// `params.venueId`): the catalog's validation, the one the simulator applies.
pub(crate) fn check(value: &Value, schema: &Value, table: &Table, at: &str) -> Vec<String> {
    table
        .problems(value, schema, MAX_PROBLEMS)
        .into_iter()
        .map(|p| format!("{at}{}: {}", p.pointer, p.message))
        .collect()
}
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

/// The name of the schema a reference points at (its last segment).
fn ref_name(schema: &Value) -> String {
    let reference = schema.as_object().and_then(|o| o.values().next());
    let text = reference.and_then(Value::as_str).unwrap_or_default();
    text.rsplit('/').next().unwrap_or(text).to_owned()
}

/// `schema` with its references resolved through `table` (to [`MAX_DEPTH`]) and only the
/// keywords that constrain a value.
pub(crate) fn trim(schema: &Value, table: &Table, depth: usize) -> Value {
    let Some(obj) = schema.as_object() else {
        return schema.clone();
    };
    if let Some(target) = table.referenced(schema) {
        return match target {
            Some(target) if depth < MAX_DEPTH => trim(target, table, depth + 1),
            _ => json!({ "ref": ref_name(schema) }),
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
pub(crate) fn example(schema: &Value, table: &Table, depth: usize) -> Value {
    let Some(obj) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(target) = table.referenced(schema) {
        return match target {
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
            problems.contains(&"body: the field `address` is required".to_owned()),
            "{problems:?}"
        );
        assert!(
            problems.contains(&"body/name: expected string, got number".to_owned()),
            "{problems:?}"
        );
        let short = check(&json!({"name": "x", "address": {}}), &schema, table, "body");
        assert!(
            short
                .iter()
                .any(|p| p.starts_with("body/name: 1 characters is out of bounds (2 to 32)")),
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
