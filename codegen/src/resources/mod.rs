//! The resource layer (`catalog/resources.json` and `docs/resources.md`): the kinds of
//! configuration object that desired state manages, from the curated `resources.yaml` beside
//! the top-level spec file and what [`infer`] drafts from the operation tables.
//!
//! Runs on the tables the generator has just written (parsed back through the catalog's model,
//! so the layer is checked against exactly what readers get). A spec without `resources.yaml`
//! has no layer. Every problem is a [`Diagnostic`] at the curated file's line; none writes
//! anything.

mod check;
mod docs;
mod flags;
mod infer;
mod layer;
mod schema;
#[cfg(test)]
mod tests;

use crate::diag::{Diagnostic, Diagnostics};
use crate::limits::Limits;
use crate::source::SourceFile;
use crate::spec::resources::ResourcesFile;
use ruckus_one_catalog::{Resources, Table};
use std::collections::BTreeMap;
use std::path::Path;

/// The curated file's name, beside the top-level spec file.
pub const FILE: &str = "resources.yaml";

/// The layer's files for the spec whose top-level file is `top`, from the generated tables
/// (`catalog/<api>.json` in `generated`); none when the spec has no `resources.yaml`.
pub fn files(
    top: &Path,
    generated: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    let path = top.parent().unwrap_or(Path::new("")).join(FILE);
    if !path.is_file() {
        return Ok(BTreeMap::new());
    }
    let limits = Limits::from_env().map_err(|d| vec![d])?;
    let (file, spec) =
        crate::load::parse_file::<ResourcesFile>(&path, &limits).map_err(|(d, _)| vec![d])?;
    let tables = tables(generated, &path)?;
    let (resources, kinds) = build(&file, &spec, &tables)?;
    let drafts = infer::drafts(&tables);
    let mut out = BTreeMap::new();
    out.insert("catalog/resources.json".to_owned(), json(&resources));
    out.insert(
        "docs/resources.md".to_owned(),
        docs::page(&kinds, &drafts, &tables),
    );
    Ok(out)
}

/// Each API's table among the generated files.
fn tables(
    generated: &BTreeMap<String, String>,
    path: &Path,
) -> Result<Vec<Table>, Vec<Diagnostic>> {
    generated
        .iter()
        .filter(|(name, _)| {
            name.starts_with("catalog/")
                && name.ends_with(".json")
                && !["catalog/index.json", "catalog/resources.json"].contains(&name.as_str())
        })
        .map(|(name, text)| {
            serde_json::from_str::<Table>(text).map_err(|e| {
                vec![Diagnostic::new(
                    path,
                    0,
                    format!(
                        "the generated table `{name}` does not parse as the catalog's model: {e}"
                    ),
                )]
            })
        })
        .collect()
}

/// The layer of a curated file over the tables: the kinds in order (with what the docs show
/// besides), or every problem found.
pub fn build(
    file: &SourceFile,
    spec: &ResourcesFile,
    tables: &[Table],
) -> Result<(Resources, Vec<layer::Kind>), Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    let drafts = infer::drafts(tables);
    let mut kinds = layer::merge(file, spec, tables, &drafts, &mut diags);
    check::check(file, spec, &mut kinds, tables, &mut diags);
    let kinds = check::order(file, kinds, &mut diags);
    if !diags.is_empty() {
        return Err(diags.into_sorted());
    }
    let resources = Resources {
        generated: crate::PREAMBLE.to_owned(),
        kinds: kinds.iter().map(|k| k.kind.clone()).collect(),
    };
    Ok((resources, kinds))
}

/// The table's text: one kind per line, so that a change reads as a small diff.
fn json(r: &Resources) -> String {
    let kinds: Vec<String> = r.kinds.iter().map(one_line).collect();
    format!(
        "{{\"generated\":{},\n\"kinds\":[\n{}]}}\n",
        one_line(&r.generated),
        kinds.join(",\n")
    )
}

fn one_line<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
}
