//! End-to-end tests of the `xtask` binary on the fixture specs under `tests/fixtures/broken/`.
//!
//! Every broken case must be rejected with exactly one diagnostic at the expected file and line,
//! and must leave the output directory (and everything around it) untouched. The valid base spec
//! of those cases must generate deterministically, pass `check`, and be listed by `list`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One broken fixture and the diagnostic it must produce.
struct Case {
    /// Directory under `tests/fixtures/broken/`.
    name: &'static str,
    /// The file the diagnostic names, relative to the case directory.
    file: &'static str,
    /// The line it names (the wrong element itself, not merely a nearby line).
    line: usize,
    /// A substring of its message.
    message: &'static str,
}

const fn case(name: &'static str, file: &'static str, line: usize, message: &'static str) -> Case {
    Case {
        name,
        file,
        line,
        message,
    }
}

const ITEMS: &str = "demo/items.yaml";
const COMMON: &str = "demo/common.yaml";
const TOP: &str = "ruckus-one.yaml";

#[rustfmt::skip]
const CASES: &[Case] = &[
    // YAML syntax and shape (serde) errors.
    case("yaml_syntax", ITEMS, 19, "invalid YAML: did not find expected ',' or ']'"),
    case("yaml_syntax_top_level", TOP, 25, "invalid YAML: did not find expected ',' or ']'"),
    case("bad_indentation", ITEMS, 23, "invalid YAML: did not find expected"),
    case("truncated", ITEMS, 20, "missing field `responses`"),
    case("truncated_dangling_id", ITEMS, 20, "missing field `name`"),
    case("empty_area_file", ITEMS, 1, "the file is empty"),
    case("unknown_key", ITEMS, 22, "unknown field `methd`"),
    case("unknown_key_top_level", TOP, 24, "unknown field `media_vendr`"),
    case("unknown_key_in_inline_type", ITEMS, 15, "unknown field `requried`"),
    case("unknown_key_in_enum_value", COMMON, 9, "unknown field `descripton`"),
    case("bad_inline_type", ITEMS, 11, "unknown field `enum`, expected one of `array`"),
    // Files and areas.
    case("missing_area_file", TOP, 34, "extras.yaml` does not exist"),
    case("area_listed_twice", TOP, 34, "area `common` is listed twice"),
    case("area_name_mismatch", ITEMS, 1, "`area: things` does not match the file name `items.yaml`"),
    // Names.
    case("crate_name_escapes_out_dir", TOP, 4, "`../escaped`"),
    case("api_name_reserved", TOP, 16, "`runtime`"),
    case("bad_identifier", ITEMS, 10, "field name `--` cannot become a Rust identifier"),
    case("bad_type_name", COMMON, 4, "type name `color_value` must be an UpperCamelCase Rust identifier"),
    case("type_name_shadows_std", COMMON, 4, "`Result`"),
    case("operation_id_reserved", ITEMS, 20, "`new`"),
    // Types.
    case("unknown_type", ITEMS, 11, "unknown type `Colour`"),
    case("unknown_type_in_array", ITEMS, 19, "unknown type `Itme`"),
    case("duplicate_type", COMMON, 9, "duplicate type `Item` in API `demo`"),
    case("duplicate_field", ITEMS, 12, "duplicate field `id` in `Item`"),
    case("duplicate_enum_value", COMMON, 9, "duplicate enum value `red` in `Color`"),
    case("recursive_type", ITEMS, 4, "type `Item` contains itself without an array or map in between"),
    // Operations.
    case("duplicate_operation_id", COMMON, 10, "duplicate operation id `list_items`"),
    case("duplicate_operation_id_same_area", ITEMS, 20, "duplicate operation id `list_items`"),
    case("duplicate_route", ITEMS, 20, "`GET /items` is also operation `list_items`"),
    case("bad_method", ITEMS, 22, "method `FETCH` must be GET, POST, PUT, PATCH or DELETE"),
    case("path_param_undeclared", ITEMS, 23, "path parameter `partId` of `/items/{itemId}/parts/{partId}` is not declared under `parameters`"),
    case("path_param_unused", ITEMS, 18, "path parameter `itemId` is declared but `/items` has no `{itemId}`"),
    case("bad_path_placeholder", ITEMS, 23, "path `/items/{itemId}/{}` has an invalid placeholder `{}`"),
    case("no_success_response", ITEMS, 28, "operation `get_item` declares no 2xx response"),
    case("wrong_media_vendor", ITEMS, 33, "media type `application/vnd.other.v2+json` must be application/json or application/vnd.ruckus.<version>+json"),
    case("unknown_error_family", ITEMS, 31, "unknown error family `nope`"),
    // Lifecycle and provenance.
    case("deprecated_without_note", ITEMS, 24, "a deprecated operation needs a `note`"),
    case("removal_date_on_stable", ITEMS, 26, "a stable operation cannot have a removal date"),
    case("bad_removal_date", ITEMS, 27, "removal date `31.01.2030` must be YYYY-MM-DD"),
    case("bad_provenance", ITEMS, 24, "provenance `guessed` must be `documented`, `inferred: <reason>` or `reference: <source>`"),
    case("type_provenance_after_fields", ITEMS, 13, "provenance `guessed` must be"),
];

