//! Converting a root under the name the curated spec gives it: through `array<...>` and
//! `map<...>` to the schema that stands for the name.

use super::{Findings, Root};
use crate::import::convert::Converter;
use crate::openapi::{AdditionalProperties, Document, EMPTY, Schema};
use ruckus_codegen::spec::TypeDef;
use std::collections::BTreeMap;

/// Records the names a root gives `$ref` schemas (through `array<...>` and `map<...>`), and
/// keeps the name of an inline root free.
pub(super) fn pin(
    conv: &mut Converter<'_>,
    docs: &BTreeMap<String, Document>,
    r: &Root<'_>,
    expr: &str,
    schema: &Schema,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
    findings: &mut Findings,
) {
    let doc = &docs[r.file];
    if let Some(inner_expr) = wrapped(expr, "array") {
        if let Some(items) = inner(doc, schema, "array") {
            pin(conv, docs, r, inner_expr, items, curated, findings);
        }
        return;
    }
    if let Some(inner_expr) = wrapped(expr, "map") {
        if let Some(values) = inner(doc, schema, "map") {
            pin(conv, docs, r, inner_expr, values, curated, findings);
        }
        return;
    }
    if curated.contains_key(expr) || !expr.starts_with(|c: char| c.is_ascii_uppercase()) {
        return;
    }
    match ref_of(schema) {
        Some(raw) => {
            if let Err(first) = conv.pin(r.file, raw, expr) {
                findings.unresolved.push(format!(
                    "{}: schema `{raw}` is named `{first}` elsewhere in the spec, not `{expr}`",
                    r.place
                ));
            }
        }
        None => conv.reserve(expr),
    }
}

/// Converts a root; an error says why the result is not the name the curated spec gives.
pub(super) fn convert_root(
    conv: &mut Converter<'_>,
    docs: &BTreeMap<String, Document>,
    r: &Root<'_>,
    expr: &str,
    schema: &Schema,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
) -> Result<(), String> {
    let doc = &docs[r.file];
    for wrapper in ["array", "map"] {
        if let Some(inner_expr) = wrapped(expr, wrapper) {
            return match inner(doc, schema, wrapper) {
                Some(inner_schema) => {
                    convert_root(conv, docs, r, inner_expr, inner_schema, curated)
                }
                // The spec corrects a body the description declares as one object to a list of
                // them (the service answers a list): the object is the item.
                None if wrapper == "array" => {
                    convert_root(conv, docs, r, inner_expr, schema, curated)
                }
                None => Err(format!("the description's schema is not a {wrapper}")),
            };
        }
    }
    if curated.contains_key(expr) {
        return Ok(());
    }
    let got = match ref_of(schema) {
        Some(_) => conv.body(r.file, schema, expr),
        None => conv.root(r.file, schema, expr),
    };
    match got {
        Some(name) if name == expr => Ok(()),
        Some(name) => Err(format!(
            "the description's schema converts to `{name}`, not `{expr}`"
        )),
        None => Err("the description's schema is only raw JSON".into()),
    }
}

/// The schema standing for the innermost name of `expr` (`array<X>`: the items' schema).
pub(super) fn innermost<'v>(doc: &'v Document, expr: &str, schema: &'v Schema) -> &'v Schema {
    for wrapper in ["array", "map"] {
        if let Some(inner_expr) = wrapped(expr, wrapper)
            && let Some(inner_schema) = inner(doc, schema, wrapper)
        {
            return innermost(doc, inner_expr, inner_schema);
        }
    }
    schema
}

/// The items' schema of an array (`wrapper` = `array`), the values' of a map (`map`; a flag
/// stands for a schema that says nothing).
pub(super) fn inner<'v>(
    doc: &'v Document,
    schema: &'v Schema,
    wrapper: &str,
) -> Option<&'v Schema> {
    let schema = doc.resolve(schema);
    if wrapper == "array" {
        return schema.items.as_deref();
    }
    match schema.additional_properties.as_ref()? {
        AdditionalProperties::Schema(s) => Some(s),
        AdditionalProperties::Bool(_) => Some(&EMPTY),
    }
}

/// `array<X>` -> `X` for `wrapper` = `array`.
fn wrapped<'e>(expr: &'e str, wrapper: &str) -> Option<&'e str> {
    expr.strip_prefix(wrapper)?
        .strip_prefix('<')?
        .strip_suffix('>')
}

/// The schema name of a `$ref` (also one wrapped in a single-part `allOf`).
pub(super) fn ref_of(schema: &Schema) -> Option<&str> {
    schema
        .ref_name()
        .or_else(|| match schema.all_of.as_deref()? {
            [only] if schema.properties.is_none() => only.ref_name(),
            _ => None,
        })
}
