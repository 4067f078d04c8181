//! Checking JSON values against the tables' schemas: the subset of JSON Schema the OpenAPI
//! export uses (`$ref`, `type` (one or a list with `null`), `enum`, `oneOf` (with a
//! `discriminator`, the tag picks the variant, as OpenAPI says), `anyOf`, `properties`,
//! `required`, `additionalProperties`, `items`, length, size and range bounds, `int32`): the
//! rules a JSON Schema validator applies to the export (Schemathesis' check). The simulator
//! refuses a request with the first problem; the MCP server and the command line report them
//! before anything is sent.

use crate::model::Table;
use serde_json::{Map, Value};
use std::fmt;

/// How deep a value is followed; deeper values are a problem (never a stack overflow).
const MAX_DEPTH: usize = 64;

/// One thing wrong with a value: where (a JSON pointer into the value, `""` for the value
/// itself) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// JSON pointer of the offending value (`/address/city`, `/items/0`), `""` for the root.
    pub pointer: String,
    /// What is wrong, without the place (`expected string, got number`).
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "the value: {}", self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for Problem {}

impl Table {
    /// The first problem of `v` against `schema`, if any.
    pub fn validate(&self, v: &Value, schema: &Value) -> Result<(), Problem> {
        match self.problems(v, schema, 1).into_iter().next() {
            Some(p) => Err(p),
            None => Ok(()),
        }
    }

    /// Whether `v` is valid against `schema`.
    pub fn is_valid(&self, v: &Value, schema: &Value) -> bool {
        self.problems(v, schema, 1).is_empty()
    }

    /// Up to `limit` problems of `v` against `schema`, in the order they are met.
    pub fn problems(&self, v: &Value, schema: &Value, limit: usize) -> Vec<Problem> {
        let mut c = Checker {
            table: self,
            limit: limit.max(1),
            found: Vec::new(),
        };
        c.check(v, schema, "", 0);
        c.found
    }
}

struct Checker<'t> {
    table: &'t Table,
    limit: usize,
    found: Vec<Problem>,
}

