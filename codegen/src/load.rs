//! Reading the spec: the top-level file, then each API's area files.

use crate::diag::{Diagnostic, Diagnostics};
use crate::limits::{self, Limits};
use crate::overrides::Applied;
use crate::source::SourceFile;
use crate::spec::{Area, ImportedArea, Origin, TopLevel};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// The spec as read from disk, before validation.
#[derive(Debug)]
pub struct Loaded {
    /// The top-level file.
    pub top_file: SourceFile,
    /// Its content.
    pub top: TopLevel,
    /// Per API (same order as `top.apis`), its area files and their content.
    pub areas: Vec<Vec<(SourceFile, Area)>>,
    /// The crate guide's Markdown (`crate.guide`), when the spec names one.
    pub guide: Option<String>,
}

/// The markers around the crate guide in the file `crate.guide` names.
pub const GUIDE_START: &str = "<!-- crate-guide:start -->";
pub const GUIDE_END: &str = "<!-- crate-guide:end -->";

/// Where the loader reads the crate guide `name` (`crate.guide`) of the top-level file in `dir`:
/// relative to that file, so it may lie outside the spec directory (`../docs/src/client.md`).
pub fn guide_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

/// The files the top-level file at `top_path` (its text `top_text`) makes the loader read
/// besides the area files in its own directory, where the loader reads them: the crate guide.
/// Empty when the text does not parse (loading it reports why).
pub fn named_files(top_path: &Path, top_text: &str) -> Vec<PathBuf> {
    let dir = top_path.parent().unwrap_or(Path::new(""));
    let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(top_text) else {
        return Vec::new();
    };
    value
        .get("crate")
        .and_then(|c| c.get("guide"))
        .and_then(serde_yaml::Value::as_str)
        .map(|name| guide_path(dir, name))
        .into_iter()
        .collect()
}

/// The text of the crate guide `crate.guide` names: between the markers, else the whole file.
fn read_guide(
    top_file: &SourceFile,
    dir: &Path,
    name: &str,
    input: &Input<'_>,
) -> Result<String, Diagnostic> {
    let at = |message: String| top_file.diag(&["crate:", "guide:"], message);
    let path = guide_path(dir, name);
    let text = limits::read(&path, input.limits)
        .map_err(|d| at(format!("crate guide `{name}`: {}", d.message)))?;
    input.spend(&path, &text)?;
    let guide = match (text.find(GUIDE_START), text.find(GUIDE_END)) {
        (None, None) => text.as_str(),
        (Some(start), Some(end)) if start < end => &text[start + GUIDE_START.len()..end],
        _ => {
            return Err(at(format!(
                "crate guide `{name}`: `{GUIDE_START}` must come once, before `{GUIDE_END}`"
            )));
        }
    };
    Ok(guide.trim_matches('\n').to_owned())
}

/// Reads `top_path` and every area file it names, within the [`Limits`] set by the environment
/// (the defaults unless overridden). YAML and shape errors become diagnostics with the file and
/// line serde_yaml reports.
pub fn load(top_path: &Path) -> Result<Loaded, Vec<Diagnostic>> {
    let limits = Limits::from_env().map_err(|d| vec![d])?;
    load_with(top_path, &limits)
}

/// [`load`] within explicit limits.
pub fn load_with(top_path: &Path, limits: &Limits) -> Result<Loaded, Vec<Diagnostic>> {
    load_files(top_path, limits, true)
}

/// The curated files only: area files as people wrote them, without their imported types and
/// with their overrides unapplied (what `cargo xtask import` works from).
pub fn load_curated(top_path: &Path) -> Result<Loaded, Vec<Diagnostic>> {
    let limits = Limits::from_env().map_err(|d| vec![d])?;
    load_files(top_path, &limits, false)
}

