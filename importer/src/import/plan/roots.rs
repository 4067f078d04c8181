//! The roots: the places where the curated spec names a type no curated file defines (an
//! operation's body or paged items, a curated type's field), each with the description schema
//! it is read from.

use super::shapes::inner;
use super::{Findings, Root, expr_text, imported_names};
use crate::import::convert;
use crate::import::index::{self, DescIndex};
use crate::import::naming;
use crate::openapi::{Document, Schema};
use ruckus_codegen::spec::{Area, BodyKind, Operation, TypeDef, TypeExpr};
use std::collections::BTreeMap;

/// The roots of one operation: its JSON request body and its typed success answers.
pub(super) fn op_roots<'v>(
    index: &DescIndex<'v>,
    docs: &'v BTreeMap<String, Document>,
    area: &Area,
    op: &Operation,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
    roots: &mut Vec<Root<'v>>,
    findings: &mut Findings,
) {
    let mut wanted: Vec<(String, String, Target)> = Vec::new();
    if let Some(body) = &op.request
        && matches!(body.kind, None | Some(BodyKind::Json))
        && let Some(expr) = body.ty.as_ref().and_then(expr_text)
        && !imported_names(expr, curated).is_empty()
    {
        wanted.push((
            expr.to_owned(),
            format!("{} request", op.id),
            Target::Request,
        ));
    }
    let success = op
        .responses
        .iter()
        .filter(|r| (200..300).contains(&r.status));
    for r in success.clone() {
        if let Some(expr) = r.ty.as_ref().and_then(expr_text)
            && !imported_names(expr, curated).is_empty()
        {
            let place = format!("{} response {}", op.id, r.status);
            wanted.push((expr.to_owned(), place, Target::Response(r.status)));
        }
    }
    if let Some(p) = &op.pagination
        && let Some(expr) = p.item_type.as_ref().and_then(expr_text)
        && !imported_names(expr, curated).is_empty()
        && let Some(r) = success.clone().next()
    {
        let place = format!("{} items", op.id);
        wanted.push((
            expr.to_owned(),
            place,
            Target::Items(r.status, p.items.clone()),
        ));
    }
    if wanted.is_empty() {
        return;
    }
    let Some((file, d)) = index.find(op) else {
        for (_, place, _) in wanted {
            findings
                .unresolved
                .push(format!("{place}: no description operation"));
        }
        return;
    };
    let doc = &docs[file];
    let (req_media, resp_media) = index::default_media(op);
    let operation = d.operation_id.as_deref().unwrap_or("-").to_owned();
    let version = index::version_of(op);
    let answer = |status: u16| {
        index::response_schema(doc, d, status, &resp_media).or_else(|| {
            success
                .clone()
                .find_map(|r| index::response_schema(doc, d, r.status, &resp_media))
        })
    };
    for (expr, place, target) in wanted {
        let schema = match &target {
            Target::Request => index::request_schema(doc, d, &req_media),
            Target::Response(s) => answer(*s),
            Target::Items(s, field) => answer(*s).map(|page| item_of(doc, page, field)),
        };
        match schema {
            Some(schema) => roots.push(Root {
                area: area.area.clone(),
                expr,
                file,
                schema,
                place,
                operation: operation.clone(),
                within: None,
                version: version.clone(),
            }),
            None => findings
                .unresolved
                .push(format!("{place}: the description declares no schema")),
        }
    }
}

/// Which body of an operation a root is.
enum Target {
    Request,
    Response(u16),
    /// One item of the paged answer of this status, in this field (`pagination.item_type`).
    Items(u16, String),
}

/// The schema of one item of a paged answer: the items field's elements; an array answer's
/// elements; for a page that is one of several shapes (plain, grouped, mesh), the rows of the
/// first, the plain query's; else the answer itself (some query operations declare the row,
/// not the page). A row is never a page.
fn item_of<'v>(doc: &'v Document, page: &'v Schema, field: &str) -> &'v Schema {
    if let Some(list) = convert::property(doc, page, field) {
        return inner(doc, list, "array").unwrap_or(list);
    }
    let first_page = doc.resolve(page).alternatives().and_then(<[Schema]>::first);
    if let Some(list) = first_page.and_then(|p| convert::property(doc, p, field)) {
        return inner(doc, list, "array").unwrap_or(list);
    }
    inner(doc, page, "array").unwrap_or(page)
}

/// The roots in curated types: fields naming imported types, read from the schema the type
/// stands for (its `reference:` schema, else the body schema of an operation typed with it).
pub(super) fn type_roots<'v>(
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    index: &DescIndex<'v>,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
    roots: &mut Vec<Root<'v>>,
    findings: &mut Findings,
) {
    for area in areas {
        for t in &area.types {
            let wanted: Vec<_> = t
                .fields
                .iter()
                .flatten()
                .filter_map(|f| Some((f, expr_text(&f.ty)?)))
                .filter(|(_, e)| !imported_names(e, curated).is_empty())
                .collect();
            if wanted.is_empty() {
                continue;
            }
            let candidates = type_schemas(docs, areas, index, t);
            for (f, expr) in wanted {
                let place = format!("{}.{}", t.name, f.name);
                let found = candidates.iter().find_map(|(file, schema, via)| {
                    let field = convert::property(&docs[*file], schema, &f.name)?;
                    Some((*file, field, via))
                });
                match found {
                    Some((file, schema, via)) => roots.push(Root {
                        area: area.area.clone(),
                        expr: expr.to_owned(),
                        file,
                        schema,
                        place,
                        operation: via.operation.clone(),
                        within: via.schema.clone(),
                        version: String::new(),
                    }),
                    None => findings.unresolved.push(format!(
                        "{place}: no description schema standing for `{}` has the field",
                        t.name
                    )),
                }
            }
        }
    }
}

