//! The spec's operations and services against the descriptions: operations the spec cites that
//! are no longer listed, routes newly marked deprecated, media-type versions the spec lacks, and
//! published rate limits.

use super::{Class, Item, is_description};
use crate::audit::compare::version_of;
use crate::audit::openapi::{DescOp, Descriptions, normalise_path};
use crate::audit::services::{limit_text, published};
use ruckus_codegen::ir::{ApiIr, Ir, Lifecycle, OpIr, Provenance};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The descriptions' operations by `(METHOD, path)`.
type Index<'d> = BTreeMap<(String, String), Vec<&'d DescOp>>;

/// Every difference between the spec's operations and services and the descriptions. An API
/// none of whose operations the descriptions list is left out (they do not describe it).
/// `on_disk` maps a cited file name to the name it has in `dir`, where they differ.
pub fn compare(
    ir: &Ir,
    descs: &Descriptions,
    dir: &Path,
    on_disk: &BTreeMap<&str, &str>,
) -> Vec<Item> {
    let mut index = Index::new();
    for d in &descs.ops {
        index.entry(d.key()).or_default().push(d);
    }
    let mut items = Vec::new();
    for api in &ir.apis {
        let ops: Vec<&OpIr> = api.areas.iter().flat_map(|a| &a.operations).collect();
        if !ops.iter().any(|op| index.contains_key(&key(api, op))) {
            continue;
        }
        let mut versions: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for op in &ops {
            versions
                .entry(key(api, op))
                .or_default()
                .extend(spec_versions(op, &api.media_vendor.value));
        }
        for op in ops.iter().filter(|op| op.is_generated()) {
            let k = key(api, op);
            match index.get(&k) {
                None => items.extend(removed(op)),
                Some(listed) => {
                    items.extend(deprecated(op, listed));
                    items.extend(new_versions(op, listed, &versions[&k], api));
                }
            }
        }
        items.extend(limits(api, descs, dir, on_disk));
    }
    items
}

fn key(api: &ApiIr, op: &OpIr) -> (String, String) {
    let path = format!("{}{}", api.prefix.value, op.path);
    (op.method.as_str().to_owned(), normalise_path(&path))
}

fn subject(op: &OpIr) -> String {
    format!("{} {}", op.method.as_str(), op.path)
}

/// The description an operation cites (`<file> <operationId>`), if any of its facts come from one.
fn cited(op: &OpIr) -> Option<&str> {
    let mut all = vec![&op.provenance, &op.versions_provenance];
    all.extend(op.request.iter().map(|b| &b.provenance));
    all.extend(op.responses.iter().map(|r| &r.provenance));
    all.extend(op.pagination.iter().map(|p| &p.provenance));
    all.into_iter().find_map(|p| match p {
        Provenance::Reference(text)
            if text.split_whitespace().next().is_some_and(is_description) =>
        {
            Some(text.as_str())
        }
        _ => None,
    })
}

/// The note the spec gives an operation the official descriptions do not list (spec/README.md).
pub const UNLISTED_NOTE: &str = "does not list this operation";
/// The note the spec gives an operation it keeps current although a description deprecates it.
pub const DEPRECATED_NOTE: &str = "marks this operation deprecated";

fn noted(op: &OpIr, marker: &str) -> bool {
    op.notes.iter().any(|n| n.contains(marker))
}

/// An operation whose facts the spec took from a description that no description lists now.
/// Operations the spec has from the documents alone, and those it already notes as unlisted,
/// are not the descriptions' to remove.
fn removed(op: &OpIr) -> Option<Item> {
    if noted(op, UNLISTED_NOTE) {
        return None;
    }
    let source = cited(op)?;
    Some(Item {
        class: Class::OperationRemoved,
        subject: subject(op),
        detail: format!("`{}` (from {source}) is no longer listed", op.id),
    })
}

/// A route every description listing it marks deprecated, whose operation the spec neither
/// deprecates nor notes as deprecated there.
fn deprecated(op: &OpIr, listed: &[&DescOp]) -> Option<Item> {
    let marked = listed.iter().all(|d| d.deprecated);
    let spec_deprecated =
        matches!(op.lifecycle, Lifecycle::Deprecated { .. }) || noted(op, DEPRECATED_NOTE);
    (marked && !spec_deprecated).then(|| Item {
        class: Class::OperationDeprecated,
        subject: subject(op),
        detail: format!(
            "`{}` is marked deprecated by {}",
            op.id,
            listed
                .iter()
                .map(|d| d.source())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// The versions (`v1.1`) an operation's media types name.
fn spec_versions(op: &OpIr, vendor: &str) -> BTreeSet<String> {
    op.versions
        .iter()
        .flat_map(|v| v.content_type.iter().chain([&v.accept]))
        .filter_map(|m| version_of(m, vendor))
        .collect()
}

/// Versions the descriptions list for the route that no spec operation on it offers.
fn new_versions(
    op: &OpIr,
    listed: &[&DescOp],
    spec: &BTreeSet<String>,
    api: &ApiIr,
) -> Option<Item> {
    let vendor = &api.media_vendor.value;
    let desc: BTreeSet<String> = listed
        .iter()
        .flat_map(|d| {
            let request = d.request.iter().flat_map(|b| b.media.iter());
            request.chain(d.success_media.values().flatten())
        })
        .filter_map(|m| version_of(m, vendor))
        .collect();
    let added: Vec<&str> = desc.difference(spec).map(String::as_str).collect();
    // A route the spec serves with unversioned media types only has chosen them.
    (!added.is_empty() && !spec.is_empty()).then(|| Item {
        class: Class::MediaVersionAdded,
        subject: subject(op),
        detail: format!(
            "{} (the spec offers {})",
            added.join(", "),
            spec.iter().cloned().collect::<Vec<_>>().join(", ")
        ),
    })
}

/// Each service whose provenance names a description file: its published limit against the
/// spec's.
fn limits(
    api: &ApiIr,
    descs: &Descriptions,
    dir: &Path,
    on_disk: &BTreeMap<&str, &str>,
) -> Vec<Item> {
    let mut items = Vec::new();
    for s in &api.services {
        let Provenance::Reference(text) = &s.provenance else {
            continue;
        };
        let Some(file) = text.split_whitespace().next() else {
            continue;
        };
        if !descs.files.iter().any(|f| f == file) {
            continue;
        }
        let actual = on_disk.get(file).copied().unwrap_or(file);
        let found = published(dir, actual);
        if s.rate_limit != found {
            items.push(Item {
                class: Class::RateLimitChanged,
                subject: format!("service `{}`", s.name),
                detail: format!(
                    "the spec says {}, {actual} says {}",
                    limit_text(s.rate_limit),
                    limit_text(found)
                ),
            });
        }
    }
    items
}
