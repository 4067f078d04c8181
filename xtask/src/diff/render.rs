//! The report as Markdown for a pull-request comment (summary table first, then the changes per
//! API area) or as JSON.

use super::change::{self, Bump, Change, Class};
use std::fmt::Write;

/// The target when the workspace's own spec is reviewed.
pub const WORKING_TREE: &str = "working tree";

/// What was compared and what it found.
pub struct Report {
    /// The base, e.g. `HEAD~1 (2260c0e)`.
    pub base: String,
    /// What is reviewed: `working tree`, or the spec file given.
    pub target: String,
    pub krate: String,
    /// The crate version at the base and in the working tree.
    pub base_version: String,
    pub version: String,
    pub changes: Vec<Change>,
}

impl Report {
    fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    pub fn breaking(&self) -> usize {
        self.count(Class::Breaking)
    }

    /// The bump and the version it leads to, from the base's version (None when that is not
    /// `major.minor.patch`).
    fn bump(&self) -> (Bump, Option<(u64, u64, u64)>) {
        match change::parse_version(&self.base_version) {
            Some(v) => {
                let bump = change::bump(v, &self.changes);
                (bump, Some(change::next_version(v, bump)))
            }
            None => (Bump::None, None),
        }
    }

    /// One paragraph: the bump, the rules behind it, and whether the working tree has it.
    fn version_note(&self) -> String {
        let (bump, next) = self.bump();
        let Some(next) = next else {
            return format!(
                "The base version `{}` is not `major.minor.patch`; no bump computed.",
                self.base_version
            );
        };
        let base = change::parse_version(&self.base_version).unwrap_or_default();
        let mut s = match bump {
            Bump::None => format!(
                "`{}` {} needs no new version.",
                self.krate, self.base_version
            ),
            _ => format!(
                "`{}` {} needs a **{}** bump, to {}.",
                self.krate,
                self.base_version,
                bump.as_str(),
                change::show(next)
            ),
        };
        let _ = write!(s, " {}", change::rules(base));
        match change::parse_version(&self.version) {
            Some(now) if now != base && now >= next => {
                let _ = write!(s, " The working tree's version {} has it.", self.version);
            }
            Some(now) if now != base => {
                let _ = write!(
                    s,
                    " The working tree's version {} is not enough.",
                    self.version
                );
            }
            _ => {}
        }
        s
    }
}

/// `|` and line breaks would break a table row.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

pub fn markdown(r: &Report) -> String {
    let target = match r.target.as_str() {
        WORKING_TREE => WORKING_TREE.to_owned(),
        file => format!("`{file}`"),
    };
    let mut s = format!("## Spec changes: `{}` → {target}\n\n", r.base);
    s.push_str("| Class | Changes |\n|---|---:|\n");
    for class in Class::ALL {
        let _ = writeln!(s, "| {} | {} |", class.as_str(), r.count(class));
    }
    let _ = writeln!(s, "| **version bump** | **{}** |\n", r.bump().0.as_str());
    let _ = writeln!(s, "{}\n", r.version_note());
    if r.changes.is_empty() {
        s.push_str(
            "No semantic changes (descriptions, notes and the order of the YAML are not compared).\n",
        );
        return s;
    }
    let mut group: Option<(&str, &str)> = None;
    for c in &r.changes {
        if group != Some((&c.api, &c.area)) {
            if group.is_some() {
                s.push('\n');
            }
            group = Some((&c.api, &c.area));
            let title = match (c.api.as_str(), c.area.as_str()) {
                ("", _) => "Token service".to_owned(),
                (api, "") => format!("`{api}`: API settings"),
                (api, area) => format!("`{api}` / `{area}`"),
            };
            let _ = write!(
                s,
                "### {title}\n\n| Class | Subject | Change |\n|---|---|---|\n"
            );
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            c.class.as_str(),
            cell(&c.subject),
            cell(&c.detail)
        );
    }
    s
}

pub fn json(r: &Report) -> String {
    let (bump, next) = r.bump();
    let changes: Vec<serde_json::Value> = r
        .changes
        .iter()
        .map(|c| {
            serde_json::json!({
                "api": c.api,
                "area": c.area,
                "subject": c.subject,
                "kind": c.kind,
                "class": c.class.as_str(),
                "detail": c.detail,
            })
        })
        .collect();
    let counts: serde_json::Map<String, serde_json::Value> = Class::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), r.count(*c).into()))
        .collect();
    let value = serde_json::json!({
        "base": r.base,
        "target": r.target,
        "crate": r.krate,
        "base_version": r.base_version,
        "version": r.version,
        "bump": bump.as_str(),
        "next_version": next.map(change::show),
        "rules": change::parse_version(&r.base_version).map(change::rules),
        "counts": counts,
        "changes": changes,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialize");
    text.push('\n');
    text
}
