//! What the import makes of the curated spec: its *roots* (every place where it names a type no
//! curated file defines: an operation's body, a curated type's field), each converted from the
//! description schema at that place under the name the curated spec gives it, and every type
//! placed in the one area that reaches it, or `common`.

mod homes;
mod roots;
mod shapes;
mod whole;

use super::convert::{self, Converter};
use super::draft::DraftOp;
use super::index::DescIndex;
use super::payloads::Payloads;
use crate::openapi::{Document, Schema};
use homes::homes;
use roots::{curated_mentions, op_roots, type_roots};
use ruckus_codegen::names;
use ruckus_codegen::spec::{Addition, Area, TypeDef, TypeExpr};
use shapes::{convert_root, innermost, pin, ref_of};
use std::collections::{BTreeMap, BTreeSet};

/// One place where the curated spec names imported types.
struct Root<'v> {
    /// The area it belongs to (the operation's or the curated type's).
    area: String,
    /// The type expression the curated spec writes there (`array<Venue>`).
    expr: String,
    file: &'v str,
    schema: &'v Schema,
    /// For the report (`get_venue response 200`, `Venue.address`).
    place: String,
    /// The description operation it is read from (`operationId`), cited by inline shapes.
    operation: String,
    /// The named schema a field root sits in, cited by its inline shapes.
    within: Option<String>,
    /// The version an operation named after its version converts under (`v1` for
    /// `get_widget_v1` sending `vnd.ruckus.v1+json`): its types take the version's name where
    /// the plain one is taken.
    version: String,
}

/// What the import found, for the report.
#[derive(Default)]
pub struct Findings {
    /// Roots converted, per area.
    pub typed: BTreeMap<String, usize>,
    /// Places naming an imported type that the descriptions cannot supply, with the reason.
    pub unresolved: Vec<String>,
    /// Fields a description gives a curated type that it lacks (`Type: a, b`).
    pub curated_gaps: Vec<String>,
    /// Imported types per area.
    pub types: BTreeMap<String, usize>,
    /// Drafted operations per area.
    pub drafted: BTreeMap<String, usize>,
    /// Routes not drafted, with the reason.
    pub exceptions: Vec<String>,
    /// Fields added because the vendor's payloads send them.
    pub payload_fields: usize,
}

/// What the import writes for one API, by area: the imported types (sorted by name) and the
/// fields added to curated types.
pub struct Planned {
    pub types: BTreeMap<String, Vec<TypeDef>>,
    pub additions: BTreeMap<String, Vec<Addition>>,
}