/// How a curated type's schema was found: the named schema, or the operation whose body it is.
pub(super) struct Via {
    pub operation: String,
    pub schema: Option<String>,
}

/// The description schemas a curated type may stand for, most telling first: the schema its
/// `reference:` provenance names, the body schema of an operation typed with it, then every
/// schema of its name (`DpskPoolDto` for `DpskPool`) in file order.
pub(super) fn type_schemas<'v>(
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    index: &DescIndex<'v>,
    t: &TypeDef,
) -> Vec<(&'v str, &'v Schema, Via)> {
    let mut out = Vec::new();
    if let Some(source) = t
        .provenance
        .as_deref()
        .and_then(|p| p.trim().strip_prefix("reference:"))
    {
        let mut words = source.split_whitespace();
        if let (Some(file), Some(schema), None) = (words.next(), words.next(), words.next())
            && let Some((name, doc)) = docs.get_key_value(file)
            && let Some(s) = doc.schema_named(schema)
        {
            let via = Via {
                operation: "-".into(),
                schema: Some(schema.to_owned()),
            };
            out.push((name.as_str(), s, via));
        }
    }
    out.extend(body_schema(docs, areas, index, t));
    for (file, doc) in docs {
        for (raw, schema) in &doc.components.schemas {
            if naming::clean(raw).name == t.name {
                let via = Via {
                    operation: "-".into(),
                    schema: Some(raw.clone()),
                };
                out.push((file.as_str(), schema, via));
            }
        }
    }
    out
}

/// The body schema of an operation whose request or answer is the curated type, or the item
/// schema of a paged answer whose items are.
fn body_schema<'v>(
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    index: &DescIndex<'v>,
    t: &TypeDef,
) -> Option<(&'v str, &'v Schema, Via)> {
    for op in areas.iter().flat_map(|a| &a.operations) {
        let (req_media, resp_media) = index::default_media(op);
        let named = |e: Option<&TypeExpr>| e.and_then(expr_text) == Some(t.name.as_str());
        // A body whose shape the curated spec takes from the payloads, not the description
        // (`type: payloads <file>` in its provenance), stands for no description schema.
        let from_payloads = |p: Option<&String>| p.is_some_and(|p| p.contains("type: payloads"));
        let request = op
            .request
            .as_ref()
            .is_some_and(|b| named(b.ty.as_ref()) && !from_payloads(b.provenance.as_ref()));
        let status = op
            .responses
            .iter()
            .find(|r| {
                (200..300).contains(&r.status)
                    && named(r.ty.as_ref())
                    && !from_payloads(r.provenance.as_ref())
            })
            .map(|r| r.status);
        let items = op
            .pagination
            .as_ref()
            .filter(|p| named(p.item_type.as_ref()))
            .and_then(|p| {
                let r = op
                    .responses
                    .iter()
                    .find(|r| (200..300).contains(&r.status))?;
                Some((r.status, p.items.as_str()))
            });
        if !request && status.is_none() && items.is_none() {
            continue;
        }
        let Some((file, d)) = index.find(op) else {
            continue;
        };
        let doc = &docs[file];
        let schema = match (status, items) {
            // A paged answer typed as the page: some descriptions declare the row instead, and
            // a row stands for no page.
            (Some(s), _) => index::response_schema(doc, d, s, &resp_media).filter(|page| {
                op.pagination
                    .as_ref()
                    .is_none_or(|p| convert::property(doc, page, &p.items).is_some())
            }),
            (None, Some((s, field))) => {
                index::response_schema(doc, d, s, &resp_media).map(|page| item_of(doc, page, field))
            }
            (None, None) => index::request_schema(doc, d, &req_media),
        };
        if let Some(s) = schema {
            let operation = d.operation_id.as_deref().unwrap_or("-");
            let via = Via {
                operation: operation.to_owned(),
                schema: None,
            };
            return Some((file, s, via));
        }
    }
    None
}

/// Every type expression a curated area names (operation bodies, paged items, its own types'
/// fields), with the area: an imported type a curated area uses by name is reached from it
/// even when the operation naming it is in no description (the legacy switch queries).
pub(super) fn curated_mentions(areas: &[&Area]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for area in areas {
        let mut push = |e: &TypeExpr| {
            if let Some(text) = expr_text(e) {
                out.push((area.area.clone(), text.to_owned()));
            }
        };
        for op in &area.operations {
            if let Some(e) = op.request.as_ref().and_then(|b| b.ty.as_ref()) {
                push(e);
            }
            for e in op.responses.iter().filter_map(|r| r.ty.as_ref()) {
                push(e);
            }
            if let Some(e) = op.pagination.as_ref().and_then(|p| p.item_type.as_ref()) {
                push(e);
            }
        }
        for t in &area.types {
            for f in t.fields.iter().flatten() {
                push(&f.ty);
            }
        }
    }
    out
}
