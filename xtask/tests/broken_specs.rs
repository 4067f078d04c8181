//! End-to-end tests of the `xtask` binary on the broken-spec fixtures under `tests/fixtures/broken/`.
//!
//! `base/` there is a valid spec. Every `cases/<name>.yaml` is one broken spec: the diagnostic it must
//! produce and the edits that put its one problem into a copy of the base. Each case is materialised
//! in a fresh temp dir and must be rejected with exactly one diagnostic at the expected file and line,
//! leaving the output directory and everything around it (the spec included) untouched. The base must
//! generate deterministically, pass `check`, and be listed by `list`.
//!
//! With `BROKEN_SPEC_KEEP=<dir>` in the environment, the materialised cases are also written to
//! `<dir>/<name>/`, so that one can be run alone with `cargo xtask generate --spec <dir>/<name>/...`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

mod broken_case;

use broken_case::{Case, Expect, inside};

/// The valid spec every case is derived from.
const BASE: &str = "base";
/// The crate name of the base spec (its generated files live under this directory).
const BASE_CRATE: &str = "fixture-broken";
/// The top-level file of a spec directory.
const TOP: &str = "ruckus-one.yaml";
/// The case files, `<name>.yaml` each.
const CASES: &str = "cases";
/// The environment variable naming a directory to write the materialised cases to.
const KEEP_ENV: &str = "BROKEN_SPEC_KEEP";

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

/// Every entry of `cases/` by case name, with the parsed case or what is wrong with the entry.
fn cases() -> Vec<(String, Result<Case, String>)> {
    let dir = fixtures().join(CASES);
    let mut out: Vec<(String, Result<Case, String>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("dir entry").path();
            let file_name = path
                .file_name()
                .expect("has a name")
                .to_string_lossy()
                .into_owned();
            match file_name.strip_suffix(".yaml") {
                Some(name)
                    if path.is_file()
                        && !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') =>
                {
                    (name.to_owned(), parse_case(&path))
                }
                _ => (
                    file_name,
                    Err(format!(
                        "not a case: a case is a file `{CASES}/<snake_case_name>.yaml`"
                    )),
                ),
            }
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn parse_case(path: &Path) -> Result<Case, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("read {}: {e}", path.display()))?;
    if !text.starts_with("# ") {
        return Err("the first line must be a `# ` comment saying what is wrong".to_owned());
    }
    serde_yaml::from_str(&text).map_err(|e| format!("invalid case file: {e}"))
}

/// Copies `from` (a directory tree of files) to `to`, which must not exist yet.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display()))
    {
        let path = entry.expect("dir entry").path();
        let target = to.join(path.file_name().expect("has a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target)
                .unwrap_or_else(|e| panic!("copy {} to {}: {e}", path.display(), target.display()));
        }
    }
}

