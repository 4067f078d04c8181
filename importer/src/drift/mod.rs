//! The drift watch (`cargo xtask import --check DIR`): how a directory of (newer) official
//! descriptions differs from what the spec holds now, each difference in one [`Class`].
//!
//! It runs the import's own plan against `DIR` and compares what the import would write with
//! the imported files on disk ([`imported`]: schemas, drafted operations), then compares the
//! spec's operations and services with `DIR` ([`routes`]: operations the spec cites that `DIR`
//! no longer lists, newly deprecated routes, media versions the spec lacks, published rate
//! limits). On the descriptions the spec was imported from it finds nothing.
//!
//! A newer release renames its files (`wifi_api-17.3.3.205.yaml` -> `wifi_api-17.4.0.yaml`): a
//! file of `DIR` the spec does not cite takes the name of the one cited file with the same
//! service stem, so the plan and the provenance keep finding it ([`align`]).

mod imported;
mod routes;

use crate::audit::openapi::{Descriptions, operations};
use crate::import::{self, Docs};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// The classes of drift, least severe first: the exit status is the code of the most severe
/// class found ([`Class::code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// A route lists a media-type version (`application/vnd.ruckus.v1.2+json`) the spec lacks.
    MediaVersionAdded,
    /// A route the spec does not have (the import would draft it).
    OperationAdded,
    /// A published rate limit differs from the spec's.
    RateLimitChanged,
    /// A route the spec has is marked deprecated, and the spec's operation is not.
    OperationDeprecated,
    /// An imported type (or a field added to a curated one, or a drafted operation's shape)
    /// differs: a type or field added or removed, a field's type, required or nullable flag or
    /// bounds, enumeration values.
    SchemaChanged,
    /// An operation the spec cites from the descriptions is no longer listed.
    OperationRemoved,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::MediaVersionAdded,
        Class::OperationAdded,
        Class::RateLimitChanged,
        Class::OperationDeprecated,
        Class::SchemaChanged,
        Class::OperationRemoved,
    ];

    /// The exit status of a check whose most severe class is this one (0: no drift; 1 and 2
    /// stay the failure and usage-error statuses of every xtask command).
    pub fn code(self) -> u8 {
        match self {
            Class::MediaVersionAdded => 3,
            Class::OperationAdded => 4,
            Class::RateLimitChanged => 5,
            Class::OperationDeprecated => 6,
            Class::SchemaChanged => 7,
            Class::OperationRemoved => 8,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Class::MediaVersionAdded => "media version added",
            Class::OperationAdded => "operation added",
            Class::RateLimitChanged => "rate limit changed",
            Class::OperationDeprecated => "operation deprecated",
            Class::SchemaChanged => "schema changed",
            Class::OperationRemoved => "operation removed",
        }
    }
}

/// One difference: its class, what it is about (`GET /venues`, `type Venue`), and what changed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    pub class: Class,
    pub subject: String,
    pub detail: String,
}

/// What the check found.
#[derive(Debug, Default)]
pub struct Drift {
    /// Sorted by class, subject and detail; no duplicates.
    pub items: Vec<Item>,
    /// Files of `DIR` read under the name of the spec's file: `(name in DIR, cited name)`.
    pub renamed: Vec<(String, String)>,
}

impl Drift {
    /// The most severe class found, if any.
    pub fn worst(&self) -> Option<Class> {
        self.items.iter().map(|i| i.class).max()
    }

    /// 0 without drift, else the code of the most severe class.
    pub fn exit_code(&self) -> u8 {
        self.worst().map_or(0, Class::code)
    }

    /// The report: a count per class, then one line per difference.
    pub fn render(&self, dir: &str) -> String {
        let mut out = format!("# Drift: {dir} against the spec\n\n");
        for (name, cited) in &self.renamed {
            let _ = writeln!(out, "- read {name} as {cited} (the file the spec cites)");
        }
        if !self.renamed.is_empty() {
            out.push('\n');
        }
        if self.items.is_empty() {
            out.push_str("no drift\n");
            return out;
        }
        out.push_str("| class | count | exit status |\n|---|---:|---:|\n");
        for class in Class::ALL.iter().rev() {
            let n = self.items.iter().filter(|i| i.class == *class).count();
            if n > 0 {
                let _ = writeln!(out, "| {} | {n} | {} |", class.as_str(), class.code());
            }
        }
        for class in Class::ALL.iter().rev() {
            let items: Vec<&Item> = self.items.iter().filter(|i| i.class == *class).collect();
            if items.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n## {} ({})\n", class.as_str(), items.len());
            for i in items {
                let _ = writeln!(out, "- {}: {}", i.subject, i.detail);
            }
        }
        out
    }
}

