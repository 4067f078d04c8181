//! The spec directory as it was at a git revision, written to a temporary directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A copy of the spec at a revision; the temporary directory is removed on drop.
pub struct SpecAt {
    /// The temporary directory (diagnostics name files under it).
    pub root: PathBuf,
    /// The top-level file inside the copy.
    pub top: PathBuf,
    /// The revision as given with its abbreviated commit (`HEAD~1 (2260c0e)`).
    pub label: String,
}

impl Drop for SpecAt {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Writes every file under the directory of `top` (the spec directory) as it was at `rev` to a
/// fresh temporary directory, keeping the spec directory's name so that diagnostics and spec
/// file names read as they do for the working tree.
pub fn spec_at(rev: &str, top: &Path) -> Result<SpecAt, String> {
    let dir = match top.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let file = top.file_name().ok_or("the spec path names no file")?;
    let commit = git(
        dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| {
        format!(
            "`{rev}` is not a commit of the repository holding {}",
            dir.display()
        )
    })?;
    let commit = String::from_utf8_lossy(&commit).trim().to_owned();
    let short = git(dir, &["rev-parse", "--short", &commit])?;
    let short = String::from_utf8_lossy(&short).trim().to_owned();
    let label = if short.starts_with(rev) || rev.starts_with(&short) {
        short
    } else {
        format!("{rev} ({short})")
    };
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let root = std::env::temp_dir().join(format!(
        "xtask-diff-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let name = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("spec"));
    let copy = SpecAt {
        top: root.join(&name).join(file),
        root: root.clone(),
        label,
    };
    let listing = git(
        dir,
        &["ls-tree", "-r", "-z", "--name-only", &commit, "--", "."],
    )?;
    for rel in listing.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rel = String::from_utf8_lossy(rel);
        let bytes = git(dir, &["cat-file", "blob", &format!("{commit}:./{rel}")])?;
        let path = root.join(&name).join(rel.as_ref());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(copy)
}