fn load_files(top_path: &Path, limits: &Limits, imported: bool) -> Result<Loaded, Vec<Diagnostic>> {
    let ahead = Ahead::parse(top_path, limits, imported);
    let limits = &Input {
        limits,
        spent: std::cell::Cell::new(0),
        ahead: std::cell::RefCell::new(ahead),
    };
    let mut diags = Diagnostics::default();
    let (top_file, top) = match read_yaml::<TopLevel>(top_path, limits) {
        Ok(v) => v,
        Err(d) => return Err(vec![d]),
    };
    let dir = top_path.parent().unwrap_or(Path::new(""));
    let areas = top
        .apis
        .iter()
        .map(|api| load_api(&top_file, dir, api, limits, imported, &mut diags))
        .collect();
    let guide = match &top.krate.guide {
        Some(name) => match read_guide(&top_file, dir, name, limits) {
            Ok(text) => Some(text),
            Err(d) => {
                diags.push(d);
                None
            }
        },
        None => None,
    };
    if diags.is_empty() {
        Ok(Loaded {
            top_file,
            top,
            areas,
            guide,
        })
    } else {
        Err(diags.into_sorted())
    }
}

/// The area files of one API as read (with their imported files merged and every override
/// applied when `imported`); what is wrong goes to `diags`.
fn load_api(
    top_file: &SourceFile,
    dir: &Path,
    api: &crate::spec::Api,
    limits: &Input<'_>,
    imported: bool,
    diags: &mut Diagnostics,
) -> Vec<(SourceFile, Area)> {
    let mut api_areas = Vec::new();
    let mut renames = std::collections::BTreeMap::new();
    let mut replacements = Vec::new();
    let mut listed = std::collections::BTreeSet::new();
    let mut pool = Vec::new();
    // Areas without an imported file: their overrides were reported already.
    let mut no_file = std::collections::BTreeSet::new();
    if !is_file_name(&api.name) {
        // The validator reports the name; no file is read through it.
        return api_areas;
    }
    for area in &api.areas {
        let Some(path) = area_path(top_file, dir, &api.name, area, &mut listed, diags) else {
            continue;
        };
        let parsed = limits.ahead.borrow_mut().areas.remove(&path);
        let parsed = parsed.map_or_else(
            || read_yaml::<Area>(&path, limits),
            |p| take(p, &path, limits),
        );
        match parsed {
            Ok((file, mut parsed)) => {
                if parsed.area != *area {
                    diags.push_with(|| {
                        file.diag(
                            &["area:"],
                            format!(
                                "`area: {}` does not match the file name `{area}.yaml`",
                                parsed.area
                            ),
                        )
                    });
                }
                if imported {
                    let path = dir
                        .join(&api.name)
                        .join(IMPORTED_DIR)
                        .join(format!("{area}.yaml"));
                    match merge_imported(&path, &file, &mut parsed, limits, diags) {
                        Some(types) => pool.extend(types),
                        None => {
                            no_file.insert(parsed.area.clone());
                        }
                    }
                }
                api_areas.push((file, parsed));
            }
            Err(d) => diags.push(d),
        }
    }
    if imported {
        let (r, mut replaced) = apply_type_overrides(&mut api_areas, pool, &no_file, diags);
        renames.extend(r);
        replacements.append(&mut replaced);
        crate::op_overrides::apply(&mut api_areas, diags);
    }
    resolve_overrides(&api.name, &mut api_areas, &renames, replacements, diags);
    api_areas
}

/// The file of a listed area: `None` (with a diagnostic on the top file) when the name cannot
/// name a file, is listed twice or has no file.
fn area_path<'a>(
    top_file: &SourceFile,
    dir: &Path,
    api: &str,
    area: &'a String,
    listed: &mut std::collections::BTreeSet<&'a String>,
    diags: &mut Diagnostics,
) -> Option<std::path::PathBuf> {
    let anchors = ["apis:", &format!("name: {api}"), "areas:", area.as_str()];
    if !is_file_name(area) {
        diags.push_with(|| {
            top_file.diag(
                &anchors,
                format!("area `{area}` must be a snake_case identifier (it names a file)"),
            )
        });
        return None;
    }
    if !listed.insert(area) {
        diags
            .push_with(|| top_file.diag_nth(&anchors, 2, format!("area `{area}` is listed twice")));
        return None;
    }
    let path = dir.join(api).join(format!("{area}.yaml"));
    if !path.is_file() {
        diags.push_with(|| {
            top_file.diag(
                &anchors,
                format!("area file `{}` does not exist", path.display()),
            )
        });
        return None;
    }
    Some(path)
}

