//! `cargo xtask generate`, `check` and `list`: the generator on a spec, its output written to,
//! compared with or listed from an output directory.

use crate::cli::PathArgs;
use crate::workspace::{GENERATED, SPEC, enter_root, out, workspace_root};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where to read the spec and write the output.
pub struct Paths {
    pub spec: PathBuf,
    pub out: PathBuf,
}

impl Paths {
    /// The workspace's own spec and `generated/`, named relative to the workspace root (the
    /// process moves there) when neither `--spec` nor `--out` is given; otherwise paths as given,
    /// the missing one the workspace's.
    pub fn from_args(args: &PathArgs) -> Result<Self, String> {
        Ok(match (&args.spec, &args.out) {
            (None, None) => {
                enter_root()?;
                Paths {
                    spec: SPEC.into(),
                    out: GENERATED.into(),
                }
            }
            (spec, out) => Paths {
                spec: spec.clone().unwrap_or_else(|| workspace_root().join(SPEC)),
                out: out
                    .clone()
                    .unwrap_or_else(|| workspace_root().join(GENERATED)),
            },
        })
    }
}

/// The client crate, its docs and the OpenAPI export of each API.
fn run_generator(paths: &Paths) -> Result<BTreeMap<String, String>, String> {
    ruckus_codegen::generate_all(&paths.spec).map_err(|d| report(d, &paths.out))
}

fn report(diags: Vec<ruckus_codegen::Diagnostic>, out: &Path) -> String {
    let mut s: String = diags.iter().map(|d| format!("{d}\n")).collect();
    s.push_str(&format!(
        "{} error(s); nothing was written to {}",
        diags.len(),
        out.display()
    ));
    s
}

/// The spec limits' checks of the top-level file `top` (its size, lines and nesting), made
/// before anything parses it.
fn check_top(top: &Path) -> Result<(), ruckus_codegen::Diagnostic> {
    let limits = ruckus_codegen::limits::Limits::from_env()?;
    ruckus_codegen::limits::read(top, &limits).map(drop)
}

/// The target directory, where the caches of `generate` live.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) {
        Some(t) if t.is_absolute() => t,
        Some(t) => workspace_root().join(t),
        None => workspace_root().join("target"),
    }
}

/// `cargo xtask generate`: the spec's files into the output directory, only those that
/// changed. With the cache (not `--no-cache`), a run whose inputs and output directory are as
/// the last run left them stops at once, and formatted Rust is reused (see `gencache`).
pub fn generate(paths: &Paths, use_cache: bool) -> Result<(), String> {
    // The spec limits first: the cache reads the top-level file too (for the crate guide it
    // names), and nothing may parse a spec file before they passed.
    check_top(&paths.spec).map_err(|d| report(vec![d], &paths.out))?;
    let cache = use_cache
        .then(|| crate::gencache::Cache::open(&target_dir()))
        .flatten();
    let dir = &paths.out;
    // Fingerprinted before the run, so a spec edited during it is not taken as generated.
    let inputs = crate::gencache::inputs(&paths.spec);
    if let Some(cache) = &cache {
        let on_disk = existing_files(dir)?;
        if cache.unchanged(&paths.spec, dir, inputs, &on_disk) {
            eprintln!(
                "{}: {} files, unchanged (inputs and output as the last run left them)",
                dir.display(),
                on_disk.len()
            );
            return Ok(());
        }
    }
    let pieces = cache.as_ref().map(crate::gencache::Cache::pieces);
    let files = ruckus_codegen::generate_all_cached(&paths.spec, pieces.as_deref())
        .map_err(|d| report(d, &paths.out))?;
    let mut written = 0;
    for (rel, text) in &files {
        let path = dir.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += 1;
    }
    // Only files the generator wrote (they carry its preamble) are removed as stale; anything
    // else in the output directory is left alone and reported.
    let mut removed = 0;
    for rel in existing_files(dir)? {
        if files.contains_key(&rel) {
            continue;
        }
        let path = dir.join(&rel);
        if is_generator_output(&path) {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            removed += 1;
        } else {
            eprintln!(
                "warning: {} is not generator output; left in place",
                path.display()
            );
        }
    }
    remove_empty_dirs(dir);
    if let Some(cache) = &cache {
        cache.record(&paths.spec, dir, inputs, &files);
    }
    eprintln!(
        "{}: {} files, {written} written, {removed} removed",
        dir.display(),
        files.len()
    );
    Ok(())
}

/// Compares `generated/` with what the spec gives; the error is a unified diff.
pub fn check(paths: &Paths) -> Result<(), String> {
    check_imported(&paths.spec)?;
    let files = run_generator(paths)?;
    let dir = &paths.out;
    let on_disk = existing_files(dir)?;
    let mut out = String::new();
    for (rel, want) in &files {
        let path = dir.join(rel);
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have != *want {
            let diff = similar::TextDiff::from_lines(&have, want);
            let a = format!("a/{GENERATED}/{rel}");
            let b = format!("b/{GENERATED}/{rel}");
            out.push_str(
                &diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&a, &b)
                    .to_string(),
            );
        }
    }
    let stale: BTreeSet<&String> = on_disk.iter().filter(|r| !files.contains_key(*r)).collect();
    for rel in &stale {
        out.push_str(&format!(
            "{}/{rel}: not generator output (would be removed)\n",
            dir.display()
        ));
    }
    if out.is_empty() {
        eprintln!("{} is up to date ({} files)", dir.display(), files.len());
        Ok(())
    } else {
        Err(format!(
            "{out}\n{} is stale: run `cargo xtask generate` and commit the result",
            dir.display()
        ))
    }
}

/// The workspace spec's imported files are what `cargo xtask import` writes (skipped, with a
/// message, without the OpenAPI descriptions; other specs have no imported files of ours).
fn check_imported(spec: &Path) -> Result<(), String> {
    let own = workspace_root().join(SPEC);
    if std::fs::canonicalize(spec).ok() != std::fs::canonicalize(&own).ok() {
        return Ok(());
    }
    match crate::import::stale(spec)? {
        None => {
            eprintln!("skip: no OpenAPI descriptions; the imported spec files are not checked");
            Ok(())
        }
        Some(stale) if stale.is_empty() => {
            eprintln!("the imported spec files are up to date");
            Ok(())
        }
        Some(stale) => Err(format!(
            "{}\nthe imported spec files are stale: run `cargo xtask import --write` and commit the result",
            stale.join("\n")
        )),
    }
}

pub fn list(paths: &Paths) -> Result<(), String> {
    let ir = ruckus_codegen::build(&paths.spec).map_err(|d| report(d, &paths.out))?;
    out(&ruckus_codegen::list_tsv(&ir));
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
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", d.display()))?
                .path();
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

/// Whether a file's first line carries the generator's preamble.
fn is_generator_output(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| {
            t.lines()
                .next()
                .map(|l| l.contains(ruckus_codegen::PREAMBLE))
        })
        .unwrap_or(false)
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
        let root = crate::workspace::workspace_root();
        let paths = super::Paths {
            spec: root.join(crate::workspace::SPEC),
            out: root.join(crate::workspace::GENERATED),
        };
        if let Err(diff) = super::check(&paths) {
            panic!("{diff}");
        }
    }
}
