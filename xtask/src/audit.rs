//! `cargo xtask audit [--openapi DIR] [--tsv | --summary] [--spec FILE]`: the command line of the
//! audit ([`ruckus_importer::audit`], in `importer/`), which compares the spec with the vendor's
//! OpenAPI descriptions.
//!
//! It is a report: it exits 0 whatever it finds, and skips with a message when the directory of
//! descriptions is absent. It fails only on a usage error or a spec that does not load.

use crate::cli::AuditArgs;
use crate::workspace::{DEFAULT_OPENAPI, SPEC, enter_root, out, workspace_root};
use ruckus_importer::audit::{self, Format};
use std::path::PathBuf;

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
    let Some(descs) = audit::load(&descriptions) else {
        println!(
            "audit: no OpenAPI descriptions at {}; skipped",
            descriptions.display()
        );
        return Ok(());
    };
    for w in &descs.warnings {
        eprintln!("audit: warning: {w} (file skipped)");
    }
    let rendered = audit::render(&ir, &descs, &descriptions, format);
    out(&rendered.report);
    for note in &rendered.notes {
        eprintln!("{note}");
    }
    Ok(())
}
