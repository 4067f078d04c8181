//! The case files of the broken-spec fixtures (`tests/fixtures/broken/cases/<name>.yaml`): the
//! diagnostic a case must produce and the line edits that put its problem into the base.

use serde::Deserialize;
use std::path::{Component, Path, PathBuf};

/// One case file, `cases/<name>.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The one diagnostic the broken spec must produce.
    pub expect: Expect,
    /// Applied in order to a copy of `base/`.
    pub edits: Vec<Edit>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The file the diagnostic names, relative to the spec directory.
    pub file: String,
    /// The line it names (the wrong element itself, not merely a nearby line).
    pub line: usize,
    /// A substring of its message.
    pub message: String,
}

/// One change to the copy of the base: `find` with `replace`, or `write`, or `rename_to`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    /// The file changed (for `rename_to`, also a directory), relative to the spec directory.
    pub file: String,
    /// Consecutive whole lines that must occur exactly once in `file`...
    pub find: Option<Lines>,
    /// ...and the lines put in their place (`[]` deletes them).
    pub replace: Option<Lines>,
    /// The whole new content of `file` (`[]`: an empty file).
    pub write: Option<Lines>,
    /// The new name of `file`, relative to the spec directory.
    pub rename_to: Option<String>,
}

/// Whole lines without their line breaks: a list, or a string for a single line.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Lines {
    One(String),
    Many(Vec<String>),
}

impl Lines {
    pub fn get(&self) -> Result<Vec<&str>, String> {
        let lines: Vec<&str> = match self {
            Lines::One(line) => vec![line],
            Lines::Many(lines) => lines.iter().map(String::as_str).collect(),
        };
        match lines.iter().find(|l| l.contains(['\n', '\r'])) {
            Some(l) => Err(format!(
                "{l:?} contains a line break (write several lines as a list)"
            )),
            None => Ok(lines),
        }
    }
}

impl Edit {
    /// Applies the edit to the spec in `dir`.
    pub fn apply(&self, dir: &Path) -> Result<(), String> {
        let path = inside(dir, &self.file)?;
        match (&self.find, &self.replace, &self.write, &self.rename_to) {
            (Some(find), Some(replace), None, None) => {
                let (find, replace) = (find.get()?, replace.get()?);
                if find.is_empty() {
                    return Err("`find` has no lines".to_owned());
                }
                if find == replace {
                    return Err("`replace` is the same as `find`".to_owned());
                }
                let mut lines = read_lines(&path)?;
                let at: Vec<usize> = lines
                    .windows(find.len())
                    .enumerate()
                    .filter(|(_, w)| w.iter().map(String::as_str).eq(find.iter().copied()))
                    .map(|(i, _)| i)
                    .collect();
                let [i] = at[..] else {
                    let lines: Vec<String> = at.iter().map(|i| (i + 1).to_string()).collect();
                    return Err(format!(
                        "`find` ({:?}{}) must occur exactly once, but {}",
                        find[0],
                        if find.len() > 1 { ", ..." } else { "" },
                        if at.is_empty() {
                            "does not occur".to_owned()
                        } else {
                            format!(
                                "occurs at lines {} (add a neighbouring line)",
                                lines.join(", ")
                            )
                        }
                    ));
                };
                lines.splice(i..i + find.len(), replace.iter().map(|l| l.to_string()));
                write_lines(&path, &lines)
            }
            (None, None, Some(content), None) => {
                let content = content.get()?;
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("create {}: {e}", parent.display()))?;
                }
                write_lines(&path, &content)
            }
            (None, None, None, Some(to)) => {
                let to_path = inside(dir, to)?;
                if !path.exists() {
                    return Err("there is nothing to rename".to_owned());
                }
                if to_path.exists() {
                    return Err(format!("`{to}` exists already"));
                }
                std::fs::rename(&path, &to_path).map_err(|e| format!("rename to `{to}`: {e}"))
            }
            _ => Err(
                "an edit needs exactly one of: `find` with `replace`, `write`, `rename_to`"
                    .to_owned(),
            ),
        }
    }
}

/// `rel` under `dir`; `rel` must be a plain relative path (no `..`, not absolute).
pub fn inside(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    let path = Path::new(rel);
    if rel.is_empty() || !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(format!("`{rel}` is not a plain relative path"));
    }
    Ok(dir.join(path))
}

pub fn read_lines(path: &Path) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("read {}: {e}", path.display()))?;
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!("{} does not end with a line break", path.display()));
    }
    Ok(text.split_terminator('\n').map(str::to_owned).collect())
}

pub fn write_lines(path: &Path, lines: &[impl AsRef<str>]) -> Result<(), String> {
    let text: String = lines.iter().map(|l| format!("{}\n", l.as_ref())).collect();
    std::fs::write(path, text).map_err(|e| format!("write {}: {e}", path.display()))
}
