//! `cargo xtask diff [BASE] [--json] [--fail-on breaking] [--spec FILE] [--base-spec FILE]`:
//! what a spec change means for code using the generated crate.
//!
//! Both specs go through the generator's own loader and validator (so only changes the
//! generator sees count), then the two IRs are compared: operations, parameters, bodies,
//! responses, versions, lifecycle and provenance ([`ops`], [`parts`]), types, fields and enum
//! values ([`types`]), API settings and areas ([`api`]). Each change is classified breaking,
//! deprecation or compatible ([`change`]) and the report ([`render`]) states the version bump.
//!
//! BASE is a git revision (default `HEAD`): the spec directory as it was there, and every file
//! the spec names outside it (the crate guide), are copied to a private temporary directory
//! ([`git`]). `--base-spec FILE` compares with a spec file instead. A
//! base that does not load with this generator (an older spec format) is reported and skipped
//! (exit 0); with `--fail-on breaking` it is a failure (exit 1, saying why): a gate fails closed.

mod api;
mod change;
mod ctx;
mod git;
mod ops;
mod parts;
mod render;
mod types;
mod usage;

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::{DiffArgs, FailOn};
use crate::workspace::{SPEC, enter_root, out};

/// The base spec's IR and its label, or (inner error) why it does not load with this
/// generator: that is not a failure, the base may predate the current spec format.
fn load_base(
    opts: &DiffArgs,
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

fn diagnostics(d: &[ruckus_codegen::Diagnostic]) -> String {
    d.iter().map(|d| format!("{d}\n")).collect()
}

/// Runs the command; the exit code is 1 on a usage or load error of the working tree's spec, or
/// with `--fail-on breaking` when a change is breaking or the base does not load.
pub fn run(args: &DiffArgs) -> ExitCode {
    match report(args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn compare(
    old: &ruckus_codegen::ir::Ir,
    new: &ruckus_codegen::ir::Ir,
    base: String,
    target: String,
) -> render::Report {
    render::Report {
        base,
        target,
        krate: new.krate.name.clone(),
        base_version: old.krate.version.clone(),
        version: new.krate.version.clone(),
        changes: api::compare(old, new),
    }
}

/// `cargo xtask diff BASE --json` of the workspace's spec, as a value (`cargo xtask
/// changelog`). A base that does not load is an error here: there is nothing to list.
pub fn json_since(rev: &str) -> Result<serde_json::Value, String> {
    enter_root()?;
    let spec = PathBuf::from(SPEC);
    let new = ruckus_codegen::build(&spec).map_err(|d| {
        format!(
            "{}the spec ({}) does not load",
            diagnostics(&d),
            spec.display()
        )
    })?;
    let opts = DiffArgs {
        rev: Some(rev.to_owned()),
        json: true,
        fail_on: None,
        spec: None,
        base_spec: None,
    };
    let (old, base) = load_base(&opts, &spec)??;
    let report = compare(&old, &new, base, render::WORKING_TREE.to_owned());
    serde_json::from_str(&render::json(&report)).map_err(|e| format!("diff JSON: {e}"))
}

fn report(opts: &DiffArgs) -> Result<ExitCode, String> {
    let spec = match &opts.spec {
        Some(s) => s.clone(),
        None => {
            enter_root()?;
            PathBuf::from(SPEC)
        }
    };
    let new = ruckus_codegen::build(&spec).map_err(|d| {
        format!(
            "{}the spec to review ({}) does not load",
            diagnostics(&d),
            spec.display()
        )
    })?;
    let (old, base) = match load_base(opts, &spec)? {
        Ok(loaded) => loaded,
        // A gate fails closed: with nothing compared, no change is shown not to break.
        Err(message) if opts.fail_on == Some(FailOn::Breaking) => {
            return Err(format!(
                "{message}--fail-on breaking fails: without a base that loads, the changes \
                 cannot be shown not to break."
            ));
        }
        Err(message) => {
            out(&message);
            return Ok(ExitCode::SUCCESS);
        }
    };
    let target = match &opts.spec {
        Some(s) => s.display().to_string(),
        None => render::WORKING_TREE.to_owned(),
    };
    let report = compare(&old, &new, base, target);
    out(&if opts.json {
        render::json(&report)
    } else {
        render::markdown(&report)
    });
    Ok(
        if opts.fail_on == Some(FailOn::Breaking) && report.breaking() > 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        },
    )
}
