//! End-to-end tests of `cargo xtask audit` (and the wire columns of `list`) on the fixture spec
//! `tests/fixtures/audit/` and the fixture descriptions `tests/fixtures/openapi/`: each `demo`
//! operation differs from its description in exactly one way, so every finding kind appears
//! once; the `other` API is listed by no description and is skipped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
}

fn spec() -> String {
    path_arg(&workspace_root().join("tests/fixtures/audit/ruckus-one.yaml"))
}

fn descriptions() -> PathBuf {
    workspace_root().join("tests/fixtures/openapi")
}

fn path_arg(p: &Path) -> String {
    p.to_str().expect("utf-8 path").to_owned()
}

/// Runs the real `xtask` binary with `args`.
fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("run the xtask binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `audit` on the fixtures with `extra` arguments; it must succeed.
fn audit(extra: &[&str]) -> (String, String) {
    let (spec, dir) = (spec(), path_arg(&descriptions()));
    let mut args = vec!["audit", "--spec", &spec, "--openapi", &dir];
    args.extend(extra);
    let out = xtask(&args);
    assert!(
        out.status.success(),
        "audit {extra:?} failed:\n{}",
        text(&out.stderr)
    );
    (text(&out.stdout), text(&out.stderr))
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("xtask-audit-{}-{n}-{label}", std::process::id()));
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

/// Every finding, one TSV line each, in spec order then kind order, missing operations last.
const EXPECTED_TSV: &[&str] = &[
    "area\tid\tmethod\tpath\tkind\tspec\tdescription\tsource",
    "demo/widgets\tdelete_widget\tDELETE\t/demo/widgets/{widgetId}\tstatus\t204\t202\tdemo.yaml deleteWidget",
    "demo/widgets\tpatch_widget\tPATCH\t/demo/widgets/{widgetId}\trequest-media\tapplication/json\tapplication/merge-patch+json\tdemo.yaml patchWidget",
    "demo/widgets\tget_widget_report\tGET\t/demo/widgets/{widgetId}/report\tresponse-media\ttext/csv\ttext/plain\tdemo.yaml getWidgetReport",
    "demo/widgets\tupdate_widget\tPUT\t/demo/widgets/{widgetId}\tversions\tv1\tv1, v1.1\tdemo.yaml updateWidget",
    "demo/widgets\tcreate_widget\tPOST\t/demo/widgets\trequest-body\tbody (optional)\tbody (required)\tdemo.yaml createWidget",
    "demo/widgets\tput_widget_picture\tPUT\t/demo/widgets/{widgetId}/picture\tcontent-kind\tresponse empty\tresponse json\tdemo.yaml putWidgetPicture",
    "demo/widgets\tquery_widgets\tPOST\t/demo/widgets/query\tpaging\tquery_body:data\tquery_body:content\tdemo.yaml queryWidgets",
    "demo/widgets\tget_gadget\tGET\t/demo/gadgets/{gadgetId}\terror-body\terrors_array (demo)\tstatus_message\tdemo.yaml getGadget",
    "demo/widgets\tping\tGET\t/demo/ping\tresponse-media\tapplication/json\t*/* [info: */* is any]\tdemo.yaml ping",
    "demo/widgets\tstart_gizmo_scan\tPOST\t/demo/gizmos/scans\tunlisted\t\t\t",
    "\t\tGET\t/demo/sprockets\tmissing\t\tlistSprockets\textra.yaml listSprockets",
];

#[test]
fn tsv_lists_each_finding_kind_once_deterministically() {
    let (stdout, stderr) = audit(&["--tsv"]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, EXPECTED_TSV, "unexpected findings:\n{stdout}");
    assert!(
        stderr.contains("`other` (1 spec operation(s)) skipped"),
        "no note that `other` was skipped:\n{stderr}"
    );
    let (again, _) = audit(&["--tsv"]);
    assert_eq!(again, stdout, "a second run printed something else");
}

const SUMMARY_ROW: &str = "| demo/widgets | 13 | 12 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |";
const TOTALS: &str = "Totals: 13 spec operations, 12 matched, 1 unlisted, 8 disagreements, 1 info; 12 description operations in 2 files, 1 missing from the spec.";

#[test]
fn markdown_report_has_summary_disagreements_unlisted_and_missing() {
    let (md, _) = audit(&[]);
    let lines: Vec<&str> = md.lines().collect();
    let header = "| area | spec ops | matched | unlisted | status | request-media | response-media | versions | request-body | content-kind | paging | error-body | info |";
    for line in [
        header,
        SUMMARY_ROW,
        TOTALS,
        "Skipped: `other` (1 spec operation(s)): no description lists any of its operations.",
        "| query_widgets | `POST /demo/widgets/query` | paging | query_body:data | query_body:content | demo.yaml queryWidgets |",
        "- start_gizmo_scan `POST /demo/gizmos/scans`",
        "### extra.yaml (1)",
        "- `GET /demo/sprockets` listSprockets",
    ] {
        assert!(lines.contains(&line), "no line {line:?} in:\n{md}");
    }
    let sections: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("## "))
        .collect();
    assert_eq!(
        sections,
        [
            "## Summary",
            "## Disagreements",
            "## Unlisted spec operations",
            "## Description operations missing from the spec",
            "## Services and rate limits"
        ]
    );
    // Nine rows (eight disagreements, one info) under the one area heading.
    let rows = lines
        .iter()
        .filter(|l| l.starts_with("| ") && l.contains("demo.yaml"));
    assert_eq!(rows.count(), 9, "{md}");
}