/// The API-wide part of the overrides: references to renamed or replaced imported types follow
/// them (in imported types and in curated ones, whose fields the import adds to), and a
/// `replace_with` must name a type of the API.
fn resolve_overrides(
    api: &str,
    api_areas: &mut [(SourceFile, Area)],
    renames: &std::collections::BTreeMap<String, String>,
    replacements: Vec<(String, std::path::PathBuf, usize)>,
    diags: &mut Diagnostics,
) {
    let mut types: Vec<&mut crate::spec::TypeDef> = api_areas
        .iter_mut()
        .flat_map(|(_, a)| a.types.iter_mut())
        .collect();
    crate::overrides::rename_references(&mut types, renames);
    let mut drafted: Vec<&mut crate::spec::Operation> = api_areas
        .iter_mut()
        .flat_map(|(_, a)| a.operations.iter_mut())
        .filter(|o| o.origin.is_some())
        .collect();
    crate::overrides::rename_operation_references(&mut drafted, renames);
    for (with, path, line) in replacements {
        if !api_areas
            .iter()
            .any(|(_, a)| a.types.iter().any(|t| t.name == with))
        {
            diags.push(Diagnostic::new(
                &path,
                line,
                format!("`replace_with: {with}` names no type of API `{api}`"),
            ));
        }
    }
}

/// The directory beside an API's area files that holds the imported ones (tool-owned).
pub const IMPORTED_DIR: &str = "imported";

/// The renames of imported types, and the `replace_with` targets with their file and line.
type Renamed = (
    std::collections::BTreeMap<String, String>,
    Vec<(String, std::path::PathBuf, usize)>,
);

/// Applies every area's type overrides to the imported types of the whole API (a type may sit in
/// another area's imported file than the one its overrides were written beside: the import
/// moves a type to `common` when drafted operations of other areas use it too), then gives each
/// type to the area whose imported file holds it.
fn apply_type_overrides(
    api_areas: &mut [(SourceFile, Area)],
    mut pool: Vec<crate::spec::TypeDef>,
    no_file: &std::collections::BTreeSet<String>,
    diags: &mut Diagnostics,
) -> Renamed {
    let mut renames = std::collections::BTreeMap::new();
    let mut replacements = Vec::new();
    for (file, area) in api_areas.iter().filter(|(_, a)| !no_file.contains(&a.area)) {
        let applied: Applied = crate::overrides::apply(file, &area.overrides, &mut pool, diags);
        renames.extend(applied.renames);
        replacements.extend(
            applied
                .replacements
                .into_iter()
                .map(|(with, line)| (with, file.path.clone(), line)),
        );
    }
    for t in pool {
        let home = t.origin.as_ref().and_then(|o| {
            let stem = o.file.path.file_stem()?.to_str()?;
            api_areas.iter().position(|(_, a)| a.area == stem)
        });
        if let Some(k) = home {
            api_areas[k].1.types.push(t);
        }
    }
    (renames, replacements)
}

