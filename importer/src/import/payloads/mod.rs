//! Evidence from the vendor-written payloads (`payloads/` beside the descriptions; see its
//! README): JSON answers and request bodies the vendor's own engineers wrote. Where a payload
//! sends a field that neither the documents nor the descriptions give the type it lands in,
//! the import adds the field, typed from the values the payloads send, with the payload as its
//! provenance (`reference: payloads <file>`): the payloads are the better evidence of what the
//! service sends. Files `spec/payload_artefacts.yaml` lists as mock artefacts are not evidence.

mod seen;
mod synth;
mod walk;

use crate::import::convert::{Converter, DraftField, Kind};
use crate::openapi::normalise_path;
use ruckus_codegen::spec::{Area, Override, TypeDef, TypeExpr};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
pub use walk::Observed;

/// One body of the payloads.
pub struct Body {
    /// Relative to the payloads directory (`ui-fixtures/get_venue_ap/02.json`).
    pub file: String,
    /// A spec operation id (UI answers) or a path (Postman requests).
    pub operation: String,
    pub method: String,
    pub request: bool,
    pub value: serde_json::Value,
}

/// The payloads the import reads: none when the directory is absent.
#[derive(Default)]
pub struct Payloads {
    pub bodies: Vec<Body>,
    /// Single values listed as artefacts (`fields:`), `(file, JSON pointer)`.
    pub listed: BTreeSet<(String, String)>,
}

impl Payloads {
    /// Reads `dir/index.tsv` and its files, leaving out the description's own examples (their
    /// fields are the descriptions'), error answers, and the files `artefacts` lists.
    pub fn read(dir: &Path, artefacts: &Artefacts) -> Result<Payloads, String> {
        let Ok(index) = std::fs::read_to_string(dir.join("index.tsv")) else {
            return Ok(Payloads::default());
        };
        let mut bodies = Vec::new();
        for line in index.lines().skip(1) {
            let cells: Vec<&str> = line.split('\t').collect();
            let [file, _, operation, method, kind, _] = cells[..] else {
                continue;
            };
            let evidence =
                file.starts_with("ui-fixtures/") || file.starts_with("postman-requests/");
            if !evidence || artefacts.files.contains(file) {
                continue;
            }
            let path = dir.join(file);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let Ok(value) = serde_json::from_str(&text) else {
                continue;
            };
            bodies.push(Body {
                file: file.to_owned(),
                operation: without_host(operation.split_whitespace().next().unwrap_or(""))
                    .to_owned(),
                method: method.to_uppercase(),
                request: kind == "request",
                value,
            });
        }
        Ok(Payloads {
            bodies,
            listed: artefacts.fields.clone(),
        })
    }
}

/// A Postman request names its route as a URL where the API has a host of its own (the
/// resident portal's `https://residence.ruckus.cloud/residents/...`): the route is its path.
pub fn without_host(operation: &str) -> &str {
    match operation.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => operation,
    }
}

/// What `spec/payload_artefacts.yaml` (beside the top spec file) lists: whole files (under
/// any heading but `fields:`), and single values (`fields:`, a file and a JSON pointer).
#[derive(Default)]
pub struct Artefacts {
    pub files: BTreeSet<String>,
    pub fields: BTreeSet<(String, String)>,
}

/// The artefacts listed beside the top spec file (none when the list is absent); a list that
/// does not parse is an error naming the file, never an empty list.
pub fn artefacts(spec_dir: &Path) -> Result<Artefacts, String> {
    let path = spec_dir.join("payload_artefacts.yaml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Artefacts::default());
    };
    let doc: BTreeMap<String, Vec<serde_yaml::Value>> =
        serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let text_of = |entry: &serde_yaml::Value, key: &str| {
        entry.get(key).and_then(|v| v.as_str()).map(str::to_owned)
    };
    let mut out = Artefacts::default();
    for (heading, list) in doc {
        for entry in &list {
            let Some(file) = text_of(entry, "file") else {
                continue;
            };
            if heading == "fields" {
                out.fields
                    .insert((file, text_of(entry, "at").unwrap_or_default()));
            } else {
                out.files.insert(file);
            }
        }
    }
    Ok(out)
}

