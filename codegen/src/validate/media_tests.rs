//! Media versions of request bodies, over a copy of the broken-spec base
//! (`tests/fixtures/broken/base`) with one operation added to `demo/items.yaml`: a multipart
//! version sets a multipart body's `Content-Type` and nothing else; a media type that does not
//! fit the body it would set is refused where it is written.

use crate::diag::Diagnostic;
use crate::ir::{Ir, VersionIr};
use std::path::{Path, PathBuf};

/// A copy of the base in a fresh directory with `op` (YAML lines at the operations' indent)
/// appended to `demo/items.yaml`; its top file and the line of `op`'s first line.
fn spec_with(name: &str, op: &str) -> (PathBuf, usize) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/broken/base");
    let dir = std::env::temp_dir().join(format!(
        "ruckus-codegen-media-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    copy(&base, &dir);
    let items = dir.join("demo/items.yaml");
    let mut text = std::fs::read_to_string(&items).expect("items.yaml");
    let first_line = text.lines().count() + 1;
    text.push_str(op);
    std::fs::write(&items, text).expect("write items.yaml");
    (dir.join("ruckus-one.yaml"), first_line)
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let dest = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).expect("copy");
        }
    }
}

fn build(name: &str, op: &str) -> (Result<Ir, Vec<Diagnostic>>, usize) {
    let (top, line) = spec_with(name, op);
    let out = crate::build(&top);
    let _ = std::fs::remove_dir_all(top.parent().expect("spec dir"));
    (out, line)
}

/// The `(label, Content-Type, Accept)` of each version of operation `id`.
fn versions(ir: &Ir, id: &str) -> Vec<(String, Option<String>, String)> {
    let op = ir.apis[0]
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .find(|o| o.id == id)
        .expect("the operation");
    op.versions
        .iter()
        .map(|v: &VersionIr| (v.label.clone(), v.content_type.clone(), v.accept.clone()))
        .collect()
}

/// The one diagnostic of a refused spec: its line and message.
fn refused(out: Result<Ir, Vec<Diagnostic>>) -> (usize, String) {
    let Err(diags) = out else {
        panic!("the spec is accepted");
    };
    assert_eq!(diags.len(), 1, "{diags:?}");
    (diags[0].line, diags[0].message.clone())
}

const UPLOAD: &str = "  - id: upload_item
    name: Upload Item
    method: POST
    path: /items/files
    request:
      kind: multipart
      parts:
        - name: file
    responses:
      - status: 200
        type: Item
";

const CREATE: &str = "  - id: create_item
    name: Create Item
    method: POST
    path: /items
    request:
      type: Item
    responses:
      - status: 200
        type: Item
";

fn owned(v: &[(&str, Option<&str>, &str)]) -> Vec<(String, Option<String>, String)> {
    v.iter()
        .map(|(l, c, a)| ((*l).to_owned(), c.map(str::to_owned), (*a).to_owned()))
        .collect()
}

#[test]
fn a_multipart_version_sets_a_multipart_bodys_content_type_only() {
    let op = format!(
        "{UPLOAD}    media_types:\n      - multipart/vnd.ruckus.v1+form-data\n      - application/json\n"
    );
    let (ir, _) = build("upload", &op);
    let ir = ir.expect("the spec validates");
    assert_eq!(
        versions(&ir, "upload_item"),
        owned(&[
            (
                "v1",
                Some("multipart/vnd.ruckus.v1+form-data"),
                "application/json"
            ),
            ("json", Some("multipart/form-data"), "application/json"),
        ])
    );
}

#[test]
fn a_multipart_version_pairs_with_a_json_answer_version() {
    let op = format!(
        "{UPLOAD}    media_types:\n      - content_type: multipart/vnd.ruckus.v1+form-data\n        accept: application/vnd.ruckus.v1+json\n      - application/json\n"
    );
    let (ir, _) = build("paired", &op);
    assert_eq!(
        versions(&ir.expect("the spec validates"), "upload_item"),
        owned(&[
            (
                "v1",
                Some("multipart/vnd.ruckus.v1+form-data"),
                "application/vnd.ruckus.v1+json"
            ),
            ("json", Some("multipart/form-data"), "application/json"),
        ])
    );
}

#[test]
fn a_multipart_version_on_a_json_body_is_refused_where_it_is_written() {
    let op = format!("{CREATE}    media_types:\n      - multipart/vnd.ruckus.v1+form-data\n");
    let (out, first) = build("on-json", &op);
    let (line, message) = refused(out);
    assert_eq!(line, first + 10, "{message}");
    assert!(
        message.contains("`multipart/vnd.ruckus.v1+form-data` is for a multipart request body")
            && message.contains("request body is json"),
        "{message}"
    );
}

#[test]
fn a_json_content_type_on_a_multipart_body_is_refused_where_it_is_written() {
    let op =
        format!("{UPLOAD}    media_types:\n      - content_type: application/vnd.ruckus.v1+json\n");
    let (out, first) = build("json-on-multipart", &op);
    let (line, message) = refused(out);
    assert_eq!(line, first + 12, "{message}");
    assert!(
        message.contains("`application/vnd.ruckus.v1+json` is for a JSON request body")
            && message.contains("request body is multipart"),
        "{message}"
    );
}

#[test]
fn a_multipart_version_as_accept_or_of_another_vendor_is_refused() {
    let op =
        format!("{UPLOAD}    media_types:\n      - accept: multipart/vnd.ruckus.v1+form-data\n");
    let (out, first) = build("as-accept", &op);
    let (line, message) = refused(out);
    assert_eq!(line, first + 12, "{message}");
    assert!(message.contains("cannot be an `accept`"), "{message}");

    let op = format!("{UPLOAD}    media_types:\n      - multipart/vnd.other.v1+form-data\n");
    let (out, first) = build("other-vendor", &op);
    let (line, message) = refused(out);
    assert_eq!(line, first + 12, "{message}");
    assert!(
        message.contains("multipart/vnd.ruckus.<version>+form-data"),
        "{message}"
    );
}
