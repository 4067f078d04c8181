//! What the layer must satisfy: names unique, operations that exist and fit their slot, path
//! parameters that the operations have, pointers that name fields of the kind's schemas,
//! references and parents that name kinds, and no cycle of references that no `deferred` one
//! breaks. Then the order the tables list the kinds in: parents and referenced kinds first.

use super::layer::{Kind, at};
use super::schema;
use crate::diag::Diagnostics;
use crate::source::SourceFile;
use crate::spec::resources::ResourcesFile;
use ruckus_one_catalog::{
    FieldFlag, Method, ResourceKind, ResourceShape, Role, Route, Table, UpdateStyle,
};
use std::collections::BTreeSet;

/// Every check of every kind.
pub fn check(
    file: &SourceFile,
    spec: &ResourcesFile,
    kinds: &mut [Kind],
    tables: &[Table],
    diags: &mut Diagnostics,
) {
    let mut seen = BTreeSet::new();
    for e in &spec.kinds {
        let snake = !e.name.is_empty()
            && e.name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            && e.name.as_bytes()[0].is_ascii_lowercase();
        if !snake {
            diags.push(at(
                file,
                &e.name,
                "name:",
                format!(
                    "kind name `{}` must be snake_case (it names a directory of an export)",
                    e.name
                ),
            ));
        }
        if !seen.insert(e.name.as_str()) {
            let anchors = ["kinds:", &format!("name: {}", e.name)];
            diags.push(file.diag_nth(&anchors, 2, format!("kind `{}` is defined twice", e.name)));
        }
    }
    let mut families = BTreeSet::new();
    for e in spec.kinds.iter().filter(|e| e.family.is_some()) {
        let api = e.api.as_deref().unwrap_or(&spec.api);
        let family = e.family.as_deref().unwrap_or_default();
        if !families.insert((api, family)) {
            let anchors = ["kinds:", &format!("family: {family}")];
            diags.push(file.diag_nth(&anchors, 2, format!(
                "kind `{}`: another kind takes family `{family}` already (a family makes one kind)",
                e.name
            )));
        }
    }
    let names: BTreeSet<String> = kinds.iter().map(|k| k.kind.name.clone()).collect();
    for k in kinds.iter_mut() {
        let Some(table) = tables.iter().find(|t| t.api.name == k.kind.api) else {
            continue;
        };
        let name = k.kind.name.clone();
        let say = |key: &str, msg: String| at(file, &name, key, format!("kind `{name}`: {msg}"));
        slots(&mut k.kind, table, &say, diags);
        params(&k.kind, table, &say, diags);
        pointers(&k.kind, table, &say, diags);
        provenances(k, &say, diags);
        for r in &k.kind.references {
            if !names.contains(&r.kind) {
                diags.push(say(
                    "references:",
                    format!(
                        "a reference names kind `{}`, which the layer does not have",
                        r.kind
                    ),
                ));
            }
        }
        if let Some(p) = &k.kind.parent {
            if !names.contains(p) {
                diags.push(say(
                    "parent:",
                    format!("parent `{p}` is no kind of the layer"),
                ));
            }
        }
        if k.kind
            .gate_exception
            .as_deref()
            .is_some_and(|g| g.trim().is_empty())
        {
            diags.push(say(
                "gate_exception:",
                "`gate_exception` must say why".into(),
            ));
        }
    }
}

type Say<'a> = dyn Fn(&str, String) -> crate::Diagnostic + 'a;

