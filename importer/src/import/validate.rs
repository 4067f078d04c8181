//! The import writes nothing the generator refuses: the spec is built from a private copy with
//! the changes applied (and the files the spec names beside it) before the real files change.

use super::{Changes, files};
use std::path::Path;

/// Builds the spec from a private copy with the changes applied; the diagnostics if it fails.
pub fn validate_with(top: &Path, changes: &Changes) -> Result<(), String> {
    let spec_dir = top.parent().unwrap_or(Path::new("."));
    let tmp = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
    let copy = tmp.path().join("spec");
    copy_dir(spec_dir, &copy)?;
    copy_named_files(top, spec_dir, &copy)?;
    let rebased: Changes = changes
        .iter()
        .map(|(p, t)| {
            let rel = p.strip_prefix(spec_dir).unwrap_or(p);
            (copy.join(rel), t.clone())
        })
        .collect();
    files::apply(&rebased)?;
    let name = top.file_name().unwrap_or_default();
    ruckus_codegen::build(&copy.join(name)).map(drop).map_err(|diags| {
        let shown: String = diags.iter().take(40).map(|d| format!("{d}\n")).collect();
        format!(
            "{shown}{} error(s): the spec with the new imported files does not validate; nothing was written",
            diags.len()
        )
    })
}

/// Copies the files the top file names outside the spec directory (the crate guide, such as
/// `../docs/src/client.md`; [`ruckus_codegen::load::named_files`]) to the same place relative to the
/// copy, so the copy validates as the spec does. A file the copy cannot hold (further up than the
/// copy's parent) stays absent and the validation reports it.
fn copy_named_files(top: &Path, spec_dir: &Path, copy: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(top).map_err(|e| format!("{}: {e}", top.display()))?;
    for src in ruckus_codegen::load::named_files(top, &text) {
        let Ok(rel) = src.strip_prefix(spec_dir) else {
            continue;
        };
        let ups = rel
            .components()
            .filter(|c| matches!(c, std::path::Component::ParentDir))
            .count();
        if rel.is_absolute() || ups > 1 {
            continue;
        }
        let dst = copy.join(rel);
        if src.is_file() && !dst.exists() {
            if let Some(parent) = dst.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for e in entries {
        let e = e.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let kind = e
            .file_type()
            .map_err(|e| format!("{}: {e}", src.display()))?;
        if kind.is_dir() {
            copy_dir(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}
