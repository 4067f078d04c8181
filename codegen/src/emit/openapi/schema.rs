//! JSON schemas of the spec's named types: objects, enums, unions, aliases and raw shapes, with
//! their constraints.

use super::super::text::prose;
use super::yaml::{Obj, reference, spec_provenance};
use crate::ir::{FieldIr, TypeIr, TypeKind, TypeRef, UnionIr};
use serde_yaml::{Mapping, Value};

/// The schema of a named type, with its description and provenance.
pub(super) fn type_schema(t: &TypeIr) -> Obj {
    let mut description = prose(&t.description);
    let body = match &t.kind {
        TypeKind::Object(fields, open) => object(fields, *open),
        TypeKind::Enum(variants) => {
            let values: Vec<Value> = variants.iter().map(|v| v.wire.as_str().into()).collect();
            description
                .push_str("\n\nThe client keeps values it does not know (forward compatible).");
            Obj::new().set("type", "string").set("enum", values)
        }
        TypeKind::Alias(target) => schema_of(target),
        TypeKind::Union(u) => {
            description.push_str(match u.discriminator {
                Some(_) => "\n\nThe client keeps a value with another discriminator value, or none, as it is (forward compatible).",
                None => "\n\nThe client takes the first variant, in this order, that decodes the value, and keeps a value none decodes as it is (forward compatible).",
            });
            union(u)
        }
        TypeKind::NotShown(note) => {
            description.push_str(&format!(
                "\n\nThe document does not show this shape: {} Any JSON value.",
                prose(note)
            ));
            Obj::new()
        }
    };
    let mut out = Obj::new().set("description", description);
    for (k, v) in body.0 {
        out.0.insert(k, v);
    }
    out.set("x-provenance", spec_provenance(&t.provenance))
}

/// `oneOf` the variant types, with the discriminator's mapping of values to types.
fn union(u: &UnionIr) -> Obj {
    let mut one_of: Vec<Value> = Vec::new();
    for v in &u.variants {
        let r: Value = reference(v.type_name()).into();
        if !one_of.contains(&r) {
            one_of.push(r);
        }
    }
    let discriminator = u.discriminator.as_ref().map(|d| {
        let mut mapping = Mapping::new();
        for v in &u.variants {
            if let Some(tag) = &v.tag {
                mapping.insert(
                    tag.as_str().into(),
                    format!("#/components/schemas/{}", v.type_name()).into(),
                );
            }
        }
        Obj::new()
            .set("propertyName", d.as_str())
            .set("mapping", mapping)
    });
    Obj::new()
        .set("oneOf", one_of)
        .opt("discriminator", discriminator)
}

fn object(fields: &[FieldIr], open: bool) -> Obj {
    let mut props = Mapping::new();
    let mut required = Vec::new();
    for f in fields {
        props.insert(f.wire.as_str().into(), field(f).into());
        if f.required {
            required.push(Value::from(f.wire.as_str()));
        }
    }
    Obj::new()
        .set("type", "object")
        .when(!props.is_empty(), "properties", props)
        .when(!required.is_empty(), "required", required)
        .when(open, "additionalProperties", true)
}

fn field(f: &FieldIr) -> Obj {
    let mut schema = schema_of(&f.ty);
    constraints(&mut schema, &f.constraints, &f.ty);
    let has_format = schema.0.contains_key("format");
    if f.nullable {
        schema = nullable(schema);
    }
    schema
        .opt("description", f.description.as_deref().map(prose))
        .when(f.deprecated.is_some(), "deprecated", true)
        .opt("x-deprecation", f.deprecated.as_deref().map(prose))
        .when(f.secret && !has_format, "format", "password")
        .when(
            f.stated_provenance().is_some(),
            "x-provenance",
            spec_provenance(&f.provenance),
        )
}

/// `{}`: any JSON value.
/// The JSON Schema of a type reference.
pub(super) fn schema_of(t: &TypeRef) -> Obj {
    match t {
        TypeRef::String => Obj::new().set("type", "string"),
        // `integer` and `int64` in the spec; the documents rarely bound it.
        TypeRef::Integer => Obj::new().set("type", "integer"),
        TypeRef::Int32 => Obj::new().set("type", "integer").set("format", "int32"),
        TypeRef::Number => Obj::new().set("type", "number"),
        TypeRef::Boolean => Obj::new().set("type", "boolean"),
        TypeRef::Json => Obj::new(),
        TypeRef::NotShown(note) => Obj::new().set(
            "description",
            format!("The document does not show this shape: {}", prose(note)),
        ),
        TypeRef::Array(inner) => Obj::new()
            .set("type", "array")
            .set("items", schema_of(inner)),
        TypeRef::Map(inner) => Obj::new()
            .set("type", "object")
            .set("additionalProperties", schema_of(inner)),
        TypeRef::Named { name, .. } => reference(name),
    }
}

/// The schema that also admits `null`: a type array, or `anyOf` around a reference.
fn nullable(schema: Obj) -> Obj {
    let mut m = schema.0;
    match m.get("type").cloned() {
        Some(Value::String(t)) => {
            m.insert("type".into(), vec![Value::from(t), "null".into()].into());
            Obj(m)
        }
        // Any JSON value admits null already.
        _ if m.is_empty() || (m.contains_key("description") && m.len() == 1) => Obj(m),
        _ => Obj::new().set(
            "anyOf",
            vec![Value::Mapping(m), Obj::new().set("type", "null").into()],
        ),
    }
}

/// Documented constraints as JSON Schema keywords; others are kept under `x-constraints`.
pub(super) fn constraints(schema: &mut Obj, cs: &[(String, String)], ty: &TypeRef) {
    let mut other = Mapping::new();
    for (key, text) in cs {
        let keyword = match key.as_str() {
            "min_length" => "minLength",
            "max_length" => "maxLength",
            "min_items" => "minItems",
            "max_items" => "maxItems",
            "minimum" => "minimum",
            "maximum" => "maximum",
            "format" => "format",
            "default" => "default",
            _ => "",
        };
        let value = match keyword {
            "minLength" | "maxLength" | "minItems" | "maxItems" => {
                text.parse::<u64>().ok().map(Value::from)
            }
            "minimum" | "maximum" => number(text),
            "format" => Some(text.as_str().into()),
            "default" => scalar(text, ty),
            _ => None,
        };
        match value {
            Some(v) => {
                schema.0.insert(keyword.into(), v);
            }
            None => {
                other.insert(key.as_str().into(), text.as_str().into());
            }
        }
    }
    if !other.is_empty() {
        schema.0.insert("x-constraints".into(), other.into());
    }
}

fn number(text: &str) -> Option<Value> {
    text.parse::<i64>()
        .map(Value::from)
        .ok()
        .or_else(|| text.parse::<f64>().ok().map(Value::from))
}

/// A default value typed like the scalar it is the default of.
fn scalar(text: &str, ty: &TypeRef) -> Option<Value> {
    match ty {
        TypeRef::String => Some(text.into()),
        TypeRef::Integer | TypeRef::Int32 => text.parse::<i64>().ok().map(Value::from),
        TypeRef::Number => number(text),
        TypeRef::Boolean => text.parse::<bool>().ok().map(Value::from),
        // Enums are strings.
        TypeRef::Named { .. } => Some(text.into()),
        _ => None,
    }
}
