//! A payload walked through the spec's types: every object key the type of its place does not
//! name is observed, with a type read off the values sent.

use crate::import::convert::{Converter, Kind};
use ruckus_codegen::spec::{Area, Override, TypeDef, TypeExpr};
use serde_json::Value;
use std::collections::BTreeMap;

/// Fields the payloads send that their types lack: `(type, field)` -> the field's type
/// expression and the first file that sends it.
#[derive(Default)]
pub struct Observed {
    pub fields: BTreeMap<(String, String), (String, String)>,
    /// Scalar fields of imported types whose values the payloads send with another type than
    /// the description gives: `(type, field)` -> the type the values show, the first file
    /// and the description's type.
    pub retyped: BTreeMap<(String, String), (String, String, String)>,
}

enum Shape {
    /// Field wire names -> type expressions.
    Object(BTreeMap<String, String>),
    Union {
        discriminator: Option<String>,
        /// Type and tag value.
        variants: Vec<(String, Option<String>)>,
    },
    Alias(String),
    Other,
}

/// The shapes of every named type of one API: curated (with the fields the import adds) and
/// imported.
pub struct Types {
    shapes: BTreeMap<String, Shape>,
    /// The imported types (the curated ones are the people's: never retyped).
    imported: std::collections::BTreeSet<String>,
}

impl Types {
    /// `areas`: the curated areas, whose overrides' fields (added, corrected or left out) are
    /// the people's and never observed.
    pub fn new(
        conv: &Converter<'_>,
        curated: &BTreeMap<&str, (&str, &TypeDef)>,
        areas: &[&Area],
    ) -> Types {
        let mut shapes = BTreeMap::new();
        let imported = conv.drafts.keys().cloned().collect();
        for (name, d) in &conv.drafts {
            let shape = match &d.kind {
                Kind::Object(fields) => Shape::Object(
                    fields
                        .iter()
                        .map(|f| (f.name.clone(), f.ty.clone()))
                        .collect(),
                ),
                Kind::Union {
                    discriminator,
                    variants,
                } => Shape::Union {
                    discriminator: discriminator.clone(),
                    variants: variants
                        .iter()
                        .map(|v| (v.ty.clone(), v.value.clone()))
                        .collect(),
                },
                Kind::Enum(_) => Shape::Other,
            };
            shapes.insert(name.clone(), shape);
        }
        for (name, (_, t)) in curated {
            shapes.insert((*name).to_owned(), curated_shape(conv, t));
        }
        let overrides = areas.iter().flat_map(|a| &a.overrides);
        for o in overrides.filter_map(Override::as_type) {
            match shapes.get_mut(&o.target) {
                Some(Shape::Object(fields)) => {
                    let named = o.fields.iter().map(|f| &f.name).chain(&o.remove_fields);
                    for name in named {
                        fields.entry(name.clone()).or_insert_with(|| "json".into());
                    }
                }
                Some(Shape::Union { variants, .. }) => {
                    for v in &o.variants {
                        let found = variants.iter_mut().find(|(ty, _)| *ty == v.ty);
                        if let (Some((_, tag)), Some(value)) = (found, &v.value) {
                            *tag = Some(value.clone());
                        }
                    }
                }
                _ => {}
            }
            // The spec names a renamed or replaced type by its new name.
            if let Some(new) = o.rename.as_ref().or(o.replace_with.as_ref()) {
                shapes
                    .entry(new.clone())
                    .or_insert_with(|| Shape::Alias(o.target.clone()));
            }
        }
        Types { shapes, imported }
    }

    /// Whether `value` is evidence for the named object type `ty`: it names one of the fields
    /// the documents, descriptions or people give the type (or the type has none yet). A list,
    /// or an object naming none of them, is another shape.
    pub fn is_evidence_for(&self, ty: &str, value: &Value) -> bool {
        let mut shape = self.shapes.get(ty);
        for _ in 0..8 {
            match shape {
                Some(Shape::Alias(target)) => shape = self.shapes.get(target),
                _ => break,
            }
        }
        match (shape, value) {
            (Some(Shape::Object(fields)), Value::Object(m))
                if !fields.is_empty() && !m.is_empty() =>
            {
                m.keys().any(|k| fields.contains_key(k))
            }
            (Some(Shape::Object(fields)), Value::Array(_)) => fields.is_empty(),
            _ => true,
        }
    }

