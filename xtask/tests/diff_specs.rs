//! End-to-end tests of `cargo xtask diff` on the spec pairs under `tests/fixtures/diff/`.
//!
//! `base/` there is a valid spec. Every `cases/<name>.yaml` is one spec change: edits that turn a
//! copy of the base (after optional `setup` edits applied to both sides) into the changed spec, and
//! every change the diff must report (class, kind, subject, optionally a piece of the detail) with
//! the version bump. Each case is materialised in a fresh temp dir and compared with
//! `diff --base-spec before/... --spec after/... --json`; `--fail-on breaking` must fail exactly
//! when a change is breaking. The git mode (a revision as the base) runs on a throwaway repository.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;

/// One case file, `cases/<name>.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    expect: Expect,
    /// Applied to both sides first (a base state the change starts from).
    #[serde(default)]
    setup: Vec<Edit>,
    /// Applied to the changed side only.
    edits: Vec<Edit>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// `none`, `patch`, `minor` or `major`.
    bump: String,
    /// Every change the diff reports, in any order.
    changes: Vec<Expected>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    class: String,
    kind: String,
    subject: String,
    /// A piece of the change's detail text.
    #[serde(default)]
    detail: Option<String>,
}

/// `find` with `replace` (whole consecutive lines, found exactly once), or `write` (a whole file).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    file: String,
    find: Option<Lines>,
    replace: Option<Lines>,
    write: Option<Lines>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Lines {
    One(String),
    Many(Vec<String>),
}

impl Lines {
    fn get(&self) -> Vec<&str> {
        match self {
            Lines::One(line) => vec![line],
            Lines::Many(lines) => lines.iter().map(String::as_str).collect(),
        }
    }
}

impl Edit {
    fn apply(&self, dir: &Path) -> Result<(), String> {
        let rel = Path::new(&self.file);
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!("`{}` is not a plain relative path", self.file));
        }
        let path = dir.join(rel);
        let lines: Vec<String> = match (&self.find, &self.replace, &self.write) {
            (Some(find), Some(replace), None) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("read {}: {e}", self.file))?;
                let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
                let find = find.get();
                let at: Vec<usize> = (0..lines.len().saturating_sub(find.len() - 1))
                    .filter(|&i| lines[i..i + find.len()].iter().eq(find.iter().copied()))
                    .collect();
                let [i] = at[..] else {
                    return Err(format!(
                        "`find` {:?} must occur exactly once in {}, occurs {} times",
                        find[0],
                        self.file,
                        at.len()
                    ));
                };
                lines.splice(
                    i..i + find.len(),
                    replace.get().iter().map(|l| l.to_string()),
                );
                lines
            }
            (None, None, Some(content)) => content.get().iter().map(|l| l.to_string()).collect(),
            _ => return Err("an edit is `find` with `replace`, or `write`".to_owned()),
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("create dir: {e}"))?;
        }
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).map_err(|e| format!("write {}: {e}", self.file))
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .join("tests/fixtures/diff")
}

const TOP: &str = "ruckus-one.yaml";

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "xtask-diff-specs-{}-{n}-{label}",
            std::process::id()
        ));
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

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let path = entry.expect("dir entry").path();
        let target = to.join(path.file_name().expect("has a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy fixture file");
        }
    }
}

