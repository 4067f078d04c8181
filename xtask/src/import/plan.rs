//! What the import makes of the curated spec: its *roots* (every place where it names a type no
//! curated file defines: an operation's body, a curated type's field), each converted from the
//! description schema at that place under the name the curated spec gives it, and every type
//! placed in the one area that reaches it, or `common`.

use super::convert::{self, Converter};
use super::draft::DraftOp;
use super::index::{self, DescIndex};
use super::naming;
use crate::openapi::{AdditionalProperties, Document, EMPTY, Schema};
use heck::ToUpperCamelCase;
use ruckus_codegen::spec::{Area, BodyKind, Operation, TypeDef, TypeExpr};
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
}

/// The imported types of one API, by area (sorted by name), and the findings. The drafted
/// operations' bodies are roots too, converted after the curated ones (whose types keep the
/// names they have without them); their body types are filled in.
pub fn plan(
    docs: &BTreeMap<String, Document>,
    areas: &[&Area],
    service_files: &BTreeMap<String, String>,
    drafts: &mut [DraftOp<'_>],
) -> (BTreeMap<String, Vec<TypeDef>>, Findings) {
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

    let mut taken: BTreeSet<String> = ruckus_codegen::RESERVED_TYPE_NAMES
        .iter()
        .map(|n| (*n).to_owned())
        .chain(curated.keys().map(|n| (*n).to_owned()))
        .collect();
    for area in areas {
        taken.extend(area.operations.iter().map(|o| o.id.to_upper_camel_case()));
    }
    taken.extend(drafts.iter().map(|d| d.op.id.to_upper_camel_case()));
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
    // A curated type stands for schemas of its name in its area's service's description only.
    conv.restrict_existing(
        areas
            .iter()
            .filter_map(|a| Some((a, service_files.get(a.service.as_deref()?)?)))
            .flat_map(|(a, file)| a.types.iter().map(|t| (t.name.clone(), file.clone())))
            .collect(),
    );
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
    conv.name_shared();
    conv.freeze();
    let drafted = super::draft::convert_bodies(&mut conv, drafts, &mut findings);
    for (ty, fields) in &conv.additions {
        if !fields.is_empty() {
            let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            findings
                .curated_gaps
                .push(format!("{ty}: {}", names.join(", ")));
        }
    }
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
    (out, findings)
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

/// The roots of one operation: its JSON request body and its typed success answers.
fn op_roots<'v>(
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
/// elements; else the answer itself (some query operations declare the row, not the page).
fn item_of<'v>(doc: &'v Document, page: &'v Schema, field: &str) -> &'v Schema {
    if let Some(list) = convert::property(doc, page, field) {
        return inner(doc, list, "array").unwrap_or(list);
    }
    inner(doc, page, "array").unwrap_or(page)
}

/// The roots in curated types: fields naming imported types, read from the schema the type
/// stands for (its `reference:` schema, else the body schema of an operation typed with it).
fn type_roots<'v>(
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
struct Via {
    operation: String,
    schema: Option<String>,
}

/// The description schemas a curated type may stand for, most telling first: the schema its
/// `reference:` provenance names, the body schema of an operation typed with it, then every
/// schema of its name (`DpskPoolDto` for `DpskPool`) in file order.
fn type_schemas<'v>(
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

/// The body schema of an operation whose request or answer is the curated type.
fn body_schema<'v>(
    docs: &'v BTreeMap<String, Document>,
    areas: &[&Area],
    index: &DescIndex<'v>,
    t: &TypeDef,
) -> Option<(&'v str, &'v Schema, Via)> {
    for op in areas.iter().flat_map(|a| &a.operations) {
        let (req_media, resp_media) = index::default_media(op);
        let named = |e: Option<&TypeExpr>| e.and_then(expr_text) == Some(t.name.as_str());
        let request = op.request.as_ref().is_some_and(|b| named(b.ty.as_ref()));
        let status = op
            .responses
            .iter()
            .find(|r| (200..300).contains(&r.status) && named(r.ty.as_ref()))
            .map(|r| r.status);
        if !request && status.is_none() {
            continue;
        }
        let (file, d) = index.find(op)?;
        let doc = &docs[file];
        let schema = match status {
            Some(s) => index::response_schema(doc, d, s, &resp_media),
            None => index::request_schema(doc, d, &req_media),
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

/// Records the names a root gives `$ref` schemas (through `array<...>` and `map<...>`), and
/// keeps the name of an inline root free.
fn pin(
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
fn convert_root(
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
fn innermost<'v>(doc: &'v Document, expr: &str, schema: &'v Schema) -> &'v Schema {
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
fn inner<'v>(doc: &'v Document, schema: &'v Schema, wrapper: &str) -> Option<&'v Schema> {
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
fn ref_of(schema: &Schema) -> Option<&str> {
    schema
        .ref_name()
        .or_else(|| match schema.all_of.as_deref()? {
            [only] if schema.properties.is_none() => only.ref_name(),
            _ => None,
        })
}

/// Every type expression a curated area names (operation bodies, paged items, its own types'
/// fields), with the area: an imported type a curated area uses by name is reached from it
/// even when the operation naming it is in no description (the legacy switch queries).
fn curated_mentions(areas: &[&Area]) -> Vec<(String, String)> {
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

/// For each draft some root reaches, its home: the one area that reaches it (curated and
/// drafted roots alike), else `common`; a type of `common` thus never needs an area's type.
fn homes(
    conv: &Converter<'_>,
    curated: &[(String, String)],
    drafted: &[(String, String)],
) -> BTreeMap<String, String> {
    let all: Vec<(String, String)> = curated.iter().chain(drafted).cloned().collect();
    reach_homes(conv, &all)
}

fn reach_homes(conv: &Converter<'_>, roots: &[(String, String)]) -> BTreeMap<String, String> {
    let mut reach: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (area, ty) in roots {
        let mut stack: Vec<String> = convert::names_in(ty);
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            let Some(d) = conv.drafts.get(&n) else {
                continue;
            };
            if !seen.insert(n.clone()) {
                continue;
            }
            reach.entry(n).or_default().insert(area.clone());
            stack.extend(convert::references(&d.kind));
        }
    }
    reach
        .into_iter()
        .map(|(n, areas)| {
            let home = match areas.len() {
                1 => areas.into_iter().next().unwrap_or_default(),
                _ => "common".to_owned(),
            };
            (n, home)
        })
        .collect()
}
