//! Curated types made whole: a type the curated spec defines with the fields the documents
//! show (the network document lists only the fields added in releases) takes every other field
//! of the description schema it stands for. The import writes those fields to the area's
//! imported file (`additions:`), the loader appends them after the curated ones, and the
//! curated fields always win.

use super::Findings;
use super::roots::type_schemas;
use crate::import::convert::Converter;
use crate::import::index::DescIndex;
use crate::openapi::{Document, Schema};
use ruckus_codegen::spec::{Addition, Area, TypeDef};
use std::collections::BTreeMap;

/// Reconciles every curated object type with the schemas it stands for.
pub(super) fn reconcile_curated<'v>(
    conv: &mut Converter<'v>,
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    index: &DescIndex<'v>,
    service_files: &BTreeMap<String, String>,
) {
    for area in areas {
        let own_file = area.service.as_deref().and_then(|s| service_files.get(s));
        for t in area.types.iter().filter(|t| t.fields.is_some()) {
            for (file, schema, source, operation, within) in
                stands_for(docs, areas, index, t, own_file)
            {
                conv.set_context(&operation, within.as_deref(), "");
                conv.reconcile(&t.name, file, schema, &source);
            }
        }
    }
}

/// The type expressions of the added fields, with the area of the type they are added to:
/// the imported types they name are reached from there.
pub(super) fn reached(additions: &BTreeMap<String, Vec<Addition>>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (area, list) in additions {
        for f in list.iter().flat_map(|a| &a.fields) {
            if let ruckus_codegen::spec::TypeExpr::Name(ty) = &f.ty {
                out.push((area.clone(), ty.clone()));
            }
        }
    }
    out
}

/// The object schemas a curated type stands for, most telling first (its `reference:`
/// schema, the bodies and paged items of operations typed with it, a schema of its name in its
/// area's service's description), each with `<file> <Schema or operationId>`, the operation
/// and the named schema it sits in. A field the first does not have is taken from the next.
#[allow(clippy::type_complexity)]
fn stands_for<'v>(
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    index: &DescIndex<'v>,
    t: &TypeDef,
    own_file: Option<&String>,
) -> Vec<(&'v str, &'v Schema, String, String, Option<String>)> {
    let named = cited_schema(docs, t);
    type_schemas(docs, areas, index, t)
        .into_iter()
        // A type whose provenance names its schema stands for that schema alone.
        .filter(|(file, _, via)| {
            named.is_none_or(|(f, s)| {
                *file == f && via.operation == "-" && via.schema.as_deref() == Some(s)
            })
        })
        .filter(|(file, _, via)| {
            // A schema found by its name alone counts only in the area's own description.
            via.operation != "-"
                || named_by_provenance(t, file, via.schema.as_deref())
                || own_file.is_some_and(|f| f == file)
        })
        .filter(|(file, schema, _)| {
            let s = docs[*file].resolve(schema);
            s.properties.is_some() || s.all_of.is_some()
        })
        .map(|(file, schema, via)| {
            let cited = via.schema.clone().unwrap_or_else(|| via.operation.clone());
            (
                file,
                schema,
                format!("{file} {cited}"),
                via.operation,
                via.schema,
            )
        })
        .collect()
}

/// The schema a type's `reference:` provenance names first (`<file> <Schema> ...`), when the
/// descriptions have it.
fn cited_schema<'t>(
    docs: &BTreeMap<String, Document>,
    t: &'t TypeDef,
) -> Option<(&'t str, &'t str)> {
    let mut words = t
        .provenance
        .as_deref()?
        .trim()
        .strip_prefix("reference:")?
        .split_whitespace();
    let (file, schema) = (words.next()?, words.next()?);
    docs.get(file)?.schema_named(schema)?;
    Some((file, schema))
}

fn named_by_provenance(t: &TypeDef, file: &str, schema: Option<&str>) -> bool {
    let Some(schema) = schema else { return false };
    t.provenance.as_deref().is_some_and(|p| {
        p.trim()
            .strip_prefix("reference:")
            .is_some_and(|rest| rest.split_whitespace().eq([file, schema]))
    })
}

/// The additions to write, by the area of the curated type, each type's fields in the order
/// of its schema; the report lists them.
pub(super) fn additions(
    conv: &Converter<'_>,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
    findings: &mut Findings,
) -> BTreeMap<String, Vec<Addition>> {
    let mut out: BTreeMap<String, Vec<Addition>> = BTreeMap::new();
    for (ty, (source, fields)) in &conv.additions {
        let Some((area, _)) = curated.get(ty.as_str()) else {
            continue;
        };
        if fields.is_empty() {
            continue;
        }
        let names: Vec<&str> = fields.iter().map(|(f, _)| f.name.as_str()).collect();
        findings
            .curated_gaps
            .push(format!("{ty}: {}", names.join(", ")));
        // A field whose type was not imported (a name no draft has) is left out and reported.
        let (fields, missing): (Vec<_>, Vec<_>) = fields.iter().partition(|(f, _)| {
            crate::import::convert::names_in(&f.ty)
                .iter()
                .all(|n| conv.drafts.contains_key(n) || curated.contains_key(n.as_str()))
        });
        for (f, _) in missing {
            findings.unresolved.push(format!(
                "{ty}.{}: the type `{}` the description gives it was not imported",
                f.name, f.ty
            ));
        }
        if fields.is_empty() {
            continue;
        }
        out.entry((*area).to_owned()).or_default().push(Addition {
            target: ty.clone(),
            provenance: format!("reference: {source}"),
            fields: fields
                .into_iter()
                .map(|(f, from)| {
                    let mut field = crate::import::files::field(f);
                    if from != source {
                        field.provenance = Some(format!("reference: {from}"));
                    }
                    field
                })
                .collect(),
        });
    }
    out
}

/// Applies the renames of shared types to the added fields' types.
pub(super) fn rename(conv: &mut Converter<'_>, renames: &BTreeMap<String, String>) {
    for (_, fields) in conv.additions.values_mut() {
        for (f, _) in fields {
            f.ty = ruckus_codegen::overrides::rename_in(&f.ty, renames);
        }
    }
}