/// Every case by name, with the parsed case or what is wrong with its file.
fn cases() -> Vec<(String, Result<Case, String>)> {
    let dir = fixtures().join("cases");
    let mut out: Vec<(String, Result<Case, String>)> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/diff/cases exists")
        .map(|e| {
            let path = e.expect("dir entry").path();
            let name = path
                .file_stem()
                .expect("has a name")
                .to_string_lossy()
                .into_owned();
            let case = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    if !text.starts_with("# ") {
                        return Err("the first line must be a `# ` comment".to_owned());
                    }
                    serde_yaml::from_str(&text).map_err(|e| format!("invalid case file: {e}"))
                });
            (name, case)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Writes `before/` and `after/` of a case under `dir`.
fn materialise(case: &Case, dir: &Path) -> Result<(PathBuf, PathBuf), String> {
    let (before, after) = (dir.join("before"), dir.join("after"));
    for side in [&before, &after] {
        copy_dir(&fixtures().join("base"), side);
        for (i, e) in case.setup.iter().enumerate() {
            e.apply(side).map_err(|m| format!("setup {}: {m}", i + 1))?;
        }
    }
    for (i, e) in case.edits.iter().enumerate() {
        e.apply(&after)
            .map_err(|m| format!("edit {}: {m}", i + 1))?;
    }
    Ok((before.join(TOP), after.join(TOP)))
}

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

fn diff_json(cwd: &Path, before: &Path, after: &Path) -> Result<serde_json::Value, String> {
    let (b, a) = (before.to_str().unwrap(), after.to_str().unwrap());
    let out = xtask(cwd, &["diff", "--base-spec", b, "--spec", a, "--json"]);
    if !out.status.success() {
        return Err(format!("diff failed:\n{}", text(&out.stderr)));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("not JSON ({e}):\n{}", text(&out.stdout)))
}

/// What is wrong with one case (empty when right).
fn run_case(name: &str, case: &Case) -> Vec<String> {
    let tmp = TempDir::new(name);
    let (before, after) = match materialise(case, &tmp.0) {
        Ok(p) => p,
        Err(e) => return vec![e],
    };
    let report = match diff_json(&tmp.0, &before, &after) {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    let got: Vec<&serde_json::Value> = report["changes"].as_array().into_iter().flatten().collect();
    let key = |v: &serde_json::Value| {
        format!(
            "{} {} {}",
            v["class"].as_str().unwrap_or("?"),
            v["kind"].as_str().unwrap_or("?"),
            v["subject"].as_str().unwrap_or("?")
        )
    };
    let got_keys: BTreeSet<String> = got.iter().map(|v| key(v)).collect();
    let want_keys: BTreeSet<String> = case
        .expect
        .changes
        .iter()
        .map(|e| format!("{} {} {}", e.class, e.kind, e.subject))
        .collect();
    if got_keys != want_keys || got.len() != case.expect.changes.len() {
        let shown: Vec<String> = got
            .iter()
            .map(|v| format!("{} ({})", key(v), v["detail"].as_str().unwrap_or("")))
            .collect();
        problems.push(format!(
            "changes differ\n  expected: {want_keys:?}\n  reported:\n    {}",
            shown.join("\n    ")
        ));
    }
    for e in &case.expect.changes {
        let Some(piece) = &e.detail else { continue };
        let found = got.iter().any(|v| {
            v["kind"] == e.kind.as_str()
                && v["subject"] == e.subject.as_str()
                && v["detail"]
                    .as_str()
                    .is_some_and(|d| d.contains(piece.as_str()))
        });
        if !found {
            problems.push(format!(
                "no {} change of {} whose detail has {piece:?}",
                e.kind, e.subject
            ));
        }
    }
    if report["bump"] != case.expect.bump.as_str() {
        problems.push(format!(
            "bump {} (expected {})",
            report["bump"], case.expect.bump
        ));
    }
    let breaking = case.expect.changes.iter().any(|e| e.class == "breaking");
    let (b, a) = (before.to_str().unwrap(), after.to_str().unwrap());
    let gate = xtask(
        &tmp.0,
        &[
            "diff",
            "--base-spec",
            b,
            "--spec",
            a,
            "--fail-on",
            "breaking",
        ],
    );
    if gate.status.success() == breaking {
        problems.push(format!(
            "--fail-on breaking exited {:?}",
            gate.status.code()
        ));
    }
    problems
}

#[test]
fn every_spec_change_is_reported_with_its_class_and_bump() {
    let cases = cases();
    assert!(cases.len() >= 25, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for (name, case) in &cases {
        let problems = match case {
            Ok(case) => run_case(name, case),
            Err(e) => vec![e.clone()],
        };
        if !problems.is_empty() {
            failures.push(format!("{name}:\n  - {}", problems.join("\n  - ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Every rule of the classification has a case; the edits of each case change the spec.
#[test]
fn the_cases_cover_every_class_and_change_the_base() {
    let mut classes = BTreeSet::new();
    let mut bumps = BTreeSet::new();
    for (name, case) in cases() {
        let case = case.unwrap_or_else(|e| panic!("{name}: {e}"));
        let tmp = TempDir::new(&name);
        let (before, after) = materialise(&case, &tmp.0).unwrap_or_else(|e| panic!("{name}: {e}"));
        let read = |top: &Path| {
            let dir = top.parent().expect("spec dir");
            let mut files = Vec::new();
            for sub in ["", "demo"] {
                for e in std::fs::read_dir(dir.join(sub))
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    files.push((
                        e.path().strip_prefix(dir).unwrap().to_owned(),
                        std::fs::read(e.path()).ok(),
                    ));
                }
            }
            files.sort();
            files
        };
        assert_ne!(
            read(&before),
            read(&after),
            "{name}: the edits change nothing"
        );
        classes.extend(case.expect.changes.iter().map(|e| e.class.clone()));
        bumps.insert(case.expect.bump.clone());
    }
    assert_eq!(
        classes,
        ["breaking", "compatible", "deprecation"]
            .map(String::from)
            .into(),
    );
    assert_eq!(
        bumps,
        ["major", "minor", "none", "patch"].map(String::from).into()
    );
}

/// The Markdown report starts with the summary table, then groups the changes by API area.
#[test]
fn markdown_puts_the_summary_first_and_groups_by_area() {
    let (_, case) = cases()
        .into_iter()
        .find(|(n, _)| n == "field_removed")
        .expect("case field_removed");
    let case = case.expect("well formed");
    let tmp = TempDir::new("markdown");
    let (before, after) = materialise(&case, &tmp.0).expect("materialise");
    let out = xtask(
        &tmp.0,
        &[
            "diff",
            "--base-spec",
            before.to_str().unwrap(),
            "--spec",
            after.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = text(&out.stdout);
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[0].starts_with("## Spec changes: `"), "{md}");
    assert_eq!(
        &lines[2..8],
        [
            "| Class | Changes |",
            "|---|---:|",
            "| breaking | 1 |",
            "| deprecation | 0 |",
            "| compatible | 0 |",
            "| **version bump** | **minor** |",
        ],
        "{md}"
    );
    assert!(
        md.contains("needs a **minor** bump, to 0.4.0. Pre-1.0 rules"),
        "{md}"
    );
    assert!(md.contains("\n### `demo` / `items`\n"), "{md}");
    assert!(
        md.contains("| breaking | type `Item` | field `label` removed |"),
        "{md}"
    );
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

/// With a revision, the spec directory as committed there is the base; a revision whose spec
/// does not load is reported and skipped (exit 0), or fails the gate with `--fail-on breaking`;
/// an unknown revision is an error.
#[test]
fn a_git_revision_is_the_base() {
    let tmp = TempDir::new("git");
    let repo = tmp.0.join("repo");
    copy_dir(&fixtures().join("base"), &repo.join("spec"));
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    let items = repo.join("spec/demo/items.yaml");
    let text_before = std::fs::read_to_string(&items).expect("read items");
    let edited = text_before.replace(
        "    lifecycle:\n      status: deprecated\n      note: Archive items instead.\n",
        "",
    );
    assert_ne!(edited, text_before);
    std::fs::write(&items, &edited).expect("edit items");

    let spec = "spec/ruckus-one.yaml";
    let out = xtask(&repo, &["diff", "--spec", spec, "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        report["base"].as_str().unwrap().starts_with("HEAD ("),
        "{report}"
    );
    assert_eq!(
        report["changes"][0]["kind"], "operation_undeprecated",
        "{report}"
    );

    std::fs::write(
        repo.join("spec/ruckus-one.yaml"),
        "crate: [not, a, mapping]\n",
    )
    .expect("break");
    git(
        &repo,
        &["commit", "-q", "-am", "a spec this generator cannot load"],
    );
    std::fs::copy(
        fixtures().join("base").join(TOP),
        repo.join("spec").join(TOP),
    )
    .expect("restore");
    // A report: the base that does not load is said and skipped.
    let out = xtask(&repo, &["diff", "HEAD", "--spec", spec]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("does not load with this generator"), "{said}");
    assert!(said.contains("spec/ruckus-one.yaml:1"), "{said}");
    // A gate fails closed: nothing compared is no proof that nothing breaks.
    let out = xtask(
        &repo,
        &["diff", "HEAD", "--spec", spec, "--fail-on", "breaking"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let said = text(&out.stderr);
    assert!(said.contains("does not load with this generator"), "{said}");
    assert!(said.contains("--fail-on breaking"), "{said}");

    let out = xtask(&repo, &["diff", "HEAD~1", "--spec", spec]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("| breaking | 0 |"),
        "{}",
        text(&out.stdout)
    );

    let out = xtask(&repo, &["diff", "no-such-revision", "--spec", spec]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("`no-such-revision` is not a commit"),
        "{}",
        text(&out.stderr)
    );
}

/// `--base-spec` naming a spec that does not load: skipped by the report, a failure of the gate.
#[test]
fn the_breaking_gate_fails_closed_when_the_base_does_not_load() {
    let tmp = TempDir::new("closed");
    let broken = tmp.0.join("broken");
    copy_dir(&fixtures().join("base"), &broken);
    std::fs::write(broken.join(TOP), "crate: [not, a, mapping]\n").expect("break");
    let base = fixtures().join("base").join(TOP);
    let (b, a) = (
        broken.join(TOP).display().to_string(),
        base.display().to_string(),
    );
    let out = xtask(&tmp.0, &["diff", "--base-spec", &b, "--spec", &a]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = xtask(
        &tmp.0,
        &[
            "diff",
            "--base-spec",
            &b,
            "--spec",
            &a,
            "--fail-on",
            "breaking",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("does not load"),
        "{}",
        text(&out.stderr)
    );
}

/// `diff HEAD` on a spec that names a file outside its directory (a crate guide `../README.md`,
/// as the workspace's spec does): the copy at the revision holds that file too, so the base loads
/// and an operation removed since is reported as breaking (and fails the gate).
#[test]
fn a_revision_whose_spec_names_a_file_outside_its_directory_is_compared() {
    let tmp = TempDir::new("guide");
    let repo = tmp.0.join("repo");
    copy_dir(&fixtures().join("base"), &repo.join("spec"));
    let top = repo.join("spec").join(TOP);
    let top_text = std::fs::read_to_string(&top).expect("read top");
    let with_guide = top_text.replacen(
        "crate:\n  name: fixture-diff\n",
        "crate:\n  name: fixture-diff\n  guide: ../README.md\n",
        1,
    );
    assert_ne!(with_guide, top_text);
    std::fs::write(&top, with_guide).expect("name the guide");
    std::fs::write(
        repo.join("README.md"),
        "# Repo\n\n<!-- crate-guide:start -->\nThe guide.\n<!-- crate-guide:end -->\n",
    )
    .expect("write the guide");
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "base"]);

    // The working tree drops `delete_item`: the last operation of the area.
    let items = repo.join("spec/demo/items.yaml");
    let before = std::fs::read_to_string(&items).expect("read items");
    let at = before.find("  - id: delete_item\n").expect("delete_item");
    std::fs::write(&items, &before[..at]).expect("remove the operation");

    let spec = "spec/ruckus-one.yaml";
    let out = xtask(&repo, &["diff", "HEAD", "--spec", spec, "--json"]);
    assert!(out.status.success(), "{}", text_of(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let removed = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .find(|c| c["kind"] == "operation_removed")
        .unwrap_or_else(|| panic!("no removal reported: {report}"));
    assert_eq!(removed["class"], "breaking", "{report}");
    assert!(removed.to_string().contains("delete_item"), "{removed}");

    let out = xtask(
        &repo,
        &["diff", "HEAD", "--spec", spec, "--fail-on", "breaking"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(
        !text(&out.stdout).contains("does not load"),
        "{}",
        text_of(&out)
    );
}

fn text_of(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}
