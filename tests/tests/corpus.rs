//! The vendor-written payloads (`../shared/reference/payloads`, see its README) through the
//! client's own types: every answer of a typed operation decodes into its typed success body and
//! writes back to the same JSON, and every request body of a typed request decodes into its
//! request type. A failure is allowed only where `spec/payload_artefacts.yaml` lists the file as
//! a mock artefact, with the reason; a listed file that now passes fails the test too, so the
//! list never goes stale. A bare placeholder (`{}`, `[]`) proves nothing and is counted apart.
//!
//! The decoders come from the generated table (`generated/ruckus-one/tests/corpus/`):
//! each is the operation's own body type with its serde code, nothing written for this test.
//! Without the payloads directory the test says so and passes (the project never vendors it).

#[path = "../../generated/ruckus-one/tests/corpus/mod.rs"]
mod table;

#[path = "corpus/fields.rs"]
mod fields;

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn payloads() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/payloads");
    if dir.join("index.tsv").is_file() {
        Some(dir)
    } else {
        eprintln!("skip: no vendor payloads at {}", dir.display());
        None
    }
}

/// `spec/payload_artefacts.yaml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Artefacts {
    /// Bodies that do not decode, by file, with the reason.
    #[serde(default)]
    decode: Vec<Listed>,
    /// Bodies that decode but write back differently, by file, with the reason.
    #[serde(default)]
    round_trip: Vec<Listed>,
    /// Single fields of payloads that do not agree with their type, by file and JSON pointer,
    /// with the reason (see `fields.rs`).
    #[serde(default)]
    fields: Vec<ListedField>,
    /// Answers of another shape than their operation's (a bare row for a page, the written
    /// object for a 202 envelope), by file, with the reason: none of their fields is evidence.
    #[serde(default)]
    other_shape: Vec<Listed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListedField {
    file: String,
    at: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Listed {
    file: String,
    reason: String,
}

fn listed() -> Artefacts {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/payload_artefacts.yaml");
    let text = std::fs::read_to_string(&path).expect("spec/payload_artefacts.yaml");
    serde_yaml::from_str(&text).expect("payload_artefacts.yaml parses")
}

fn artefacts() -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let a = listed();
    let map = |v: Vec<Listed>| {
        v.into_iter()
            .map(|l| {
                assert!(!l.reason.trim().is_empty(), "{}: no reason", l.file);
                (l.file, l.reason)
            })
            .collect()
    };
    (map(a.decode), map(a.round_trip))
}

/// One row of `index.tsv`.
struct Row {
    file: String,
    /// The `source` column: for a description's example, the file, operationId and status.
    source: String,
    /// A spec operation id (UI fixtures), a path (Postman bodies) or an operationId of a
    /// description (its examples).
    operation: String,
    method: String,
    kind: String,
    accept: String,
}

fn rows(dir: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("index.tsv")).expect("index.tsv");
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let [file, source, operation, method, kind, accept] = cells[..] else {
                return None;
            };
            Some(Row {
                file: file.to_owned(),
                source: source.to_owned(),
                operation: ruckus_importer::import::without_host(
                    operation.split_whitespace().next()?,
                )
                .to_owned(),
                method: method.to_owned(),
                kind: kind.to_owned(),
                accept: accept.to_owned(),
            })
        })
        .collect()
}

/// What happened to one body.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Outcome {
    Decoded,
    Placeholder,
    DecodeFailed,
    RoundTripChanged,
    UntypedOperation,
    NotInSpec,
    ErrorAnswer,
}

/// `/venues/{venueId}/aps` -> `/venues/{}/aps`: routes compare without parameter names.
fn route(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_param = false;
    for c in path.trim_end_matches('/').chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            _ if !in_param => out.push(c),
            _ => {}
        }
    }
    out
}

/// The descriptions' operations by operationId: `(METHOD, route)`.
fn description_routes(dir: &Path) -> BTreeMap<String, (String, String)> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir.join("../openapi")) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "yaml") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
            continue;
        };
        let Some(paths) = doc.get("paths").and_then(|p| p.as_mapping()) else {
            continue;
        };
        for (p, item) in paths {
            let (Some(p), Some(item)) = (p.as_str(), item.as_mapping()) else {
                continue;
            };
            for (m, op) in item {
                if let (Some(m), Some(id)) =
                    (m.as_str(), op.get("operationId").and_then(|i| i.as_str()))
                {
                    out.insert(id.to_owned(), (m.to_uppercase(), route(p)));
                }
            }
        }
    }
    out
}