/// Reads an area's imported file, when there is one: appends its operations to the area's and
/// returns its types (each remembering its file), to which the overrides are applied once every
/// area is read; `None` when there is no file.
fn merge_imported(
    path: &Path,
    curated: &SourceFile,
    area: &mut Area,
    limits: &Input<'_>,
    diags: &mut Diagnostics,
) -> Option<Vec<crate::spec::TypeDef>> {
    if !path.is_file() {
        if area.overrides.iter().any(|o| o.as_type().is_some()) {
            diags.push_with(|| {
                curated.diag(
                    &["overrides:"],
                    format!(
                        "overrides of imported types, but there is no imported file `{}` (run `cargo xtask import --write`)",
                        path.display()
                    ),
                )
            });
        }
        return None;
    }
    let parsed = limits.ahead.borrow_mut().imported.remove(path);
    let parsed = parsed.map_or_else(
        || read_yaml::<ImportedArea>(path, limits),
        |p| take(p, path, limits),
    );
    let (file, imported) = match parsed {
        Ok(v) => v,
        Err(d) => {
            diags.push(d);
            return Some(Vec::new());
        }
    };
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if imported.area != stem {
        diags.push_with(|| {
            file.diag(
                &["area:"],
                format!(
                    "`area: {}` does not match the file name `{stem}.yaml`",
                    imported.area
                ),
            )
        });
    }
    let file = std::sync::Arc::new(file);
    let mut types = imported.types;
    for t in &mut types {
        t.origin = Some(Origin {
            file: file.clone(),
            name: t.name.clone(),
        });
    }
    let mut operations = imported.operations;
    for op in &mut operations {
        op.origin = Some(Origin {
            file: file.clone(),
            name: op.id.clone(),
        });
    }
    area.operations.extend(operations);
    crate::additions::add_fields(&file, area, imported.additions, diags);
    Some(types)
}

/// Whether an API or area name can be used as a file name under the spec directory: ASCII
/// letters, digits and `_` (no separator, no `..`).
fn is_file_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The limits, and what the files read so far add up to (the cap on the whole spec).
struct Input<'l> {
    limits: &'l Limits,
    spent: std::cell::Cell<u64>,
    /// Area and imported files parsed ahead, on several threads ([`Ahead::parse`]).
    ahead: std::cell::RefCell<Ahead>,
}

impl Input<'_> {
    /// Counts a file read against [`Limits::max_spec_bytes`]; the file that crosses it is
    /// refused at the line where it does.
    fn spend(&self, path: &Path, text: &str) -> Result<(), Diagnostic> {
        let before = self.spent.get();
        let after = before.saturating_add(text.len() as u64);
        self.spent.set(after);
        let cap = self.limits.max_spec_bytes;
        if after <= cap {
            return Ok(());
        }
        let within = cap.saturating_sub(before).min(text.len() as u64) as usize;
        let line = 1 + text.as_bytes()[..within]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        Err(Diagnostic::new(
            path,
            line,
            format!(
                "the spec's files together are larger than {cap} bytes, the limit (set {} to raise it); this file crosses it on this line",
                limits::ENV_SPEC_BYTES
            ),
        ))
    }
}

fn read_yaml<T: DeserializeOwned>(
    path: &Path,
    input: &Input<'_>,
) -> Result<(SourceFile, T), Diagnostic> {
    take(parse_file(path, input.limits), path, input)
}

/// A spec file read within its limits and parsed, without the spec's size accounting: the
/// error, and the text when it was read.
pub(crate) type Parsed<T> = Result<(SourceFile, T), (Diagnostic, Option<String>)>;

/// Reads and parses one file (any thread may; see [`take`]).
pub(crate) fn parse_file<T: DeserializeOwned>(path: &Path, limits: &Limits) -> Parsed<T> {
    let text = limits::read(path, limits).map_err(|d| (d, None))?;
    if text.trim().is_empty() {
        return Err((Diagnostic::new(path, 1, "the file is empty"), Some(text)));
    }
    let at = |e: &serde_yaml::Error| {
        let line = e
            .location()
            .map_or_else(|| text.lines().count().max(1), |l| l.line());
        Diagnostic::new(path, line, yaml_message(e))
    };
    match serde_yaml::from_str::<T>(&text) {
        Ok(value) => Ok((SourceFile::new(path.to_path_buf(), text), value)),
        // serde builds the spec while it reads, so a syntax error later in the file can hide
        // behind a shape error (a missing key) before it: a file that does not parse as plain
        // YAML reports its syntax error. (Parsed twice only when it fails.)
        Err(e) => {
            let d = match serde_yaml::from_str::<serde_yaml::Value>(&text) {
                Err(syntax) => at(&syntax),
                Ok(_) => at(&e),
            };
            Err((d, Some(text)))
        }
    }
}