/// Adds the fields the payloads send and the types lack: to curated types as additions, to
/// imported ones in place; retypes an imported scalar field whose values the payloads send as
/// another type. Returns the number of fields added or retyped.
pub fn add_observed(
    conv: &mut Converter<'_>,
    areas: &[&Area],
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
    payloads: &Payloads,
) -> usize {
    let mut observed = {
        let types = walk::Types::new(conv, curated, areas);
        let mut observed = Observed {
            listed: payloads.listed.clone(),
            ..Observed::default()
        };
        for body in &payloads.bodies {
            for (ty, value, at, envelope) in bodies_of(areas, body) {
                // A page or 202 envelope type many operations share: an answer of another
                // shape (a bare row, the created object echoed) is not evidence of its fields.
                if !envelope.admits(&types, &ty, value) {
                    continue;
                }
                // A shared page type keeps its rows raw (`array<json>`): each operation's rows
                // are evidence for its row type only, never for a type all their shapes merged.
                // So is the object a curated 202 envelope (shared by many writes) reports in
                // `response`: each operation's own, never a type every created object's fields
                // merged.
                let own = match envelope {
                    Envelope::Page(items) => Some(items),
                    Envelope::Accepted => Some("response"),
                    Envelope::No => None,
                };
                if let (Some(items), Some(page)) = (own, value.as_object())
                    && types.field_type(&ty, items).is_some_and(|f| {
                        walk::is_raw(f)
                            || (envelope == Envelope::Accepted && !types.is_imported(&ty))
                    })
                {
                    let mut page = page.clone();
                    page.remove(items);
                    let page = serde_json::Value::Object(page);
                    types.walk(&ty, &page, &body.file, &at, &mut observed);
                } else {
                    types.walk(&ty, value, &body.file, &at, &mut observed);
                }
            }
        }
        observed
    };
    let fractional = fractional_fields(conv, curated);
    let avoid = renamed(areas);
    leave_people_added(&mut observed, areas);
    let mut added = 0;
    for ((ty, field), (seen, file, declared)) in observed.retyped {
        // `seen` holds every value sent, those that fit the description's type included.
        if !walk::says_more(&declared, &seen) {
            continue;
        }
        let wanted = format!("{ty}{}", ruckus_codegen::names::camel(&field));
        let mut synth = synth::Synth {
            conv,
            source: format!("payloads {file}"),
            avoid: &avoid,
            fractional: &fractional,
        };
        let expr = synth.field_expr(&field, &seen, &wanted);
        if let Some(f) = import_field(conv, &ty, &field) {
            f.ty = expr;
            f.provenance = Some(format!(
                "reference: payloads {file} (the description gives {declared})"
            ));
            added += 1;
        }
    }
    for ((ty, field), (seen, file)) in observed.fields {
        let source = format!("payloads {file}");
        let wanted = format!("{ty}{}", ruckus_codegen::names::camel(&field));
        let mut synth = synth::Synth {
            conv,
            source: source.clone(),
            avoid: &avoid,
            fractional: &fractional,
        };
        let expr = synth.field_expr(&field, &seen, &wanted);
        let f = synth::field(&field, expr, Some(format!("reference: {source}")));
        if curated.contains_key(ty.as_str()) {
            conv.additions
                .entry(ty)
                .or_insert_with(|| (source.clone(), Vec::new()))
                .1
                .push((f, source));
            added += 1;
        } else if let Some(Kind::Object(fields)) = conv.drafts.get_mut(&ty).map(|d| &mut d.kind) {
            fields.push(f);
            added += 1;
        }
    }
    added
}

/// The new names the people give imported types, which a synthesised type must not take.
fn renamed(areas: &[&Area]) -> BTreeSet<String> {
    areas
        .iter()
        .flat_map(|a| &a.overrides)
        .filter_map(Override::as_type)
        .filter_map(|o| o.rename.clone())
        .collect()
}

/// Forgets what the payloads show of the fields the people add to an imported type by an
/// override: theirs to type, so the import neither adds them nor makes a type for their values.
fn leave_people_added(observed: &mut Observed, areas: &[&Area]) {
    let people: BTreeSet<(&str, &str)> = areas
        .iter()
        .flat_map(|a| &a.overrides)
        .filter_map(Override::as_type)
        .flat_map(|o| {
            o.fields
                .iter()
                .filter(|f| f.add)
                .map(move |f| (o.target.as_str(), f.name.as_str()))
        })
        .collect();
    let added = |(t, f): &(String, String)| people.contains(&(t.as_str(), f.as_str()));
    observed.retyped.retain(|k, _| !added(k));
    observed.fields.retain(|k, _| !added(k));
}

