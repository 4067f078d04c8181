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
//! checks that the spec with the new files validates, then replaces the files all or nothing
//! ([`write`]). The command line lives in xtask (`xtask/src/import.rs`).

mod convert;
mod draft;
mod files;
mod index;
mod naming;
mod owners;
mod payloads;
mod plan;
mod report;
mod validate;

use crate::openapi::{self as desc, Document};
use ruckus_codegen::load::{IMPORTED_DIR, load_curated};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use payloads::without_host;
pub use validate::validate_with;

/// The vendor's descriptions, by file name.
pub type Docs = BTreeMap<String, Document>;

/// Validates the spec with the changes applied to a private copy, then applies them to the
/// spec's own files, all or nothing; the diagnostics when the copy does not validate.
pub fn write(top: &Path, changes: &Changes) -> Result<(), String> {
    validate_with(top, changes)?;
    files::apply(changes)
}

/// For `cargo xtask check`: the imported files that differ from what the import would write
/// (empty when they are current), or `None` when the descriptions at `openapi` are not there.
pub fn stale(top: &Path, openapi: &Path) -> Result<Option<Vec<String>>, String> {
    let Some(docs) = load_docs(openapi)? else {
        return Ok(None);
    };
    let (changes, _) = plan_changes(top, &docs, &payloads_beside(openapi), None)?;
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

/// The vendor's payloads beside the descriptions (`<openapi>/../payloads`; absent: none).
pub fn payloads_beside(openapi: &Path) -> PathBuf {
    openapi.join("..").join("payloads")
}

/// Every change to the imported files of the API (or of every API), and the report.
pub type Changes = Vec<(PathBuf, Option<String>)>;

/// The changes to the imported files of `only` (or of every API) the descriptions `docs` give for
/// the spec whose top file is `top`, and the report of what the import found.
pub fn plan_changes(
    top: &Path,
    docs: &Docs,
    payloads_dir: &Path,
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
    let payloads = payloads::Payloads::read(payloads_dir, &payloads::artefacts(spec_dir)?)?;
    let mut changes = Vec::new();
    let mut report = String::new();
    let spec_keys = owners::spec_keys(&loaded);
    let owners = owners::owners(docs, &loaded);
    for (k, (api, areas)) in loaded.top.apis.iter().zip(&loaded.areas).enumerate() {
        if only.is_some_and(|o| o != api.name) {
            continue;
        }
        let areas: Vec<_> = areas.iter().map(|(_, a)| a).collect();
        let dir = spec_dir.join(&api.name);
        let placement = draft::Placement::new(&dir, docs, &areas, &api.prefix.value)?;
        let files = owners.get(&k).cloned().unwrap_or_default();
        let tenant_header = loaded.top.auth.tenant_header.value.as_str();
        let mut drafted = draft::draft(
            docs,
            api,
            &areas,
            &spec_keys,
            &files,
            &placement,
            tenant_header,
        );
        let service_files = service_files(api);
        let (planned, mut findings) =
            plan::plan(docs, &areas, &service_files, &mut drafted.ops, &payloads);
        findings.exceptions = drafted.exceptions;
        let mut types: BTreeMap<String, Vec<_>> = planned.types;
        let mut additions = planned.additions;
        let mut ops: BTreeMap<String, Vec<_>> = BTreeMap::new();
        for d in drafted.ops {
            types.entry(d.area.clone()).or_default();
            ops.entry(d.area).or_default().push(d.op);
        }
        for area in additions.keys() {
            types.entry(area.clone()).or_default();
        }
        let mut wanted = BTreeMap::new();
        for (area, types) in types {
            let area_ops = ops.remove(&area).unwrap_or_default();
            let added = additions.remove(&area).unwrap_or_default();
            wanted.insert(area.clone(), files::text(&area, types, area_ops, added)?);
        }
        let dir = spec_dir.join(&api.name).join(IMPORTED_DIR);
        changes.extend(files::changes(&dir, &wanted)?);
        report.push_str(&report::report_of(&api.name, &findings));
    }
    Ok((changes, report))
}

/// The descriptions in `dir`, or `None` when it holds none.
pub fn load_docs(dir: &Path) -> Result<Option<Docs>, String> {
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
pub fn service_files(api: &ruckus_codegen::spec::Api) -> BTreeMap<String, String> {
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