/// A parsed file counted against the spec's size limit, in the loader's order (as if read
/// there): the size error comes first, as it would have stopped the parse.
fn take<T>(
    parsed: Parsed<T>,
    path: &Path,
    input: &Input<'_>,
) -> Result<(SourceFile, T), Diagnostic> {
    match parsed {
        Ok((file, value)) => {
            input.spend(path, &file.text)?;
            Ok((file, value))
        }
        Err((d, Some(text))) => {
            input.spend(path, &text)?;
            Err(d)
        }
        Err((d, None)) => Err(d),
    }
}

/// The area files (and their imported files) of a spec, parsed ahead of the loader on up to
/// [`workers`](crate::threads::workers) threads: parsing is most of the loading time. The loader takes each
/// file from here in its own order, so diagnostics and the size accounting are as if it had
/// read them one by one; a file it does not take (a name listed twice) is dropped.
#[derive(Default)]
struct Ahead {
    areas: std::collections::HashMap<std::path::PathBuf, Parsed<Area>>,
    imported: std::collections::HashMap<std::path::PathBuf, Parsed<ImportedArea>>,
}

impl Ahead {
    fn parse(top_path: &Path, limits: &Limits, imported: bool) -> Ahead {
        // The top file is read again by the loader; here only its list of areas matters.
        let Ok(text) = limits::read(top_path, limits) else {
            return Ahead::default();
        };
        let Ok(top) = serde_yaml::from_str::<TopLevel>(&text) else {
            return Ahead::default();
        };
        let dir = top_path.parent().unwrap_or(Path::new(""));
        let mut files: Vec<(std::path::PathBuf, bool)> = Vec::new();
        for api in top.apis.iter().filter(|a| is_file_name(&a.name)) {
            for area in api.areas.iter().filter(|a| is_file_name(a)) {
                files.push((dir.join(&api.name).join(format!("{area}.yaml")), false));
                let path = dir
                    .join(&api.name)
                    .join(IMPORTED_DIR)
                    .join(format!("{area}.yaml"));
                if imported && path.is_file() {
                    files.push((path, true));
                }
            }
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            let mut ahead = Ahead::default();
            while let Some((path, is_imported)) =
                files.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
            {
                if *is_imported {
                    ahead
                        .imported
                        .insert(path.clone(), parse_file(path, limits));
                } else {
                    ahead.areas.insert(path.clone(), parse_file(path, limits));
                }
            }
            ahead
        };
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..crate::threads::workers(files.len()))
                .map(|_| scope.spawn(work))
                .collect();
            let mut all = work();
            for h in helpers {
                let more = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                all.areas.extend(more.areas);
                all.imported.extend(more.imported);
            }
            all
        })
    }
}

/// serde_yaml's message without its trailing position (the diagnostic carries the line).
fn yaml_message(e: &serde_yaml::Error) -> String {
    let msg = e.to_string();
    let msg = match msg.find(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg,
    };
    format!("invalid YAML: {msg}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_over_the_whole_spec_cap_is_refused_where_a_file_crosses_it() {
        let top = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/broken/base/ruckus-one.yaml");
        assert!(load_with(&top, &Limits::default()).is_ok());
        // The top file (955 bytes), then items (541) and common (120) fit in 2000; shapes
        // (1708) crosses it.
        let limits = Limits {
            max_spec_bytes: 2000,
            ..Limits::default()
        };
        let diags = load_with(&top, &limits).unwrap_err();
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(diags[0].file.ends_with("demo/shapes.yaml"), "{diags:?}");
        assert!(diags[0].line > 1, "{diags:?}");
        assert!(
            diags[0].message.contains("together are larger than 2000"),
            "{diags:?}"
        );
    }
}