/// The operation a row's body belongs to. A UI answer names the spec operation; among the
/// operations on its route, the one whose versions accept the row's `Accept` is taken. A Postman
/// body names its route; a description's example its operationId (and must answer with the
/// status the spec types).
fn operation_of<'t>(
    ops: &'t [table::Op],
    routes: &BTreeMap<String, (String, String)>,
    row: &Row,
) -> Option<&'t table::Op> {
    let on_route = |method: &str, path: &str| -> Vec<&'t table::Op> {
        ops.iter()
            .filter(|o| o.method == method && route(o.path) == path)
            .collect()
    };
    if row.file.starts_with("postman-requests/") {
        return on_route(&row.method, &route(&row.operation))
            .first()
            .copied();
    }
    if row.file.starts_with("openapi-examples/") {
        let (method, path) = routes.get(&row.operation)?;
        let status: u16 = row
            .source
            .split_whitespace()
            .rev()
            .nth(1)
            .and_then(|s| s.parse().ok())?;
        let candidates: Vec<&table::Op> = on_route(method, path)
            .into_iter()
            .filter(|o| o.status == status)
            .collect();
        return candidates
            .iter()
            .find(|o| o.accepts.contains(&row.accept.as_str()))
            .or(candidates.first())
            .copied();
    }
    let named = ops.iter().find(|o| o.id == row.operation)?;
    if row.kind == "request" {
        return Some(named);
    }
    ops.iter()
        .filter(|o| o.api == named.api && o.method == named.method && o.path == named.path)
        .find(|o| o.accepts.contains(&row.accept.as_str()))
        .or(Some(named))
}

/// The first place two JSON values differ, as a JSON pointer with both sides.
fn first_difference(path: &str, a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let p = format!("{path}/{k}");
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_difference(&p, v, w) {
                            return Some(d);
                        }
                    }
                    // The client's policy (docs/src/client.md, "Answers"): an explicit `null` in an
                    // optional field reads as absent and is not sent back.
                    None if v.is_null() => {}
                    None => return Some(format!("{p}: {v} was dropped")),
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map(|k| format!("{path}/{k}: added {}", y[k]))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(&format!("{path}/{i}"), v, w)),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} became {b}")),
    }
}

#[test]
fn vendor_payloads_decode_and_round_trip() {
    let Some(dir) = payloads() else { return };
    let ops = table::operations();
    let routes = description_routes(&dir);
    let (decode_listed, round_listed) = artefacts();
    let mut counts: BTreeMap<(String, Outcome), usize> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut listed_but_fine = Vec::new();
    for row in rows(&dir) {
        let class = row.file.split('/').next().unwrap_or("").to_owned();
        let outcome = run(
            &dir,
            &ops,
            &routes,
            &row,
            (&decode_listed, &round_listed),
            &mut problems,
        );
        if matches!(outcome, Outcome::Decoded)
            && (decode_listed.contains_key(&row.file) || round_listed.contains_key(&row.file))
        {
            listed_but_fine.push(row.file.clone());
        }
        *counts.entry((class, outcome)).or_default() += 1;
    }
    eprintln!("| payloads | outcome | bodies |\n|---|---|---:|");
    for ((class, outcome), n) in &counts {
        eprintln!("| {class} | {outcome:?} | {n} |");
    }
    assert!(
        problems.is_empty(),
        "{} payload(s) fail and are not listed in spec/payload_artefacts.yaml:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(
        listed_but_fine.is_empty(),
        "listed as artefacts in spec/payload_artefacts.yaml but now pass (remove them): {listed_but_fine:?}"
    );
}

