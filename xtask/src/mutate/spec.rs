//! A spec as files in memory, and the text a mutation puts into it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The base spec, relative to the workspace root.
pub const BASE: &str = "tests/fixtures/broken/base";
/// The top-level file of a spec directory.
pub const TOP: &str = "ruckus-one.yaml";

/// A spec as files: path relative to the spec directory -> bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Spec {
    /// Reads every file under `dir`.
    pub fn read(dir: &Path) -> std::io::Result<Spec> {
        let mut files = BTreeMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d)? {
                let path = entry?.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Ok(rel) = path.strip_prefix(dir) {
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    files.insert(rel, std::fs::read(&path)?);
                }
            }
        }
        Ok(Spec { files })
    }

    /// The base spec of the workspace at `root`.
    pub fn base(root: &Path) -> Spec {
        Spec::read(&root.join(BASE)).expect("the base spec is readable")
    }

    /// Writes the spec into `dir` (emptied first) and returns its top-level file.
    pub fn write(&self, dir: &Path) -> std::io::Result<PathBuf> {
        let _ = std::fs::remove_dir_all(dir);
        for (rel, bytes) in &self.files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, bytes)?;
        }
        Ok(dir.join(TOP))
    }

    /// Total size in bytes.
    pub fn size(&self) -> usize {
        self.files.values().map(Vec::len).sum()
    }

    /// The `i`th file (modulo the count), as a key.
    pub(super) fn pick(&self, i: usize) -> String {
        let keys: Vec<&String> = self.files.keys().collect();
        keys[i % keys.len()].clone()
    }
}

/// What a mutation puts into the spec.
#[derive(Debug, Clone)]
pub enum Text {
    /// Written as it is (may break the YAML).
    Raw(String),
    /// Written as a double-quoted YAML string, control characters as escapes.
    Quoted(String),
}

impl Text {
    pub(super) fn yaml(&self) -> String {
        match self {
            Text::Raw(s) => s.clone(),
            Text::Quoted(s) => quoted(s),
        }
    }
}

/// A YAML double-quoted string holding `s`.
pub fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || (c as u32) > 0xFFFF && c.is_whitespace() => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