/// The wire names of fields the descriptions or the people type as `number` anywhere in the
/// API.
fn fractional_fields(
    conv: &Converter<'_>,
    curated: &BTreeMap<&str, (&str, &TypeDef)>,
) -> BTreeSet<String> {
    let drafted = conv.drafts.values().flat_map(|d| match &d.kind {
        Kind::Object(fields) => fields.as_slice(),
        _ => &[],
    });
    let drafted = drafted
        .filter(|f| f.ty == "number" && f.provenance.is_none())
        .map(|f| f.name.clone());
    let people = curated
        .values()
        .flat_map(|(_, t)| t.fields.iter().flatten())
        .filter(|f| matches!(&f.ty, TypeExpr::Name(n) if n == "number"))
        .map(|f| f.name.clone());
    drafted.chain(people).collect()
}

/// The field `field` of `ty` where the import gives it: an imported type's, or one a
/// description adds to a curated type.
fn import_field<'c>(
    conv: &'c mut Converter<'_>,
    ty: &str,
    field: &str,
) -> Option<&'c mut DraftField> {
    if let Some(Kind::Object(fields)) = conv.drafts.get_mut(ty).map(|d| &mut d.kind) {
        return fields.iter_mut().find(|f| f.name == field);
    }
    let (_, added) = conv.additions.get_mut(ty)?;
    added.iter_mut().map(|(f, _)| f).find(|f| f.name == field)
}

/// Whether a body is the envelope of many operations' answers, whose type only an answer of
/// the envelope's shape is evidence for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Envelope<'b> {
    No,
    /// A paged operation's answer: a page carries its rows as a list of objects, in the
    /// field named here. The rows are the operation's, not the shared page type's: they are
    /// evidence for the operation's row type only.
    Page(&'b str),
    /// A 202 answer.
    Accepted,
}

impl Envelope<'_> {
    /// Whether `value` is evidence for the fields of `ty`: any body that is no envelope; an
    /// envelope that names a field the type already has; a page that holds a list of objects
    /// (under a field name the description does not give).
    fn admits(self, types: &walk::Types, ty: &str, value: &serde_json::Value) -> bool {
        let holds_rows = || {
            value.as_object().is_some_and(|m| {
                m.values().any(|v| {
                    v.as_array()
                        .is_some_and(|items| items.iter().all(serde_json::Value::is_object))
                })
            })
        };
        match self {
            Envelope::No => true,
            Envelope::Accepted => types.is_evidence_for(ty, value),
            Envelope::Page(_) => types.is_evidence_for(ty, value) || holds_rows(),
        }
    }
}

/// The typed bodies of the spec operation a payload belongs to: the request or the success
/// answer, and each row of a paged answer as its item type; with whether the body is an
/// envelope.
fn bodies_of<'b>(
    areas: &[&'b Area],
    body: &'b Body,
) -> Vec<(String, &'b serde_json::Value, String, Envelope<'b>)> {
    let ops = areas.iter().flat_map(|a| &a.operations);
    let op = if body.file.starts_with("postman-requests/") {
        let route = normalise_path(body.operation.trim_end_matches('/'));
        ops.clone().find(|o| {
            o.method.as_str().eq_ignore_ascii_case(&body.method)
                && normalise_path(o.path.trim_end_matches('/')) == route
        })
    } else {
        ops.clone().find(|o| o.id == body.operation)
    };
    let Some(op) = op else { return Vec::new() };
    let named = |e: Option<&TypeExpr>| match e {
        Some(TypeExpr::Name(n)) => Some(n.clone()),
        _ => None,
    };
    let mut out = Vec::new();
    if body.request {
        if let Some(ty) = named(op.request.as_ref().and_then(|r| r.ty.as_ref())) {
            out.push((ty, &body.value, String::new(), Envelope::No));
        }
        return out;
    }
    let success = op.responses.iter().find(|r| (200..300).contains(&r.status));
    if let Some(ty) = named(success.and_then(|r| r.ty.as_ref())) {
        let envelope = if success.is_some_and(|r| r.status == 202) {
            Envelope::Accepted
        } else if let Some(p) = &op.pagination {
            Envelope::Page(&p.items)
        } else {
            Envelope::No
        };
        out.push((ty, &body.value, String::new(), envelope));
    }
    if let Some(p) = &op.pagination
        && let Some(ty) = named(p.item_type.as_ref())
        && let Some(rows) = body.value.get(&p.items).and_then(|v| v.as_array())
    {
        for (i, row) in rows.iter().enumerate() {
            out.push((ty.clone(), row, format!("/{}/{i}", p.items), Envelope::No));
        }
    }
    out
}
