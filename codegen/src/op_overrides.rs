//! Curated corrections of drafted operations (`overrides:` entries with `operation:`), applied
//! once every area of an API is loaded with its imported operations.
//!
//! An operation override may stand in any area file of the API: it names the drafted
//! operation by the id its imported file gives it. The import itself honours `area:` (where it
//! places the operation) and `skip:` (the route is not drafted); the loader renames the id,
//! rewrites the name and description, and checks that the imported files agree with `area:`
//! and `skip:` (else they are stale).

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::SourceFile;
use crate::spec::{Area, Override};
use std::path::PathBuf;

/// One operation override, read out of its area file with the lines of its keys.
struct Wanted {
    target: String,
    path: PathBuf,
    /// Line of the entry, of its `skip:` and of its `area:`.
    lines: [usize; 3],
    rename: Option<String>,
    name: Option<String>,
    description: Option<String>,
    area: Option<String>,
    skip: bool,
}

fn wanted(areas: &[(SourceFile, Area)]) -> Vec<Wanted> {
    let mut out = Vec::new();
    for (file, area) in areas {
        for o in area.overrides.iter().filter_map(Override::as_operation) {
            let target = &o.target;
            let anchor = format!("operation: {target}");
            let line = |more: &str| {
                let mut all = vec!["overrides:", anchor.as_str()];
                if !more.is_empty() {
                    all.push(more);
                }
                file.line_of(&all)
            };
            out.push(Wanted {
                target: target.clone(),
                path: file.path.clone(),
                lines: [line(""), line("skip:"), line("area:")],
                rename: o.rename.clone(),
                name: o.name.clone(),
                description: o.description.clone(),
                area: o.area.clone(),
                skip: o.skip.is_some(),
            });
        }
    }
    out
}

/// Applies every operation override of one API's area files to its drafted operations.
pub fn apply(areas: &mut [(SourceFile, Area)], diags: &mut Diagnostics) {
    let mut seen = std::collections::BTreeSet::new();
    for w in wanted(areas) {
        let err = |diags: &mut Diagnostics, k: usize, msg: String| {
            diags.push(Diagnostic::new(&w.path, w.lines[k], msg));
        };
        let target = &w.target;
        if !seen.insert(target.clone()) {
            err(
                diags,
                0,
                format!("operation `{target}` is overridden twice; merge the entries"),
            );
            continue;
        }
        let found = areas.iter_mut().find_map(|(_, a)| {
            let name = a.area.clone();
            a.operations
                .iter_mut()
                .find(|op| op.origin.as_ref().is_some_and(|g| &g.name == target))
                .map(|op| (name, op))
        });
        let Some((area_name, op)) = found else {
            if !w.skip {
                err(
                    diags,
                    0,
                    format!(
                        "override of operation `{target}`: no imported file drafts it (run `cargo xtask import --write`, or remove the override)"
                    ),
                );
            }
            continue;
        };
        if w.skip {
            err(
                diags,
                1,
                format!(
                    "operation `{target}` is skipped, but an imported file still drafts it (run `cargo xtask import --write`)"
                ),
            );
        }
        if let Some(want) = &w.area
            && *want != area_name
        {
            err(
                diags,
                2,
                format!(
                    "operation `{target}` belongs in area `{want}`, but the import put it in `{area_name}` (run `cargo xtask import --write`)"
                ),
            );
        }
        if let Some(id) = &w.rename {
            op.id = id.clone();
        }
        if let Some(name) = &w.name {
            op.name = name.clone();
        }
        if let Some(d) = &w.description {
            op.description = Some(d.clone());
        }
    }
}