    /// Walks `value` as a value of the type expression `ty`.
    pub fn walk(&self, ty: &str, value: &Value, file: &str, at: &str, out: &mut Observed) {
        self.walk_skipping(ty, value, file, at, None, out)
    }

    fn walk_skipping(
        &self,
        ty: &str,
        value: &Value,
        file: &str,
        at: &str,
        skip: Option<&str>,
        out: &mut Observed,
    ) {
        if let Some(inner) = ty.strip_prefix("array<").and_then(|t| t.strip_suffix('>')) {
            for (i, v) in value.as_array().into_iter().flatten().enumerate() {
                self.walk(inner, v, file, &format!("{at}/{i}"), out);
            }
            return;
        }
        if let Some(inner) = ty.strip_prefix("map<").and_then(|t| t.strip_suffix('>')) {
            for (k, v) in value.as_object().into_iter().flatten() {
                self.walk(inner, v, file, &format!("{at}/{k}"), out);
            }
            return;
        }
        match (self.shapes.get(ty), value) {
            (Some(Shape::Object(fields)), Value::Object(map)) => {
                for (k, v) in map {
                    match fields.get(k) {
                        Some(f) if self.imported.contains(ty) && is_scalar(f) => {
                            out.retype(ty, k, f, v, file)
                        }
                        Some(f) => self.walk(f, v, file, &format!("{at}/{k}"), out),
                        None if skip == Some(k.as_str()) => {}
                        None => out.observe(ty, k, v, file),
                    }
                }
            }
            (
                Some(Shape::Union {
                    discriminator,
                    variants,
                }),
                Value::Object(map),
            ) => {
                let chosen = match discriminator {
                    Some(d) => {
                        let tag = map.get(d).and_then(Value::as_str);
                        variants
                            .iter()
                            .find(|(_, v)| v.as_deref() == tag && tag.is_some())
                    }
                    None => self.best_variant(variants, map),
                };
                if let Some((variant, _)) = chosen {
                    let skip = discriminator.as_deref();
                    self.walk_skipping(variant, value, file, at, skip, out);
                }
            }
            (Some(Shape::Alias(inner)), _) => self.walk(inner, value, file, at, out),
            _ => {}
        }
    }

    /// The first variant that names the most keys of `map` (an untagged union's value).
    fn best_variant<'v>(
        &self,
        variants: &'v [(String, Option<String>)],
        map: &serde_json::Map<String, Value>,
    ) -> Option<&'v (String, Option<String>)> {
        // A variant one of whose fields has another kind of value than the field's type does
        // not decode (as the client sees it), and counts as naming nothing.
        let known = |ty: &str| match self.shapes.get(ty) {
            Some(Shape::Object(fields)) => {
                let named: Vec<(&String, &Value)> = map
                    .iter()
                    .filter_map(|(k, v)| Some((fields.get(k)?, v)))
                    .collect();
                let fit = named.iter().all(|(f, v)| v.is_null() || kind_fits(f, v));
                if fit { named.len() } else { 0 }
            }
            _ => 0,
        };
        let mut best: Option<(&(String, Option<String>), usize)> = None;
        for v in variants {
            let n = known(&v.0);
            if best.is_none_or(|(_, m)| n > m) {
                best = Some((v, n));
            }
        }
        best.map(|(v, _)| v)
    }
}

fn curated_shape(conv: &Converter<'_>, t: &TypeDef) -> Shape {
    if let Some(fields) = &t.fields {
        let mut map: BTreeMap<String, String> = fields
            .iter()
            .map(|f| (f.name.clone(), expr(&f.ty)))
            .collect();
        for (f, _) in conv
            .additions
            .get(&t.name)
            .map(|(_, f)| f.as_slice())
            .unwrap_or(&[])
        {
            map.insert(f.name.clone(), f.ty.clone());
        }
        return Shape::Object(map);
    }
    if let Some(u) = &t.union {
        return Shape::Union {
            discriminator: u.discriminator.clone(),
            variants: u
                .variants
                .iter()
                .map(|v| (v.ty.clone(), v.value.clone()))
                .collect(),
        };
    }
    match &t.alias {
        Some(a) => Shape::Alias(expr(a)),
        None => Shape::Other,
    }
}

/// A curated field's type expression; an inline shape is known but not walked.
fn expr(e: &TypeExpr) -> String {
    match e {
        TypeExpr::Name(n) => n.clone(),
        TypeExpr::Inline(_) => "json".into(),
    }
}

