//! The caches of `cargo xtask generate`, under `<target>/codegen-cache/<generator build>/`
//! (the build: this binary's size and modification time; other builds' directories are
//! removed):
//!
//! - `pieces/`: formatted Rust keyed by the tokens it was formatted from (the generator's own
//!   cache, see `ruckus_codegen::generate_all_cached`): after a spec change, only the pieces
//!   whose tokens changed are formatted again;
//! - `runs/<key>`: what the last successful run of one spec into one output directory read and
//!   wrote: a fingerprint of its inputs (every file under the spec's directory, the crate guide
//!   the top-level file names, the spec limits' environment variables) and the hash of every
//!   file it left in the output directory. When the inputs and the output directory are as
//!   recorded, the run has nothing to do and stops there.
//!
//! `cargo xtask check` uses neither: it always generates everything and compares.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

pub struct Cache {
    dir: PathBuf,
}

/// A fingerprint of a run's inputs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Inputs(u128);

impl Cache {
    /// The cache of this generator build, under `target`; None when this binary cannot be
    /// identified.
    pub fn open(target: &Path) -> Option<Cache> {
        let exe = std::env::current_exe().ok()?;
        let meta = std::fs::metadata(&exe).ok()?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        let build = format!("{:x}-{:x}", meta.len(), modified.as_nanos());
        let root = target.join("codegen-cache");
        // Caches of earlier builds of the generator are of no use.
        if let Ok(entries) = std::fs::read_dir(&root) {
            for entry in entries.flatten() {
                if entry.file_name() != build.as_str() {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        Some(Cache {
            dir: root.join(build),
        })
    }

    /// Where the generator caches formatted Rust.
    pub fn pieces(&self) -> PathBuf {
        self.dir.join("pieces")
    }

    fn run_file(&self, top: &Path, out: &Path) -> PathBuf {
        let mut h = DefaultHasher::new();
        absolute(top).hash(&mut h);
        absolute(out).hash(&mut h);
        self.dir.join("runs").join(format!("{:016x}", h.finish()))
    }

    /// Whether the last run of `top` into `out` had these inputs and left `out` as it is now
    /// (the same files with the same contents, `on_disk` being every file under `out`).
    pub fn unchanged(&self, top: &Path, out: &Path, inputs: Inputs, on_disk: &[String]) -> bool {
        let Ok(text) = std::fs::read_to_string(self.run_file(top, out)) else {
            return false;
        };
        let mut lines = text.lines();
        if lines.next() != Some(format!("{:032x}", inputs.0).as_str()) {
            return false;
        }
        let recorded: Vec<(&str, &str)> = lines.filter_map(|l| l.split_once('\t')).collect();
        recorded.len() == on_disk.len()
            && recorded.iter().zip(on_disk).all(|((hash, rel), have)| {
                rel == have
                    && std::fs::read(out.join(rel))
                        .is_ok_and(|bytes| format!("{:032x}", hash128(&bytes)) == *hash)
            })
    }

    /// Records a successful run: its inputs and the files it left in `out` (every file there).
    pub fn record(&self, top: &Path, out: &Path, inputs: Inputs, files: &BTreeMap<String, String>) {
        let mut text = format!("{:032x}\n", inputs.0);
        for (rel, content) in files {
            text.push_str(&format!("{:032x}\t{rel}\n", hash128(content.as_bytes())));
        }
        let file = self.run_file(top, out);
        if let Some(parent) = file.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(file, text);
    }
}

/// The fingerprint of the inputs of a run of the spec `top`: every file under its directory
/// (path and bytes), the crate guide it names, and the spec limits' environment variables.
pub fn inputs(top: &Path) -> Inputs {
    let dir = top.parent().unwrap_or(Path::new("."));
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    files.extend(guide(top));
    // Names and contents alike (each part is hashed with its length).
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for file in &files {
        parts.push(file.to_string_lossy().into_owned().into_bytes());
        parts.push(std::fs::read(file).unwrap_or_else(|_| b"\0missing".to_vec()));
    }
    for var in [
        ruckus_codegen::limits::ENV_FILE_BYTES,
        ruckus_codegen::limits::ENV_SPEC_BYTES,
        ruckus_codegen::limits::ENV_LINE_BYTES,
        ruckus_codegen::limits::ENV_DEPTH,
    ] {
        parts.push(std::env::var(var).unwrap_or_default().into_bytes());
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Inputs(ruckus_codegen::hash128(&parts))
}

/// The crate guide the top-level file names (`crate.guide`), if any. The file is parsed only
/// once it passed the spec limits (serde_yaml takes time quadratic in the nesting depth): a
/// file that does not names no guide here, and the run refuses it.
fn guide(top: &Path) -> Option<PathBuf> {
    let limits = ruckus_codegen::limits::Limits::from_env().ok()?;
    let text = ruckus_codegen::limits::read(top, &limits).ok()?;
    let value: serde_yaml::Value = serde_yaml::from_str(&text).ok()?;
    let name = value.get("crate")?.get("guide")?.as_str()?;
    Some(top.parent()?.join(name))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn hash128(bytes: &[u8]) -> u128 {
    ruckus_codegen::hash128(&[bytes])
}
