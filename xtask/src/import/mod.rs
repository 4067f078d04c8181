//! `cargo xtask import [--spec FILE] [--openapi DIR] [--api NAME] [--write]`: the spec's imported types, from
//! the vendor's OpenAPI descriptions.
//!
//! The curated area files (`spec/<api>/<area>.yaml`) name types they do not define: an
//! operation's body `type: Venue`, a field `type: array<ApGroup>`. The importer converts the
//! description schema at each such place into types of that name (facts only: names, types,
//! required, nullable, bounds, enumerations; its own one-line descriptions, never the vendor's
//! prose) and writes them whole into tool-owned files, `spec/<api>/imported/<area>.yaml` (a type
//! reached from one area goes to that area's file, a type several reach to `common`). People
//! correct imported types in their area file's `overrides:`, which the loader applies on top,
//! so running the import again never loses a correction. It reads the curated files only, so
//! its output does not depend on the files it writes: a deleted imported file comes back as it
//! was, and `cargo xtask check` fails when one is stale.
//!
//! Without `--write` it prints what it found and which files would change. With `--write` it
//! checks that the spec with the new files validates, then replaces the files all or nothing.

mod convert;
mod draft;
mod files;
mod index;
mod naming;
mod plan;

use crate::cli::ImportArgs;
use crate::openapi::{self as desc, Document};
use ruckus_codegen::load::{IMPORTED_DIR, load_curated};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const DEFAULT_OPENAPI: &str = "../shared/reference/openapi";

pub fn run(args: &ImportArgs) -> Result<(), String> {
    let root = crate::workspace_root();
    let top = args
        .spec
        .clone()
        .unwrap_or_else(|| root.join("spec").join("ruckus-one.yaml"));
    let openapi = args
        .openapi
        .clone()
        .unwrap_or_else(|| root.join(DEFAULT_OPENAPI));
    let Some(docs) = load_docs(&openapi)? else {
        println!(
            "import: no OpenAPI descriptions at {}; nothing to do",
            openapi.display()
        );
        return Ok(());
    };
    let (changes, report) = plan_changes(&top, &docs, args.api.as_deref())?;
    crate::out(&report);
    if changes.is_empty() {
        println!("the imported files are up to date");
        return Ok(());
    }
    for (path, text) in &changes {
        let what = if text.is_some() { "write" } else { "remove" };
        println!("{what} {}", path.display());
    }
    if !args.write {
        println!("\n(dry run: pass --write to change these files)");
        return Ok(());
    }
    validate_with(&top, &changes)?;
    files::apply(&changes)?;
    println!("{} file(s) changed; the spec validates", changes.len());
    Ok(())
}

/// For `cargo xtask check`: the imported files that differ from what the import would write
/// (empty when they are current), or `None` when the descriptions are not there.
pub fn stale(top: &Path) -> Result<Option<Vec<String>>, String> {
    let Some(docs) = load_docs(&crate::workspace_root().join(DEFAULT_OPENAPI))? else {
        return Ok(None);
    };
    let (changes, _) = plan_changes(top, &docs, None)?;
    Ok(Some(
        changes
            .into_iter()
            .map(|(p, t)| {
                let what = if t.is_some() {
                    "differs"
                } else {
                    "is not written by the import"
                };
                format!("{} {what}", p.display())
            })
            .collect(),
    ))
}

/// Every change to the imported files of the API (or of every API), and the report.
type Changes = Vec<(PathBuf, Option<String>)>;

