//! A payload walked through the spec's types: every object key the type of its place does not
//! name is observed, with a type read off the values sent.

use super::seen::Seen;
use crate::import::convert::{Converter, Kind};
use ruckus_codegen::spec::{Area, Override, TypeDef, TypeExpr};
use serde_json::Value;
use std::collections::BTreeMap;

/// Fields the payloads send that their types lack: `(type, field)` -> the values seen and the
/// first file that sends it.
#[derive(Default)]
pub struct Observed {
    pub fields: BTreeMap<(String, String), (Seen, String)>,
    /// Scalar and raw JSON fields of imported types, with what the payloads send in them:
    /// `(type, field)` -> the values seen, the first file whose value does not fit the
    /// description's type (or that sends fields a raw one leaves untyped), and that type.
    pub retyped: BTreeMap<(String, String), (Seen, String, String)>,
    /// Values `spec/payload_artefacts.yaml` lists under `fields:` as artefacts, `(file, JSON
    /// pointer)`: no evidence.
    pub listed: std::collections::BTreeSet<(String, String)>,
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
    /// The fields the descriptions add to curated types, `(type, field)`: the import's, so
    /// retyped like an imported type's.
    added: std::collections::BTreeSet<(String, String)>,
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
        let added = conv
            .additions
            .iter()
            .flat_map(|(ty, (_, fields))| {
                fields
                    .iter()
                    .map(move |(f, _)| (ty.clone(), f.name.clone()))
            })
            .collect();
        Types {
            shapes,
            imported,
            added,
        }
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

    /// Whether the field `field` of `ty` is the import's to type: a field of an imported type,
    /// or one a description adds to a curated type.
    fn imports(&self, ty: &str, field: &str) -> bool {
        self.imported.contains(ty) || self.added.contains(&(ty.to_owned(), field.to_owned()))
    }

    /// Whether `ty` is an imported type (not a curated one).
    pub fn is_imported(&self, ty: &str) -> bool {
        self.imported.contains(ty)
    }

    /// The type expression of a field of the object type `ty`.
    pub fn field_type(&self, ty: &str, field: &str) -> Option<&str> {
        match self.shapes.get(ty) {
            Some(Shape::Object(fields)) => fields.get(field).map(String::as_str),
            _ => None,
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
                        Some(f) if self.imports(ty, k) && (is_scalar(f) || is_raw(f)) => {
                            out.retype(ty, k, f, v, file, &format!("{at}/{k}"))
                        }
                        Some(f) => self.walk(f, v, file, &format!("{at}/{k}"), out),
                        None if skip == Some(k.as_str()) => {}
                        None => out.observe(ty, k, v, file, &format!("{at}/{k}")),
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
    !is_scalar(ty) || Seen::of(value).fits_scalar(ty)
}

fn is_scalar(ty: &str) -> bool {
    matches!(
        ty,
        "string" | "boolean" | "integer" | "int64" | "int32" | "number"
    )
}

/// Whether a field's type keeps its values as raw JSON.
pub fn is_raw(ty: &str) -> bool {
    matches!(ty, "json" | "array<json>" | "map<json>")
}

/// Whether what the payloads send in a field of the description's type `declared` says more
/// than the description: a scalar of another type, or fields in a raw JSON one.
pub fn says_more(declared: &str, seen: &Seen) -> bool {
    if is_raw(declared) {
        seen.has_fields()
    } else {
        !seen.fits_scalar(declared)
    }
}

impl Observed {
    /// A value of a scalar or raw field the import types: what all its values show is kept
    /// (widened), with the first file whose value says more than the description.
    fn retype(
        &mut self,
        ty: &str,
        field: &str,
        declared: &str,
        value: &Value,
        file: &str,
        at: &str,
    ) {
        if self.is_listed(file, at) {
            return;
        }
        let seen = Seen::of(value);
        let more = says_more(declared, &seen);
        let key = (ty.to_owned(), field.to_owned());
        match self.retyped.get_mut(&key) {
            Some((known, first, _)) => {
                *known = known.widen(&seen);
                if more && first.is_empty() {
                    *first = file.to_owned();
                }
            }
            None => {
                let first = if more { file } else { "" };
                let entry = (seen, first.to_owned(), declared.to_owned());
                self.retyped.insert(key, entry);
            }
        }
    }

    /// Whether the value at `at` of `file`, or a value within it, is listed as an artefact.
    fn is_listed(&self, file: &str, at: &str) -> bool {
        let within = format!("{at}/");
        self.listed
            .iter()
            .any(|(f, p)| f == file && (p == at || p.starts_with(&within)))
    }

    fn observe(&mut self, ty: &str, field: &str, value: &Value, file: &str, at: &str) {
        if self.is_listed(file, at) {
            return;
        }
        let seen = Seen::of(value);
        let key = (ty.to_owned(), field.to_owned());
        match self.fields.get_mut(&key) {
            Some((known, _)) => *known = known.widen(&seen),
            None => {
                self.fields.insert(key, (seen, file.to_owned()));
            }
        }
    }
}
