//! `cargo xtask import [--openapi DIR] [--api NAME] [--write]`: types for the spec's untyped
//! bodies, from the vendor's OpenAPI descriptions.
//!
//! For every operation of the API whose request or success body is a raw `not_shown` shape and
//! whose description declares a schema for the operation's default media type, the importer
//! drafts the types (named, deduplicated, `reference:` provenance, its own one-line
//! descriptions, never the vendor's prose), adds the fields the descriptions list to the spec's
//! own types where they lack them, and prints what it would change. With `--write` it edits the
//! area files in place (types used by one area go to that area, shared ones to `common`), then
//! loads the spec: if the result does not validate, every file is restored and the diagnostics
//! are printed. The YAML stays the reviewed source: run it, read the diff, edit, commit.

mod convert;
mod edit;
mod naming;

use crate::audit::openapi::{self as desc, normalise_path};
use crate::cli::ImportArgs;
use convert::Converter;
use edit::{AreaEdits, OpEdit};
use heck::ToUpperCamelCase;
use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const DEFAULT_OPENAPI: &str = "../shared/reference/openapi";

/// One operation of an area file, as far as the importer needs it.
struct SpecOp {
    id: String,
    method: String,
    path: String,
    /// `(file, operationId)` pairs its provenance strings cite.
    cites: Vec<(String, String)>,
    request_raw: bool,
    /// The 2xx status of a raw JSON success body (none when an empty 2xx stands beside it).
    response_raw: Option<u16>,
    /// Further 2xx statuses whose body is raw too (typed alike when the description gives them
    /// the same schema).
    also_raw: Vec<u16>,
    /// Named type of a typed success body or request body.
    typed: Vec<(String, bool)>,
    request_media: String,
    response_media: String,
    /// `media_types` entries: (Content-Type, Accept), `None` where an entry leaves one out.
    media: Vec<(Option<String>, Option<String>)>,
    /// The list field of a paged answer (`pagination.items`).
    items: Option<String>,
}

