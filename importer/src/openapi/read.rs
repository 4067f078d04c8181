//! Parsed YAML -> the typed model. A key whose value has the wrong kind counts as absent; a
//! schema nested deeper than the limit is an error (the text check in [`super::limits`] sees
//! that first; this one is exact).

use super::{
    AdditionalProperties, Bounds, Components, Discriminator, Document, MediaType, Operation,
    Parameter, PathItem, RefOr, RequestBody, Response, Schema, SchemaType,
};
use indexmap::IndexMap;
use ruckus_codegen::closed::Method;
use serde_yaml::{Mapping, Number, Value};

/// Whether `key` of a path item is an operation of a method the spec has (`get`, `post`, ...:
/// the spec's methods, in the lower case OpenAPI spells them).
fn is_method(key: &str) -> bool {
    Method::ALL
        .iter()
        .any(|m| m.as_str().to_ascii_lowercase() == key)
}

type Read<T> = Result<T, String>;

pub fn document(v: &Value, max_depth: usize) -> Read<Document> {
    let r = Reader { max_depth };
    let paths = match v.get("paths").and_then(Value::as_mapping) {
        Some(paths) => Some(r.paths(paths)?),
        None => None,
    };
    let components = match v.get("components") {
        Some(c) => r.components(c)?,
        None => Components::default(),
    };
    Ok(Document { paths, components })
}

/// One schema (tests build schemas from YAML text).
#[cfg(test)]
pub fn schema(v: &Value, max_depth: usize) -> Read<Schema> {
    Reader { max_depth }.schema(v, 1)
}

struct Reader {
    max_depth: usize,
}

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn number(v: &Value, key: &str) -> Option<Number> {
    match v.get(key) {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    }
}

/// The string-keyed entries of a mapping, in order.
fn entries(v: Option<&Value>) -> impl Iterator<Item = (&str, &Value)> {
    v.and_then(Value::as_mapping)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.as_str()?, v)))
}

impl Reader {
    fn paths(&self, paths: &Mapping) -> Read<Vec<PathItem>> {
        let mut out = Vec::new();
        for (path, item) in paths {
            let (Some(path), Some(item)) = (path.as_str(), item.as_mapping()) else {
                continue;
            };
            let mut operations = Vec::new();
            for (method, op) in item {
                let Some(method) = method.as_str().filter(|m| is_method(m)) else {
                    continue;
                };
                operations.push((method.to_owned(), self.operation(op)?));
            }
            out.push(PathItem {
                path: path.to_owned(),
                operations,
            });
        }
        Ok(out)
    }

    fn components(&self, c: &Value) -> Read<Components> {
        let mut out = Components::default();
        for (name, s) in entries(c.get("schemas")) {
            out.schemas.insert(name.to_owned(), self.schema(s, 1)?);
        }
        for (name, r) in entries(c.get("responses")) {
            out.responses
                .insert(name.to_owned(), self.ref_or(r, |r| self.response(r))?);
        }
        for (name, b) in entries(c.get("requestBodies")) {
            out.request_bodies
                .insert(name.to_owned(), self.ref_or(b, |b| self.request_body(b))?);
        }
        for (name, p) in entries(c.get("parameters")) {
            out.parameters
                .insert(name.to_owned(), self.ref_or(p, |p| self.parameter(p))?);
        }
        Ok(out)
    }

    fn ref_or<T>(&self, v: &Value, item: impl FnOnce(&Value) -> Read<T>) -> Read<RefOr<T>> {
        match str_of(v, "$ref") {
            Some(r) => Ok(RefOr::Ref(r.to_owned())),
            None => item(v).map(RefOr::Item),
        }
    }

    fn operation(&self, op: &Value) -> Read<Operation> {
        let parameters = op
            .get("parameters")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
            .map(|p| self.ref_or(p, |p| self.parameter(p)))
            .collect::<Read<Vec<_>>>()?;
        let request_body = match op.get("requestBody") {
            Some(b) => Some(self.ref_or(b, |b| self.request_body(b))?),
            None => None,
        };
        let mut responses = Vec::new();
        for (key, r) in op
            .get("responses")
            .and_then(Value::as_mapping)
            .into_iter()
            .flatten()
        {
            let status = match key {
                Value::String(s) => s.parse().ok(),
                Value::Number(n) => n.as_u64().and_then(|n| u16::try_from(n).ok()),
                _ => None,
            };
            if let Some(status) = status {
                responses.push((status, self.ref_or(r, |r| self.response(r))?));
            }
        }
        Ok(Operation {
            operation_id: str_of(op, "operationId").map(str::to_owned),
            deprecated: flag(op, "deprecated"),
            parameters,
            request_body,
            responses,
        })
    }