fn run(
    dir: &Path,
    ops: &[table::Op],
    routes: &BTreeMap<String, (String, String)>,
    row: &Row,
    (decode_listed, round_listed): (&BTreeMap<String, String>, &BTreeMap<String, String>),
    problems: &mut Vec<String>,
) -> Outcome {
    if row.file.starts_with("ui-fixtures-errors/") {
        return Outcome::ErrorAnswer;
    }
    let Some(op) = operation_of(ops, routes, row) else {
        return Outcome::NotInSpec;
    };
    let decode = if row.kind == "request" {
        op.request
    } else {
        op.response
    };
    let Some(decode) = decode else {
        return Outcome::UntypedOperation;
    };
    let bytes = std::fs::read(dir.join(&row.file)).expect("payload file");
    let Ok(original) = serde_json::from_slice::<Value>(&bytes) else {
        problems.push(format!("{}: not JSON", row.file));
        return Outcome::DecodeFailed;
    };
    let placeholder = matches!(&original, Value::Object(m) if m.is_empty())
        || matches!(&original, Value::Array(v) if v.is_empty());
    match decode(&bytes) {
        Err(e) if placeholder => {
            let _ = e;
            Outcome::Placeholder
        }
        Err(e) => {
            if !decode_listed.contains_key(&row.file) {
                problems.push(format!("{} ({} {}): {e}", row.file, op.id, row.kind));
            }
            Outcome::DecodeFailed
        }
        Ok(back) => match first_difference("", &original, &back) {
            None if row.kind == "response" => match item_problem(op, &original) {
                None => Outcome::Decoded,
                Some(p) => {
                    if !decode_listed.contains_key(&row.file) {
                        problems.push(format!("{} ({} items): {p}", row.file, op.id));
                    }
                    Outcome::DecodeFailed
                }
            },
            None => Outcome::Decoded,
            Some(d) => {
                if !round_listed.contains_key(&row.file) {
                    problems.push(format!(
                        "{} ({} {}): round trip: {d}",
                        row.file, op.id, row.kind
                    ));
                }
                Outcome::RoundTripChanged
            }
        },
    }
}

/// Where the spec types a paged answer's items apart from the answer (`pagination.item_type`),
/// what `.items()` yields: each item decodes and writes back to itself.
fn item_problem(op: &table::Op, page: &Value) -> Option<String> {
    let (field, decode) = op.items?;
    let items = page.get(field)?.as_array()?;
    for (i, item) in items.iter().enumerate() {
        let bytes = serde_json::to_vec(item).ok()?;
        match decode(&bytes) {
            Err(e) => return Some(format!("item {i}: {e}")),
            Ok(back) => {
                if let Some(d) = first_difference("", item, &back) {
                    return Some(format!("item {i}: round trip: {d}"));
                }
            }
        }
    }
    None
}

/// Every field of every payload a typed operation decodes, against the field of its type
/// (`RUCKUS_CORPUS_FIELDS=1` prints every disagreement not listed).
#[test]
fn vendor_payload_fields_are_typed_fields() {
    let Some(dir) = payloads() else { return };
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/ruckus-one.yaml");
    let ir = ruckus_codegen::build(&top).expect("the spec builds");
    let types = fields::Types::new(&ir);
    let ops = table::operations();
    let routes = description_routes(&dir);
    // A file listed whole (it does not decode, or writes back differently) is no evidence here.
    let (decode_listed, round_listed) = artefacts();
    let listed_fields: BTreeMap<(String, String), String> = listed()
        .fields
        .into_iter()
        .map(|l| {
            assert!(
                !l.reason.trim().is_empty(),
                "{} {}: no reason",
                l.file,
                l.at
            );
            ((l.file, l.at), l.reason)
        })
        .collect();
    let other_shape: BTreeMap<String, String> = listed()
        .other_shape
        .into_iter()
        .map(|l| (l.file, l.reason))
        .collect();
    let mut total = fields::Tally::default();
    let mut unlisted = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    let mut shapes_used = std::collections::BTreeSet::new();
    let mut apart = 0;
    for row in rows(&dir) {
        let Some((api, ty, value)) = typed_body(&dir, &ir, &ops, &routes, &row) else {
            continue;
        };
        if decode_listed.contains_key(&row.file) || round_listed.contains_key(&row.file) {
            continue;
        }
        let mut tally = fields::Tally::default();
        let items = items_of(api, &row, &ops, &routes);
        // The page without its rows, which `.items()` yields as the row type (below).
        let page = match (&items, &value) {
            (Some((field, _)), Value::Object(map)) => {
                let mut map = map.clone();
                let rows = map.remove(field.as_str());
                tally.agree += usize::from(rows.is_some());
                Value::Object(map)
            }
            _ => value.clone(),
        };
        fields::walk(&types, api, &ty, &page, "", &mut tally);
        // The rows `.items()` yields, as the paged operation types them.
        if let Some((field, item_type)) = items {
            let rows = value.get(&field).and_then(Value::as_array);
            for (i, item) in rows.into_iter().flatten().enumerate() {
                let at = format!("/{field}/{i}");
                fields::walk(&types, api, &item_type, item, &at, &mut tally);
            }
        }
        // An answer of another shape than the operation's is no answer of it: its fields are
        // set apart, not compared (it must still disagree, or its listing is stale).
        if other_shape.contains_key(&row.file) {
            if !tally.findings.is_empty() {
                shapes_used.insert(row.file.clone());
            }
            apart += tally.agree + tally.findings.len();
            continue;
        }
        total.agree += tally.agree;
        for f in tally.findings {
            let key = (row.file.clone(), f.at.clone());
            if listed_fields.contains_key(&key) {
                used.insert(key);
            } else {
                unlisted.push(format!(
                    "{}{} ({}): {:?} {}",
                    row.file, f.at, f.type_name, f.class, f.detail
                ));
            }
            total.findings.push(f);
        }
    }
    let compared = total.agree + total.findings.len();
    let mut by_class: BTreeMap<fields::Class, usize> = BTreeMap::new();
    for f in &total.findings {
        *by_class.entry(f.class).or_default() += 1;
    }
    eprintln!(
        "field comparisons: {compared}, agree {} ({:.2} %)",
        total.agree,
        100.0 * total.agree as f64 / compared.max(1) as f64
    );
    for (class, n) in &by_class {
        eprintln!("  {class:?}: {n}");
    }
    eprintln!(
        "set apart: {} answers of another shape than their operation's (other_shape), {apart} fields",
        other_shape.len()
    );
    let mut by_type: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &total.findings {
        *by_type.entry(&f.type_name).or_default() += 1;
    }
    let mut worst: Vec<_> = by_type.into_iter().collect();
    worst.sort_by_key(|w| std::cmp::Reverse(w.1));
    eprintln!(
        "types with the most disagreements: {:?}",
        &worst[..worst.len().min(40)]
    );
    if std::env::var_os("RUCKUS_CORPUS_FIELDS").is_some() {
        eprintln!("{}", unlisted.join("\n"));
    }
    let stale: Vec<_> = listed_fields
        .keys()
        .filter(|k| !used.contains(*k))
        .collect();
    assert!(
        stale.is_empty(),
        "listed fields that now agree (remove them): {stale:?}"
    );
    let stale_shapes: Vec<_> = other_shape
        .keys()
        .filter(|k| !shapes_used.contains(*k))
        .collect();
    assert!(
        stale_shapes.is_empty(),
        "listed under other_shape but agree with their type (remove them): {stale_shapes:?}"
    );
    assert!(
        unlisted.is_empty(),
        "{} field(s) of vendor payloads disagree with their types and are not listed under \
         `fields:` in spec/payload_artefacts.yaml:\n{}",
        unlisted.len(),
        unlisted.join("\n")
    );
    // The acceptance figure: at least 98 % of the comparisons agree, listed cases counted as
    // disagreements.
    assert!(
        total.agree * 100 >= compared * 98,
        "{} of {compared} field comparisons agree",
        total.agree
    );
}