/// The valid spec every case is derived from.
const BASE: &str = "base";
/// The crate name of the base spec (its generated files live under this directory).
const BASE_CRATE: &str = "fixture-broken";

/// Hand-written files put in the output directory before a run on a broken spec; they must survive.
const SENTINELS: &[(&str, &str)] = &[
    ("keep.txt", "kept by a failed generate\n"),
    (
        "ruckus-one/src/lib.rs",
        "// not generator output; must survive a failed generate\n",
    ),
    (
        "fixture-broken/src/lib.rs",
        "// stale output of the base crate; must survive a failed generate\n",
    ),
    ("docs/README.md", "stale docs\n"),
];

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
}

fn fixtures() -> PathBuf {
    workspace_root().join("tests/fixtures/broken")
}

/// A fresh directory under the system temp dir, removed on drop (also when a test panics).
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "xtask-broken-specs-{}-{n}-{label}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every directory (value `None`) and file (its bytes) under `dir`, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("read {}: {e}", d.display())) {
            let path = entry.expect("dir entry").path();
            let rel = path.strip_prefix(dir).expect("under dir").to_path_buf();
            if path.is_dir() {
                stack.push(path);
                out.insert(rel, None);
            } else {
                let bytes =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
                out.insert(rel, Some(bytes));
            }
        }
    }
    out
}