/// Each operation exists and fits its slot; the shape has the slots it needs; the update
/// style matches the update's method (and is inferred from it when not given).
fn slots(kind: &mut ResourceKind, table: &Table, say: &Say<'_>, diags: &mut Diagnostics) {
    let ops = kind.operations.clone();
    let slots: [(&str, &Option<String>, &[Method]); 5] = [
        ("create", &ops.create, &[Method::Post, Method::Put]),
        ("read", &ops.read, &[Method::Get]),
        ("update", &ops.update, &[Method::Put, Method::Patch]),
        ("delete", &ops.delete, &[Method::Delete]),
        ("list", &ops.list, &[Method::Get, Method::Post]),
    ];
    for (slot, id, methods) in slots {
        let Some(id) = id else { continue };
        let Some(r) = table.route(id) else {
            diags.push(say(
                "operations:",
                format!(
                    "{slot} operation `{id}` is no operation of API `{}`",
                    kind.api
                ),
            ));
            continue;
        };
        let query = slot != "list" || r.method == Method::Get || r.path.ends_with("/query");
        if !methods.contains(&r.method) || !query {
            let allowed: Vec<&str> = methods.iter().map(|m| m.as_str()).collect();
            diags.push(say(
                "operations:",
                format!(
                    "{slot} operation `{id}` is {} {}; a {slot} is {}{}",
                    r.method.as_str(),
                    r.path,
                    allowed.join(" or "),
                    if slot == "list" {
                        " (a POST only on a `/query` path)"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    let need: &[(&str, bool)] = match kind.shape {
        ResourceShape::Collection => &[
            ("create", ops.create.is_some()),
            ("read", ops.read.is_some()),
            ("delete", ops.delete.is_some()),
        ],
        ResourceShape::Settings => &[
            ("read", ops.read.is_some()),
            ("update", ops.update.is_some()),
        ],
        ResourceShape::Activation => &[
            ("create", ops.create.is_some()),
            ("delete", ops.delete.is_some()),
        ],
    };
    for (slot, present) in need {
        if !present {
            diags.push(say(
                "operations:",
                format!("a {} needs a {slot} operation", kind.shape.as_str()),
            ));
        }
    }
    let update = ops.update.as_deref().and_then(|id| table.route(id));
    let from_method = update.map(|u| {
        if u.method == Method::Patch {
            UpdateStyle::Merge
        } else {
            UpdateStyle::Replace
        }
    });
    match (kind.update_style, from_method) {
        (Some(s), Some(m)) if s != m => diags.push(say(
            "update_style:",
            format!(
                "`update_style: {}` does not fit its update operation's method {}",
                s.as_str(),
                update.map_or("", |u| u.method.as_str())
            ),
        )),
        (Some(_), None) => diags.push(say(
            "update_style:",
            "`update_style` without an update operation".into(),
        )),
        (None, m) => kind.update_style = m,
        _ => {}
    }
}

/// The routes of the kind's operations, with their slot.
fn routes<'t>(kind: &ResourceKind, table: &'t Table) -> Vec<(&'static str, &'t Route)> {
    let ops = &kind.operations;
    [
        ("create", &ops.create),
        ("read", &ops.read),
        ("update", &ops.update),
        ("delete", &ops.delete),
        ("list", &ops.list),
    ]
    .into_iter()
    .filter_map(|(slot, id)| Some((slot, table.route(id.as_deref()?)?)))
    .collect()
}

fn has_param(r: &Route, name: &str) -> bool {
    r.path_params.iter().any(|p| p.name == name)
}

/// The parent's parameter is a path parameter of every operation; the id's of read, update
/// and delete; a reference's of every operation but the list.
fn params(kind: &ResourceKind, table: &Table, say: &Say<'_>, diags: &mut Diagnostics) {
    let routes = routes(kind, table);
    match (&kind.parent, &kind.parent_param) {
        (Some(_), None) => diags.push(say(
            "parent:",
            "a kind with a parent needs `parent_param`".into(),
        )),
        (None, Some(_)) => diags.push(say(
            "parent_param:",
            "`parent_param` without a `parent`".into(),
        )),
        _ => {}
    }
    let mut want: Vec<(&str, &str, Vec<&str>)> = Vec::new();
    if let Some(p) = &kind.parent_param {
        // A query across every parent's objects (`/venues/aps/query`) names no parent.
        let across = routes
            .iter()
            .any(|(s, r)| *s == "list" && r.role == Role::QueryAcross);
        let slots = if across {
            vec!["create", "read", "update", "delete"]
        } else {
            vec!["create", "read", "update", "delete", "list"]
        };
        want.push(("parent_param:", p, slots));
    }
    match (&kind.id_param, kind.shape) {
        (Some(p), _) => want.push(("id_param:", p, vec!["read", "update", "delete"])),
        (None, ResourceShape::Collection) => diags.push(say(
            "name:",
            "a collection needs `id_param` (its read, update and delete name the object by it)"
                .into(),
        )),
        _ => {}
    }
    for r in &kind.references {
        if let Some(p) = &r.param {
            want.push(("references:", p, vec!["create", "read", "update", "delete"]));
        }
        if r.param.is_some() == r.field.is_some() {
            diags.push(say(
                "references:",
                format!(
                    "the reference to `{}` needs exactly one of `field` and `param`",
                    r.kind
                ),
            ));
        }
    }
    for (key, param, in_slots) in want {
        for (slot, r) in routes.iter().filter(|(s, _)| in_slots.contains(s)) {
            if !has_param(r, param) {
                diags.push(say(
                    key,
                    format!(
                        "`{param}` is no path parameter of its {slot} operation `{}` ({})",
                        r.id, r.path
                    ),
                ));
            }
        }
    }
}

/// Identity, id field, field rules and reference fields name fields of the read answer, the
/// create body or the update body (unchecked when none of them is typed).
fn pointers(kind: &ResourceKind, table: &Table, say: &Say<'_>, diags: &mut Diagnostics) {
    let bodies = super::flags::Bodies::of(table, kind);
    let typed: Vec<&serde_json::Value> = bodies.all().map(|(_, s)| s).collect();
    let mut all: Vec<(&str, &str)> = Vec::new();
    all.extend(kind.identity.iter().map(|p| ("identity:", p.as_str())));
    all.extend(kind.id_field.iter().map(|p| ("id_field:", p.as_str())));
    all.extend(kind.fields.iter().map(|f| ("fields:", f.path.as_str())));
    all.extend(
        kind.references
            .iter()
            .filter_map(|r| Some(("references:", r.field.as_deref()?))),
    );
    for (key, pointer) in all {
        if schema::segments(pointer).is_none() {
            diags.push(say(
                key,
                format!("`{pointer}` is no JSON pointer (it starts with `/`)"),
            ));
        } else if !typed.is_empty() && !typed.iter().any(|s| schema::has(table, s, pointer)) {
            diags.push(say(
                key,
                format!(
                    "`{pointer}` names no field of its read answer, create body or update body"
                ),
            ));
        }
    }
    for f in &kind.fields {
        match (f.flag, &f.default) {
            (FieldFlag::Default, None) => diags.push(say(
                "fields:",
                format!(
                    "the `default` rule of `{}` needs its `default` value",
                    f.path
                ),
            )),
            (FieldFlag::Default, Some(_)) | (_, None) => {}
            (flag, Some(_)) => diags.push(say(
                "fields:",
                format!(
                    "`{}`: only a `default` rule takes a value, not `{}`",
                    f.path,
                    flag.as_str()
                ),
            )),
        }
    }
}

/// Every provenance is `documented`, `inferred: <why>` or `reference: <source>`.
fn provenances(k: &Kind, say: &Say<'_>, diags: &mut Diagnostics) {
    let kind = &k.kind;
    let all = std::iter::once(("provenance:", &kind.provenance))
        .chain(kind.fields.iter().map(|f| ("fields:", &f.provenance)))
        .chain(k.reference_provenance.iter().map(|p| ("references:", p)));
    for (key, p) in all {
        if !valid_provenance(p) {
            diags.push(say(key, format!("provenance `{p}` must be `documented`, `inferred: <why>` or `reference: <source>`")));
        }
    }
}

pub fn valid_provenance(p: &str) -> bool {
    let said = |prefix: &str| p.strip_prefix(prefix).is_some_and(|r| !r.trim().is_empty());
    p == "documented" || said("inferred: ") || said("reference: ")
}

/// The kinds in an order where each comes after its parent and the kinds it references (a
/// deferred reference aside); a cycle is a diagnostic naming it.
pub fn order(file: &SourceFile, kinds: Vec<Kind>, diags: &mut Diagnostics) -> Vec<Kind> {
    let deps = |k: &ResourceKind| -> Vec<String> {
        k.parent
            .iter()
            .cloned()
            .chain(
                k.references
                    .iter()
                    .filter(|r| !r.deferred && r.kind != k.name)
                    .map(|r| r.kind.clone()),
            )
            .collect()
    };
    let names: BTreeSet<String> = kinds.iter().map(|k| k.kind.name.clone()).collect();
    let mut placed: BTreeSet<String> = BTreeSet::new();
    let mut rest = kinds;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let ready = rest.iter().position(|k| {
            deps(&k.kind)
                .iter()
                .all(|d| placed.contains(d) || !names.contains(d))
        });
        let Some(i) = ready else {
            let cycle = cycle(&rest, &deps);
            let first = cycle.first().cloned().unwrap_or_default();
            diags.push(at(file, &first, "references:", format!(
                "reference cycle {}: mark one of its references `deferred: true` (set after both objects exist)",
                cycle.join(" -> ")
            )));
            out.append(&mut rest);
            break;
        };
        let k = rest.remove(i);
        placed.insert(k.kind.name.clone());
        out.push(k);
    }
    out
}

/// A cycle among kinds none of which could be placed: follow first dependencies until one repeats.
fn cycle(rest: &[Kind], deps: &dyn Fn(&ResourceKind) -> Vec<String>) -> Vec<String> {
    let left: BTreeSet<&str> = rest.iter().map(|k| k.kind.name.as_str()).collect();
    let mut path: Vec<String> = Vec::new();
    let mut at = rest[0].kind.name.clone();
    loop {
        if let Some(start) = path.iter().position(|p| *p == at) {
            let mut c = path[start..].to_vec();
            c.push(at);
            return c;
        }
        path.push(at.clone());
        let Some(k) = rest.iter().find(|k| k.kind.name == at) else {
            return path;
        };
        match deps(&k.kind)
            .into_iter()
            .find(|d| left.contains(d.as_str()))
        {
            Some(next) => at = next,
            None => return path,
        }
    }
}