pub fn run(args: &ImportArgs) -> Result<(), String> {
    let root = crate::workspace_root();
    let openapi = args
        .openapi
        .clone()
        .unwrap_or_else(|| root.join(DEFAULT_OPENAPI));
    let spec_dir = root.join("spec");
    let Some(docs) = load_docs(&openapi)? else {
        println!(
            "import: no OpenAPI descriptions at {}; nothing to do",
            openapi.display()
        );
        return Ok(());
    };
    let top: Value = read_yaml(&spec_dir.join("ruckus-one.yaml"))?;
    let areas = areas_of(&top, &args.api)?;
    let mut files = BTreeMap::new();
    for area in &areas {
        let path = spec_dir.join(&args.api).join(format!("{area}.yaml"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        files.insert(area.clone(), (path, text));
    }
    let index = DescIndex::new(&docs);

    let mut taken: BTreeSet<String> = ruckus_codegen::RESERVED_TYPE_NAMES
        .iter()
        .map(|n| (*n).to_owned())
        .collect();
    let mut existing = BTreeMap::new();
    let mut type_area = BTreeMap::new();
    let mut existing_refs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut imported = BTreeMap::new();
    let mut ops_by_area = BTreeMap::new();
    for area in &areas {
        let doc: Value = serde_yaml::from_str(&files[area].1)
            .map_err(|e| format!("{}: {e}", files[area].0.display()))?;
        for t in doc
            .get("types")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            let Some(name) = t.get("name").and_then(Value::as_str) else {
                continue;
            };
            taken.insert(name.to_owned());
            type_area.insert(name.to_owned(), area.clone());
            // A type an earlier import made names its schema: the same schema maps to it again.
            if let Some(source) = t
                .get("provenance")
                .and_then(Value::as_str)
                .and_then(|p| p.trim().strip_prefix("reference:"))
            {
                let mut words = source.split_whitespace();
                if let (Some(file), Some(schema), None) = (words.next(), words.next(), words.next())
                {
                    if docs.contains_key(file) {
                        imported.insert((file.to_owned(), schema.to_owned()), name.to_owned());
                    }
                }
            }
            existing_refs.insert(name.to_owned(), type_refs(t));
            if let Some(fields) = t.get("fields").and_then(Value::as_sequence) {
                let names = fields
                    .iter()
                    .filter_map(|f| f.get("name").and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect();
                existing.insert(name.to_owned(), names);
            }
        }
        let ops: Vec<SpecOp> = doc
            .get("operations")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
            .filter_map(spec_op)
            .collect();
        for op in &ops {
            taken.insert(op.id.to_upper_camel_case());
        }
        ops_by_area.insert(area.clone(), ops);
    }

    let mut taken_ids: BTreeSet<String> = ops_by_area
        .values()
        .flatten()
        .map(|op| op.id.clone())
        .collect();
    let mut conv = Converter::new(&docs, taken, existing, imported);
    let mut edits: BTreeMap<String, AreaEdits> = BTreeMap::new();
    let mut roots: Vec<(String, String)> = Vec::new();
    let mut report = Report::default();
    for area in &areas {
        for op in &ops_by_area[area] {
            let Some((file, d)) = index.find(op) else {
                if op.request_raw || op.response_raw.is_some() {
                    report.no_description.push(op.id.clone());
                }
                continue;
            };
            let request_schemas = d.get("requestBody").map(|b| desc::resolve(&docs[file], b));
            let response_schemas = success(&docs[file], d, op.response_raw);
            let groups = version_groups(op, request_schemas, response_schemas);
            conv.set_operation(d.get("operationId").and_then(Value::as_str).unwrap_or("-"));
            let mut default_types = None;
            for (n, group) in groups.iter().enumerate() {
                let id = match n {
                    0 => op.id.clone(),
                    _ => format!("{}_{}", op.id, version_tag(&group.label)),
                };
                if n > 0 && taken_ids.contains(&id) {
                    report
                        .differing_versions
                        .push(format!("{} (no split: `{id}` exists)", op.id));
                    continue;
                }
                conv.set_version(&if n == 0 {
                    String::new()
                } else {
                    version_tag(&group.label)
                });
                let owner = id.to_upper_camel_case();
                let mut edit = OpEdit {
                    id: id.clone(),
                    request: None,
                    response: None,
                };
                if op.request_raw {
                    match request_schemas.and_then(|b| pick(b, &group.request)) {
                        Some(s) => match conv.body(file, s, &format!("{owner}Request")) {
                            Some(ty) => edit.request = Some(ty),
                            None => report.raw_schema.push(format!("{id} request")),
                        },
                        None => report.no_schema.push(format!("{id} request")),
                    }
                }
                if let Some(status) = op.response_raw {
                    match response_schemas.and_then(|r| pick(r, &group.response)) {
                        Some(s) => match conv.body(file, s, &format!("{owner}Response")) {
                            // A paged answer keeps its list field, or stays as it is.
                            Some(ty)
                                if op.items.as_ref().is_some_and(|f| !conv.has_list(&ty, f)) =>
                            {
                                report.page_shape.push(format!("{id} ({ty})"));
                            }
                            Some(_)
                                if !same_bodies(
                                    &docs[file],
                                    d,
                                    status,
                                    &op.also_raw,
                                    &group.response,
                                ) =>
                            {
                                report.statuses.push(id.clone());
                            }
                            Some(ty) => {
                                let mut statuses = vec![status];
                                statuses.extend(&op.also_raw);
                                edit.response = Some((statuses, ty));
                            }
                            None => report.raw_schema.push(format!("{id} response")),
                        },
                        None => report.no_schema.push(format!("{id} response")),
                    }
                }
                conv.set_version("");
                let types = (edit.request.clone(), edit.response.clone());
                if n == 0 {
                    default_types = Some(types);
                } else if default_types.as_ref() == Some(&types) {
                    // Different schema names, one shape: the default operation serves both.
                    continue;
                } else {
                    taken_ids.insert(id.clone());
                    report.splits.push(id.clone());
                    edits
                        .entry(area.clone())
                        .or_default()
                        .splits
                        .push(edit::Split {
                            id: op.id.clone(),
                            new_id: id.clone(),
                            label: version_tag(&group.label),
                            entries: group.entries.clone(),
                        });
                }
                for ty in edit
                    .request
                    .iter()
                    .chain(edit.response.iter().map(|(_, t)| t))
                {
                    roots.push((area.clone(), ty.clone()));
                }
                if edit.request.is_some() || edit.response.is_some() {
                    report
                        .typed
                        .entry(area.clone())
                        .or_default()
                        .push(id.clone());
                    edits.entry(area.clone()).or_default().ops.push(edit);
                }
            }
            // Typed bodies whose spec type the description knows more about.
            for (ty, is_request) in &op.typed {
                let holder = if *is_request {
                    request_schemas
                } else {
                    response_schemas
                };
                let media = if *is_request {
                    &op.request_media
                } else {
                    &op.response_media
                };
                if let Some(s) = holder.and_then(|h| pick(h, media)) {
                    conv.reconcile_body(ty, file, s);
                }
            }
        }
    }
    // Each new type goes to the one area that uses it, or to `common`; a spec type a type in
    // another area needs moves to `common` (with the spec types it needs), so no area depends
    // on another through the import.
    let mut area_of = type_area.clone();
    let mut moved = BTreeSet::new();
    let homes = loop {
        let mut all_roots = roots.clone();
        for (ty, fields) in &conv.additions {
            all_roots.extend(fields.iter().map(|f| (area_of[ty].clone(), f.ty.clone())));
        }
        let homes = homes(&conv, &all_roots);
        let home = |d: &str| homes.get(d).map_or("common", String::as_str);
        let mut to_move: Vec<String> = Vec::new();
        for d in conv.drafts.values().filter(|d| homes.contains_key(&d.name)) {
            for e in convert::references(&d.kind) {
                if area_of
                    .get(&e)
                    .is_some_and(|a| a != "common" && a != home(&d.name))
                {
                    to_move.push(e);
                }
            }
        }
        for (ty, fields) in &conv.additions {
            for e in fields.iter().flat_map(|f| convert::names_in(&f.ty)) {
                if area_of
                    .get(&e)
                    .is_some_and(|a| a != "common" && *a != area_of[ty])
                {
                    to_move.push(e);
                }
            }
        }
        let mut grew = false;
        while let Some(e) = to_move.pop() {
            if area_of.get(&e).is_none_or(|a| a == "common") {
                continue;
            }
            area_of.insert(e.clone(), "common".into());
            to_move.extend(existing_refs.get(&e).cloned().unwrap_or_default());
            moved.insert(e);
            grew = true;
        }
        if !grew {
            break homes;
        }
    };
    for (ty, fields) in &conv.additions {
        if fields.is_empty() {
            continue;
        }
        edits
            .entry(type_area[ty].clone())
            .or_default()
            .additions
            .push((ty.clone(), fields.clone()));
        report.added_fields += fields.len();
    }
    for e in &moved {
        edits
            .entry(type_area[e].clone())
            .or_default()
            .moves_out
            .push(e.clone());
    }
    report.moved = moved.iter().cloned().collect();
    for (name, draft) in &conv.drafts {
        if let Some(area) = homes.get(name) {
            edits
                .entry(area.clone())
                .or_default()
                .new_types
                .push(draft.clone());
            report.new_types += 1;
        }
    }
    report.print();
    if !args.write {
        println!("\n(dry run: pass --write to edit the area files)");
        return Ok(());
    }
    let mut written = Vec::new();
    let mut cut = Vec::new();
    for (area, e) in &edits {
        let (path, text) = &files[area];
        let (new, blocks) =
            edit::apply(text, e).map_err(|msg| format!("{}: {msg}", path.display()))?;
        cut.extend(blocks);
        written.push((area.clone(), path.clone(), text.clone(), new));
    }
    if !cut.is_empty() {
        let common = match written.iter_mut().find(|w| w.0 == "common") {
            Some(w) => w,
            None => {
                let (path, text) = &files["common"];
                written.push(("common".into(), path.clone(), text.clone(), text.clone()));
                written.last_mut().expect("just pushed")
            }
        };
        common.3 = edit::insert_types(&common.3, &cut);
    }
    let written: Vec<(PathBuf, String, String)> = written
        .into_iter()
        .map(|(_, p, old, new)| (p, old, new))
        .collect();
    for (path, _, new) in &written {
        std::fs::write(path, new).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Err(diags) = ruckus_codegen::build(&spec_dir.join("ruckus-one.yaml")) {
        for (path, old, _) in &written {
            let _ = std::fs::write(path, old);
        }
        let shown: String = diags.iter().take(40).map(|d| format!("{d}\n")).collect();
        return Err(format!(
            "{shown}{} error(s): the imported spec does not validate; every file restored",
            diags.len()
        ));
    }
    println!("wrote {} area file(s); the spec validates", written.len());
    Ok(())
}

fn read_yaml(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn load_docs(dir: &Path) -> Result<Option<BTreeMap<String, Value>>, String> {
    let Some(names) = desc::description_files(dir) else {
        return Ok(None);
    };
    let mut docs = BTreeMap::new();
    for n in names {
        docs.insert(n.clone(), read_yaml(&dir.join(&n))?);
    }
    Ok(Some(docs))
}

fn areas_of(top: &Value, api: &str) -> Result<Vec<String>, String> {
    top.get("apis")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .find(|a| a.get("name").and_then(Value::as_str) == Some(api))
        .and_then(|a| a.get("areas"))
        .and_then(Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .ok_or_else(|| format!("no API `{api}` with areas in spec/ruckus-one.yaml"))
}

/// Generic answer types the spec uses until an operation has its own (`QueryResult`, a query
/// page whose rows are raw JSON): an import replaces them like a `not_shown` shape.
pub const GENERIC_RESPONSES: &[&str] = &["QueryResult"];

/// Whether a spec type expression is raw JSON (`json`, a `not_shown` shape, a list of them).
fn not_shown(ty: Option<&Value>) -> bool {
    match ty {
        Some(Value::String(s)) => matches!(s.as_str(), "not_shown" | "json" | "array<json>"),
        Some(v) => {
            v.get("not_shown").is_some() || v.get("array").is_some_and(|a| not_shown(Some(a)))
        }
        None => false,
    }
}

fn spec_op(op: &Value) -> Option<SpecOp> {
    let s = |k: &str| op.get(k).and_then(Value::as_str).map(str::to_owned);
    let mut cites = Vec::new();
    let mut provenances = vec![op.get("provenance"), op.get("media_types_provenance")];
    provenances.push(op.get("request").and_then(|r| r.get("provenance")));
    let responses = op
        .get("responses")
        .and_then(Value::as_sequence)
        .cloned()
        .unwrap_or_default();
    for r in &responses {
        provenances.push(r.get("provenance"));
    }
    for p in provenances.into_iter().flatten().filter_map(Value::as_str) {
        if let Some(rest) = p.trim().strip_prefix("reference:") {
            let mut words = rest.split_whitespace();
            if let (Some(file), Some(id)) = (words.next(), words.next()) {
                cites.push((file.to_owned(), id.to_owned()));
            }
        }
    }
    let request = op.get("request");
    let json_request = request
        .and_then(|r| r.get("kind"))
        .and_then(Value::as_str)
        .is_none_or(|k| k == "json");
    let request_raw = json_request && not_shown(request.and_then(|r| r.get("type")));
    let status = |r: &Value| r.get("status").and_then(Value::as_u64).unwrap_or(0);
    let success: Vec<&Value> = responses
        .iter()
        .filter(|r| (200..300).contains(&status(r)))
        .collect();
    let empty_beside = success
        .iter()
        .any(|r| r.get("type").is_none() && r.get("kind").is_none());
    let generic = |t: Option<&Value>| {
        t.and_then(Value::as_str)
            .is_some_and(|t| GENERIC_RESPONSES.contains(&t))
    };
    let raw_statuses: Vec<u16> = success
        .iter()
        .filter(|r| not_shown(r.get("type")) || generic(r.get("type")))
        .map(|r| status(r) as u16)
        .collect();
    let all_raw = !empty_beside && raw_statuses.len() == success.len();
    let response_raw = raw_statuses.first().copied().filter(|_| all_raw);
    let also_raw = if all_raw {
        raw_statuses[1..].to_vec()
    } else {
        Vec::new()
    };
    let mut typed = Vec::new();
    if let Some(Value::String(t)) = request.and_then(|r| r.get("type")) {
        typed.push((t.clone(), true));
    }
    for r in success.iter().filter(|r| !generic(r.get("type"))) {
        if let Some(Value::String(t)) = r.get("type") {
            typed.push((t.clone(), false));
        }
    }
    let (mut request_media, mut response_media) = (None, None);
    let mut media = Vec::new();
    for m in op
        .get("media_types")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let (c, a) = match m {
            Value::String(s) => (Some(s.clone()), Some(s.clone())),
            other => (
                other
                    .get("content_type")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                other
                    .get("accept")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            ),
        };
        if let Some(c) = &c {
            request_media.get_or_insert(c.clone());
        }
        if let Some(a) = &a {
            response_media.get_or_insert(a.clone());
        }
        media.push((c, a));
    }
    Some(SpecOp {
        id: s("id")?,
        method: s("method")?.to_uppercase(),
        path: s("path")?,
        cites,
        request_raw,
        response_raw,
        also_raw,
        typed,
        request_media: request_media.unwrap_or_else(|| "application/json".into()),
        response_media: response_media.unwrap_or_else(|| "application/json".into()),
        media,
        items: op
            .get("pagination")
            .and_then(|p| p.get("items"))
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// Description operations by `(file, operationId)` and by `(METHOD, path)`.
struct DescIndex<'a> {
    by_id: BTreeMap<(String, String), (&'a str, &'a Value, String, String)>,
    by_key: BTreeMap<(String, String), Vec<(&'a str, &'a Value)>>,
}

impl<'a> DescIndex<'a> {
    fn new(docs: &'a BTreeMap<String, Value>) -> Self {
        let mut by_id = BTreeMap::new();
        let mut by_key: BTreeMap<_, Vec<_>> = BTreeMap::new();
        for (file, doc) in docs {
            let Some(paths) = doc.get("paths").and_then(Value::as_mapping) else {
                continue;
            };
            for (path, item) in paths {
                let (Some(path), Some(item)) = (path.as_str(), item.as_mapping()) else {
                    continue;
                };
                for (method, op) in item {
                    let Some(method) = method.as_str() else {
                        continue;
                    };
                    if !["get", "post", "put", "patch", "delete"].contains(&method) {
                        continue;
                    }
                    let key = (method.to_uppercase(), normalise_path(path));
                    if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                        by_id.insert(
                            (file.clone(), id.to_owned()),
                            (file.as_str(), op, key.0.clone(), key.1.clone()),
                        );
                    }
                    by_key.entry(key).or_default().push((file.as_str(), op));
                }
            }
        }
        DescIndex { by_id, by_key }
    }

    /// The description operation an op cites (when its method and path agree), else the
    /// first with its method and path.
    fn find(&self, op: &SpecOp) -> Option<(&'a str, &'a Value)> {
        let key = (op.method.clone(), normalise_path(&op.path));
        for cite in &op.cites {
            if let Some((file, d, m, p)) = self.by_id.get(cite) {
                if (m, p) == (&key.0, &key.1) {
                    return Some((file, d));
                }
            }
        }
        self.by_key.get(&key).and_then(|v| v.first().copied())
    }
}

/// The `content` holder of an operation's success response: the raw status's, else the first
/// 2xx with content.
fn success<'a>(doc: &'a Value, op: &'a Value, status: Option<u16>) -> Option<&'a Value> {
    let responses = op.get("responses")?.as_mapping()?;
    let mut fallback = None;
    for (k, v) in responses {
        let code = match k {
            Value::String(s) => s.parse::<u16>().ok(),
            Value::Number(n) => n.as_u64().map(|n| n as u16),
            _ => None,
        };
        let Some(code) = code.filter(|c| (200..300).contains(c)) else {
            continue;
        };
        let v = desc::resolve(doc, v);
        if v.get("content").is_none() {
            continue;
        }
        if Some(code) == status {
            return Some(v);
        }
        fallback.get_or_insert(v);
    }
    fallback
}

/// Whether every raw 2xx status of an operation declares the same schema for `media`.
fn same_bodies(doc: &Value, op: &Value, first: u16, others: &[u16], media: &str) -> bool {
    let body = |status: u16| {
        let responses = op.get("responses")?.as_mapping()?;
        let r = responses
            .get(Value::String(status.to_string()))
            .or_else(|| responses.get(Value::Number(status.into())))?;
        let r = desc::resolve(doc, r);
        pick(r, media).map(|s| serde_yaml::to_string(s).unwrap_or_default())
    };
    let want = body(first);
    others.iter().all(|&s| body(s) == want)
}

/// The schema for `media` in a body's `content`, else plain JSON's, else any JSON type's.
fn pick<'a>(holder: &'a Value, media: &str) -> Option<&'a Value> {
    let content = holder.get("content")?.as_mapping()?;
    let get = |m: &str| content.get(m).and_then(|c| c.get("schema"));
    get(media).or_else(|| get("application/json")).or_else(|| {
        content
            .iter()
            .find(|(k, _)| k.as_str().is_some_and(|k| k.ends_with("json")))
            .and_then(|(_, c)| c.get("schema"))
    })
}

/// Media-type entries of an operation that share one pair of body schemas.
struct Group {
    /// The version the group's operation is named after (`v1`, `json`).
    label: String,
    /// Indexes into the operation's `media_types` list.
    entries: Vec<usize>,
    request: String,
    response: String,
}

/// The operation's `media_types` entries grouped by the schemas they declare for the bodies the
/// importer types (the default entry's group first). An operation without versions is one group.
fn version_groups(op: &SpecOp, request: Option<&Value>, response: Option<&Value>) -> Vec<Group> {
    let schema_of = |holder: Option<&Value>, media: &str, raw: bool| -> String {
        match holder.and_then(|h| pick(h, media)) {
            Some(s) if raw => serde_yaml::to_string(s).unwrap_or_default(),
            _ => String::new(),
        }
    };
    let mut groups: Vec<(String, String, Group)> = Vec::new();
    for (i, (c, a)) in op.media.iter().enumerate() {
        let req = c.clone().unwrap_or_else(|| op.request_media.clone());
        let resp = a.clone().unwrap_or_else(|| op.response_media.clone());
        let key = (
            schema_of(request, &req, op.request_raw),
            schema_of(response, &resp, op.response_raw.is_some()),
        );
        match groups
            .iter_mut()
            .find(|(r, s, _)| (r, s) == (&key.0, &key.1))
        {
            Some((_, _, g)) => g.entries.push(i),
            None => {
                let label = c.as_deref().or(a.as_deref()).unwrap_or("application/json");
                groups.push((
                    key.0,
                    key.1,
                    Group {
                        label: label.to_owned(),
                        entries: vec![i],
                        request: req,
                        response: resp,
                    },
                ));
            }
        }
    }
    if groups.is_empty() {
        groups.push((
            String::new(),
            String::new(),
            Group {
                label: String::new(),
                entries: Vec::new(),
                request: op.request_media.clone(),
                response: op.response_media.clone(),
            },
        ));
    }
    groups.into_iter().map(|(_, _, g)| g).collect()
}

/// `application/vnd.ruckus.v1.1+json` → `v1_1`; plain JSON → `json`.
fn version_tag(media: &str) -> String {
    let version = media
        .strip_prefix("application/vnd.")
        .map(|rest| rest.strip_suffix("+json").unwrap_or(rest))
        .and_then(|rest| rest.split_once('.'))
        .map(|(_vendor, version)| version.replace(['.', '-'], "_").to_lowercase());
    version.unwrap_or_else(|| "json".into())
}

/// For each draft some root reaches, its home: the one area that reaches it, else `common`.
/// Drafts nothing reaches (made while reading fields the spec already has) are left out.
fn homes(conv: &Converter<'_>, roots: &[(String, String)]) -> BTreeMap<String, String> {
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

/// The type names a spec type's fields (or alias) mention.
fn type_refs(t: &Value) -> Vec<String> {
    let mut exprs: Vec<&str> = Vec::new();
    for f in t
        .get("fields")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        match f.get("type") {
            Some(Value::String(s)) => exprs.push(s),
            Some(v) => exprs.extend(["array", "map"].iter().filter_map(|k| v.get(*k)?.as_str())),
            None => {}
        }
    }
    exprs.extend(t.get("alias").and_then(Value::as_str));
    exprs.into_iter().flat_map(convert::names_in).collect()
}

#[derive(Default)]
struct Report {
    typed: BTreeMap<String, Vec<String>>,
    no_description: Vec<String>,
    no_schema: Vec<String>,
    raw_schema: Vec<String>,
    differing_versions: Vec<String>,
    splits: Vec<String>,
    moved: Vec<String>,
    statuses: Vec<String>,
    page_shape: Vec<String>,
    new_types: usize,
    added_fields: usize,
}

impl Report {
    fn print(&self) {
        let mut out = String::from("| area | operations typed |\n|---|---|\n");
        for (area, ops) in &self.typed {
            out.push_str(&format!("| {area} | {} |\n", ops.len()));
        }
        out.push_str(&format!(
            "\n{} new type(s), {} field(s) added to the spec's own types.\n",
            self.new_types, self.added_fields
        ));
        for (title, list) in [
            ("no description operation", &self.no_description),
            ("no schema declared", &self.no_schema),
            ("schema is only raw JSON", &self.raw_schema),
            (
                "2xx statuses with different bodies (left raw)",
                &self.statuses,
            ),
            (
                "paged, but the schema has no such list field (left as it is)",
                &self.page_shape,
            ),
            (
                "versions with their own types: new operations",
                &self.splits,
            ),
            (
                "spec types moved to common (types of other areas use them)",
                &self.moved,
            ),
            (
                "versions that differ but were not split",
                &self.differing_versions,
            ),
        ] {
            if !list.is_empty() {
                out.push_str(&format!(
                    "\n{title} ({}): {}\n",
                    list.len(),
                    list.join(", ")
                ));
            }
        }
        crate::out(&out);
    }
}