/// Runs the real `xtask` binary with `args`, from `cwd`.
fn xtask(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run the xtask binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `generate` on one broken case; returns what is wrong with the result (empty when right).
fn run_case(case: &Case) -> Vec<String> {
    let dir = fixtures().join(case.name);
    let spec = dir.join(TOP);
    let tmp = TempDir::new(case.name);
    // The output directory sits inside the temp dir so that writes beside it are caught too.
    let out = tmp.path().join("out");
    for (rel, content) in SENTINELS {
        let path = out.join(rel);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("create sentinel dir");
        std::fs::write(&path, content).expect("write sentinel");
    }
    let before = snapshot(tmp.path());

    let output = xtask(
        tmp.path(),
        &[
            "generate",
            "--spec",
            spec.to_str().expect("utf-8 path"),
            "--out",
            out.to_str().expect("utf-8 path"),
        ],
    );
    let stderr = text(&output.stderr);

    let mut problems = Vec::new();
    if output.status.success() {
        problems.push("exited successfully".to_owned());
    }
    if output.status.code() == Some(101) || stderr.contains("panicked") {
        problems.push("panicked".to_owned());
    }
    let prefix = format!("error: {}:{}: ", dir.join(case.file).display(), case.line);
    if !stderr
        .lines()
        .any(|l| l.starts_with(&prefix) && l[prefix.len()..].contains(case.message))
    {
        problems.push(format!("no line `{prefix}...{}...`", case.message));
    }
    let count = stderr.lines().filter(|l| l.starts_with("error: ")).count();
    if count != 1 {
        problems.push(format!(
            "{count} diagnostics for one problem, expected exactly 1"
        ));
    }
    let after = snapshot(tmp.path());
    if after != before {
        let mut keys: Vec<&PathBuf> = before.keys().chain(after.keys()).collect();
        keys.sort();
        keys.dedup();
        let changed: Vec<String> = keys
            .into_iter()
            .filter_map(|k| match (before.get(k), after.get(k)) {
                (None, Some(_)) => Some(format!("+{}", k.display())),
                (Some(_), None) => Some(format!("-{}", k.display())),
                (Some(x), Some(y)) if x != y => Some(format!("~{}", k.display())),
                _ => None,
            })
            .collect();
        problems.push(format!(
            "the temp dir changed (+added -removed ~modified): {}",
            changed.join(" ")
        ));
    }
    if !problems.is_empty() {
        let shown = stderr.replace(&format!("{}/", fixtures().display()), "");
        problems.push(format!(
            "stderr (fixture dir shortened):\n{}",
            shown.trim_end()
        ));
    }
    problems
}

#[test]
fn every_broken_spec_is_rejected_at_the_right_line_and_writes_nothing() {
    let mut failures = Vec::new();
    for case in CASES {
        let problems = run_case(case);
        if !problems.is_empty() {
            failures.push(format!(
                "{} (expected {}:{}: ...{}...):\n  - {}",
                case.name,
                case.file,
                case.line,
                case.message,
                problems
                    .iter()
                    .map(|p| p.replace('\n', "\n    "))
                    .collect::<Vec<_>>()
                    .join("\n  - ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} broken specs misbehave:\n\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_fixture_directory_has_a_row_and_every_row_a_directory() {
    let mut dirs: Vec<String> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures/broken exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .map(|p| {
            p.file_name()
                .expect("has a name")
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n != BASE)
        .collect();
    dirs.sort();
    let mut rows: Vec<String> = CASES.iter().map(|c| c.name.to_owned()).collect();
    rows.sort();
    let before = rows.len();
    rows.dedup();
    assert_eq!(rows.len(), before, "a case is listed twice in CASES");
    assert_eq!(dirs, rows, "fixture directories and CASES rows differ");
    for case in CASES {
        let dir = fixtures().join(case.name);
        assert!(dir.join(TOP).is_file(), "{}: no {TOP}", case.name);
        assert!(
            dir.join(case.file).is_file(),
            "{}: no {}",
            case.name,
            case.file
        );
    }
}

/// Generating the valid base twice gives the same bytes; `check` passes, then fails with a diff
/// once a generated file is edited.
#[test]
fn valid_spec_generates_deterministically_and_check_detects_edits() {
    let spec = fixtures().join(BASE).join(TOP);
    let spec = spec.to_str().expect("utf-8 path");
    let tmp = TempDir::new("valid");
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).expect("create out");
    let out_s = out.to_str().expect("utf-8 path");

    let first = xtask(tmp.path(), &["generate", "--spec", spec, "--out", out_s]);
    assert!(
        first.status.success(),
        "generate failed:\n{}",
        text(&first.stderr)
    );
    let generated = snapshot(&out);
    for rel in ["Cargo.toml", "src/lib.rs"] {
        let path = out.join(BASE_CRATE).join(rel);
        let content = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} was not written: {e}", path.display()));
        let first_line = content.lines().next().unwrap_or_default();
        assert!(
            first_line.contains("@generated") && first_line.contains("cargo xtask generate"),
            "first line of {rel} lacks the @generated marker: {first_line:?}"
        );
    }
    assert!(
        generated.values().filter(|v| v.is_some()).count() > 2,
        "expected more than Cargo.toml and lib.rs: {:?}",
        generated.keys().collect::<Vec<_>>()
    );

    let second = xtask(tmp.path(), &["generate", "--spec", spec, "--out", out_s]);
    assert!(
        second.status.success(),
        "second generate failed:\n{}",
        text(&second.stderr)
    );
    assert!(
        snapshot(&out) == generated,
        "a second generate changed the output"
    );

    let check = xtask(tmp.path(), &["check", "--spec", spec, "--out", out_s]);
    assert!(
        check.status.success(),
        "check failed on fresh output:\n{}",
        text(&check.stderr)
    );

    let rel = format!("{BASE_CRATE}/src/demo/items.rs");
    let edited = out.join(&rel);
    let mut content = std::fs::read_to_string(&edited).expect("read generated file");
    content = content.replacen("pub struct Item {", "pub struct Item { // hand edit", 1);
    content.push_str("// hand edit\n");
    std::fs::write(&edited, &content).expect("edit generated file");

    let stale = xtask(tmp.path(), &["check", "--spec", spec, "--out", out_s]);
    assert!(!stale.status.success(), "check passed on an edited file");
    let report = format!("{}{}", text(&stale.stdout), text(&stale.stderr));
    let names = |marker: &str| {
        report
            .lines()
            .any(|l| l.starts_with(marker) && l.trim_end().ends_with(&rel))
    };
    assert!(
        names("--- ") && names("+++ "),
        "no unified diff header naming {rel}:\n{report}"
    );
    assert!(
        report
            .lines()
            .any(|l| l.starts_with("-") && l.contains("hand edit")),
        "the diff does not show the edit:\n{report}"
    );
    assert!(
        report.lines().any(|l| l.starts_with("@@")),
        "no hunk header in the diff:\n{report}"
    );
    assert_eq!(
        std::fs::read_to_string(&edited).expect("read edited file"),
        content,
        "check modified the output"
    );
}

#[test]
fn list_prints_a_header_and_one_row_per_operation() {
    let spec = fixtures().join(BASE).join(TOP);
    let tmp = TempDir::new("list");
    let output = xtask(
        tmp.path(),
        &["list", "--spec", spec.to_str().expect("utf-8 path")],
    );
    assert!(
        output.status.success(),
        "list failed:\n{}",
        text(&output.stderr)
    );
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "api\tid\tname\tmethod\tpath\tstatus\tprovenance",
            "demo\tlist_items\tList Items\tGET\t/items\tstable\tdocumented",
            "demo\tget_item\tGet Item\tGET\t/items/{itemId}\tstable\tdocumented",
        ],
        "unexpected listing:\n{stdout}"
    );
    assert!(snapshot(tmp.path()).is_empty(), "list wrote files");
}