fn plan_changes(
    top: &Path,
    docs: &BTreeMap<String, Document>,
    only: Option<&str>,
) -> Result<(Changes, String), String> {
    let loaded = load_curated(top).map_err(|diags| {
        let shown: String = diags.iter().take(40).map(|d| format!("{d}\n")).collect();
        format!("{shown}the curated spec does not load")
    })?;
    if let Some(api) = only
        && !loaded.top.apis.iter().any(|a| a.name == api)
    {
        return Err(format!("no API `{api}` in {}", top.display()));
    }
    let spec_dir = top.parent().unwrap_or(Path::new("."));
    let mut changes = Vec::new();
    let mut report = String::new();
    let spec_keys = spec_keys(&loaded);
    let owners = owners(docs, &loaded);
    for (k, (api, areas)) in loaded.top.apis.iter().zip(&loaded.areas).enumerate() {
        if only.is_some_and(|o| o != api.name) {
            continue;
        }
        let areas: Vec<_> = areas.iter().map(|(_, a)| a).collect();
        let dir = spec_dir.join(&api.name);
        let placement = draft::Placement::new(&dir, docs, &areas, &api.prefix.value)?;
        let files = owners.get(&k).cloned().unwrap_or_default();
        let mut drafted = draft::draft(docs, api, &areas, &spec_keys, &files, &placement);
        let service_files = service_files(api);
        let (types, mut findings) = plan::plan(docs, &areas, &service_files, &mut drafted.ops);
        findings.exceptions = drafted.exceptions;
        let mut types: BTreeMap<String, Vec<_>> = types;
        let mut ops: BTreeMap<String, Vec<_>> = BTreeMap::new();
        for d in drafted.ops {
            types.entry(d.area.clone()).or_default();
            ops.entry(d.area).or_default().push(d.op);
        }
        let mut wanted = BTreeMap::new();
        for (area, types) in types {
            let area_ops = ops.remove(&area).unwrap_or_default();
            wanted.insert(area.clone(), files::text(&area, types, area_ops)?);
        }
        let dir = spec_dir.join(&api.name).join(IMPORTED_DIR);
        changes.extend(files::changes(&dir, &wanted)?);
        report.push_str(&report_of(&api.name, &findings));
    }
    Ok((changes, report))
}

/// `(METHOD, normalised path with the API prefix)` of every curated operation of every API.
fn spec_keys(
    loaded: &ruckus_codegen::load::Loaded,
) -> std::collections::BTreeSet<(String, String)> {
    let mut out = std::collections::BTreeSet::new();
    for (api, areas) in loaded.top.apis.iter().zip(&loaded.areas) {
        for op in areas.iter().flat_map(|(_, a)| &a.operations) {
            let path = format!("{}{}", api.prefix.value, op.path);
            out.insert((op.method.as_str().to_owned(), desc::normalise_path(&path)));
        }
    }
    out
}

/// Which API (by index) each description file's routes belong to: the API whose curated
/// operations are most of its routes (the first on a tie); a file none of whose routes is an
/// operation goes to the API that matches the most routes overall.
fn owners(
    docs: &BTreeMap<String, Document>,
    loaded: &ruckus_codegen::load::Loaded,
) -> BTreeMap<usize, std::collections::BTreeSet<String>> {
    let per_api: Vec<std::collections::BTreeSet<(String, String)>> = loaded
        .top
        .apis
        .iter()
        .zip(&loaded.areas)
        .map(|(api, areas)| {
            let mut keys = std::collections::BTreeSet::new();
            for op in areas.iter().flat_map(|(_, a)| &a.operations) {
                let path = format!("{}{}", api.prefix.value, op.path);
                keys.insert((op.method.as_str().to_owned(), desc::normalise_path(&path)));
            }
            keys
        })
        .collect();
    let mut counts: BTreeMap<&String, Vec<usize>> = BTreeMap::new();
    for (file, doc) in docs {
        let mut c = vec![0; per_api.len()];
        for (path, method, _) in doc.operations() {
            let key = (method.to_uppercase(), desc::normalise_path(path));
            for (k, keys) in per_api.iter().enumerate() {
                c[k] += usize::from(keys.contains(&key));
            }
        }
        counts.insert(file, c);
    }
    let best = |c: &[usize]| {
        let max = c.iter().copied().max().unwrap_or(0);
        c.iter().position(|n| *n == max).unwrap_or(0)
    };
    let mut totals = vec![0; per_api.len()];
    for c in counts.values() {
        for (t, n) in totals.iter_mut().zip(c) {
            *t += n;
        }
    }
    let fallback = best(&totals);
    let mut out: BTreeMap<usize, std::collections::BTreeSet<String>> = BTreeMap::new();
    for (file, c) in counts {
        let api = if c.iter().all(|n| *n == 0) {
            fallback
        } else {
            best(&c)
        };
        out.entry(api).or_default().insert(file.clone());
    }
    out
}