    fn parameter(&self, p: &Value) -> Read<Parameter> {
        let schema = match p.get("schema") {
            Some(s) => Some(self.schema(s, 1)?),
            None => None,
        };
        Ok(Parameter {
            name: str_of(p, "name").map(str::to_owned),
            location: str_of(p, "in").map(str::to_owned),
            required: flag(p, "required"),
            schema,
        })
    }

    fn request_body(&self, b: &Value) -> Read<RequestBody> {
        Ok(RequestBody {
            required: flag(b, "required"),
            content: self.content(b)?,
        })
    }

    fn response(&self, r: &Value) -> Read<Response> {
        Ok(Response {
            content: self.content(r)?,
        })
    }

    fn content(&self, holder: &Value) -> Read<IndexMap<String, MediaType>> {
        let mut out = IndexMap::new();
        for (media, m) in entries(holder.get("content")) {
            let schema = match m.get("schema") {
                Some(s) => Some(self.schema(s, 1)?),
                None => None,
            };
            out.insert(media.to_owned(), MediaType { schema });
        }
        Ok(out)
    }

    fn schemas(&self, v: Option<&Value>, depth: usize) -> Read<Option<Vec<Schema>>> {
        match v.and_then(Value::as_sequence) {
            Some(parts) => parts
                .iter()
                .map(|p| self.schema(p, depth))
                .collect::<Read<Vec<_>>>()
                .map(Some),
            None => Ok(None),
        }
    }

    fn schema(&self, v: &Value, depth: usize) -> Read<Schema> {
        if depth > self.max_depth {
            return Err(format!(
                "a schema is nested deeper than {} levels; not read",
                self.max_depth
            ));
        }
        let Some(map) = v.as_mapping() else {
            return Ok(Schema::default());
        };
        let next = depth + 1;
        let properties = match v.get("properties") {
            None => None,
            Some(p) => {
                let mut out = IndexMap::new();
                for (name, s) in entries(Some(p)) {
                    out.insert(name.to_owned(), self.schema(s, next)?);
                }
                Some(out)
            }
        };
        let items = match v.get("items") {
            Some(i) => Some(Box::new(self.schema(i, next)?)),
            None => None,
        };
        let additional_properties = match v.get("additionalProperties") {
            None => None,
            Some(a @ Value::Mapping(_)) => Some(AdditionalProperties::Schema(Box::new(
                self.schema(a, next)?,
            ))),
            Some(a) => Some(AdditionalProperties::Bool(a.as_bool().unwrap_or(false))),
        };
        Ok(Schema {
            reference: str_of(v, "$ref").map(str::to_owned),
            ty: schema_type(v.get("type")),
            format: str_of(v, "format").map(str::to_owned),
            enumeration: v.get("enum").and_then(Value::as_sequence).map(|values| {
                values
                    .iter()
                    .map(|e| e.as_str().map(str::to_owned))
                    .collect()
            }),
            properties,
            required: v
                .get("required")
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_str().map(str::to_owned))
                .collect(),
            all_of: self.schemas(v.get("allOf"), next)?,
            one_of: self.schemas(v.get("oneOf"), next)?,
            any_of: self.schemas(v.get("anyOf"), next)?,
            items,
            additional_properties,
            discriminator: v.get("discriminator").map(discriminator),
            nullable: flag(v, "nullable"),
            read_only: flag(v, "readOnly"),
            write_only: flag(v, "writeOnly"),
            deprecated: flag(v, "deprecated"),
            bounds: Bounds {
                min_length: number(v, "minLength"),
                max_length: number(v, "maxLength"),
                minimum: number(v, "minimum"),
                maximum: number(v, "maximum"),
                min_items: number(v, "minItems"),
                max_items: number(v, "maxItems"),
            },
            default: match v.get("default") {
                Some(d @ (Value::Bool(_) | Value::Number(_) | Value::String(_))) => Some(d.clone()),
                _ => None,
            },
            keys: map.len(),
        })
    }
}

fn schema_type(v: Option<&Value>) -> Option<SchemaType> {
    match v? {
        Value::String(s) => Some(SchemaType::One(s.clone())),
        Value::Sequence(list) => Some(SchemaType::Many(
            list.iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
        )),
        _ => None,
    }
}

fn discriminator(d: &Value) -> Discriminator {
    Discriminator {
        property_name: str_of(d, "propertyName").map(str::to_owned),
        mapping: entries(d.get("mapping"))
            .filter_map(|(k, v)| Some((k.to_owned(), v.as_str()?.to_owned())))
            .collect(),
    }
}
