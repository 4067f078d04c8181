//! `docs/resources.md`: the layer for people. A summary table, then one section per kind
//! (shape, parent, identity, operations with their routes, references and field rules with
//! their provenance, gate exception), then the inferred drafts that the layer does not take.

use super::infer::Draft;
use super::layer::Kind;
use crate::emit::text::{PREAMBLE, code, code_cell, prose};
use ruckus_one_catalog::{FieldFlag, ResourceKind, ResourceShape, Table};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const INTRO: &str = "The kinds of configuration object that desired state (`ruckus export | plan | apply`) manages, in the order an apply creates them (each after its parent and the kinds it references). The table `catalog/resources.json` holds the same, read through `ruckus_one_catalog::Catalog::resources()`. Each kind comes from `spec/resources.yaml`, which takes the generator's draft of a resource family (its route roles, see `simulator-coverage.md`) and corrects or adds to it, or writes the kind whole. A **collection** is created, read, updated, deleted and listed under its parent, each object with its own id; a **settings** document is one per parent, read and written, never created; an **activation** links its parent to the object a path parameter names, made by a `PUT` and removed by a `DELETE`.\n\nField flags: **service_set** fields are set by the service (never compared, never sent, never exported); **secret** fields are exported as an environment reference and sent from the environment; **write_only** fields are sent but never read back; **volatile** fields change on their own and are never compared; a **default** is what the service fills in when the field is not sent. Provenance: `documented`, `inferred: <why>` (what the generator or a curator concluded, and from what) or `reference: <source>`.";

fn flag_order(f: FieldFlag) -> usize {
    FieldFlag::ALL.iter().position(|x| *x == f).unwrap_or(0)
}

/// The page.
pub fn page(
    kinds: &[Kind],
    drafts: &BTreeMap<(String, String), Draft>,
    tables: &[Table],
) -> String {
    let mut s = format!("<!-- {PREAMBLE} -->\n# Resource layer\n\n{INTRO}\n\n");
    let count = |shape: ResourceShape| kinds.iter().filter(|k| k.kind.shape == shape).count();
    let _ = writeln!(
        s,
        "{} kinds: {} collections, {} settings documents, {} activations; {} take an inferred draft, {} are written whole; {} have a gate exception.\n",
        kinds.len(),
        count(ResourceShape::Collection),
        count(ResourceShape::Settings),
        count(ResourceShape::Activation),
        kinds.iter().filter(|k| k.family.is_some()).count(),
        kinds.iter().filter(|k| k.family.is_none()).count(),
        kinds
            .iter()
            .filter(|k| k.kind.gate_exception.is_some())
            .count(),
    );
    s.push_str(
        "| kind | shape | parent | identity | family | what it is |\n|---|---|---|---|---|---|\n",
    );
    for k in kinds {
        let kind = &k.kind;
        let _ = writeln!(
            s,
            "| [{}](#{}) | {} | {} | {} | {} | {} |",
            kind.name,
            kind.name,
            kind.shape.as_str(),
            kind.parent.as_deref().map_or("-".into(), code_cell),
            list(&kind.identity),
            k.family
                .as_deref()
                .map_or("written whole".into(), code_cell),
            prose(&kind.title)
        );
    }
    for k in kinds {
        section(&mut s, k, tables);
    }
    others(&mut s, kinds, drafts);
    s
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        return "-".into();
    }
    items
        .iter()
        .map(|i| code_cell(i))
        .collect::<Vec<_>>()
        .join(", ")
}

fn section(s: &mut String, k: &Kind, tables: &[Table]) {
    let kind = &k.kind;
    let table = tables.iter().find(|t| t.api.name == kind.api);
    let _ = writeln!(s, "\n## {}\n\n{}\n", kind.name, prose(&kind.title));
    let _ = writeln!(
        s,
        "- Shape: {} (API {})",
        kind.shape.as_str(),
        code(&kind.api)
    );
    match (&kind.parent, &kind.parent_param) {
        (Some(p), Some(param)) => {
            let _ = writeln!(
                s,
                "- Parent: [{p}](#{p}), whose id fills the path parameter {}",
                code(param)
            );
        }
        _ => s.push_str("- Parent: none (directly under the tenant)\n"),
    }
    identity(s, kind);
    if let Some(style) = kind.update_style {
        let _ = writeln!(
            s,
            "- Update: {} ({})",
            style.as_str(),
            match style {
                ruckus_one_catalog::UpdateStyle::Replace => "the whole object is sent",
                ruckus_one_catalog::UpdateStyle::Merge => "only the changed fields are sent",
            }
        );
    }
    let _ = writeln!(s, "- Provenance: {}", prose(&kind.provenance));
    if let Some(g) = &kind.gate_exception {
        let _ = writeln!(s, "- Gate exception: {}", prose(g));
    }
    let typed = table.is_some_and(|t| super::flags::Bodies::of(t, kind).all().next().is_some());
    // An activation without a body has no field to check.
    if !typed && kind.shape != ResourceShape::Activation {
        s.push_str(
            "- Fields: not checked (its read answer, create body and update body are untyped)\n",
        );
    }
    operations(s, kind, table);
    references(s, k);
    fields(s, kind);
}