/// The imported types of one API, by area, the fields added to curated types, and the
/// findings. The drafted operations' bodies are roots too, converted after the curated ones
/// (whose types keep the names they have without them); their body types are filled in.
pub fn plan(
    docs: &BTreeMap<String, Document>,
    areas: &[&Area],
    service_files: &BTreeMap<String, String>,
    drafts: &mut [DraftOp<'_>],
    payloads: &Payloads,
) -> (Planned, Findings) {
    let mut findings = Findings::default();
    let curated: BTreeMap<&str, (&str, &TypeDef)> = areas
        .iter()
        .flat_map(|a| {
            a.types
                .iter()
                .map(move |t| (t.name.as_str(), (a.area.as_str(), t)))
        })
        .collect();
    let index = DescIndex::new(docs);
    let mut roots = Vec::new();
    for area in areas {
        for op in &area.operations {
            op_roots(&index, docs, area, op, &curated, &mut roots, &mut findings);
        }
    }
    type_roots(docs, areas, &index, &curated, &mut roots, &mut findings);

    let mut conv = converter(docs, areas, service_files, &curated, drafts);
    // Every name the curated spec gives first, so no other type takes it.
    for r in &roots {
        pin(
            &mut conv,
            docs,
            r,
            &r.expr,
            r.schema,
            &curated,
            &mut findings,
        );
    }
    // Roots whose own schema is inline first: a name the curated spec gives an inline shape
    // then names every identical inline shape met later (a stable sort keeps the order within
    // each group, so the traversal stays deterministic).
    let mut order: Vec<&Root<'_>> = roots.iter().collect();
    order.sort_by_key(|r| ref_of(innermost(&docs[r.file], &r.expr, r.schema)).is_some());
    let mut reached: Vec<(String, String)> = Vec::new();
    for r in order {
        conv.set_context(&r.operation, r.within.as_deref(), &r.version);
        match convert_root(&mut conv, docs, r, &r.expr, r.schema, &curated) {
            Ok(()) => {
                *findings.typed.entry(r.area.clone()).or_default() += 1;
                reached.push((r.area.clone(), r.expr.clone()));
            }
            Err(why) => findings.unresolved.push(format!("{}: {why}", r.place)),
        }
    }
    whole::reconcile_curated(&mut conv, docs, areas, &index, service_files);
    // Types named again because several owners share them: the added fields follow.
    let renames = conv.name_shared();
    whole::rename(&mut conv, &renames);
    conv.freeze();
    let drafted = super::draft::convert_bodies(&mut conv, drafts, &mut findings);
    findings.payload_fields = super::payloads::add_observed(&mut conv, areas, &curated, payloads);
    let additions = whole::additions(&conv, &curated, &mut findings);
    reached.extend(whole::reached(&additions));
    let mut out: BTreeMap<String, Vec<TypeDef>> = BTreeMap::new();
    reached.extend(curated_mentions(areas));
    for (name, home) in homes(&conv, &reached, &drafted) {
        if let Some(d) = conv.drafts.get(&name) {
            out.entry(home).or_default().push(super::files::type_def(d));
        }
    }
    for (area, types) in &mut out {
        types.sort_by(|a, b| a.name.cmp(&b.name));
        findings.types.insert(area.clone(), types.len());
    }
    let planned = Planned {
        types: out,
        additions,
    };
    (planned, findings)
}

/// The converter for one API: every name generated code, the curated types and the operations'
/// builders (curated and drafted) use is taken; a curated type stands for schemas of its name
/// in its area's service's description only.
fn converter<'v>(
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    service_files: &BTreeMap<String, String>,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
    drafts: &[DraftOp<'_>],
) -> Converter<'v> {
    let mut taken: BTreeSet<String> = ruckus_codegen::RESERVED_TYPE_NAMES
        .iter()
        .map(|n| (*n).to_owned())
        .chain(curated.keys().map(|n| (*n).to_owned()))
        .collect();
    for area in areas {
        taken.extend(area.operations.iter().map(|o| names::camel(&o.id)));
    }
    taken.extend(drafts.iter().map(|d| names::camel(&d.op.id)));
    let existing = curated
        .iter()
        .filter_map(|(n, (_, t))| {
            let fields = t.fields.as_ref()?;
            Some((
                n.to_string(),
                fields.iter().map(|f| f.name.clone()).collect(),
            ))
        })
        .collect();
    let mut conv = Converter::new(docs, taken, existing);
    conv.restrict_existing(
        areas
            .iter()
            .filter_map(|a| Some((a, service_files.get(a.service.as_deref()?)?)))
            .flat_map(|(a, file)| a.types.iter().map(|t| (t.name.clone(), file.clone())))
            .collect(),
    );
    conv
}

/// The names in a type expression that no curated type defines (`array<Venue>` -> `Venue`).
fn imported_names(expr: &str, curated: &BTreeMap<&str, (&str, &TypeDef)>) -> Vec<String> {
    convert::names_in(expr)
        .into_iter()
        .filter(|n| !curated.contains_key(n.as_str()))
        .collect()
}

fn expr_text(e: &TypeExpr) -> Option<&str> {
    match e {
        TypeExpr::Name(s) => Some(s),
        TypeExpr::Inline(_) => None,
    }
}
