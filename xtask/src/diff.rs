//! `cargo xtask diff [BASE] [--json] [--fail-on breaking] [--spec FILE] [--base-spec FILE]`:
//! what a spec change means for code using the generated crate.
//!
//! Both specs go through the generator's own loader and validator (so only changes the
//! generator sees count), then the two IRs are compared: operations, parameters, bodies,
//! responses, versions, lifecycle and provenance ([`ops`], [`parts`]), types, fields and enum
//! values ([`types`]), API settings and areas ([`api`]). Each change is classified breaking,
//! deprecation or compatible ([`change`]) and the report ([`render`]) states the version bump.
//!
//! BASE is a git revision (default `HEAD`): the spec directory as it was there is copied to a
//! temporary directory ([`git`]). `--base-spec FILE` compares with a spec file instead. A base that
//! does not load with this generator (an older spec format) is reported and skipped (exit 0).

mod api;
mod change;
mod git;
mod ops;
mod parts;
mod render;
mod types;
mod usage;

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Default)]
struct Options {
    rev: Option<String>,
    base_spec: Option<PathBuf>,
    spec: Option<PathBuf>,
    json: bool,
    fail_on_breaking: bool,
}

fn usage() -> String {
    "usage: cargo xtask diff [BASE] [--json] [--fail-on breaking] [--spec FILE] [--base-spec FILE]\n\n  \
     BASE               git revision to compare the working tree's spec with (default HEAD)\n  \
     --json             print JSON instead of Markdown\n  \
     --fail-on breaking exit 1 when a change is breaking\n  \
     --spec FILE        the spec to review (default spec/ruckus-one.yaml)\n  \
     --base-spec FILE   compare with this spec file instead of a git revision"
        .into()
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => o.json = true,
            "--fail-on" => match it.next().map(String::as_str) {
                Some("breaking") => o.fail_on_breaking = true,
                _ => return Err(usage()),
            },
            "--spec" => o.spec = Some(it.next().ok_or_else(usage)?.into()),
            "--base-spec" => o.base_spec = Some(it.next().ok_or_else(usage)?.into()),
            r if o.rev.is_none() && !r.starts_with('-') => o.rev = Some(r.to_owned()),
            _ => return Err(usage()),
        }
    }
    if o.rev.is_some() && o.base_spec.is_some() {
        return Err(format!(
            "give a revision or --base-spec, not both\n\n{}",
            usage()
        ));
    }
    Ok(o)
}

/// The base spec's IR and its label, or (inner error) why it does not load with this
/// generator: that is not a failure, the base may predate the current spec format.
fn load_base(
    opts: &Options,
    spec: &std::path::Path,
) -> Result<Result<(ruckus_codegen::ir::Ir, String), String>, String> {
    let (old, base, temp) = match &opts.base_spec {
        Some(file) => (
            ruckus_codegen::build(file),
            file.display().to_string(),
            None,
        ),
        None => {
            let rev = opts.rev.as_deref().unwrap_or("HEAD");
            let copy = git::spec_at(rev, spec)?;
            let root = format!("{}/", copy.root.display());
            (
                ruckus_codegen::build(&copy.top),
                copy.label.clone(),
                Some(root),
            )
        }
    };
    Ok(match old {
        Ok(ir) => Ok((ir, base)),
        Err(d) => {
            // Diagnostics name the temporary copy; show paths as in the repository.
            let first = d.first().map(ToString::to_string).unwrap_or_default();
            let first = temp.map_or(first.clone(), |t| first.replace(&t, ""));
            Err(format!(
                "The spec at {base} does not load with this generator ({} diagnostic(s), \
                 first: {first}); it may predate the current spec format. Nothing to compare.\n",
                d.len(),
            ))
        }
    })
}

use crate::out;

fn diagnostics(d: &[ruckus_codegen::Diagnostic]) -> String {
    d.iter().map(|d| format!("{d}\n")).collect()
}

/// Runs the command; the exit code is 1 on a usage or load error of the working tree's spec, or
/// with `--fail-on breaking` when a change is breaking.
pub fn run(args: &[String]) -> ExitCode {
    match report(args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn report(args: &[String]) -> Result<ExitCode, String> {
    let opts = parse(args)?;
    let spec = match &opts.spec {
        Some(s) => s.clone(),
        None => {
            let root = super::workspace_root();
            std::env::set_current_dir(&root)
                .map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
            PathBuf::from(super::SPEC)
        }
    };
    let new = ruckus_codegen::build(&spec).map_err(|d| {
        format!(
            "{}the spec to review ({}) does not load",
            diagnostics(&d),
            spec.display()
        )
    })?;
    let (old, base) = match load_base(&opts, &spec)? {
        Ok(loaded) => loaded,
        Err(message) => {
            out(&message);
            return Ok(ExitCode::SUCCESS);
        }
    };
    let target = match &opts.spec {
        Some(s) => s.display().to_string(),
        None => render::WORKING_TREE.to_owned(),
    };
    let report = render::Report {
        base,
        target,
        krate: new.krate.name.clone(),
        base_version: old.krate.version.clone(),
        version: new.krate.version.clone(),
        changes: api::compare(&old, &new),
    };
    out(&if opts.json {
        render::json(&report)
    } else {
        render::markdown(&report)
    });
    Ok(if opts.fail_on_breaking && report.breaking() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
