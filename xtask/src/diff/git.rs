//! The spec directory as it was at a git revision, written to a temporary directory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of the spec at a revision, in a private temporary directory (a fresh, unpredictable
/// name, readable by its owner only) removed on drop.
pub struct SpecAt {
    /// The temporary directory (diagnostics name files under it).
    pub root: PathBuf,
    /// Removes the directory when the copy is dropped.
    _dir: tempfile::TempDir,
    /// The top-level file inside the copy.
    pub top: PathBuf,
    /// The revision as given with its abbreviated commit (`HEAD~1 (2260c0e)`).
    pub label: String,
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
/// fresh private temporary directory ([`tempfile`]; nothing there can be planted in advance), keeping the spec directory's name so that diagnostics and spec
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
    let dir_guard = tempfile::Builder::new()
        .prefix("xtask-diff-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let root = dir_guard.path().to_path_buf();
    let name = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("spec"));
    let copy = SpecAt {
        top: root.join(&name).join(file),
        root: root.clone(),
        _dir: dir_guard,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    /// Links planted where a predictable temporary directory would be are never followed: the
    /// copy goes to a fresh private directory.
    #[cfg(unix)]
    #[test]
    fn the_copy_follows_no_planted_link() {
        let work = tempfile::tempdir().expect("temp dir");
        let repo = work.path().join("repo");
        let spec = repo.join("spec");
        std::fs::create_dir_all(&spec).expect("spec dir");
        std::fs::write(spec.join("ruckus-one.yaml"), "crate: x\n").expect("spec file");
        run(&repo, &["init", "-q"]);
        run(&repo, &["add", "."]);
        run(
            &repo,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-q",
                "-m",
                "spec",
            ],
        );
        let attacker = work.path().join("attacker");
        std::fs::create_dir_all(&attacker).expect("attacker dir");
        let planted: Vec<PathBuf> = (0..64)
            .map(|n| std::env::temp_dir().join(format!("xtask-diff-{}-{n}", std::process::id())))
            .filter(|link| std::os::unix::fs::symlink(&attacker, link).is_ok())
            .collect();
        let copy = spec_at("HEAD", &spec.join("ruckus-one.yaml"));
        let written: Vec<_> = std::fs::read_dir(&attacker)
            .expect("read attacker dir")
            .collect();
        for link in &planted {
            let _ = std::fs::remove_file(link);
        }
        let copy = copy.expect("the spec at HEAD");
        assert!(written.is_empty(), "wrote through a planted link");
        assert!(copy.top.is_file(), "{}", copy.top.display());
        assert!(!planted.iter().any(|l| copy.root.starts_with(l)));
    }
}