/// Whether a value is of the kind a field's type takes at its top (an array for `array<..>`,
/// a scalar of the scalar's type; named types and `json` take anything here).
fn kind_fits(ty: &str, value: &Value) -> bool {
    if ty.starts_with("array<") {
        return value.is_array();
    }
    if ty.starts_with("map<") {
        return value.is_object();
    }
    !is_scalar(ty) || fits(ty, &type_of(value))
}

fn is_scalar(ty: &str) -> bool {
    matches!(
        ty,
        "string" | "boolean" | "integer" | "int64" | "int32" | "number"
    )
}

/// Whether values of the type `seen` (observed, widened) fit the scalar type `declared`
/// (`null` fits anything; an integer fits a number).
pub fn fits(declared: &str, seen: &str) -> bool {
    match declared {
        "string" | "boolean" => seen == "null" || seen == declared,
        "integer" | "int64" | "int32" => matches!(seen, "null" | "int64"),
        "number" => matches!(seen, "null" | "int64" | "number"),
        _ => true,
    }
}

impl Observed {
    /// A value of a scalar field of an imported type: the types of all its values are kept
    /// (widened), with the first file whose value does not fit the description's type.
    fn retype(&mut self, ty: &str, field: &str, declared: &str, value: &Value, file: &str) {
        let seen = type_of(value);
        let misfit = !fits(declared, &seen);
        let key = (ty.to_owned(), field.to_owned());
        match self.retyped.get_mut(&key) {
            Some((known, first, _)) => {
                *known = widen(known, &seen);
                if misfit && first.is_empty() {
                    *first = file.to_owned();
                }
            }
            None => {
                let first = if misfit { file } else { "" };
                let entry = (seen, first.to_owned(), declared.to_owned());
                self.retyped.insert(key, entry);
            }
        }
    }

    fn observe(&mut self, ty: &str, field: &str, value: &Value, file: &str) {
        let seen = type_of(value);
        let key = (ty.to_owned(), field.to_owned());
        match self.fields.get_mut(&key) {
            Some((known, _)) => *known = widen(known, &seen),
            None => {
                self.fields.insert(key, (seen, file.to_owned()));
            }
        }
    }
}

/// The type expression of values observed: `null` alone says nothing and is `json`.
pub fn settled(ty: &str) -> String {
    ty.replace("null", "json")
}

/// The type expression a value shows: a scalar's type, `array<...>` of its elements', `json`
/// for an object (its shape is not named here), `null` for a null (settled later).
fn type_of(value: &Value) -> String {
    match value {
        Value::String(_) => "string".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Number(n) if n.is_i64() || n.is_u64() => "int64".into(),
        Value::Number(_) => "number".into(),
        Value::Array(items) => {
            let inner = items
                .iter()
                .filter(|v| !v.is_null())
                .map(type_of)
                .reduce(|a, b| widen(&a, &b))
                .unwrap_or_else(|| "null".into());
            format!("array<{inner}>")
        }
        Value::Object(_) => "json".into(),
        Value::Null => "null".into(),
    }
}

/// The type that holds values of both: an integer and a number are a number; an array's
/// elements widen; a `null` gives way; anything else that differs is `json`.
fn widen(a: &str, b: &str) -> String {
    match (a, b) {
        _ if a == b => a.to_owned(),
        ("int64", "number") | ("number", "int64") => "number".into(),
        ("null", other) | (other, "null") => other.to_owned(),
        _ => match (array_inner(a), array_inner(b)) {
            (Some(x), Some(y)) => format!("array<{}>", widen(x, y)),
            _ => "json".into(),
        },
    }
}

fn array_inner(t: &str) -> Option<&str> {
    t.strip_prefix("array<")?.strip_suffix('>')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_give_types_that_hold_them_all() {
        assert_eq!(type_of(&json!("a")), "string");
        assert_eq!(type_of(&json!([1, 2.5])), "array<number>");
        assert_eq!(settled(&type_of(&json!([]))), "array<json>");
        assert_eq!(type_of(&json!({"a": 1})), "json");
        assert_eq!(widen("int64", "number"), "number");
        assert_eq!(
            widen("null", "string"),
            "string",
            "a null first, then a string"
        );
        assert_eq!(widen("json", "string"), "json", "an object and a string");
        assert_eq!(widen("string", "boolean"), "json");
        assert_eq!(settled("null"), "json");
        assert_eq!(widen("array<int64>", "array<string>"), "array<json>");
    }
}
