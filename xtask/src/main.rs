//! Maintainer commands. Run from anywhere in the workspace:
//!
//! - `cargo xtask generate`: regenerate `generated/` from `spec/` (nothing is written when the
//!   spec has errors; diagnostics name file and line).
//! - `cargo xtask check`: fail with a unified diff when `generated/` is not what the spec gives.
//! - `cargo xtask list`: a TSV of every operation in the spec.
//! - `cargo xtask audit [--openapi DIR] [--tsv | --summary]`: compare the spec with the vendor's
//!   OpenAPI descriptions (a report; see [`audit`]).
//! - `cargo xtask diff [BASE] [--json] [--fail-on breaking]`: what the spec change since the git
//!   revision BASE (default `HEAD`) means for callers, with the version bump it needs.
//! - `cargo xtask bench-build [--runs N] [--full] [--every-area]`: cold build times of the client
//!   crate per feature set: everything, no area, and the three largest areas (or every area) alone
//!   (a benchmark that prints figures, not a test).
//! - `cargo xtask bench [generator|runtime|paging|compile] [--quick] [--runs N] [--full]`:
//!   performance figures as a Markdown table (see `bench/mod.rs`).
//! - `cargo xtask fuzz [--cases N] [--seed S] [--compile K] [--timeout SECS]`: the generator on
//!   N randomly mutated specs; prints panics, hangs, unlocated diagnostics and accepted specs
//!   whose output is broken (see `fuzz.rs`).
//!
//! `--spec FILE` and `--out DIR` point the commands at another spec or output directory (tests
//! use them with broken fixture specs); paths are then taken as given.

mod audit;
mod bench;
mod diff;
mod fuzz;
mod import;
mod mutate;
mod openapi;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The top-level spec file, relative to the workspace root.
const SPEC: &str = "spec/ruckus-one.yaml";
/// Where generated files go, relative to the workspace root.
const GENERATED: &str = "generated";

/// Where to read the spec and write the output.
struct Paths {
    spec: PathBuf,
    out: PathBuf,
}

impl Paths {
    /// The workspace's own spec and `generated/`, named relative to the workspace root (the
    /// process moves there) so diagnostics read `spec/...:12`.
    fn workspace() -> Result<Self, String> {
        let root = workspace_root();
        std::env::set_current_dir(&root)
            .map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
        Ok(Paths {
            spec: SPEC.into(),
            out: GENERATED.into(),
        })
    }
}

fn parse_args(args: &[String]) -> Result<(String, Paths), String> {
    let mut command = None;
    let (mut spec, mut out) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--spec" => spec = Some(it.next().ok_or_else(usage)?.into()),
            "--out" => out = Some(it.next().ok_or_else(usage)?.into()),
            c if command.is_none() && !c.starts_with('-') => command = Some(c.to_owned()),
            _ => return Err(usage()),
        }
    }
    let command = command.ok_or_else(usage)?;
    let paths = match (spec, out) {
        (None, None) => Paths::workspace()?,
        (spec, out) => Paths {
            spec: spec.unwrap_or_else(|| workspace_root().join(SPEC)),
            out: out.unwrap_or_else(|| workspace_root().join(GENERATED)),
        },
    };
    Ok((command, paths))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench-build") => bench::build::run(&workspace_root(), &args[1..]),
        Some("bench") => bench::run(&workspace_root(), &args[1..]),
        Some("fuzz") => fuzz::run(&workspace_root(), &args[1..]),
        Some("audit") => audit::run(&args[1..]),
        Some("import") => import::run(&args[1..]),
        Some("diff") => return diff::run(&args[1..]),
        _ => run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

/// The commands that take `--spec` and `--out`.
fn run(args: &[String]) -> Result<(), String> {
    parse_args(args).and_then(|(command, paths)| match command.as_str() {
        "generate" => generate(&paths),
        "check" => check(&paths),
        "list" => list(&paths),
        _ => Err(usage()),
    })
}

fn usage() -> String {
    format!(
        "usage: cargo xtask <command> [--spec FILE] [--out DIR]\n\n  generate  regenerate generated/ from spec/\n  check     fail with a diff when generated/ is stale\n  list      print a TSV of every operation in the spec\n{}\n{}\n  diff [BASE] [--json] [--fail-on breaking] [--base-spec FILE]\n            classify the spec changes since the git revision BASE (default HEAD)\n  bench-build [--runs N] [--full] [--every-area]\n            print cold build times of the client crate per feature set (the three\n            largest areas alone, or every area alone)\n{}\n  fuzz [--cases N] [--seed S] [--compile K] [--timeout SECS]\n            run the generator on mutated specs and print figures",
        audit::usage(),
        import::usage(),
        bench::usage()
    )
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
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

fn generate(paths: &Paths) -> Result<(), String> {
    let files = run_generator(paths)?;
    let dir = &paths.out;
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
    eprintln!(
        "{}: {} files, {written} written, {removed} removed",
        dir.display(),
        files.len()
    );
    Ok(())
}

/// Compares `generated/` with what the spec gives; the error is a unified diff.
fn check(paths: &Paths) -> Result<(), String> {
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
    match import::stale(spec)? {
        None => {
            eprintln!("skip: no OpenAPI descriptions; the imported spec files are not checked");
            Ok(())
        }
        Some(stale) if stale.is_empty() => {
            eprintln!("the imported spec files are up to date");
            Ok(())
        }
        Some(stale) => Err(format!(
            "{}
the imported spec files are stale: run `cargo xtask import --write` and commit the result",
            stale.join("\n")
        )),
    }
}

fn list(paths: &Paths) -> Result<(), String> {
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

/// Writes a report to standard output. A reader that stops early (`| head`) closes the pipe:
/// that ends the output quietly instead of panicking as `print!` would.
pub(crate) fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("cannot write the output: {e}");
    }
}

#[cfg(test)]
mod tests {
    /// Plain `cargo test` fails when someone edits the spec without regenerating.
    #[test]
    fn generated_output_is_up_to_date() {
        let root = super::workspace_root();
        let paths = super::Paths {
            spec: root.join(super::SPEC),
            out: root.join(super::GENERATED),
        };
        if let Err(diff) = super::check(&paths) {
            panic!("{diff}");
        }
    }
}
