//! Maintainer commands. Run from anywhere in the workspace:
//!
//! - `cargo xtask generate`: regenerate `generated/` from `spec/` (nothing is written when the
//!   spec has errors; diagnostics name file and line).
//! - `cargo xtask check`: fail with a unified diff when `generated/` is not what the spec gives.
//! - `cargo xtask list`: a TSV of every operation in the spec.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The top-level spec file, relative to the workspace root.
const SPEC: &str = "spec/ruckus-one.yaml";
/// Where generated files go, relative to the workspace root.
const GENERATED: &str = "generated";

fn main() -> ExitCode {
    let root = workspace_root();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("generate") => generate(&root),
        Some("check") => check(&root),
        Some("list") => list(&root),
        _ => Err(usage()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> String {
    "usage: cargo xtask <command>\n\n  generate  regenerate generated/ from spec/\n  check     fail with a diff when generated/ is stale\n  list      print a TSV of every operation in the spec".into()
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Runs the generator with paths relative to `root`, so diagnostics read `spec/...:12`.
fn run_generator(root: &Path) -> Result<BTreeMap<String, String>, String> {
    std::env::set_current_dir(root).map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
    ruckus_codegen::generate(Path::new(SPEC)).map_err(report)
}

fn report(diags: Vec<ruckus_codegen::Diagnostic>) -> String {
    let mut s: String = diags.iter().map(|d| format!("{d}\n")).collect();
    s.push_str(&format!("{} error(s); nothing was written to {GENERATED}/", diags.len()));
    s
}

fn generate(root: &Path) -> Result<(), String> {
    let files = run_generator(root)?;
    let dir = root.join(GENERATED);
    let mut written = 0;
    for (rel, text) in &files {
        let path = dir.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += 1;
    }
    let mut removed = 0;
    for rel in existing_files(&dir)? {
        if !files.contains_key(&rel) {
            let path = dir.join(&rel);
            std::fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            removed += 1;
        }
    }
    remove_empty_dirs(&dir);
    eprintln!("{GENERATED}/: {} files, {written} written, {removed} removed", files.len());
    Ok(())
}

/// Compares `generated/` with what the spec gives; the error is a unified diff.
fn check(root: &Path) -> Result<(), String> {
    let files = run_generator(root)?;
    let dir = root.join(GENERATED);
    let on_disk = existing_files(&dir)?;
    let mut out = String::new();
    for (rel, want) in &files {
        let path = dir.join(rel);
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have != *want {
            let diff = similar::TextDiff::from_lines(&have, want);
            let a = format!("a/{GENERATED}/{rel}");
            let b = format!("b/{GENERATED}/{rel}");
            out.push_str(&diff.unified_diff().context_radius(3).header(&a, &b).to_string());
        }
    }
    let stale: BTreeSet<&String> = on_disk.iter().filter(|r| !files.contains_key(*r)).collect();
    for rel in &stale {
        out.push_str(&format!("{GENERATED}/{rel}: not generator output (would be removed)\n"));
    }
    if out.is_empty() {
        eprintln!("{GENERATED}/ is up to date ({} files)", files.len());
        Ok(())
    } else {
        Err(format!("{out}\n{GENERATED}/ is stale: run `cargo xtask generate` and commit the result"))
    }
}

fn list(root: &Path) -> Result<(), String> {
    std::env::set_current_dir(root).map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
    let ir = ruckus_codegen::build(Path::new(SPEC)).map_err(report)?;
    print!("{}", ruckus_codegen::list_tsv(&ir));
    Ok(())
}

/// Every file under `dir`, as a `/`-separated path relative to it, sorted.
fn existing_files(dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("cannot read {}: {e}", d.display())),
        };
        for entry in entries {
            let path = entry.map_err(|e| format!("cannot read {}: {e}", d.display()))?.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn remove_empty_dirs(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                remove_empty_dirs(&path);
                let _ = std::fs::remove_dir(&path); // fails (and is kept) unless empty
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// Plain `cargo test` fails when someone edits the spec without regenerating.
    #[test]
    fn generated_output_is_up_to_date() {
        if let Err(diff) = super::check(&super::workspace_root()) {
            panic!("{diff}");
        }
    }
}
