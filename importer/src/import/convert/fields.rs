//! The fields of object schemas (`allOf` parts flattened), their facts, and what the
//! descriptions say about enumerations and discriminated bases.

use super::MAX_DEPTH;
use super::{Converter, DraftField};
use crate::openapi::{Document, Schema};
use ruckus_codegen::names;
use serde_yaml::Value;
use std::collections::BTreeSet;

impl Converter<'_> {
    /// Adds the description's fields an existing spec object type lacks (never as required:
    /// where the documents speak, they win). `source` names the schema (`<file> <Schema>`).
    pub fn reconcile(&mut self, existing: &str, file: &str, schema: &Schema, source: &str) {
        let Some(known) = self.existing.get(existing).cloned() else {
            return;
        };
        let fields = self.fields(file, schema, existing);
        let (_, added) = self
            .additions
            .entry(existing.to_owned())
            .or_insert_with(|| (source.to_owned(), Vec::new()));
        for mut f in fields {
            if known.contains(&f.name) || added.iter().any(|(a, _)| a.name == f.name) {
                continue;
            }
            f.required = false;
            added.push((f, source.to_owned()));
        }
    }

    /// The fields of an object schema, `allOf` parts flattened in order (a later part's
    /// property replaces an earlier one of the same name).
    pub(super) fn fields(&mut self, file: &str, schema: &Schema, owner: &str) -> Vec<DraftField> {
        let doc = self.doc(file);
        let mut props = Vec::new();
        let mut required = BTreeSet::new();
        collect(doc, schema, &mut props, &mut required, 0);
        let mut out = Vec::new();
        for (name, prop) in props {
            let flags = doc.resolve(prop);
            // An inline type's name, as the generator derives it: its owner and the field.
            let field_owner = format!("{owner}{}", names::camel(&name));
            let ty = self.expr(file, prop, &field_owner);
            let read_only = prop.read_only || flags.read_only;
            let write_only = prop.write_only || flags.write_only;
            out.push(DraftField {
                required: required.contains(&name) && !read_only && !write_only,
                nullable: prop.nullable || flags.nullable,
                constraints: constraints(flags, &ty),
                deprecated: prop.deprecated || flags.deprecated,
                secret: ty == "string" && is_credential(&name),
                provenance: None,
                ty,
                name,
            });
        }
        out
    }
}

/// The schema of property `name` of an object schema (its `allOf` parts flattened), as written
/// (a `$ref` stays a `$ref`).
pub fn property<'v>(doc: &'v Document, schema: &'v Schema, name: &str) -> Option<&'v Schema> {
    let mut props = Vec::new();
    collect(doc, schema, &mut props, &mut BTreeSet::new(), 0);
    props.into_iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Properties and required names of a schema and its `allOf` parts, in order.
fn collect<'v>(
    doc: &'v Document,
    schema: &'v Schema,
    props: &mut Vec<(String, &'v Schema)>,
    required: &mut BTreeSet<String>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let schema = doc.resolve(schema);
    for part in schema.all_of.iter().flatten() {
        collect(doc, part, props, required, depth + 1);
    }
    for (k, v) in schema.properties.iter().flatten() {
        match props.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = v,
            None => props.push((k.clone(), v)),
        }
    }
    required.extend(schema.required.iter().cloned());
}

/// Bounds and formats the spec records (`constraints`), in a fixed order.
fn constraints(schema: &Schema, ty: &str) -> Vec<(String, Value)> {
    let b = &schema.bounds;
    let mut out = Vec::new();
    for (bound, to) in [
        (&b.min_length, "min_length"),
        (&b.max_length, "max_length"),
        (&b.minimum, "minimum"),
        (&b.maximum, "maximum"),
        (&b.min_items, "min_items"),
        (&b.max_items, "max_items"),
    ] {
        if let Some(n) = bound {
            out.push((to.to_owned(), Value::Number(n.clone())));
        }
    }
    if let Some(format) = &schema.format {
        if !(ty == "int64" && format == "int64") {
            out.push(("format".to_owned(), Value::String(format.clone())));
        }
    }
    match &schema.default {
        Some(v @ (Value::Bool(_) | Value::Number(_))) => out.push(("default".into(), v.clone())),
        Some(Value::String(s)) if s.len() <= 80 && !s.contains('\n') => {
            out.push(("default".into(), Value::String(s.clone())))
        }
        _ => {}
    }
    out
}

/// Whether a field name says it holds a credential.
pub(crate) fn is_credential(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "password",
        "passphrase",
        "secret",
        "privatekey",
        "apikey",
        "psk",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// The values of a string enumeration (`None` for other schemas and empty lists), each once,
/// in order. Linear: a set remembers the values met.
pub(super) fn string_enum(schema: &Schema) -> Option<Vec<String>> {
    let values = schema.enumeration.as_ref()?;
    if schema.single_type().is_some_and(|t| t != "string") {
        return None;
    }
    let mut seen = std::collections::HashSet::with_capacity(values.len());
    let mut out: Vec<String> = Vec::new();
    for v in values {
        let s = v.as_deref()?;
        // An empty value names no variant; it is kept as an unknown one.
        if !s.is_empty() && seen.insert(s) {
            out.push(s.to_owned());
        }
    }
    (!out.is_empty()).then_some(out)
}