impl Checker<'_> {
    fn full(&self) -> bool {
        self.found.len() >= self.limit
    }

    fn report(&mut self, pointer: &str, message: String) {
        if !self.full() {
            self.found.push(Problem {
                pointer: pointer.to_owned(),
                message,
            });
        }
    }

    /// Whether `v` is valid against `schema` (a branch of a union), found apart.
    fn fits(&self, v: &Value, schema: &Value, depth: usize) -> bool {
        let mut apart = Checker {
            table: self.table,
            limit: 1,
            found: Vec::new(),
        };
        apart.check(v, schema, "", depth);
        apart.found.is_empty()
    }

    fn check(&mut self, v: &Value, schema: &Value, path: &str, depth: usize) {
        if self.full() {
            return;
        }
        if depth > MAX_DEPTH {
            return self.report(path, "nested too deeply".to_owned());
        }
        let Some(s) = schema.as_object() else {
            if schema == &Value::Bool(false) {
                self.report(path, "no value is allowed here".to_owned());
            }
            return;
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            match self.table.resolve(r) {
                Some(target) => self.check(v, target, path, depth + 1),
                None => self.report(path, format!("unknown schema {r}")),
            }
        }
        if !self.unions(s, v, path, depth) {
            return;
        }
        if let Some(Value::Array(values)) = s.get("enum")
            && !values.contains(v)
        {
            self.report(
                path,
                format!("{} is not one of the allowed values", short(v)),
            );
        }
        if let Some(ty) = s.get("type")
            && !type_matches(ty, v)
        {
            let message = format!("expected {}, got {}", type_text(ty), kind(v));
            return self.report(path, message);
        }
        self.bounds(s, v, path);
        match v {
            Value::Object(m) => self.object(s, m, path, depth),
            Value::Array(items) => {
                if let Some(item) = s.get("items") {
                    for (i, x) in items.iter().enumerate() {
                        self.check(x, item, &format!("{path}/{i}"), depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// `anyOf` and `oneOf`; false when the value's other keywords are not worth checking (a
    /// discriminated union checked its variant).
    fn unions(&mut self, s: &Map<String, Value>, v: &Value, path: &str, depth: usize) -> bool {
        if let Some(Value::Array(branches)) = s.get("anyOf")
            && !branches.iter().any(|b| self.fits(v, b, depth + 1))
        {
            self.report(path, "matches none of the allowed shapes".to_owned());
        }
        if let Some(Value::Array(branches)) = s.get("oneOf") {
            // A union with a discriminator: the tag picks the variant (OpenAPI's rule; the
            // variants themselves do not constrain the tag, the union writes it).
            if let Some(d) = s.get("discriminator").and_then(Value::as_object) {
                self.discriminated(v, d, path, depth);
                return false;
            }
            let n = branches
                .iter()
                .filter(|b| self.fits(v, b, depth + 1))
                .count();
            if n != 1 {
                let message = format!(
                    "matches {n} of the {} variants (exactly one is required)",
                    branches.len()
                );
                self.report(path, message);
            }
        }
        true
    }

    /// A value of a union with a discriminator: an object whose tag names one of the mapped
    /// variants, valid against that variant.
    fn discriminated(&mut self, v: &Value, d: &Map<String, Value>, path: &str, depth: usize) {
        let field = d
            .get("propertyName")
            .and_then(Value::as_str)
            .unwrap_or("type");
        let Some(m) = v.as_object() else {
            return self.report(path, format!("expected object, got {}", kind(v)));
        };
        let Some(tag) = m.get(field).and_then(Value::as_str) else {
            return self.report(path, format!("the field `{field}` is required"));
        };
        let mapping = d.get("mapping").and_then(Value::as_object);
        let Some(target) = mapping.and_then(|mp| mp.get(tag)).and_then(Value::as_str) else {
            let known: Vec<&str> = mapping
                .map(|mp| mp.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let message = format!(
                "`{field}` {} is not one of {}",
                short(&Value::String(tag.to_owned())),
                known.join(", ")
            );
            return self.report(path, message);
        };
        let variant = serde_json::json!({ "$ref": target });
        self.check(v, &variant, path, depth + 1);
    }

    fn object(&mut self, s: &Map<String, Value>, m: &Map<String, Value>, path: &str, depth: usize) {
        if let Some(Value::Array(required)) = s.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !m.contains_key(name) {
                    self.report(path, format!("the field `{name}` is required"));
                }
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (name, value) in m {
            let here = format!("{path}/{name}");
            match props.and_then(|p| p.get(name)) {
                Some(p) => self.check(value, p, &here, depth + 1),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => self.report(&here, "no such field".to_owned()),
                    Some(extra @ Value::Object(_)) => self.check(value, extra, &here, depth + 1),
                    _ => {}
                },
            }
        }
    }

    fn bounds(&mut self, s: &Map<String, Value>, v: &Value, path: &str) {
        let num = |k: &str| s.get(k).and_then(Value::as_f64);
        let size = match v {
            Value::String(x) => Some((x.chars().count(), "minLength", "maxLength", "characters")),
            Value::Array(x) => Some((x.len(), "minItems", "maxItems", "items")),
            _ => None,
        };
        if let Some((n, lo, hi, what)) = size {
            let (min, max) = (num(lo), num(hi));
            if min.is_some_and(|m| (n as f64) < m) || max.is_some_and(|m| (n as f64) > m) {
                let message = format!("{n} {what} is out of bounds ({})", range(min, max));
                self.report(path, message);
            }
        }
        if let Some(x) = v.as_f64() {
            let int32 = s.get("format").and_then(Value::as_str) == Some("int32");
            let out32 = int32 && !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&x);
            let (min, max) = (num("minimum"), num("maximum"));
            if out32 || min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m) {
                let message = if out32 {
                    format!("{x} is out of range (a 32-bit integer)")
                } else {
                    format!("{x} is out of range ({})", range(min, max))
                };
                self.report(path, message);
            }
        }
    }
}

/// `2 to 32`, `at least 2`, `at most 32`.
fn range(min: Option<f64>, max: Option<f64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("{a} to {b}"),
        (Some(a), None) => format!("at least {a}"),
        (None, Some(b)) => format!("at most {b}"),
        (None, None) => "no bounds".to_owned(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ApiInfo, Hosts, TokenInfo};
    use crate::{AuthKind, Schemas};
    use serde_json::json;

    fn table() -> Table {
        let schemas = json!({
            "Venue": {"type": "object", "required": ["name", "address"], "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 32},
                "address": {"$ref": "#/components/schemas/Address"},
                "floors": {"type": "integer", "format": "int32", "minimum": 0},
                "tags": {"type": "array", "items": {"type": "string"}}
            }},
            "Address": {"type": "object", "additionalProperties": false,
                "properties": {"city": {"type": "string"}}},
            "Shape": {"oneOf": [{"$ref": "#/components/schemas/Psk"}],
                "discriminator": {"propertyName": "type",
                    "mapping": {"psk": "#/components/schemas/Psk"}}},
            "Psk": {"type": "object", "required": ["passphrase"],
                "properties": {"passphrase": {"type": "string", "minLength": 8}}}
        });
        let Value::Object(schemas) = schemas else {
            unreachable!()
        };
        let hosts = Hosts {
            asia: String::new(),
            europe: String::new(),
            north_america: String::new(),
        };
        Table {
            generated: String::new(),
            api: ApiInfo {
                name: "t".into(),
                title: String::new(),
                hosts,
                token: TokenInfo {
                    url: String::new(),
                    url_without_tenant: String::new(),
                    tenant_header: String::new(),
                },
                activity: None,
                activity_query: None,
                prefix: String::new(),
                auth: AuthKind::ClientCredentials,
                default_family: String::new(),
                families: Vec::new(),
                rate_limits: Vec::new(),
                tenant_limit: None,
            },
            routes: Vec::new(),
            schemas: Schemas::from(schemas),
        }
    }

    fn venue() -> Value {
        json!({"$ref": "#/components/schemas/Venue"})
    }

    #[test]
    fn every_problem_is_named_by_its_pointer() {
        let t = table();
        let problems = t.problems(
            &json!({"name": 5, "address": {"town": "x"}, "tags": ["a", 1]}),
            &venue(),
            10,
        );
        // Object members come in the map's order (sorted, or as written when a crate of the
        // build turns on serde_json's `preserve_order`).
        let mut text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        text.sort();
        assert_eq!(
            text,
            [
                "/address/town: no such field",
                "/name: expected string, got number",
                "/tags/1: expected string, got number",
            ],
            "{problems:?}"
        );
        let first = t.validate(&json!({}), &venue()).unwrap_err();
        assert_eq!(first.to_string(), "the value: the field `name` is required");
    }

    #[test]
    fn bounds_say_what_is_allowed() {
        let t = table();
        let short = t.validate(&json!({"name": "x", "address": {}}), &venue());
        assert_eq!(
            short.unwrap_err().to_string(),
            "/name: 1 characters is out of bounds (2 to 32)"
        );
        let big = json!({"name": "xy", "address": {}, "floors": 3_000_000_000_u64});
        assert!(
            t.validate(&big, &venue())
                .unwrap_err()
                .message
                .contains("32-bit")
        );
        assert!(t.is_valid(
            &json!({"name": "xy", "address": {"city": "Lyon"}}),
            &venue()
        ));
    }

    #[test]
    fn a_discriminator_picks_the_variant_and_deep_values_stop() {
        let t = table();
        let shape = json!({"$ref": "#/components/schemas/Shape"});
        let bad = t.validate(&json!({"type": "psk", "passphrase": "short"}), &shape);
        assert_eq!(bad.unwrap_err().pointer, "/passphrase");
        let unknown = t.validate(&json!({"type": "open"}), &shape).unwrap_err();
        assert!(unknown.message.contains("is not one of psk"), "{unknown}");
        let mut deep = json!("x");
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let nested = json!({"type": "array", "items": {"$ref": "#/components/schemas/Deep"}});
        let mut schemas = Map::new();
        schemas.insert("Deep".into(), nested.clone());
        let mut t = t;
        t.schemas = Schemas::from(schemas);
        let err = t.validate(&deep, &nested).unwrap_err();
        assert_eq!(err.message, "nested too deeply");
    }
}
