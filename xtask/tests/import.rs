//! `cargo xtask import` on a private copy of the workspace spec: the imported files are a
//! function of the curated files and the vendor's descriptions alone. A clean tree imports to
//! itself, a deleted imported file comes back byte for byte, and a curated override is applied
//! on top of the import without the import ever writing it into its files.
//!
//! The descriptions are read from `../shared/reference/openapi`; without them these tests say so
//! and pass (the project never vendors them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn descriptions() -> Option<PathBuf> {
    let dir = root().join("../shared/reference/openapi");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skip: no OpenAPI descriptions at {}", dir.display());
        None
    }
}

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let path = e.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("inside").to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("read file"));
            }
        }
    }
    out
}

/// A private copy of `spec/` and of the client guide beside it (the spec's crate guide).
fn spec_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let spec = tmp.path().join("spec");
    for (rel, bytes) in files(&root().join("spec")) {
        let path = spec.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    let guide = Path::new("docs/src/client.md");
    std::fs::create_dir_all(tmp.path().join("docs/src")).expect("mkdir docs/src");
    std::fs::copy(root().join(guide), tmp.path().join(guide)).expect("copy the crate guide");
    (tmp, spec)
}

fn xtask(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("run xtask");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// `cargo xtask import --write` on the spec in `spec`: whether it succeeded, and what it said.
fn try_import(spec: &Path, openapi: &Path) -> (bool, String) {
    let top = spec.join("ruckus-one.yaml");
    xtask(&[
        "import",
        "--spec",
        top.to_str().expect("utf-8"),
        "--openapi",
        openapi.to_str().expect("utf-8"),
        "--write",
    ])
}

fn import(spec: &Path, openapi: &Path) -> String {
    let (ok, text) = try_import(spec, openapi);
    assert!(ok, "import failed:\n{text}");
    text
}

#[test]
fn a_clean_tree_imports_to_itself() {
    let Some(openapi) = descriptions() else {
        return;
    };
    let (_tmp, spec) = spec_copy();
    let before = files(&spec);
    let text = import(&spec, &openapi);
    assert!(text.contains("the imported files are up to date"), "{text}");
    assert!(files(&spec) == before, "import changed a clean tree");
}

#[test]
fn deleted_imported_files_come_back_byte_for_byte() {
    let Some(openapi) = descriptions() else {
        return;
    };
    let (_tmp, spec) = spec_copy();
    let before = files(&spec);
    let gone = [
        "network/imported/common.yaml",
        "network/imported/wireless_networks.yaml",
    ];
    for rel in gone {
        std::fs::remove_file(spec.join(rel)).expect("remove");
    }
    let text = import(&spec, &openapi);
    for rel in gone {
        assert!(
            text.contains(rel),
            "import did not say it writes {rel}:\n{text}"
        );
    }
    assert!(files(&spec) == before, "the restored files differ");
}

#[test]
fn an_override_survives_a_re_import() {
    let Some(openapi) = descriptions() else {
        return;
    };
    let (tmp, spec) = spec_copy();
    let area = spec.join("network/wireless_networks.yaml");
    let text = std::fs::read_to_string(&area).expect("read area");
    // The import makes `DnsProxyRule.domainName` required; the override, written beside the
    // area whose operations use the type, says the service may omit it. The import may place
    // the type in another imported file (`common`, when areas share it).
    let imported = files(&spec.join("network/imported"))
        .into_values()
        .map(|b| String::from_utf8(b).expect("UTF-8"))
        .find(|t| t.contains("- name: DnsProxyRule\n"))
        .expect("an imported file has DnsProxyRule");
    assert!(
        imported.contains("required: true"),
        "the fixture assumption no longer holds"
    );
    let correction = "- type: DnsProxyRule\n  fields:\n  - name: domainName\n    required: false\n    provenance: 'inferred: a test override'\n";
    let edited = match text.find("\noverrides:\n") {
        Some(at) => {
            let at = at + "\noverrides:\n".len();
            format!("{}{correction}{}", &text[..at], &text[at..])
        }
        None => {
            let at = text.find("\ntypes:").expect("types key") + 1;
            format!("{}overrides:\n{correction}\n{}", &text[..at], &text[at..])
        }
    };
    std::fs::write(&area, edited).expect("write");
    let before = files(&spec);

    import(&spec, &openapi);
    assert!(
        files(&spec) == before,
        "the import rewrote a file because of an override"
    );

    let out = tmp.path().join("generated");
    let (ok, log) = xtask(&[
        "generate",
        "--spec",
        spec.join("ruckus-one.yaml").to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(ok, "generate failed:\n{log}");
    let rust = files(&out.join("ruckus-one/src/network"))
        .into_values()
        .map(|b| String::from_utf8(b).expect("UTF-8"))
        .find(|t| t.contains("pub struct DnsProxyRule {"))
        .expect("a generated module has DnsProxyRule");
    let model = &rust[rust.find("pub struct DnsProxyRule {").expect("model")..];
    let model = &model[..model.find("\n}").expect("end of model")];
    assert!(
        model.contains("pub domain_name: Option<String>,"),
        "the override is not applied:\n{model}"
    );
}

/// A description nested deeper than the limit (here 200,000 levels) is refused at once, with an
/// error naming the file, by `import` (which stops) and `audit` (which skips the file).
#[test]
fn a_description_nested_too_deep_is_refused_by_name() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut text = String::from("openapi: 3.0.0\npaths: {}\ncomponents:\n  schemas:\n    Deep: ");
    text.push_str(&"{properties: {a: ".repeat(200_000));
    text.push_str("{type: string}");
    text.push_str(&"}}".repeat(200_000));
    std::fs::write(tmp.path().join("deep.yaml"), text).expect("write");
    let dir = tmp.path().to_str().expect("utf-8");

    let (_spec_tmp, spec) = spec_copy();
    let top = spec.join("ruckus-one.yaml");
    let (ok, out) = xtask(&[
        "import",
        "--spec",
        top.to_str().expect("utf-8"),
        "--openapi",
        dir,
    ]);
    assert!(!ok, "import accepted the file:\n{out}");
    assert!(
        out.contains("deep.yaml: nested deeper than 64 levels (line 5); not read"),
        "{out}"
    );

    let (_, out) = xtask(&["audit", "--openapi", dir, "--summary"]);
    assert!(
        out.contains("deep.yaml: nested deeper than 64 levels"),
        "{out}"
    );
}

#[test]
fn a_write_whose_result_does_not_validate_changes_nothing() {
    let Some(openapi) = descriptions() else {
        return;
    };
    let (_tmp, spec) = spec_copy();
    // A stale tree (an imported file deleted) and a curated override of a type no import makes:
    // the import would restore the file, but the spec with it does not validate.
    std::fs::remove_file(spec.join("network/imported/msp.yaml")).expect("remove");
    let area = spec.join("network/msp.yaml");
    let text = std::fs::read_to_string(&area).expect("read area");
    let at = text.find("\noverrides:\n").expect("overrides key") + "\noverrides:\n".len();
    let edited = format!(
        "{}- type: NoSuchImportedType\n  rename: Anything\n{}",
        &text[..at],
        &text[at..]
    );
    std::fs::write(&area, edited).expect("write");
    let before = files(&spec);
    let (ok, log) = try_import(&spec, &openapi);
    assert!(
        !ok,
        "the import wrote a spec that does not validate:\n{log}"
    );
    assert!(
        log.contains("NoSuchImportedType") && log.contains("nothing was written"),
        "{log}"
    );
    assert!(files(&spec) == before, "a failed import changed the tree");
}

/// Drafted operations: each records the vendor's `operationId` and cites its route; a curated
/// `skip:` leaves a route out (and the import lists it with the reason), an `area:` moves one.
#[test]
fn drafted_operations_follow_skip_and_area_overrides() {
    let Some(openapi) = descriptions() else {
        return;
    };
    let (_tmp, spec) = spec_copy();
    let imported = |area: &str| {
        std::fs::read_to_string(spec.join(format!("network/imported/{area}.yaml")))
            .expect("read imported")
    };
    let files_before = imported("files");
    assert!(
        files_before.contains("- id: get_download_url")
            && files_before.contains("operation_id: getDownloadUrl")
            && files_before
                .contains("provenance: 'reference: file_service_api-0.2.7.yaml getDownloadUrl'"),
        "the fixture assumption no longer holds:\n{files_before}"
    );
    let area = spec.join("network/files.yaml");
    let mut text = std::fs::read_to_string(&area).expect("read area");
    text.push_str(
        "\noverrides:\n- operation: get_download_url\n  skip: 'a test skip'\n- operation: get_file_download_url\n  area: activities\n- operation: no_such_route\n  skip: 'stale'\n",
    );
    std::fs::write(&area, text).expect("write");

    let log = import(&spec, &openapi);
    assert!(
        log.contains("skipped (`get_download_url`): a test skip"),
        "the skip is not listed:\n{log}"
    );
    assert!(
        log.contains("`skip:` of `no_such_route` matches no route the spec lacks"),
        "a stale skip is not listed:\n{log}"
    );
    let files_after = imported("files");
    assert!(
        !files_after.contains("- id: get_download_url"),
        "{files_after}"
    );
    assert!(
        !files_after.contains("- id: get_file_download_url"),
        "{files_after}"
    );
    assert!(imported("activities").contains("- id: get_file_download_url"));
    // The spec with the overrides validates (the import checked it before writing).
    assert!(log.contains("the spec validates"), "{log}");
}