/// Writes the broken spec of `case` to `dir` (which must not exist yet): a copy of the base, edited.
fn materialise(case: &Case, dir: &Path) -> Result<(), String> {
    copy_dir(&fixtures().join(BASE), dir);
    for (i, edit) in case.edits.iter().enumerate() {
        edit.apply(dir)
            .map_err(|e| format!("edit {} (`{}`): {e}", i + 1, edit.file))?;
    }
    Ok(())
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

/// Materialises one case and runs `generate` on it; returns what is wrong with the result (empty when
/// right).
fn run_case(name: &str, case: &Case) -> Vec<String> {
    let tmp = TempDir::new(name);
    let dir = tmp.path().join("spec");
    if let Err(e) = materialise(case, &dir) {
        return vec![e];
    }
    let spec = dir.join(TOP);
    // The output directory sits beside the spec inside the temp dir, so that writes beside it, and
    // to the spec, are caught too.
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
    let expect = &case.expect;
    let prefix = format!(
        "error: {}:{}: ",
        dir.join(&expect.file).display(),
        expect.line
    );
    if !stderr
        .lines()
        .any(|l| l.starts_with(&prefix) && l[prefix.len()..].contains(&expect.message))
    {
        problems.push(format!(
            "no line `{}...{}...` (spec dir shortened)",
            prefix.replace(&format!("{}/", dir.display()), ""),
            expect.message
        ));
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
        let shown = stderr.replace(&format!("{}/", dir.display()), "");
        problems.push(format!(
            "stderr (spec dir shortened):\n{}",
            shown.trim_end()
        ));
    }
    problems
}

#[test]
fn every_broken_spec_is_rejected_at_the_right_line_and_writes_nothing() {
    let cases = cases();
    assert!(!cases.is_empty(), "no cases under {CASES}/");
    let mut failures = Vec::new();
    for (name, case) in &cases {
        let (expected, problems) = match case {
            Ok(case) => (
                format!(
                    " (expected {}:{}: ...{}...)",
                    case.expect.file, case.expect.line, case.expect.message
                ),
                run_case(name, case),
            ),
            Err(e) => (String::new(), vec![e.clone()]),
        };
        if !problems.is_empty() {
            failures.push(format!(
                "{name}{expected}:\n  - {}",
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
        cases.len(),
        failures.join("\n\n")
    );
}

/// The cases are whatever `cases/` holds, so none can be left out; each must be well formed, apply
/// to the base, change it, and point at a line that exists. Also writes the materialised cases to
/// `$BROKEN_SPEC_KEEP/<name>/` when that is set.
#[test]
fn every_case_file_is_well_formed_and_applies_to_the_base() {
    let mut entries: Vec<String> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures/broken exists")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        ["README.md", BASE, CASES],
        "tests/fixtures/broken holds only the README, the base and the case files"
    );
    let keep = std::env::var_os(KEEP_ENV).map(PathBuf::from);
    let base = snapshot(&fixtures().join(BASE));
    let mut failures = Vec::new();
    for (name, case) in cases() {
        let check = || -> Result<(), String> {
            let case = case?;
            let tmp = TempDir::new(&name);
            let dir = tmp.path().join("spec");
            materialise(&case, &dir)?;
            if snapshot(&dir) == base {
                return Err("the edits leave the base unchanged".to_owned());
            }
            let Expect {
                file,
                line,
                message,
            } = &case.expect;
            let text = std::fs::read_to_string(inside(&dir, file)?)
                .map_err(|e| format!("expect.file `{file}`: {e}"))?;
            let lines = text.lines().count().max(1);
            if !(1..=lines).contains(line) {
                return Err(format!(
                    "expect.line {line} is not a line of `{file}` (1..={lines})"
                ));
            }
            if message.trim().is_empty() {
                return Err("expect.message is empty".to_owned());
            }
            if let Some(keep) = &keep {
                let dest = keep.join(&name);
                if dest.exists() {
                    let ours = dest.join(TOP).is_file()
                        || std::fs::read_dir(&dest).is_ok_and(|mut d| d.next().is_none());
                    if !ours {
                        return Err(format!(
                            "{KEEP_ENV}: {} exists and is not a materialised case; not replacing it",
                            dest.display()
                        ));
                    }
                    std::fs::remove_dir_all(&dest)
                        .map_err(|e| format!("remove {}: {e}", dest.display()))?;
                }
                std::fs::create_dir_all(keep)
                    .map_err(|e| format!("create {}: {e}", keep.display()))?;
                materialise(&case, &dest)?;
            }
            Ok(())
        };
        if let Err(e) = check() {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case files are wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
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

    let rel = format!("{BASE_CRATE}/src/demo/items/types.rs");
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
            "api\tid\tname\tmethod\tpath\tstatus\tprovenance\tsuccess\trequest_type\tresponse_type\tcontent_types\taccepts\tdefault_version\tpaging\titem_type\tasync",
            "demo\tlist_items\tList Items\tGET\t/items\tstable\tdocumented\t200\t\tVec<Item>\t\tapplication/json\tapplication/json\t\t\tno",
            "demo\tget_item\tGet Item\tGET\t/items/{itemId}\tstable\tdocumented\t200\t\tItem\t\tapplication/json\tapplication/json\t\t\tno",
            // A union response is listed by its type name like any other named type.
            "demo\tget_outline\tGet Outline\tGET\t/outlines/{outlineId}\tstable\tdocumented\t200\t\tOutline\t\tapplication/json\tapplication/json\t\t\tno",
            "demo\tlist_labels\tList Labels\tGET\t/labels\tstable\tdocumented\t200\t\tVec<Label>\t\tapplication/json\tapplication/json\t\t\tno",
            "demo\tread_label\tGet label\tGET\t/labels/{labelId}\tstable\treference: demo_api-1.0.0.yaml getLabel\t200\t\tLabel\t\tapplication/json\tapplication/json\t\t\tno",
        ],
        "unexpected listing:\n{stdout}"
    );
    assert!(snapshot(tmp.path()).is_empty(), "list wrote files");
}
