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

#[path = "corpus/listed.rs"]
mod listed;

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
    let listed = listed::read();
    let mut counts: BTreeMap<(String, Outcome), usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for row in rows(&dir) {
        let class = row.file.split('/').next().unwrap_or("").to_owned();
        let outcome = run(&dir, &ops, &routes, &row, &listed, &mut problems);
        *counts.entry((class, outcome)).or_default() += 1;
    }
    eprintln!("| payloads | outcome | bodies |\n|---|---|---:|");
    for ((class, outcome), n) in &counts {
        eprintln!("| {class} | {outcome:?} | {n} |");
    }
    assert!(
        problems.is_empty(),
        "{} payload(s) fail and no value of them is listed in spec/payload_artefacts.yaml:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn run(
    dir: &Path,
    ops: &[table::Op],
    routes: &BTreeMap<String, (String, String)>,
    row: &Row,
    listed: &listed::Artefacts,
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
    let explained = listed.explains(&row.file);
    match decode(&bytes) {
        Err(_) if placeholder => Outcome::Placeholder,
        Err(e) => {
            if !explained {
                problems.push(format!("{} ({} {}): {e}", row.file, op.id, row.kind));
            }
            Outcome::DecodeFailed
        }
        Ok(back) => match first_difference("", &original, &back) {
            None if row.kind == "response" => match item_problem(op, &original) {
                None => Outcome::Decoded,
                Some(p) => {
                    if !explained {
                        problems.push(format!("{} ({} items): {p}", row.file, op.id));
                    }
                    Outcome::DecodeFailed
                }
            },
            None => Outcome::Decoded,
            // A placeholder that decodes (its type has no required field, or only nullable
            // ones) proves nothing either, however it writes back.
            Some(_) if placeholder => Outcome::Placeholder,
            Some(d) => {
                if !explained {
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

/// The share of field comparisons that must agree, of every answer's but the values listed by
/// pointer.
const AGREE_PERCENT: usize = 99;

/// Whether `agree` of `compared` comparisons meet [`AGREE_PERCENT`].
fn meets_threshold(agree: usize, compared: usize) -> bool {
    agree * 100 >= compared * AGREE_PERCENT
}

#[test]
fn the_threshold_fails_below_99_percent() {
    assert!(meets_threshold(99, 100));
    assert!(!meets_threshold(989, 1000));
    assert!(!meets_threshold(0, 1));
}

/// Every field of every payload a typed operation decodes, against the field of its type; an
/// answer of another shape against the type it belongs to (`RUCKUS_CORPUS_FIELDS=1` prints
/// every disagreement not listed).
#[test]
fn vendor_payload_fields_are_typed_fields() {
    let Some(dir) = payloads() else { return };
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/ruckus-one.yaml");
    let ir = ruckus_codegen::build(&top).expect("the spec builds");
    let types = fields::Types::new(&ir);
    let ops = table::operations();
    let routes = description_routes(&dir);
    let listed = listed::read();
    let mut agree = 0;
    let mut findings: Vec<(String, fields::Finding)> = Vec::new();
    let mut shapes_used = std::collections::BTreeSet::new();
    let mut unchecked = Vec::new();
    let mut shaped = 0;
    for row in rows(&dir) {
        let Some((api, ty, value)) = typed_body(&dir, &ir, &ops, &routes, &row) else {
            continue;
        };
        let own = answer_tally(&types, api, &ty, &value, &row, (&ops, &routes));
        let tally = match listed.shape(&row.file) {
            None => own,
            Some(shape) => {
                // Stale unless it disagrees with its own operation's type.
                if !own.findings.is_empty() {
                    shapes_used.insert(row.file.clone());
                }
                let check = &shape.checked_as;
                let (Some(t), Some(part)) = (check.ty(api), value.pointer(&check.at)) else {
                    unchecked.push(row.file.clone());
                    continue;
                };
                let mut tally = fields::Tally::default();
                fields::walk(&types, api, &t, part, &check.at, &mut tally);
                shaped += tally.agree + tally.findings.len();
                tally
            }
        };
        agree += tally.agree;
        findings.extend(tally.findings.into_iter().map(|f| (row.file.clone(), f)));
    }
    report(agree, &findings, shaped, &listed);
    check_listing(&findings, &listed, &shapes_used, &unchecked);
    // The acceptance figure: every answer counts, except the values listed by pointer.
    let of_listed = findings
        .iter()
        .filter(|(file, f)| listed_at(&listed, file, &f.at).is_some())
        .count();
    let compared = agree + findings.len() - of_listed;
    assert!(
        meets_threshold(agree, compared),
        "{agree} of {compared} field comparisons agree, under {AGREE_PERCENT} %"
    );
}

/// Whether the listed value `at` of a file covers a finding at `found` (the value or one
/// within it).
fn covers(at: &str, found: &str) -> bool {
    found == at
        || found
            .strip_prefix(at)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn listed_at<'l>(listed: &'l listed::Artefacts, file: &str, found: &str) -> Option<&'l str> {
    listed
        .fields
        .iter()
        .find(|l| l.file == file && covers(&l.at, found))
        .map(|l| l.at.as_str())
}

/// The comparisons of an answer (or request body) as its operation types it: a page without
/// its rows as the page type, its rows as the row type where the spec types them apart.
fn answer_tally(
    types: &fields::Types,
    api: &ruckus_codegen::ir::ApiIr,
    ty: &ruckus_codegen::ir::TypeRef,
    value: &Value,
    row: &Row,
    (ops, routes): (&[table::Op], &BTreeMap<String, (String, String)>),
) -> fields::Tally {
    let mut tally = fields::Tally::default();
    let items = items_of(api, row, ops, routes);
    let page = match (&items, value) {
        (Some((field, _)), Value::Object(map)) => {
            let mut map = map.clone();
            let rows = map.remove(field.as_str());
            tally.agree += usize::from(rows.is_some());
            Value::Object(map)
        }
        _ => value.clone(),
    };
    fields::walk(types, api, ty, &page, "", &mut tally);
    if let Some((field, item_type)) = items {
        let rows = value.get(&field).and_then(Value::as_array);
        for (i, item) in rows.into_iter().flatten().enumerate() {
            let at = format!("/{field}/{i}");
            fields::walk(types, api, &item_type, item, &at, &mut tally);
        }
    }
    tally
}

/// Prints the gate's figures.
fn report(
    agree: usize,
    findings: &[(String, fields::Finding)],
    shaped: usize,
    listed: &listed::Artefacts,
) {
    let compared = agree + findings.len();
    let percent = |a: usize, n: usize| 100.0 * a as f64 / n.max(1) as f64;
    let of_listed = findings
        .iter()
        .filter(|(file, f)| listed_at(listed, file, &f.at).is_some())
        .count();
    eprintln!(
        "field comparisons: {compared}, agree {agree} ({:.2} %); {of_listed} listed by pointer; \
         without them: {:.2} % of {}",
        percent(agree, compared),
        percent(agree, compared - of_listed),
        compared - of_listed
    );
    let mut by_class: BTreeMap<fields::Class, usize> = BTreeMap::new();
    let mut by_type: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, f) in findings {
        *by_class.entry(f.class).or_default() += 1;
        *by_type.entry(&f.type_name).or_default() += 1;
    }
    for (class, n) in &by_class {
        eprintln!("  {class:?}: {n}");
    }
    eprintln!(
        "answers of another shape: {}, checked as what they are: {shaped} comparisons",
        listed.other_shape.len()
    );
    let mut worst: Vec<_> = by_type.into_iter().collect();
    worst.sort_by_key(|w| std::cmp::Reverse(w.1));
    eprintln!(
        "types with the most disagreements: {:?}",
        &worst[..worst.len().min(40)]
    );
}

/// Every disagreement is listed by pointer; every listed value and answer of another shape
/// still disagrees; every answer of another shape is checked.
fn check_listing(
    findings: &[(String, fields::Finding)],
    listed: &listed::Artefacts,
    shapes_used: &std::collections::BTreeSet<String>,
    unchecked: &[String],
) {
    let mut used = std::collections::BTreeSet::new();
    let mut unlisted = Vec::new();
    for (file, f) in findings {
        match listed_at(listed, file, &f.at) {
            Some(at) => {
                used.insert((file.clone(), at.to_owned()));
            }
            None => unlisted.push(format!(
                "{file}{} ({}): {:?} {}",
                f.at, f.type_name, f.class, f.detail
            )),
        }
    }
    if std::env::var_os("RUCKUS_CORPUS_FIELDS").is_some() {
        eprintln!("{}", unlisted.join("\n"));
    }
    let stale: Vec<_> = listed
        .values()
        .into_keys()
        .filter(|k| !used.contains(k))
        .collect();
    assert!(
        stale.is_empty(),
        "listed values that now agree (remove them): {stale:?}"
    );
    let stale_shapes: Vec<_> = listed
        .other_shape
        .iter()
        .map(|o| &o.file)
        .filter(|f| !shapes_used.contains(*f))
        .collect();
    assert!(
        stale_shapes.is_empty(),
        "listed under other_shape but agree with their own type (remove them): {stale_shapes:?}"
    );
    assert!(
        unchecked.is_empty(),
        "answers of another shape whose `checked_as` names no type or no value: {unchecked:?}"
    );
    assert!(
        unlisted.is_empty(),
        "{} value(s) of vendor payloads disagree with their types and are not listed under \
         `fields:` in spec/payload_artefacts.yaml:\n{}",
        unlisted.len(),
        unlisted.join("\n")
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
