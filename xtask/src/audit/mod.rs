//! `cargo xtask audit [--openapi DIR] [--tsv | --summary] [--spec FILE]`: compares the spec
//! with the vendor's OpenAPI descriptions and prints what disagrees (statuses, media types,
//! versions, bodies, content kinds, paging, error bodies), which description operations the spec
//! lacks and which spec operations no description lists; and the services: each published rate
//! limit against its description's `info.description`, each listed operation's service against
//! the file that lists it.
//!
//! It is a report: it exits 0 whatever it finds, and skips with a message when the directory of
//! descriptions is absent. It fails only on a usage error or a spec that does not load.

mod compare;
pub(crate) mod openapi;
mod report;
mod services;

use crate::cli::AuditArgs;
use crate::workspace::{DEFAULT_OPENAPI, SPEC, enter_root, out, workspace_root};
use std::path::PathBuf;

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Markdown,
    Summary,
    Tsv,
}

/// The spec and the descriptions: the workspace's own, named relative to its root as the other
/// commands do, unless either is given.
fn paths(args: &AuditArgs) -> Result<(PathBuf, PathBuf), String> {
    if args.spec.is_none() && args.openapi.is_none() {
        enter_root()?;
        return Ok((SPEC.into(), DEFAULT_OPENAPI.into()));
    }
    let root = workspace_root();
    Ok((
        args.spec.clone().unwrap_or_else(|| root.join(SPEC)),
        args.openapi
            .clone()
            .unwrap_or_else(|| root.join(DEFAULT_OPENAPI)),
    ))
}

/// Runs the audit and prints it to stdout (notes and warnings to stderr).
pub fn run(args: &AuditArgs) -> Result<(), String> {
    let (spec, descriptions) = paths(args)?;
    let format = if args.tsv {
        Format::Tsv
    } else if args.summary {
        Format::Summary
    } else {
        Format::Markdown
    };
    let ir = ruckus_codegen::build(&spec).map_err(|diags| {
        let mut s: String = diags.iter().map(|d| format!("{d}\n")).collect();
        s.push_str(&format!("{} error(s); the spec does not load", diags.len()));
        s
    })?;
    let dir = descriptions.display().to_string();
    let Some(descs) = openapi::load(&descriptions) else {
        println!("audit: no OpenAPI descriptions at {dir}; skipped");
        return Ok(());
    };
    for w in &descs.warnings {
        eprintln!("audit: warning: {w} (file skipped)");
    }
    let audit = compare::audit(&ir, &descs);
    let services = services::check(&ir, &descs, &descriptions);
    match format {
        Format::Markdown => out(&format!(
            "{}{}",
            report::markdown(&audit, &dir),
            services::render(&services, true)
        )),
        Format::Summary => out(&format!(
            "{}{}",
            report::summary(&audit),
            services::render(&services, false)
        )),
        Format::Tsv => {
            out(&report::tsv(&audit));
            for (api, ops) in &audit.skipped {
                eprintln!(
                    "audit: `{api}` ({ops} spec operation(s)) skipped: no description lists any of its operations"
                );
            }
        }
    }
    Ok(())
}