/// The items field and row type of the paged operation a response row answers, where the spec
/// types its rows apart from the page.
fn items_of(
    api: &ruckus_codegen::ir::ApiIr,
    row: &Row,
    ops: &[table::Op],
    routes: &BTreeMap<String, (String, String)>,
) -> Option<(String, ruckus_codegen::ir::TypeRef)> {
    if row.kind != "response" {
        return None;
    }
    let op = operation_of(ops, routes, row)?;
    let spec_op = api
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .find(|o| o.id == op.id)?;
    let p = spec_op.pagination.as_ref()?;
    Some((p.items.clone(), p.item_type.clone()?))
}

/// The API, the body type and the JSON of a row whose operation types that body (request or
/// success answer), except placeholders (`{}`, `[]`), which prove nothing.
fn typed_body<'ir>(
    dir: &Path,
    ir: &'ir ruckus_codegen::ir::Ir,
    ops: &[table::Op],
    routes: &BTreeMap<String, (String, String)>,
    row: &Row,
) -> Option<(
    &'ir ruckus_codegen::ir::ApiIr,
    ruckus_codegen::ir::TypeRef,
    Value,
)> {
    if row.file.starts_with("ui-fixtures-errors/") {
        return None;
    }
    let op = operation_of(ops, routes, row)?;
    let api = ir.apis.iter().find(|a| a.name == op.api)?;
    let spec_op = api
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .find(|o| o.id == op.id)?;
    let ty = if row.kind == "request" {
        op.request?;
        spec_op.request.as_ref()?.ty.clone()?
    } else {
        op.response?;
        spec_op.success.ty.clone()?
    };
    let value: Value = serde_json::from_slice(&std::fs::read(dir.join(&row.file)).ok()?).ok()?;
    let placeholder = matches!(&value, Value::Object(m) if m.is_empty())
        || matches!(&value, Value::Array(v) if v.is_empty());
    (!placeholder).then_some((api, ty, value))
}