/// Compares the descriptions in `dir` with the spec whose top file is `top` (the vendor's
/// payloads read from `payloads`); `None` when `dir` holds no description.
pub fn check(top: &Path, dir: &Path, payloads: &Path) -> Result<Option<Drift>, String> {
    let Some(docs) = import::load_docs(dir)? else {
        return Ok(None);
    };
    let spec_dir = top.parent().unwrap_or(Path::new("."));
    let (docs, renamed) = align(docs, &cited_files(spec_dir));
    let (changes, _) = import::plan_changes(top, &docs, payloads, None)?;
    let mut items = imported::compare(&changes)?;
    let ir = ruckus_codegen::build(top).map_err(|diags| {
        let shown: String = diags.iter().take(40).map(|d| format!("{d}\n")).collect();
        format!("{shown}the spec does not load")
    })?;
    let descs = descriptions(&docs);
    let on_disk: BTreeMap<&str, &str> = renamed
        .iter()
        .map(|(name, cited)| (cited.as_str(), name.as_str()))
        .collect();
    items.extend(routes::compare(&ir, &descs, dir, &on_disk));
    items.sort();
    items.dedup();
    Ok(Some(Drift { items, renamed }))
}

/// The operations of the (aligned) descriptions, as the audit reads them.
fn descriptions(docs: &Docs) -> Descriptions {
    let mut out = Descriptions {
        files: Vec::new(),
        ops: Vec::new(),
        warnings: Vec::new(),
    };
    for (name, doc) in docs.iter().filter(|(_, d)| d.paths.is_some()) {
        out.files.push(name.clone());
        out.ops.extend(operations(name, doc));
    }
    out
}

/// Every description file the spec's provenance cites (`reference: <file> ...`).
pub fn cited_files(spec_dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![spec_dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                out.extend(text.split("reference: ").skip(1).filter_map(|rest| {
                    let file = rest
                        .split_whitespace()
                        .next()?
                        .trim_end_matches(['\'', '"']);
                    is_description(file).then(|| file.to_owned())
                }));
            }
        }
    }
    out
}

fn is_description(file: &str) -> bool {
    [".yaml", ".yml", ".json"].iter().any(|x| file.ends_with(x)) && !file.contains('/')
}

/// `wifi_api` of `wifi_api-17.3.3.205.yaml`: the name before its version.
pub fn service_stem(file: &str) -> &str {
    let base = file.rsplit_once('.').map_or(file, |(b, _)| b);
    match base.rsplit_once('-') {
        Some((stem, version)) if version.starts_with(|c: char| c.is_ascii_digit()) => stem,
        _ => base,
    }
}

/// The descriptions with each file the spec does not cite renamed to the one cited file of the
/// same service stem that `docs` lacks; and the renames made.
pub fn align(docs: Docs, cited: &BTreeSet<String>) -> (Docs, Vec<(String, String)>) {
    let mut out = Docs::new();
    let mut renamed = Vec::new();
    let present: BTreeSet<String> = docs.keys().cloned().collect();
    for (name, doc) in docs {
        let candidates: Vec<&String> = cited
            .iter()
            .filter(|c| service_stem(c) == service_stem(&name) && !present.contains(*c))
            .collect();
        match candidates.as_slice() {
            [only] if !cited.contains(&name) => {
                renamed.push((name, (*only).clone()));
                out.insert((*only).clone(), doc);
            }
            _ => {
                out.insert(name, doc);
            }
        }
    }
    (out, renamed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_the_version() {
        assert_eq!(service_stem("wifi_api-17.3.3.205.yaml"), "wifi_api");
        assert_eq!(service_stem("dpsk_service-0.0.3.yaml"), "dpsk_service");
        assert_eq!(service_stem("plain.yaml"), "plain");
        assert_eq!(service_stem("a-b.yaml"), "a-b");
    }

    #[test]
    fn a_newer_file_takes_the_cited_name() {
        let mut docs = Docs::new();
        docs.insert("wifi_api-18.0.yaml".into(), Default::default());
        docs.insert("venue_service_api-0.2.8.yaml".into(), Default::default());
        docs.insert("new_service-1.0.yaml".into(), Default::default());
        let cited: BTreeSet<String> = ["wifi_api-17.3.3.205.yaml", "venue_service_api-0.2.8.yaml"]
            .map(String::from)
            .into();
        let (docs, renamed) = align(docs, &cited);
        assert_eq!(
            docs.keys().map(String::as_str).collect::<Vec<_>>(),
            [
                "new_service-1.0.yaml",
                "venue_service_api-0.2.8.yaml",
                "wifi_api-17.3.3.205.yaml"
            ]
        );
        assert_eq!(
            renamed,
            [(
                "wifi_api-18.0.yaml".to_owned(),
                "wifi_api-17.3.3.205.yaml".to_owned()
            )]
        );
    }

    #[test]
    fn the_worst_class_sets_the_exit_status() {
        let item = |class| Item {
            class,
            subject: "s".into(),
            detail: "d".into(),
        };
        let mut drift = Drift::default();
        assert_eq!(drift.exit_code(), 0);
        drift.items = vec![item(Class::OperationAdded), item(Class::SchemaChanged)];
        assert_eq!(drift.exit_code(), 7);
        let codes: BTreeSet<u8> = Class::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(codes.len(), Class::ALL.len(), "codes are distinct");
        assert!(codes.iter().all(|c| *c > 2));
    }
}
