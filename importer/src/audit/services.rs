//! The spec's services against the descriptions: each published rate limit against the numbers
//! in the `info.description` of the file its provenance names, and each operation's service
//! against the file that lists the operation.

use super::openapi::{Descriptions, normalise_path};
use ruckus_codegen::ir::{ApiIr, Ir, LimitScope, Provenance};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// What the check found.
#[derive(Debug, Default)]
pub struct ServiceCheck {
    /// Published limits compared with their file.
    pub limits: usize,
    /// Operations a description lists whose file names a service.
    pub operations: usize,
    /// One line per disagreement.
    pub disagreements: Vec<String>,
}

/// The description file a service's provenance names (`reference: <file> ...`).
fn named_file<'a>(provenance: &'a Provenance, files: &[String]) -> Option<&'a str> {
    let Provenance::Reference(text) = provenance else {
        return None;
    };
    let first = text.split_whitespace().next()?;
    files.iter().any(|f| f == first).then_some(first)
}

/// `(max, per_second, scope)` as a description's `info.description` states them; read from the
/// start of the file, where `info` is.
pub(crate) fn published(dir: &Path, file: &str) -> Option<(u32, u32, LimitScope)> {
    let text = std::fs::read_to_string(dir.join(file)).ok()?;
    let head: String = text.chars().take(8000).collect();
    let number_after = |marker: &str| -> Option<u32> {
        let at = head.find(marker)? + marker.len();
        let digits: String = head[at..]
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    let max = number_after("A maximum of")?;
    let per_second = number_after("Each second")?;
    let scope = LimitScope::ALL
        .iter()
        .copied()
        .find(|s| head.contains(&format!("applied to each {}", s.as_str())))?;
    Some((max, per_second, scope))
}

/// Checks every API's services.
pub fn check(ir: &Ir, descs: &Descriptions, dir: &Path) -> ServiceCheck {
    let mut out = ServiceCheck::default();
    let mut listed: BTreeMap<(String, String), &str> = BTreeMap::new();
    for d in &descs.ops {
        listed.entry(d.key()).or_insert(d.file.as_str());
    }
    for api in &ir.apis {
        check_api(api, descs, dir, &listed, &mut out);
    }
    out
}

fn check_api(
    api: &ApiIr,
    descs: &Descriptions,
    dir: &Path,
    listed: &BTreeMap<(String, String), &str>,
    out: &mut ServiceCheck,
) {
    let mut by_file: BTreeMap<&str, &str> = BTreeMap::new();
    let mut by_static: BTreeMap<&str, &str> = BTreeMap::new();
    for s in &api.services {
        by_static.insert(&s.static_name, &s.name);
        let Some(file) = named_file(&s.provenance, &descs.files) else {
            continue;
        };
        by_file.insert(file, &s.name);
        let found = published(dir, file);
        match (s.rate_limit, found) {
            (None, None) => {}
            (spec, found) => {
                out.limits += 1;
                if spec != found {
                    out.disagreements.push(format!(
                        "service `{}`: the spec says {}, {file} says {}",
                        s.name,
                        limit_text(spec),
                        limit_text(found)
                    ));
                }
            }
        }
    }
    let prefix = &api.prefix.value;
    for area in &api.areas {
        for op in &area.operations {
            let path = normalise_path(&format!("{prefix}{}", op.path));
            let key = (op.method.as_str().to_owned(), path);
            let Some(file) = listed.get(&key) else {
                continue;
            };
            let Some(expected) = by_file.get(file) else {
                continue;
            };
            out.operations += 1;
            let actual = by_static.get(op.service.as_str()).copied().unwrap_or("?");
            if actual != *expected {
                out.disagreements.push(format!(
                    "operation `{}` ({}/{}): service `{actual}`, but {file} (service `{expected}`) lists it",
                    op.id, api.name, area.name
                ));
            }
        }
    }
}

pub(crate) fn limit_text(limit: Option<(u32, u32, LimitScope)>) -> String {
    match limit {
        Some((max, per_second, scope)) => {
            format!(
                "{max} at once, {per_second} per second, per {}",
                scope.as_str()
            )
        }
        None => "no limit".into(),
    }
}

/// The report's section (Markdown) or line (summary).
pub fn render(check: &ServiceCheck, markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        out.push_str("\n## Services and rate limits\n\n");
    } else {
        out.push('\n');
    }
    writeln!(
        out,
        "Services: {} published limits and {} listed operations' services compared, {} disagreements.",
        check.limits,
        check.operations,
        check.disagreements.len()
    )
    .unwrap();
    if markdown {
        for d in &check.disagreements {
            writeln!(out, "- {d}").unwrap();
        }
    }
    out
}
