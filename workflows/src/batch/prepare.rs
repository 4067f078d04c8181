//! From rows to calls: each row's values placed as the operation takes them (a path or query
//! parameter, the acting tenant, a body path), `{column}` filled in the command's path
//! arguments, and the body checked against the operation's schema. Every row is prepared
//! before anything is sent; the problems of all of them are reported at once.

use super::Operation;
use crate::error::{Error, Problem};
use crate::rows::{Input, Row, Values};
use ruckus_one_catalog::BodyKind;
use ruckus_one_runtime::internal::described::Arguments;
use serde_json::{Map, Value};

/// The column that names the delegated (customer) tenant a row acts for.
pub const TENANT_COLUMN: &str = "@tenant";

/// Most problems reported (the rest are counted, not listed).
const MAX_PROBLEMS: usize = 20;

/// One row ready to send.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The line of the input file it came from.
    pub line: usize,
    /// The call's arguments.
    pub arguments: Arguments,
}

/// Where a row's value goes.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    /// The path parameter at this index.
    Path(usize),
    /// The query parameter of this wire name.
    Query(String),
    /// The acting tenant.
    Tenant,
    /// A body field, by its dotted path.
    Body(Vec<String>),
}

/// A name compared with parameters: letters and digits only, lower case (`venue-id`,
/// `venue_id` and `venueId` are one name).
fn folded(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn target(op: &Operation, name: &str) -> Target {
    if name == TENANT_COLUMN {
        return Target::Tenant;
    }
    let f = folded(name);
    let r = op.route;
    if let Some(i) = r.path_params.iter().position(|p| folded(&p.name) == f) {
        return Target::Path(i);
    }
    if let Some(q) = r.query.iter().find(|p| folded(&p.name) == f) {
        return Target::Query(q.name.clone());
    }
    Target::Body(name.split('.').map(str::to_owned).collect())
}

/// The `{name}`s of a path argument.
fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// Prepares every row of `input` for `op`, starting from `template`.
pub(crate) fn prepare(
    op: &Operation,
    template: &Arguments,
    input: &Input,
) -> Result<Vec<Prepared>, Error> {
    let mut problems = Vec::new();
    let mut out = Vec::with_capacity(input.rows.len());
    if op
        .route
        .request
        .as_ref()
        .is_some_and(|b| b.kind != BodyKind::Json)
    {
        return Err(Error::Operation(format!(
            "{} takes a body that is not JSON: it cannot be run from rows",
            op.route.id
        )));
    }
    for row in &input.rows {
        match prepare_row(op, template, row) {
            Ok(p) => out.push(p),
            Err(mut p) => problems.append(&mut p),
        }
    }
    if problems.is_empty() {
        return Ok(out);
    }
    let more = problems.len().saturating_sub(MAX_PROBLEMS);
    problems.truncate(MAX_PROBLEMS);
    if more > 0 {
        let line = problems.last().map_or(0, |p| p.line);
        problems.push(Problem {
            line,
            message: format!("and {more} more problem(s) after this line"),
        });
    }
    Err(Error::Invalid(problems))
}

/// A row's values as (name, value); a CSV cell is text until its target's schema reads it.
fn values(row: &Row) -> Vec<(String, Value)> {
    match &row.values {
        Values::Columns(cols) => cols
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
        Values::Object(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
    }
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn prepare_row(op: &Operation, template: &Arguments, row: &Row) -> Result<Prepared, Vec<Problem>> {
    let csv = matches!(row.values, Values::Columns(_));
    let values = values(row);
    let mut problems: Vec<String> = Vec::new();
    let mut args = template.clone();
    let mut used = Vec::new();
    for (i, text) in template.path.iter().enumerate() {
        let mut filled = text.clone();
        for name in placeholders(text) {
            let value = values
                .iter()
                .find(|(k, _)| k == name || folded(k) == folded(name));
            match value.and_then(|(k, v)| Some((k, text_of(v)?))) {
                Some((k, v)) if !v.is_empty() => {
                    filled = filled.replace(&format!("{{{name}}}"), &v);
                    used.push(k.clone());
                }
                _ => problems.push(format!("no value for `{{{name}}}` ({})", param(op, i))),
            }
        }
        args.path[i] = filled;
    }
    let mut body = template.body.clone();
    for (name, value) in &values {
        if used.contains(name) {
            continue;
        }
        match target(op, name) {
            Target::Path(i) => match text_of(value) {
                Some(t) => args.path[i] = t,
                None => problems.push(format!("`{name}` is not text")),
            },
            Target::Query(wire) => match text_of(value) {
                Some(t) => {
                    args.query.retain(|(n, _)| n != &wire);
                    args.query.push((wire, t));
                }
                None => problems.push(format!("`{name}` is not text")),
            },
            Target::Tenant => args.tenant = text_of(value),
            Target::Body(path) => {
                if op.route.request.is_none() {
                    problems.push(format!(
                        "`{name}` is not a parameter of {}, which takes no body",
                        op.route.id
                    ));
                    continue;
                }
                let v = if csv {
                    match typed(op, &path, value) {
                        Ok(v) => v,
                        Err(e) => {
                            problems.push(format!("`{name}`: {e}"));
                            continue;
                        }
                    }
                } else {
                    value.clone()
                };
                set(
                    body.get_or_insert_with(|| Value::Object(Map::new())),
                    &path,
                    v,
                );
            }
        }
    }
    for (i, v) in args.path.iter().enumerate() {
        if v.is_empty() || !placeholders(v).is_empty() {
            problems.push(format!("no value for {}", param(op, i)));
        }
    }
    if let Some(rb) = &op.route.request {
        let b = body.get_or_insert_with(|| Value::Object(Map::new()));
        *b = one_or_batch(op, std::mem::take(b));
        if let (true, Err(p)) = (problems.is_empty(), op.table.validate(b, &rb.schema)) {
            problems.push(format!("the body does not fit {}: {p}", op.route.id));
        }
    }
    args.body = body;
    if problems.is_empty() {
        Ok(Prepared {
            line: row.line,
            arguments: args,
        })
    } else {
        Err(problems
            .into_iter()
            .map(|message| Problem {
                line: row.line,
                message,
            })
            .collect())
    }
}

fn param(op: &Operation, i: usize) -> String {
    op.route.path_params.get(i).map_or_else(
        || "a path parameter".to_owned(),
        |p| format!("`{}`", p.name),
    )
}

/// A body that is a list of objects (a batch create) gets one object a row.
fn one_or_batch(op: &Operation, body: Value) -> Value {
    let list = op.route.request.as_ref().is_some_and(|rb| {
        op.table
            .deref(&rb.schema)
            .get("type")
            .and_then(Value::as_str)
            == Some("array")
    });
    match body {
        Value::Object(_) if list => Value::Array(vec![body]),
        other => other,
    }
}

/// Sets `path` in `body`, making the objects on the way.
fn set(body: &mut Value, path: &[String], v: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = body;
    for seg in parents {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let Value::Object(m) = at else { return };
        at = m
            .entry(seg.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if !at.is_object() {
        *at = Value::Object(Map::new());
    }
    if let Value::Object(m) = at {
        m.insert(last.clone(), v);
    }
}

/// The schema of the body field at `path` (through `$ref`s and the variants of `allOf`,
/// `anyOf`, `oneOf`).
fn schema_at<'a>(op: &'a Operation, path: &[String]) -> Option<&'a Value> {
    let mut at = op.table.deref(&op.route.request.as_ref()?.schema);
    for seg in path {
        at = property(op, at, seg, 0)?;
    }
    Some(op.table.deref(at))
}

fn property<'a>(
    op: &'a Operation,
    schema: &'a Value,
    name: &str,
    depth: usize,
) -> Option<&'a Value> {
    if depth > 8 {
        return None;
    }
    let s = op.table.deref(schema);
    if let Some(p) = s.get("properties").and_then(|p| p.get(name)) {
        return Some(p);
    }
    ["allOf", "anyOf", "oneOf"]
        .iter()
        .filter_map(|k| s.get(*k).and_then(Value::as_array))
        .flatten()
        .find_map(|v| property(op, v, name, depth + 1))
}

fn types(schema: &Value) -> Vec<&str> {
    let mut out: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for k in ["anyOf", "oneOf"] {
        for v in schema
            .get(k)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.extend(types(v));
        }
    }
    out
}

/// A CSV cell's text as the JSON its field's schema wants: a number, a boolean, an array or
/// object (written as JSON in the cell), else text.
fn typed(op: &Operation, path: &[String], value: &Value) -> Result<Value, String> {
    let Value::String(text) = value else {
        return Ok(value.clone());
    };
    let Some(schema) = schema_at(op, path) else {
        return Ok(value.clone());
    };
    let resolved: Vec<Value> = types(schema)
        .into_iter()
        .map(|t| Value::String(t.to_owned()))
        .collect();
    let has = |t: &str| resolved.iter().any(|x| x == t);
    if has("string") || resolved.is_empty() {
        return Ok(value.clone());
    }
    if has("integer") {
        return text
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("`{text}` is not an integer"));
    }
    if has("number") {
        return text
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
            .ok_or_else(|| format!("`{text}` is not a number"));
    }
    if has("boolean") {
        return match text.as_str() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("`{text}` is not true or false")),
        };
    }
    serde_json::from_str(text).map_err(|_| format!("`{text}` is not JSON"))
}
