//! rustdoc search finds an operation by its path and by the vendor's operationId: the
//! generated method carries `#[doc(alias = ..)]` for both, and rustdoc puts them in the search
//! index. The test documents the `operations` fixture client (a few operations, no dependency
//! documented) and looks for both aliases of `get_widget` in the emitted search data.
//!
//! It runs `cargo doc` in the target directory `feature_gates.rs` checks in, whose dependencies
//! (the runtime with `tls-aws-lc`, serde, serde_json, bytes) are then already checked: only the
//! fixture crate is documented, in a few seconds.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// `<target>/feature-gate-check`, beside this test binary's `<target>/debug/deps`.
fn doc_target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps")
        .join("feature-gate-check")
}

/// The fixture's manifest without the workspace's inheritance (the crate is built alone).
fn manifest(generated: &str) -> String {
    let runtime = workspace().join("runtime");
    let mut out = String::new();
    for line in generated.lines() {
        if line.starts_with("[dev-dependencies]") {
            break;
        }
        let line = match line.split_once(" = { workspace = true") {
            Some(("ruckus-one-runtime", _)) => format!(
                "ruckus-one-runtime = {{ path = {:?}, default-features = false }}",
                runtime.display().to_string()
            ),
            Some(("serde", _)) => r#"serde = { version = "1", features = ["derive"] }"#.into(),
            Some(("serde_json", _)) => {
                r#"serde_json = { version = "1", features = ["preserve_order"] }"#.into()
            }
            Some((name, _)) => format!("{name} = \"1\""),
            None if line == "edition.workspace = true" => "edition = \"2024\"".into(),
            None if line.ends_with(".workspace = true") => continue,
            None => line.to_owned(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out + "\n[workspace]\n"
}

/// Every file of the search index rustdoc wrote under `doc`, concatenated.
fn search_data(doc: &Path) -> String {
    let mut text = String::new();
    let mut stack = vec![doc.join("search.index")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("rustdoc wrote a search index") {
            let path = entry.expect("read the search index").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                text.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    text
}

#[test]
fn rustdoc_search_data_holds_the_path_and_operation_id_aliases() {
    let spec = workspace().join("tests/fixtures/valid/operations/ruckus-one.yaml");
    let files = ruckus_codegen::generate(&spec).expect("the fixture generates");
    let dir = std::env::temp_dir().join(format!("ruckus-doc-aliases-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let krate = "fixture-operations/";
    for (rel, text) in &files {
        let Some(rel) = rel.strip_prefix(krate) else {
            continue;
        };
        if rel.starts_with("tests/") {
            continue;
        }
        let text = if rel == "Cargo.toml" {
            manifest(text)
        } else {
            text.clone()
        };
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a file has a parent")).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let target = doc_target_dir();
    // rustdoc names its index files by content: files of an earlier run would stay beside.
    let _ = std::fs::remove_dir_all(target.join("doc"));
    let out = Command::new(env!("CARGO"))
        .args([
            "doc",
            "--offline",
            "--quiet",
            "--no-deps",
            "--features",
            "tls-aws-lc",
        ])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTDOCFLAGS")
        .output()
        .expect("run cargo doc");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "cargo doc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = search_data(&target.join("doc"));
    // `get_widget`: `GET /widgets/{widgetId}` under the `/demo` prefix, operationId `getWidget`
    // (the spec's `operation_id`); `update_widget`'s comes from its `reference:` provenance.
    for alias in [
        "/widgets/{widgetId}",
        "GET /widgets/{widgetId}",
        "GET /demo/widgets/{widgetId}",
        "getWidget",
        "UpdateWidget",
    ] {
        assert!(
            data.contains(alias),
            "rustdoc's search data lacks the alias `{alias}`"
        );
    }
}
