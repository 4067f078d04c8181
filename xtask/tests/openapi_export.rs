//! The OpenAPI exports (`generated/openapi/<api>.yaml`, and those of the fixture specs) are valid
//! OpenAPI 3.1 as the `oas3` crate reads it, every `$ref` resolves, and they agree with
//! `cargo xtask list` and the spec: every generated operation with its method, path, success
//! status and media types, and no removed one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use ruckus_codegen::ir::{Ir, OpIr, ResponseKind};
use serde_yaml::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("xtask-openapi-{}-{n}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn xtask(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("run the xtask binary");
    assert!(
        out.status.success(),
        "xtask {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// `cargo xtask list` rows of one API: id -> (method, path, lifecycle).
fn listed(spec: &Path, api: &str) -> BTreeMap<String, (String, String, String)> {
    let tsv = xtask(&["list", "--spec", spec.to_str().expect("UTF-8 path")]);
    tsv.lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[0] == api)
        .map(|c| (c[1].into(), (c[3].into(), c[4].into(), c[5].into())))
        .collect()
}

/// Every operation of the export: id -> (METHOD, path, operation), including those a route
/// shares (`x-same-route`).
fn exported(doc: &Value) -> BTreeMap<String, (String, String, Value)> {
    let mut out = BTreeMap::new();
    let paths = doc["paths"].as_mapping().cloned().unwrap_or_default();
    for (path, item) in paths {
        let path = path.as_str().expect("path keys are strings").to_owned();
        for (method, op) in item.as_mapping().expect("path item") {
            let method = method.as_str().expect("method").to_uppercase();
            let same = op["x-same-route"]
                .as_sequence()
                .cloned()
                .unwrap_or_default();
            for op in std::iter::once(op.clone()).chain(same) {
                let id = op["operationId"].as_str().expect("operationId").to_owned();
                let prev = out.insert(id.clone(), (method.clone(), path.clone(), op));
                assert!(prev.is_none(), "operationId {id} twice");
            }
        }
    }
    out
}

/// Every `$ref` in the document, each must name a component that exists.
fn dangling_refs(doc: &Value, node: &Value, out: &mut Vec<String>) {
    match node {
        Value::Mapping(m) => {
            for (k, v) in m {
                if k.as_str() == Some("$ref") {
                    let target = v.as_str().unwrap_or_default();
                    let parts: Vec<&str> = target.trim_start_matches("#/").split('/').collect();
                    let found = parts.iter().try_fold(doc, |n, p| n.get(*p));
                    if !target.starts_with("#/") || found.is_none() {
                        out.push(target.to_owned());
                    }
                } else {
                    dangling_refs(doc, v, out);
                }
            }
        }
        Value::Sequence(s) => s.iter().for_each(|v| dangling_refs(doc, v, out)),
        _ => {}
    }
}

/// The keys of a `content` map.
fn keys(content: &Value) -> BTreeSet<String> {
    content
        .as_mapping()
        .map(|m| {
            m.keys()
                .filter_map(|k| k.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What is wrong with one exported operation, against the spec's IR.
fn check_op(op: &OpIr, exported: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let id = &op.id;
    let status = op.success.status.to_string();
    let success = &exported["responses"][status.as_str()];
    if success.is_null() {
        problems.push(format!("{id}: no {status} response"));
    }
    let accepts: BTreeSet<String> = op.versions.iter().map(|v| v.accept.clone()).collect();
    let want = if op.success.kind == ResponseKind::Empty {
        BTreeSet::new()
    } else {
        accepts
    };
    if keys(&success["content"]) != want {
        problems.push(format!(
            "{id}: response media types {:?}, expected {want:?}",
            keys(&success["content"])
        ));
    }
    let content_types: BTreeSet<String> = op
        .versions
        .iter()
        .filter_map(|v| v.content_type.clone())
        .collect();
    let body = &exported["requestBody"];
    match &op.request {
        Some(b) if keys(&body["content"]) != content_types => problems.push(format!(
            "{id}: request media types {:?}, expected {content_types:?}",
            keys(&body["content"])
        )),
        Some(b) if body["required"].as_bool() != Some(b.required) => {
            problems.push(format!("{id}: request body `required` differs"))
        }
        None if !body.is_null() => problems.push(format!("{id}: a request body the spec has not")),
        _ => {}
    }
    problems
}

/// What is wrong with the exports in `dir` of the spec at `spec` (empty when right).
fn check_exports(spec: &Path, dir: &Path) -> Vec<String> {
    let ir: Ir = ruckus_codegen::build(spec).unwrap_or_else(|d| panic!("{d:?}"));
    let mut problems = Vec::new();
    for api in &ir.apis {
        let file = dir.join(format!("{}.yaml", api.name));
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
        problems.extend(check_api(spec, &api.name, &text, &ir));
    }
    problems
}

fn check_api(spec: &Path, api: &str, text: &str, ir: &Ir) -> Vec<String> {
    let mut problems = Vec::new();
    let preamble = format!("# {}", ruckus_codegen::PREAMBLE);
    if text.lines().next() != Some(preamble.as_str()) {
        problems.push(format!("{api}: the first line is not the preamble"));
    }
    let parsed: oas3::Spec = match serde_yaml::from_str(text) {
        Ok(s) => s,
        Err(e) => return vec![format!("{api}: oas3 cannot read the export: {e}")],
    };
    match parsed.validate_version() {
        Ok(v) if v.major == 3 && v.minor == 1 => {}
        other => problems.push(format!("{api}: version {other:?}, expected 3.1")),
    }
    // oas3 resolves every reference of every operation.
    for (path, method, op) in parsed.operations() {
        let body = op.request_body(&parsed).map(|b| b.map(|b| b.content));
        let media = op
            .responses(&parsed)
            .into_values()
            .flat_map(|r| r.content.into_values());
        let media: Vec<_> = media
            .chain(
                body.ok()
                    .flatten()
                    .into_iter()
                    .flat_map(|c| c.into_values()),
            )
            .collect();
        if op.parameters(&parsed).is_err() || media.iter().any(|m| m.schema(&parsed).is_err()) {
            problems.push(format!(
                "{api}: {method} {path}: a reference does not resolve"
            ));
        }
    }
    let doc: Value = serde_yaml::from_str(text).expect("YAML");
    let mut dangling = Vec::new();
    dangling_refs(&doc, &doc, &mut dangling);
    problems.extend(
        dangling
            .into_iter()
            .map(|r| format!("{api}: dangling $ref {r}")),
    );
    let exported = exported(&doc);
    let rows = listed(spec, api);
    for (id, (method, path, lifecycle)) in &rows {
        match (exported.get(id), lifecycle.as_str()) {
            (Some(_), "removed") => problems.push(format!("{api}: removed {id} is exported")),
            (None, "removed") => {}
            (None, _) => problems.push(format!("{api}: {id} is not exported")),
            (Some((m, p, _)), _) if (m, p) != (method, path) => {
                problems.push(format!("{api}: {id} is {m} {p}, listed as {method} {path}"))
            }
            (Some((_, _, op)), l) => {
                if (op["x-experimental"].as_bool() == Some(true)) != (l == "experimental") {
                    problems.push(format!("{api}: {id}: x-experimental differs from `{l}`"));
                }
            }
        }
    }
    let generated = rows.values().filter(|r| r.2 != "removed").count();
    if exported.len() != generated {
        problems.push(format!(
            "{api}: {} operations exported, {generated} generated",
            exported.len()
        ));
    }
    let spec_api = ir
        .apis
        .iter()
        .find(|a| a.name == api)
        .expect("api in the IR");
    for op in spec_api
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .filter(|o| o.is_generated())
    {
        if let Some((_, _, e)) = exported.get(&op.id) {
            problems.extend(check_op(op, e).into_iter().map(|p| format!("{api}: {p}")));
        }
    }
    problems
}

#[test]
fn the_workspace_exports_are_valid_and_agree_with_list() {
    let problems = check_exports(
        &root().join("spec/ruckus-one.yaml"),
        &root().join("generated/openapi"),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every fixture spec's export (generated into a temp dir) passes the same checks.
#[test]
fn fixture_exports_are_valid_and_agree_with_list() {
    let mut specs = vec![
        root().join("tests/fixtures/broken/base/ruckus-one.yaml"),
        root().join("tests/fixtures/diff/base/ruckus-one.yaml"),
    ];
    for e in std::fs::read_dir(root().join("tests/fixtures/valid")).expect("valid fixtures") {
        specs.push(e.expect("dir entry").path().join("ruckus-one.yaml"));
    }
    let mut problems = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let tmp = TempDir::new(&i.to_string());
        let out = tmp.0.join("out");
        xtask(&[
            "generate",
            "--spec",
            spec.to_str().expect("UTF-8 path"),
            "--out",
            out.to_str().expect("UTF-8 path"),
        ]);
        problems.extend(
            check_exports(spec, &out.join("openapi"))
                .into_iter()
                .map(|p| format!("{}: {p}", spec.display())),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checks bite: a dangling reference, a missing operation and a wrong media type are found.
#[test]
fn a_wrong_export_is_refused() {
    let spec = root().join("tests/fixtures/diff/base/ruckus-one.yaml");
    let ir = ruckus_codegen::build(&spec).expect("the diff base loads");
    let files = ruckus_codegen::openapi(&spec).expect("export");
    let text = &files["openapi/demo.yaml"];
    assert!(check_api(&spec, "demo", text, &ir).is_empty());
    let wrong = text
        .replacen(
            "$ref: '#/components/schemas/Item'",
            "$ref: '#/components/schemas/Nothing'",
            1,
        )
        .replacen("operationId: create_item", "operationId: make_item", 1)
        .replacen(
            "application/vnd.ruckus.v1.1+json:",
            "application/vnd.ruckus.v9+json:",
            1,
        );
    let problems = check_api(&spec, "demo", &wrong, &ir).join("\n");
    for piece in [
        "dangling $ref #/components/schemas/Nothing",
        "create_item is not exported",
        "get_item: response media types",
    ] {
        assert!(
            problems.contains(piece),
            "{piece} not found in:\n{problems}"
        );
    }
}

/// Markup a spec's prose may hold: raw HTML, a `javascript:` link and autolink, a code fence, a
/// heading, a list item.
const MARKUP: &str = "<script>alert(1)</script> [click](javascript:alert(1)) <javascript:alert(2)> <b onclick=x>bold</b>\n```\ncode\n```\n# Heading\n- item";
/// The same on one line (titles, notes, meanings), starting a heading.
const MARKUP_LINE: &str = "# <script>alert(3)</script> [click](javascript:alert(4))";

/// Copies `from` to `to`, every one-line `description:` value replaced by [`MARKUP`] and every
/// one-line `title:`, `note:` and `meaning:` value by [`MARKUP_LINE`].
fn copy_with_prose(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let path = entry.expect("dir entry").path();
        let dest = to.join(path.file_name().expect("file name"));
        if path.is_dir() {
            copy_with_prose(&path, &dest);
            continue;
        }
        let yaml = std::fs::read_to_string(&path).expect("read fixture");
        let quoted = |text: &str| serde_json::to_string(text).expect("JSON strings are YAML");
        let edited: Vec<String> = yaml
            .lines()
            .map(|line| {
                for key in ["description: ", "title: ", "note: ", "meaning: "] {
                    if let Some(at) = line.find(key) {
                        let (head, value) = line.split_at(at + key.len());
                        let lead = line[..at].trim_start_matches(' ');
                        if (lead.is_empty() || lead == "- ") && !value.starts_with(['|', '>']) {
                            let text = if key == "description: " {
                                MARKUP
                            } else {
                                MARKUP_LINE
                            };
                            return format!("{head}{}", quoted(text));
                        }
                    }
                }
                line.to_owned()
            })
            .collect();
        std::fs::write(&dest, edited.join("\n") + "\n").expect("write copy");
    }
}

/// Every string under a prose key (`description`, `summary`, `title`, `x-deprecation`,
/// `x-removal`) of an export, with its path.
fn prose_values(node: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match node {
        Value::Mapping(m) => {
            for (k, v) in m {
                let key = k.as_str().unwrap_or_default();
                let here = format!("{at}/{key}");
                match v {
                    Value::String(s)
                        if matches!(
                            key,
                            "description" | "summary" | "title" | "x-deprecation" | "x-removal"
                        ) =>
                    {
                        out.push((here, s.clone()));
                    }
                    _ => prose_values(v, &here, out),
                }
            }
        }
        Value::Sequence(items) => {
            for (i, v) in items.iter().enumerate() {
                prose_values(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn markup_in_spec_prose_does_not_reach_the_export() {
    let tmp = TempDir::new("markup");
    let spec_dir = tmp.0.join("spec");
    copy_with_prose(&root().join("tests/fixtures/valid/operations"), &spec_dir);
    let files = match ruckus_codegen::openapi(&spec_dir.join("ruckus-one.yaml")) {
        Ok(files) => files,
        Err(d) => panic!("{d:?}"),
    };
    let mut found = Vec::new();
    let mut seen = 0;
    for (path, text) in &files {
        let doc: Value = serde_yaml::from_str(text).expect("the export is YAML");
        let mut values = Vec::new();
        prose_values(&doc, path, &mut values);
        for (at, s) in values {
            seen += usize::from(s.contains("alert"));
            // The export's own code spans (`array<Widget>`, `Bearer <token>`) are not markup.
            let s: String = s.split('`').step_by(2).collect::<Vec<_>>().join("`…`");
            let line_starts = |marker: &str| s.lines().any(|l| l.trim_start().starts_with(marker));
            // An escaped bracket (`\]`) closes no link text.
            if s.contains('<')
                || s.replace("\\]", "").contains("](")
                || line_starts("```")
                || line_starts("# ")
                || line_starts("- item")
            {
                found.push(format!("{at}: {s:?}"));
            }
        }
    }
    assert!(seen >= 5, "the edited prose did not reach the export");
    assert!(
        found.is_empty(),
        "markup in the export:\n{}",
        found.join("\n")
    );
}