#[test]
fn summary_prints_only_the_table_and_totals() {
    let (summary, _) = audit(&["--summary"]);
    assert!(summary.lines().any(|l| l == SUMMARY_ROW), "{summary}");
    assert!(summary.lines().any(|l| l == TOTALS), "{summary}");
    assert!(!summary.contains("##"), "more than the summary:\n{summary}");
    assert!(
        !summary.contains("demo.yaml"),
        "findings printed:\n{summary}"
    );
}

#[test]
fn absent_directory_is_skipped_with_a_message() {
    let tmp = TempDir::new("absent");
    let dir = path_arg(&tmp.0.join("no-such-dir"));
    let out = xtask(&["audit", "--spec", &spec(), "--openapi", &dir]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("audit: no OpenAPI descriptions at {dir}; skipped\n")
    );
}

#[test]
fn an_unreadable_description_is_a_warning_not_a_failure() {
    let tmp = TempDir::new("unreadable");
    for entry in std::fs::read_dir(descriptions()).expect("fixture dir") {
        let path = entry.expect("dir entry").path();
        std::fs::copy(&path, tmp.0.join(path.file_name().expect("a name"))).expect("copy");
    }
    std::fs::write(tmp.0.join("broken.yaml"), "paths: [unclosed\n").expect("write");
    let out = xtask(&[
        "audit",
        "--spec",
        &spec(),
        "--openapi",
        &path_arg(&tmp.0),
        "--tsv",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("audit: warning: broken.yaml:"),
        "{}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), EXPECTED_TSV);
}

#[test]
fn usage_errors_and_an_unloadable_spec_fail() {
    let dir = path_arg(&descriptions());
    for args in [
        vec!["audit", "--tsv", "--summary", "--openapi", &dir],
        vec!["audit", "--bogus", "--openapi", &dir],
        vec!["audit", "--openapi"],
    ] {
        let out = xtask(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(
            text(&out.stderr).contains("Usage: cargo xtask audit"),
            "{args:?}"
        );
    }
    let tmp = TempDir::new("nospec");
    let missing = path_arg(&tmp.0.join("ruckus-one.yaml"));
    let out = xtask(&["audit", "--spec", &missing, "--openapi", &dir]);
    assert!(!out.status.success(), "a missing spec was audited");
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
}

#[test]
fn list_shows_the_wire_columns() {
    let out = xtask(&["list", "--spec", &spec()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "api\tid\tname\tmethod\tpath\tstatus\tprovenance\tsuccess\trequest_type\tresponse_type\tcontent_types\taccepts\tdefault_version\tpaging\titem_type\tasync"
    );
    for row in [
        "demo\tdelete_widget\tDelete Widget\tDELETE\t/widgets/{widgetId}\tstable\tdocumented\t204\t\t()\t\t\tapplication/json\t\t\tno",
        "demo\tget_widget_report\tGet Widget Report\tGET\t/widgets/{widgetId}/report\tstable\tdocumented\t200\t\tString\t\ttext/csv\ttext/csv\t\t\tno",
        "demo\tupdate_widget\tUpdate Widget\tPUT\t/widgets/{widgetId}\tstable\tdocumented\t200\tWidget\tWidget\tapplication/vnd.ruckus.v1+json\tapplication/vnd.ruckus.v1+json\tapplication/vnd.ruckus.v1+json\t\t\tno",
        "demo\tput_widget_picture\tPut Widget Picture\tPUT\t/widgets/{widgetId}/picture\tstable\tdocumented\t200\tBytes\t()\timage/png\t\timage/png\t\t\tno",
        "demo\tquery_widgets\tQuery Widgets\tPOST\t/widgets/query\tstable\tdocumented\t200\tQueryWidgetsRequest\tWidgetPage\tapplication/json\tapplication/json\tapplication/json\tquery_body:data\tWidget\tno",
        "demo\tget_gadget\tGet Gadget\tGET\t/gadgets/{gadgetId}\tstable\tdocumented\t200\t\traw\t\tapplication/json\tapplication/json\t\t\tno",
        "demo\tstart_gizmo_scan\tStart Gizmo Scan\tPOST\t/gizmos/scans\tstable\tdocumented\t202\t\traw\t\tapplication/json\tapplication/json\t\t\tyes",
    ] {
        assert!(lines.contains(&row), "no row {row:?} in:\n{stdout}");
    }
    assert!(
        lines.iter().all(|l| l.split('\t').count() == 16),
        "{stdout}"
    );
}

/// The workspace spec's services agree with the vendor's descriptions: every published rate
/// limit, and the service of every operation a description lists (skipped without them).
#[test]
fn the_workspace_services_agree_with_the_descriptions() {
    let dir = workspace_root().join("../shared/reference/openapi");
    if !dir.is_dir() {
        eprintln!("skip: no OpenAPI descriptions at {}", dir.display());
        return;
    }
    let out = xtask(&["audit", "--summary", "--openapi", &path_arg(&dir)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = text(&out.stdout);
    let line = summary
        .lines()
        .find(|l| l.starts_with("Services: "))
        .unwrap_or_default();
    assert!(line.starts_with("Services: 15 published limits"), "{line}");
    assert!(line.ends_with(", 0 disagreements."), "{line}");
}
