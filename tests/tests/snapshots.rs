//! Snapshots of the generator's whole output for the valid fixture specs, and proof that
//! the snapshots move when a media-type version or a deprecation changes in the spec.
//!
//! To accept intended changes: `INSTA_UPDATE=always cargo test -p ruckus-one-tests --test
//! snapshots`, then review the `.snap` diff. CI never updates snapshots.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/valid")
        .join(name)
}

fn generate(top: &Path) -> BTreeMap<String, String> {
    match ruckus_codegen::generate(top) {
        Ok(files) => files,
        Err(diags) => panic!(
            "{}",
            diags
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// An area's code: its module file `<area>.rs` and the files of its directory `<area>/`, which
/// the module includes (types, enums, builders, serialize, deserialize, requests).
fn area_code(files: &BTreeMap<String, String>, module: &str) -> String {
    let dir = format!("{}/", module.trim_end_matches(".rs"));
    files
        .iter()
        .filter(|(path, _)| path.as_str() == module || path.starts_with(&dir))
        .map(|(_, text)| text.as_str())
        .collect()
}

/// Every file of one generation, each under a header naming its path.
fn render(files: &BTreeMap<String, String>) -> String {
    files
        .iter()
        .map(|(path, text)| format!("=== {path} ===\n{text}\n"))
        .collect()
}

#[test]
fn shapes_fixture_output() {
    insta::assert_snapshot!(
        "shapes",
        render(&generate(&fixture("shapes").join("ruckus-one.yaml")))
    );
}

#[test]
fn operations_fixture_output() {
    insta::assert_snapshot!(
        "operations",
        render(&generate(&fixture("operations").join("ruckus-one.yaml")))
    );
}

#[test]
fn unions_fixture_output() {
    insta::assert_snapshot!(
        "unions",
        render(&generate(&fixture("unions").join("ruckus-one.yaml")))
    );
}

/// What the `unions` fixture is for, stated apart from the snapshot: the discriminated union
/// decodes by its tag, the versioned pair keeps one route with two response types, and the
/// bounded field's limits reach the docs and the OpenAPI export.
#[test]
fn unions_fixture_has_a_union_a_versioned_pair_and_bounds() {
    let files = generate(&fixture("unions").join("ruckus-one.yaml"));
    let networks = &area_code(&files, "fixture-unions/src/demo/networks.rs");
    assert!(networks.contains("pub enum WifiNetwork {"), "{networks}");
    assert!(networks.contains("Psk(PskWifiNetwork),"));
    assert!(networks.contains("Unknown(ruckus_one_runtime::RawJson),"));
    assert!(
        networks.contains(
            "match ruckus_one_runtime::internal::union::tag(&value, \"type\").as_deref()"
        )
    );
    assert!(networks.contains("Some(\"PSK\") => {"));
    assert!(networks.contains("pub fn builder() -> AaaWifiNetworkBuilder"));
    let widgets = &area_code(&files, "fixture-unions/src/demo/widgets.rs");
    for (op, output, accept) in [
        ("get_widget", "Widget", "application/vnd.ruckus.v1.1+json"),
        (
            "get_widget_v1",
            "WidgetV1",
            "application/vnd.ruckus.v1+json",
        ),
    ] {
        assert!(
            widgets.contains(&format!("id: \"{op}\",")),
            "{op} has its descriptor"
        );
        assert!(widgets.contains(&format!("accept: \"{accept}\"")), "{op}");
        assert!(
            widgets.contains(&format!("Call<'a, {output}>")),
            "{op} returns {output}"
        );
    }
    assert!(
        widgets.contains("/// Wire name `size`; `integer`; required; maximum: 100; minimum: 1.")
    );
    let openapi = match ruckus_codegen::openapi(&fixture("unions").join("ruckus-one.yaml")) {
        Ok(files) => files,
        Err(diags) => panic!("{diags:?}"),
    };
    let yaml = &openapi["openapi/demo.yaml"];
    assert!(yaml.contains("propertyName: type"), "{yaml}");
    assert!(
        yaml.contains("PSK: '#/components/schemas/PskWifiNetwork'"),
        "{yaml}"
    );
    assert!(yaml.contains("maximum: 4094"), "{yaml}");
}

/// The OpenAPI export of each fixture (`cargo xtask generate` writes it beside the crate; xtask's
/// `openapi_export` test validates it).
#[test]
fn openapi_export_of_the_fixtures() {
    for name in ["shapes", "operations", "unions"] {
        let files = match ruckus_codegen::openapi(&fixture(name).join("ruckus-one.yaml")) {
            Ok(files) => files,
            Err(diags) => panic!("{diags:?}"),
        };
        insta::assert_snapshot!(format!("openapi_{name}"), render(&files));
    }
}

#[test]
fn generating_twice_is_byte_identical() {
    for name in ["shapes", "operations", "unions"] {
        let top = fixture(name).join("ruckus-one.yaml");
        assert_eq!(
            render(&generate(&top)),
            render(&generate(&top)),
            "fixture {name}"
        );
    }
}

/// A copy of a fixture with one textual edit applied to one of its files.
struct Edited {
    dir: PathBuf,
}

impl Edited {
    fn new(name: &str, file: &str, from: &str, to: &str) -> Self {
        static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir()
            .join(format!("ruckus-snap-{}-{n}", std::process::id()))
            .join(name);
        copy_dir(&fixture(name), &dir);
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).expect("fixture file");
        assert!(text.contains(from), "{file} does not contain {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write edited fixture");
        Edited { dir }
    }

    fn generate(&self) -> BTreeMap<String, String> {
        generate(&self.dir.join("ruckus-one.yaml"))
    }
}

impl Drop for Edited {
    fn drop(&mut self) {
        if let Some(parent) = self.dir.parent() {
            let _ = std::fs::remove_dir_all(parent);
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create temp dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let path = entry.expect("dir entry").path();
        let target = to.join(path.file_name().expect("file name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy fixture file");
        }
    }
}

/// The files whose text differs, and the lines only the edited output has.
fn changes(
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> (Vec<String>, Vec<String>) {
    let files: Vec<String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .cloned()
        .collect();
    let mut added = Vec::new();
    for f in &files {
        let old: std::collections::BTreeSet<&str> = before
            .get(f)
            .map(|t| t.lines().collect())
            .unwrap_or_default();
        added.extend(
            after[f]
                .lines()
                .filter(|l| !old.contains(l))
                .map(|l| l.trim().to_owned()),
        );
    }
    (files, added)
}

#[test]
fn changing_a_media_type_version_changes_code_and_docs() {
    let before = generate(&fixture("operations").join("ruckus-one.yaml"));
    let edited = Edited::new(
        "operations",
        "demo/calls.yaml",
        "application/vnd.ruckus.v1.1+json",
        "application/vnd.ruckus.v1.2+json",
    );
    let after = edited.generate();
    let (files, added) = changes(&before, &after);
    assert_eq!(
        files,
        vec![
            "docs/demo/calls.md",
            "fixture-operations/src/demo/calls.rs",
            "fixture-operations/src/demo/calls/requests.rs",
            "fixture-operations/src/demo/mod.rs",
            "fixture-operations/tests/corpus/demo_calls.rs",
        ],
        "only the area's code, docs and decode table move, and the API's shared version enums"
    );
    assert!(
        added
            .iter()
            .any(|l| l == "content_type: Some(\"application/vnd.ruckus.v1.2+json\"),"),
        "{added:#?}"
    );
    assert!(
        added
            .iter()
            .any(|l| l == "accept: \"application/vnd.ruckus.v1.2+json\","),
        "{added:#?}"
    );
    assert!(
        added.iter().any(|l| l == "V1_2,"),
        "the shared version enum gains V1_2: {added:#?}"
    );
    assert!(
        added.iter().any(|l| l
            .contains("-> ruckus_one_runtime::Call<'a, Widget, super::versions::V1OrV1_2OrV2>")),
        "the operation's method names the enum with V1_2: {added:#?}"
    );
    assert!(
        added
            .iter()
            .any(|l| l.starts_with("| v1.2 | `application/vnd.ruckus.v1.2+json`")),
        "{added:#?}"
    );
    assert_ne!(
        render(&before),
        render(&after),
        "the operations snapshot would fail"
    );
}

#[test]
fn changing_a_deprecation_changes_code_and_docs() {
    let before = generate(&fixture("operations").join("ruckus-one.yaml"));
    let edited = Edited::new(
        "operations",
        "demo/calls.yaml",
        "removal: 2025-06-30",
        "removal: 2026-01-31",
    );
    let (files, added) = changes(&before, &edited.generate());
    assert_eq!(
        files,
        vec!["docs/demo/calls.md", "fixture-operations/src/demo/calls.rs"]
    );
    assert!(
        added
            .iter()
            .any(|l| l == "#[deprecated(note = \"Use query_widgets. (removal: 2026-01-31)\")]"),
        "{added:#?}"
    );

    // Deprecating a stable operation adds the attribute and changes the docs' lifecycle column.
    let edited = Edited::new(
        "operations",
        "demo/calls.yaml",
        "  - id: get_widget\n    name: Get Widget\n",
        "  - id: get_widget\n    name: Get Widget\n    lifecycle:\n      status: deprecated\n      note: Use the v2 widget.\n",
    );
    let (_, added) = changes(&before, &edited.generate());
    assert!(
        added
            .iter()
            .any(|l| l == "#[deprecated(note = \"Use the v2 widget.\")]"),
        "{added:#?}"
    );
    assert!(
        added
            .iter()
            .any(|l| l.contains("`/widgets/{widgetId}` | deprecated |")),
        "{added:#?}"
    );
}

#[test]
fn removed_operations_are_documented_but_not_generated() {
    let files = generate(&fixture("operations").join("ruckus-one.yaml"));
    let code = &area_code(&files, "fixture-operations/src/demo/calls.rs");
    assert!(
        !code.contains("pub fn query_widgets_v2"),
        "removed operation must not be generated"
    );
    assert!(code.contains(
        "`POST /widgets/query/v2` (Query Widgets v2): removed: v2 and v3 variants were removed."
    ));
    let docs = &files["docs/demo/calls.md"];
    assert!(docs.contains("| [`query_widgets_v2`](#query-widgets-v2) Query Widgets v2 | POST | `/widgets/query/v2` | removed |"));
}

#[test]
fn every_generated_file_starts_with_the_preamble() {
    for name in ["shapes", "operations", "unions"] {
        for (path, text) in generate(&fixture(name).join("ruckus-one.yaml")) {
            let first = text.lines().next().unwrap_or_default();
            assert!(
                first.contains(ruckus_codegen::PREAMBLE),
                "{name}/{path}: {first}"
            );
        }
    }
}

/// The formatting cache (`generate_all_cached`) changes nothing in the output: a first run
/// fills it, a second run reads it, and a run after a spec change mixes both; each equals an
/// uncached run of the same spec.
#[test]
fn cached_generation_equals_uncached_generation() {
    let temp = std::env::temp_dir().join(format!("ruckus-cached-gen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    let (spec, cache) = (temp.join("spec"), temp.join("cache"));
    let source = fixture("operations");
    for entry in walk(&source) {
        let to = spec.join(entry.strip_prefix(&source).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &to).unwrap();
    }
    let top = spec.join("ruckus-one.yaml");
    let cached = || ruckus_codegen::generate_all_cached(&top, Some(&cache)).expect("generates");
    let plain = || ruckus_codegen::generate_all(&top).expect("generates");
    assert_eq!(cached(), plain(), "first (filling) run");
    assert_eq!(cached(), plain(), "second (reading) run");
    let area = spec.join("demo/calls.yaml");
    let text = std::fs::read_to_string(&area).unwrap();
    std::fs::write(
        &area,
        text.replacen("name: Get Widget", "name: Get One Widget", 1),
    )
    .unwrap();
    let after = cached();
    assert_eq!(after, plain(), "run after a change");
    assert!(render(&after).contains("Get One Widget"));
    let _ = std::fs::remove_dir_all(&temp);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
