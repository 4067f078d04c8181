//! `cargo xtask audit [--openapi DIR] [--tsv | --summary] [--spec FILE]`: compares the spec
//! with the vendor's OpenAPI descriptions and prints what disagrees (statuses, media types,
//! versions, bodies, content kinds, paging, error bodies), which description operations the spec
//! lacks and which spec operations no description lists.
//!
//! It is a report: it exits 0 whatever it finds, and skips with a message when the directory of
//! descriptions is absent. It fails only on a usage error or a spec that does not load.

mod compare;
pub(crate) mod openapi;
mod report;

use std::path::PathBuf;

/// Where the descriptions are unless `--openapi` says otherwise, relative to the workspace root.
const DEFAULT_OPENAPI: &str = "../shared/reference/openapi";

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Markdown,
    Summary,
    Tsv,
}

struct Args {
    spec: PathBuf,
    openapi: PathBuf,
    format: Format,
}

pub fn usage() -> &'static str {
    "  audit [--openapi DIR] [--tsv | --summary]\n            compare the spec with the vendor's OpenAPI descriptions (default DIR: ../shared/reference/openapi)"
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let (mut spec, mut openapi, mut format) = (None, None, Format::Markdown);
    let mut it = args.iter();
    let bad = || {
        format!(
            "usage: cargo xtask audit [--openapi DIR] [--tsv | --summary] [--spec FILE]\n\n{}",
            usage()
        )
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--spec" => spec = Some(PathBuf::from(it.next().ok_or_else(bad)?)),
            "--openapi" => openapi = Some(PathBuf::from(it.next().ok_or_else(bad)?)),
            "--tsv" | "--summary" if format != Format::Markdown => return Err(bad()),
            "--tsv" => format = Format::Tsv,
            "--summary" => format = Format::Summary,
            _ => return Err(bad()),
        }
    }
    let root = crate::workspace_root();
    if spec.is_none() && openapi.is_none() {
        // The workspace's own files, named relative to its root as the other commands do.
        std::env::set_current_dir(&root)
            .map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
        return Ok(Args {
            spec: crate::SPEC.into(),
            openapi: DEFAULT_OPENAPI.into(),
            format,
        });
    }
    Ok(Args {
        spec: spec.unwrap_or_else(|| root.join(crate::SPEC)),
        openapi: openapi.unwrap_or_else(|| root.join(DEFAULT_OPENAPI)),
        format,
    })
}

/// Runs the audit and prints it to stdout (notes and warnings to stderr).
pub fn run(args: &[String]) -> Result<(), String> {
    let args = parse_args(args)?;
    let ir = ruckus_codegen::build(&args.spec).map_err(|diags| {
        let mut s: String = diags.iter().map(|d| format!("{d}\n")).collect();
        s.push_str(&format!("{} error(s); the spec does not load", diags.len()));
        s
    })?;
    let dir = args.openapi.display().to_string();
    let Some(descs) = openapi::load(&args.openapi) else {
        println!("audit: no OpenAPI descriptions at {dir}; skipped");
        return Ok(());
    };
    for w in &descs.warnings {
        eprintln!("audit: warning: {w} (file skipped)");
    }
    let audit = compare::audit(&ir, &descs);
    match args.format {
        Format::Markdown => crate::out(&report::markdown(&audit, &dir)),
        Format::Summary => crate::out(&report::summary(&audit)),
        Format::Tsv => {
            crate::out(&report::tsv(&audit));
            for (api, ops) in &audit.skipped {
                eprintln!(
                    "audit: `{api}` ({ops} spec operation(s)) skipped: no description lists any of its operations"
                );
            }
        }
    }
    Ok(())
}
