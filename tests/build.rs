//! Generates every valid fixture spec (`fixtures/valid/*`) into `OUT_DIR` and writes
//! `fixtures.rs`, which `src/lib.rs` includes: the fixture clients are compiled (and linted)
//! as modules of this crate, so generated code that does not compile fails the build.
//!
//! It also writes `fixture_conformance.rs`, which `tests/fixture_conformance.rs` includes: each
//! fixture's generated conformance test, with the fixture crate's name in its paths replaced by
//! the module the fixture is compiled as (`fixture_unions::` -> `ruckus_one_tests::fixtures::
//! unions::`), so the fixtures' conformance tests compile and run too.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let fixtures = Path::new(&manifest).join("fixtures/valid");
    println!("cargo:rerun-if-changed=fixtures/valid");
    println!("cargo:rerun-if-changed=../codegen/src");
    let mut dirs: Vec<_> = std::fs::read_dir(&fixtures)
        .expect("fixtures/valid exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut modules = String::new();
    let mut conformance = String::new();
    for dir in dirs {
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("fixture dir name is UTF-8")
            .to_owned();
        let files = match ruckus_codegen::generate(&dir.join("ruckus-one.yaml")) {
            Ok(files) => files,
            Err(diags) => {
                let text: Vec<String> = diags.iter().map(ToString::to_string).collect();
                panic!("fixture `{name}` does not generate:\n{}", text.join("\n"));
            }
        };
        let base = Path::new(&out).join("fixtures").join(&name);
        let mut lib = None;
        for (rel, text) in &files {
            let path = base.join(rel);
            std::fs::create_dir_all(path.parent().expect("generated paths have a parent"))
                .expect("create dir in OUT_DIR");
            std::fs::write(&path, text).expect("write into OUT_DIR");
            if rel.ends_with("/src/lib.rs") {
                lib = Some(path);
            }
        }
        let lib = lib.expect("the generator writes a lib.rs");
        let _ = writeln!(
            modules,
            "#[path = {:?}]\npub mod {name};",
            lib.display().to_string()
        );
        let main = conformance_test(&files, &name, &Path::new(&out).join("conformance"));
        let _ = writeln!(
            conformance,
            "#[path = {:?}]\nmod {name};",
            main.display().to_string()
        );
    }
    std::fs::write(Path::new(&out).join("fixtures.rs"), modules).expect("write fixtures.rs");
    std::fs::write(Path::new(&out).join("fixture_conformance.rs"), conformance)
        .expect("write fixture_conformance.rs");
}

/// Writes fixture `name`'s conformance test under `dir/<name>/`, its paths rooted at the module
/// the fixture client is compiled as; returns the path of its `main.rs`.
fn conformance_test(
    files: &std::collections::BTreeMap<String, String>,
    name: &str,
    dir: &Path,
) -> std::path::PathBuf {
    let mut main = None;
    for (rel, text) in files {
        let Some((krate, file)) = rel.split_once("/tests/conformance/") else {
            continue;
        };
        let from = format!("{}::", krate.replace('-', "_"));
        let to = format!("ruckus_one_tests::fixtures::{name}::");
        let path = dir.join(name).join(file);
        std::fs::create_dir_all(path.parent().expect("a file has a parent"))
            .expect("create dir in OUT_DIR");
        std::fs::write(&path, text.replace(&from, &to)).expect("write into OUT_DIR");
        if file == "main.rs" {
            main = Some(path);
        }
    }
    main.expect("the generator writes a conformance test")
}