/// Builds the spec from a private copy with the changes applied; the diagnostics if it fails.
fn validate_with(top: &Path, changes: &Changes) -> Result<(), String> {
    let spec_dir = top.parent().unwrap_or(Path::new("."));
    let tmp = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
    let copy = tmp.path().join("spec");
    copy_dir(spec_dir, &copy)?;
    copy_guide(top, spec_dir, &copy)?;
    let rebased: Changes = changes
        .iter()
        .map(|(p, t)| {
            let rel = p.strip_prefix(spec_dir).unwrap_or(p);
            (copy.join(rel), t.clone())
        })
        .collect();
    files::apply(&rebased)?;
    let name = top.file_name().unwrap_or_default();
    ruckus_codegen::build(&copy.join(name)).map(drop).map_err(|diags| {
        let shown: String = diags.iter().take(40).map(|d| format!("{d}\n")).collect();
        format!(
            "{shown}{} error(s): the spec with the new imported files does not validate; nothing was written",
            diags.len()
        )
    })
}

/// Copies the crate guide the top file names (`crate.guide`, a file beside the spec directory
/// such as `../README.md`) to the same place relative to the copy, so the copy validates as the
/// spec does. A guide the copy cannot hold (further up than the copy's parent) stays absent and
/// the validation reports it.
fn copy_guide(top: &Path, spec_dir: &Path, copy: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(top).map_err(|e| format!("{}: {e}", top.display()))?;
    let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
        return Ok(()); // the validation reports the top file
    };
    let Some(guide) = value
        .get("crate")
        .and_then(|c| c.get("guide"))
        .and_then(|g| g.as_str())
    else {
        return Ok(());
    };
    let rel = Path::new(guide);
    let ups = rel
        .components()
        .filter(|c| matches!(c, std::path::Component::ParentDir))
        .count();
    if rel.is_absolute() || ups > 1 {
        return Ok(());
    }
    let (src, dst) = (spec_dir.join(rel), copy.join(rel));
    if src.is_file() && !dst.exists() {
        if let Some(parent) = dst.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for e in entries {
        let e = e.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let kind = e
            .file_type()
            .map_err(|e| format!("{}: {e}", src.display()))?;
        if kind.is_dir() {
            copy_dir(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}

fn report_of(api: &str, f: &plan::Findings) -> String {
    if f.typed.is_empty() && f.unresolved.is_empty() && f.exceptions.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "## {api}\n\n| area | places typed | imported types | drafted operations |\n|---|---:|---:|---:|\n"
    );
    let areas: std::collections::BTreeSet<&String> = f
        .typed
        .keys()
        .chain(f.types.keys())
        .chain(f.drafted.keys())
        .collect();
    for area in areas {
        out.push_str(&format!(
            "| {area} | {} | {} | {} |\n",
            f.typed.get(area).unwrap_or(&0),
            f.types.get(area).unwrap_or(&0),
            f.drafted.get(area).unwrap_or(&0)
        ));
    }
    for (title, list) in [
        ("places the descriptions cannot type", &f.unresolved),
        (
            "fields the descriptions give curated types that they lack",
            &f.curated_gaps,
        ),
        ("routes not drafted", &f.exceptions),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("\n{title} ({}):\n", list.len()));
            for item in list {
                out.push_str(&format!("- {item}\n"));
            }
        }
    }
    out.push('\n');
    out
}

fn load_docs(dir: &Path) -> Result<Option<BTreeMap<String, Document>>, String> {
    let Some(names) = desc::description_files(dir) else {
        return Ok(None);
    };
    let mut docs = BTreeMap::new();
    for n in names {
        let doc = Document::read(&dir.join(&n))?;
        docs.insert(n, doc);
    }
    Ok(Some(docs))
}

/// Each service of `api` whose provenance names a description file (`reference: <file> ...`):
/// its name -> that file.
pub(crate) fn service_files(api: &ruckus_codegen::spec::Api) -> BTreeMap<String, String> {
    api.services
        .iter()
        .filter_map(|s| {
            let file = s
                .provenance
                .as_deref()?
                .strip_prefix("reference: ")?
                .split_whitespace()
                .next()?;
            Some((s.name.clone(), file.to_owned()))
        })
        .collect()
}
