//! The spec as it was at a git revision, written to a temporary directory: the spec directory and
//! every file the spec names outside it (the crate guide, `../docs/src/client.md`), at the same paths
//! relative to each other as in the repository.

use std::path::{Component, Path, PathBuf};
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
/// fresh private temporary directory ([`tempfile`]; nothing there can be planted in advance),
/// at its path in the repository (`spec/`) so that diagnostics and spec file names read as they
/// do for the working tree; then every file the spec at `rev` names outside that directory
/// ([`ruckus_codegen::load::named_files`]), as it was at `rev`, at its own path in the
/// repository. A named file that is not in the revision, or not in the repository, stays
/// absent: loading the copy then says which.
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
    // The spec directory's path in the repository (`spec/`; empty at the top).
    let prefix = git(dir, &["rev-parse", "--show-prefix"])?;
    let prefix = PathBuf::from(String::from_utf8_lossy(&prefix).trim());
    let copy = SpecAt {
        top: root.join(&prefix).join(file),
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
        write(&root.join(&prefix).join(rel.as_ref()), &bytes)?;
    }
    copy_named_files(dir, &commit, &copy)?;
    Ok(copy)
}

/// Writes the files the copy's top file names outside the copied spec directory, as they were
/// at `commit`, where the loader will look for them in the copy.
fn copy_named_files(dir: &Path, commit: &str, copy: &SpecAt) -> Result<(), String> {
    let Ok(text) = std::fs::read_to_string(&copy.top) else {
        return Ok(()); // loading the copy reports the top file
    };
    for path in ruckus_codegen::load::named_files(&copy.top, &text) {
        let Some(rel) = in_repository(&copy.root, &path) else {
            continue;
        };
        let target = copy.root.join(&rel);
        if target.exists() {
            continue;
        }
        // `<commit>:<path>` names the path from the top of the repository.
        let name = format!("{commit}:{}", slashed(&rel));
        if let Ok(bytes) = git(dir, &["cat-file", "blob", &name]) {
            write(&target, &bytes)?;
        }
    }
    Ok(())
}

/// `path` (under `root`, the copy of the repository) relative to `root` with `.` and `..`
/// resolved, or `None` when it leads outside `root`.
fn in_repository(root: &Path, path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.strip_prefix(root).ok()?.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir if out.pop() => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// A relative path with `/` between its parts, as git names paths.
fn slashed(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
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