fn identity(s: &mut String, kind: &ResourceKind) {
    let named = match (kind.identity.is_empty(), kind.shape) {
        (false, _) => format!("named within its parent by {}", list(&kind.identity)),
        (true, ResourceShape::Settings) => "one per parent, named by it".into(),
        (true, ResourceShape::Activation) => "named by the objects it links".into(),
        (true, ResourceShape::Collection) => {
            "no identity field: objects are matched by id only".into()
        }
    };
    let _ = writeln!(s, "- Identity: {named}");
    if kind.id_field.is_some() || kind.id_param.is_some() {
        let _ = writeln!(
            s,
            "- Id: field {}, path parameter {}",
            kind.id_field.as_deref().map_or("-".into(), code),
            kind.id_param.as_deref().map_or("-".into(), code)
        );
    }
}

fn operations(s: &mut String, kind: &ResourceKind, table: Option<&Table>) {
    let ops = &kind.operations;
    s.push_str("\n| slot | operation | route |\n|---|---|---|\n");
    for (slot, id) in [
        ("create", &ops.create),
        ("read", &ops.read),
        ("update", &ops.update),
        ("delete", &ops.delete),
        ("list", &ops.list),
    ] {
        let Some(id) = id else { continue };
        let route = table.and_then(|t| t.route(id)).map_or(String::new(), |r| {
            code_cell(&format!("{} {}", r.method.as_str(), r.path))
        });
        let _ = writeln!(s, "| {slot} | {} | {route} |", code_cell(id));
    }
}

fn references(s: &mut String, k: &Kind) {
    if k.kind.references.is_empty() {
        return;
    }
    s.push_str("\n| references | by | set | provenance |\n|---|---|---|---|\n");
    for (r, p) in k.kind.references.iter().zip(&k.reference_provenance) {
        let by = match (&r.field, &r.param) {
            (Some(f), _) => format!("field {}", code_cell(f)),
            (_, Some(p)) => format!("path parameter {}", code_cell(p)),
            _ => "-".into(),
        };
        let set = if r.deferred {
            "after both exist (deferred)"
        } else {
            "on create"
        };
        let _ = writeln!(
            s,
            "| [{}](#{}) | {by} | {set} | {} |",
            r.kind,
            r.kind,
            prose(p)
        );
    }
}

fn fields(s: &mut String, kind: &ResourceKind) {
    if kind.fields.is_empty() {
        return;
    }
    let mut rules: Vec<_> = kind.fields.iter().collect();
    rules.sort_by_key(|r| flag_order(r.flag));
    s.push_str("\n| field | flag | default | provenance |\n|---|---|---|---|\n");
    for r in rules {
        let default = r
            .default
            .as_ref()
            .map_or(String::new(), |v| code_cell(&v.to_string()));
        let _ = writeln!(
            s,
            "| {} | {} | {default} | {} |",
            code_cell(&r.path),
            r.flag.as_str(),
            prose(&r.provenance)
        );
    }
}

/// The drafts no kind takes, for curators choosing what to add.
fn others(s: &mut String, kinds: &[Kind], drafts: &BTreeMap<(String, String), Draft>) {
    let taken: BTreeSet<(String, String)> = kinds
        .iter()
        .filter_map(|k| Some((k.kind.api.clone(), k.family.clone()?)))
        .collect();
    let left: Vec<&Draft> = drafts
        .iter()
        .filter(|(key, _)| !taken.contains(*key))
        .map(|(_, d)| d)
        .collect();
    let _ = writeln!(
        s,
        "\n## Inferred drafts not in the layer\n\n{} resource families make a draft that no kind of `spec/resources.yaml` takes yet; a kind that names the family (`family:`) takes it.\n",
        left.len()
    );
    s.push_str("| API | family | shape | operations |\n|---|---|---|---|\n");
    for d in left {
        let o = &d.operations;
        let ops: Vec<String> = [&o.create, &o.read, &o.update, &o.delete, &o.list]
            .into_iter()
            .flatten()
            .map(|id| code_cell(id))
            .collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            d.api,
            code_cell(&d.family),
            d.shape.as_str(),
            ops.join(", ")
        );
    }
}
