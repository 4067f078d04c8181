//! `cargo xtask import [--spec FILE] [--openapi DIR] [--api NAME] [--write]`: the command line of
//! the importer ([`ruckus_importer::import`], in `importer/`): the spec's imported types and
//! drafted operations, from the vendor's OpenAPI descriptions. `cargo xtask import --check DIR`
//! is the drift watch ([`ruckus_importer::drift`]): its exit status is the code of the most
//! severe class of difference found.

use crate::cli::ImportArgs;
use crate::workspace::{DEFAULT_OPENAPI, SPEC, out, workspace_root};
use ruckus_importer::{drift, import};
use std::path::Path;
use std::process::ExitCode;

pub fn run(args: &ImportArgs) -> Result<(), String> {
    let root = workspace_root();
    let top = args.spec.clone().unwrap_or_else(|| root.join(SPEC));
    let openapi = args
        .openapi
        .clone()
        .unwrap_or_else(|| root.join(DEFAULT_OPENAPI));
    let Some(docs) = import::load_docs(&openapi)? else {
        println!(
            "import: no OpenAPI descriptions at {}; nothing to do",
            openapi.display()
        );
        return Ok(());
    };
    let payloads = import::payloads_beside(&openapi);
    let (changes, report) = import::plan_changes(&top, &docs, &payloads, args.api.as_deref())?;
    out(&report);
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
    import::write(&top, &changes)?;
    println!("{} file(s) changed; the spec validates", changes.len());
    Ok(())
}

/// For `cargo xtask check`: the imported files of the spec `top` that differ from what the import
/// would write (empty when they are current), or `None` without the workspace's descriptions.
pub fn stale(top: &Path) -> Result<Option<Vec<String>>, String> {
    import::stale(top, &workspace_root().join(DEFAULT_OPENAPI))
}

/// `import --check DIR`: prints the drift report; the exit status is 0 without drift, else the
/// code of the most severe class (1 when the check cannot run). The vendor's payloads are the
/// workspace's (beside its own descriptions): they are evidence apart from any release.
pub fn check(args: &ImportArgs) -> ExitCode {
    let Some(dir) = &args.check else {
        return ExitCode::FAILURE;
    };
    let root = workspace_root();
    let top = args.spec.clone().unwrap_or_else(|| root.join(SPEC));
    let payloads = import::payloads_beside(&root.join(DEFAULT_OPENAPI));
    match drift::check(&top, dir, &payloads) {
        Ok(Some(found)) => {
            out(&found.render(&dir.display().to_string()));
            ExitCode::from(found.exit_code())
        }
        Ok(None) => {
            eprintln!(
                "import --check: no OpenAPI descriptions at {}",
                dir.display()
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
