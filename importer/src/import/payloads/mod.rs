//! Evidence from the vendor-written payloads (`payloads/` beside the descriptions; see its
//! README): JSON answers and request bodies the vendor's own engineers wrote. Where a payload
//! sends a field that neither the documents nor the descriptions give the type it lands in,
//! the import adds the field, typed from the values the payloads send, with the payload as its
//! provenance (`reference: payloads <file>`): the payloads are the better evidence of what the
//! service sends. Files `spec/payload_artefacts.yaml` lists as mock artefacts are not evidence.

mod walk;

use crate::import::convert::{Converter, DraftField, Kind};
use crate::openapi::normalise_path;
use ruckus_codegen::spec::{Area, TypeDef, TypeExpr};
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
}

impl Payloads {
    /// Reads `dir/index.tsv` and its files, leaving out the description's own examples (their
    /// fields are the descriptions'), error answers, and the files `artefacts` lists.
    pub fn read(dir: &Path, artefacts: &BTreeSet<String>) -> Result<Payloads, String> {
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
            if !evidence || artefacts.contains(file) {
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
                operation: operation.split_whitespace().next().unwrap_or("").to_owned(),
                method: method.to_uppercase(),
                request: kind == "request",
                value,
            });
        }
        Ok(Payloads { bodies })
    }
}

/// The files `spec/payload_artefacts.yaml` (beside the top spec file) lists, under any heading.
pub fn artefacts(spec_dir: &Path) -> BTreeSet<String> {
    let Ok(text) = std::fs::read_to_string(spec_dir.join("payload_artefacts.yaml")) else {
        return BTreeSet::new();
    };
    let Ok(doc) = serde_yaml::from_str::<BTreeMap<String, Vec<serde_yaml::Value>>>(&text) else {
        return BTreeSet::new();
    };
    doc.into_iter()
        .filter(|(heading, _)| heading != "fields")
        .flat_map(|(_, list)| list)
        .filter_map(|entry| entry.get("file")?.as_str().map(str::to_owned))
        .collect()
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
    let observed = {
        let types = walk::Types::new(conv, curated, areas);
        let mut observed = Observed::default();
        for body in &payloads.bodies {
            for (ty, value, at, envelope) in bodies_of(areas, body) {
                // A page or 202 envelope type many operations share: an answer of another
                // shape (a bare row, the created object echoed) is not evidence of its fields.
                if !envelope.admits(&types, &ty, value) {
                    continue;
                }
                types.walk(&ty, value, &body.file, &at, &mut observed);
            }
        }
        observed
    };
    let mut added = 0;
    for ((ty, field), (expr, file, declared)) in observed.retyped {
        // `expr` holds every value seen, those that fit the description's type included.
        if walk::fits(&declared, &expr) {
            continue;
        }
        if let Some(Kind::Object(fields)) = conv.drafts.get_mut(&ty).map(|d| &mut d.kind)
            && let Some(f) = fields.iter_mut().find(|f| f.name == field)
        {
            f.ty = walk::settled(&expr);
            f.provenance = Some(format!(
                "reference: payloads {file} (the description gives {declared})"
            ));
            added += 1;
        }
    }
    for ((ty, field), (expr, file)) in observed.fields {
        let source = format!("payloads {file}");
        let f_name = field.clone();
        let f = DraftField {
            name: field,
            ty: walk::settled(&expr),
            required: false,
            nullable: true,
            constraints: Vec::new(),
            deprecated: false,
            secret: expr == "string" && crate::import::convert::is_credential(&f_name),
            provenance: Some(format!("reference: {source}")),
        };
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

/// Whether a body is the envelope of many operations' answers, whose type only an answer of
/// the envelope's shape is evidence for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Envelope {
    No,
    /// A paged operation's answer: a page carries its rows as a list of objects.
    Page,
    /// A 202 answer.
    Accepted,
}

impl Envelope {
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
            Envelope::Page => types.is_evidence_for(ty, value) || holds_rows(),
        }
    }
}

/// The typed bodies of the spec operation a payload belongs to: the request or the success
/// answer, and each row of a paged answer as its item type; with whether the body is an
/// envelope.
fn bodies_of<'b>(
    areas: &[&Area],
    body: &'b Body,
) -> Vec<(String, &'b serde_json::Value, String, Envelope)> {
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
        } else if op.pagination.is_some() {
            Envelope::Page
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
