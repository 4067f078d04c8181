//! `cargo xtask import --check DIR`, the drift watch, on fixture releases: each a private copy of
//! the vendor's descriptions (`../shared/reference/openapi`) with one edit made here, so the
//! project vendors no copy of them. Each fixture must print its class and exit with its code;
//! the unedited copy must report no drift.
//!
//! Without the descriptions these tests say so and pass (the project never vendors them).

use std::path::{Path, PathBuf};
use std::process::Command;

const VENUES: &str = "venue_service_api-0.2.8.yaml";

fn descriptions() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let dir = root.join("../shared/reference/openapi");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skip: no OpenAPI descriptions at {}", dir.display());
        None
    }
}

/// A private copy of the descriptions (the description files only).
fn release(from: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    for e in std::fs::read_dir(from).expect("read descriptions") {
        let path = e.expect("dir entry").path();
        if path.extension().is_some_and(|x| x == "yaml" || x == "json") {
            let name = path.file_name().expect("file name");
            std::fs::copy(&path, tmp.path().join(name)).expect("copy");
        }
    }
    tmp
}

/// Replaces the one occurrence of `old` in `file` of the release with `new`.
fn edit(dir: &Path, file: &str, old: &str, new: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("read description");
    assert_eq!(
        text.matches(old).count(),
        1,
        "the fixture assumes one `{old}` in {file}"
    );
    std::fs::write(&path, text.replacen(old, new, 1)).expect("write description");
}

/// Runs the check on `dir`: its exit status and its report.
fn check(dir: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["import", "--check", dir.to_str().expect("utf-8")])
        .output()
        .expect("run xtask");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().expect("an exit status"), text)
}

/// The classes the report's table lists (`| schema changed | 1 | 7 |`).
fn classes(report: &str) -> Vec<String> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("| class |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1).map(|c| c.trim().to_owned()))
        .collect()
}

#[test]
fn the_descriptions_the_spec_was_imported_from_show_no_drift() {
    let Some(from) = descriptions() else { return };
    let (code, report) = check(&from);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("no drift"), "{report}");
}

#[test]
fn an_added_operation_is_reported_as_added() {
    let Some(from) = descriptions() else { return };
    let dir = release(&from);
    let added = "paths:
  /venues/{venueId}/driftProbes:
    delete:
      operationId: deleteVenueDriftProbes
      parameters:
        - name: venueId
          in: path
          required: true
          schema:
            type: string
      responses:
        '204':
          description: No content
";
    edit(dir.path(), VENUES, "paths:\n", added);
    let (code, report) = check(dir.path());
    assert_eq!(classes(&report), ["operation added"], "{report}");
    assert!(
        report.contains("- DELETE /venues/{venueId}/driftProbes:"),
        "{report}"
    );
    assert_eq!(code, 4, "{report}");
}

#[test]
fn a_removed_operation_is_reported_as_removed() {
    let Some(from) = descriptions() else { return };
    let dir = release(&from);
    let path = dir.path().join(VENUES);
    let text = std::fs::read_to_string(&path).expect("read");
    let start = text
        .find("\n  /venues:\n")
        .expect("the fixture assumes POST /venues")
        + 1;
    let end = start + text[start + 1..].find("\n  /").expect("a next path") + 1;
    std::fs::write(&path, format!("{}{}", &text[..start], &text[end + 1..])).expect("write");
    let (code, report) = check(dir.path());
    assert_eq!(classes(&report), ["operation removed"], "{report}");
    assert!(report.contains("- POST /venues:"), "{report}");
    assert_eq!(code, 8, "{report}");
}

/// The edited file also carries a newer version in its name, as a new release would: the check
/// reads it as the file the spec cites, and finds only the edit. (A field whose type the vendor's
/// payloads decide, such as `AddressView.latitude`, would show no drift: the payloads win.)
#[test]
fn a_changed_field_type_is_reported_as_a_schema_change() {
    let Some(from) = descriptions() else { return };
    let dir = release(&from);
    edit(
        dir.path(),
        VENUES,
        "        imageName:\n          type: string\n",
        "        imageName:\n          type: integer\n",
    );
    let newer = dir.path().join("venue_service_api-0.3.0.yaml");
    std::fs::rename(dir.path().join(VENUES), &newer).expect("rename");
    let (code, report) = check(dir.path());
    assert_eq!(classes(&report), ["schema changed"], "{report}");
    assert!(
        report.contains("- type FloorPlanView: field `imageName` type: string -> integer"),
        "{report}"
    );
    assert!(
        report.contains("read venue_service_api-0.3.0.yaml as venue_service_api-0.2.8.yaml"),
        "{report}"
    );
    assert_eq!(code, 7, "{report}");
}
