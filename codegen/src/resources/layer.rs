//! The layer: each curated kind with the draft of its family (when it names one), the curated
//! keys replacing or adding to what was inferred.

use super::flags::{self, Bodies};
use super::infer::{self, Draft};
use super::schema;
use crate::diag::Diagnostics;
use crate::source::SourceFile;
use crate::spec::resources::{KindSpec, ResourcesFile};
use ruckus_one_catalog::{
    FieldRule, Reference, ResourceKind, ResourceOperations, ResourceShape, Role, Table,
};
use std::collections::BTreeMap;

/// Field names that name an object within its parent, in the order they are preferred.
const IDENTITY_NAMES: [&str; 6] = [
    "name",
    "serviceName",
    "serialNumber",
    "vlanId",
    "macAddress",
    "mac",
];

/// A kind of the layer, with what the tables do not keep.
#[derive(Debug)]
pub struct Kind {
    pub kind: ResourceKind,
    /// The family whose draft it took.
    pub family: Option<String>,
    /// The provenance of each of `kind.references`, in its order.
    pub reference_provenance: Vec<String>,
    /// Its entry in the curated file.
    pub entry: usize,
}

/// Where a curated entry's `key` is.
pub fn at(file: &SourceFile, name: &str, key: &str, message: String) -> crate::Diagnostic {
    file.diag(&["kinds:", &format!("name: {name}"), key], message)
}

/// Every curated kind merged with its draft, in the file's order; what cannot be merged is a
/// diagnostic (and the kind is left out).
pub fn merge(
    file: &SourceFile,
    spec: &ResourcesFile,
    tables: &[Table],
    drafts: &BTreeMap<(String, String), Draft>,
    diags: &mut Diagnostics,
) -> Vec<Kind> {
    // Which kind took which family, for parents and links.
    let by_family: BTreeMap<(String, String), &str> = spec
        .kinds
        .iter()
        .filter_map(|k| {
            let api = k.api.clone().unwrap_or_else(|| spec.api.clone());
            Some(((api, k.family.clone()?), k.name.as_str()))
        })
        .collect();
    let mut out = Vec::new();
    for (entry, e) in spec.kinds.iter().enumerate() {
        let api = e.api.as_deref().unwrap_or(&spec.api);
        let Some(table) = tables.iter().find(|t| t.api.name == api) else {
            diags.push(at(
                file,
                &e.name,
                "api:",
                format!("kind `{}`: API `{api}` has no operation table", e.name),
            ));
            continue;
        };
        let draft = match &e.family {
            Some(f) => match drafts.get(&(api.to_owned(), f.clone())) {
                Some(d) => Some(d),
                None => {
                    diags.push(at(file, &e.name, "family:", format!(
                        "kind `{}`: family `{f}` of API `{api}` has no inferred draft (its routes make no collection, settings or activation); write the kind whole, without `family`",
                        e.name
                    )));
                    continue;
                }
            },
            None => None,
        };
        if let Some(kind) = one(file, e, api, table, draft, &by_family, diags) {
            let family = e.family.clone();
            let (kind, reference_provenance) = kind;
            out.push(Kind {
                kind,
                family,
                reference_provenance,
                entry,
            });
        }
    }
    out
}

/// The ids a draft's operations and the curated ones give, slot by slot.
fn operations(e: &KindSpec, draft: Option<&Draft>) -> ResourceOperations {
    let mut ops = draft.map(|d| d.operations.clone()).unwrap_or_default();
    if let Some(c) = &e.operations {
        let pairs = [
            (&c.create, &mut ops.create),
            (&c.read, &mut ops.read),
            (&c.update, &mut ops.update),
            (&c.delete, &mut ops.delete),
            (&c.list, &mut ops.list),
        ];
        for (given, slot) in pairs {
            if given.is_some() {
                slot.clone_from(given);
            }
        }
    }
    ops
}

/// One kind, or `None` with a diagnostic.
fn one(
    file: &SourceFile,
    e: &KindSpec,
    api: &str,
    table: &Table,
    draft: Option<&Draft>,
    by_family: &BTreeMap<(String, String), &str>,
    diags: &mut Diagnostics,
) -> Option<(ResourceKind, Vec<String>)> {
    let Some(shape) = e.shape.or(draft.map(|d| d.shape)) else {
        diags.push(at(
            file,
            &e.name,
            "name:",
            format!("kind `{}` names no `family`, so it needs a `shape`", e.name),
        ));
        return None;
    };
    let inferred_parent = draft
        .and_then(|d| d.parent.as_ref())
        .map(|(family, param)| {
            (
                by_family
                    .get(&(api.to_owned(), family.clone()))
                    .map(|s| (*s).to_owned()),
                family,
                param,
            )
        });
    let parent = e
        .parent
        .clone()
        .or_else(|| inferred_parent.as_ref().and_then(|p| p.0.clone()));
    if e.parent.is_none() {
        if let Some((None, family, _)) = &inferred_parent {
            diags.push(at(file, &e.name, "family:", format!(
                "kind `{}`: its parent's family `{family}` is no kind of the layer; add that kind, or set `parent`",
                e.name
            )));
            return None;
        }
    }
    let parent_param = e
        .parent_param
        .clone()
        .or_else(|| inferred_parent.as_ref().map(|p| p.2.clone()));
    let operations = operations(e, draft);
    let mut kind = ResourceKind {
        name: e.name.clone(),
        api: api.to_owned(),
        title: e.title.clone(),
        shape,
        parent,
        parent_param,
        identity: Vec::new(),
        id_field: None,
        id_param: e.id_param.clone(),
        operations,
        update_style: e.update_style.or(draft.and_then(|d| d.update_style)),
        references: Vec::new(),
        fields: Vec::new(),
        provenance: String::new(),
        gate_exception: e.gate_exception.clone(),
    };
    let mut why = draft.map(|d| d.why.clone());
    if shape == ResourceShape::Collection && kind.id_param.is_none() {
        kind.id_param = draft.and_then(|d| d.id_param.clone());
    }
    let bodies = Bodies::of(table, &kind);
    identify(e, &mut kind, &bodies, table, &mut why);
    let provenance = references(e, &mut kind, draft, by_family, api);
    fields(e, &mut kind, table, &bodies, file, diags);
    if kind.gate_exception.is_none() {
        kind.gate_exception = gate(&kind, table);
    }
    kind.provenance = match (&e.provenance, why) {
        (Some(p), _) => p.clone(),
        (None, Some(why)) => format!("inferred: {why}"),
        (None, None) => {
            diags.push(at(
                file,
                &e.name,
                "name:",
                format!(
                    "kind `{}` names no `family`, so it needs a `provenance`",
                    e.name
                ),
            ));
            return None;
        }
    };
    Some((kind, provenance))
}

/// The id field and identity: curated, else a collection's `id` and first name-like field of
/// its read answer or create body.
fn identify(
    e: &KindSpec,
    kind: &mut ResourceKind,
    bodies: &Bodies<'_>,
    table: &Table,
    why: &mut Option<String>,
) {
    let has = |pointer: &str| {
        bodies
            .all()
            .find(|(_, s)| schema::has(table, s, pointer))
            .map(|(n, _)| n)
    };
    let collection = kind.shape == ResourceShape::Collection;
    kind.id_field = e
        .id_field
        .clone()
        .or_else(|| (collection && has("/id").is_some()).then(|| "/id".to_owned()));
    if let Some(identity) = &e.identity {
        kind.identity.clone_from(identity);
        if let Some(why) = why.as_mut() {
            why.push_str(&format!(
                "; identity {} as spec/resources.yaml corrects it",
                identity.join(", ")
            ));
        }
        return;
    }
    if !collection {
        return;
    }
    let found = IDENTITY_NAMES
        .iter()
        .find_map(|n| has(&format!("/{n}")).map(|schema| (n, schema)));
    if let (Some((name, schema)), Some(why)) = (found, why.as_mut()) {
        kind.identity = vec![format!("/{name}")];
        why.push_str(&format!(
            "; identity `/{name}`: the first of {} that `{schema}` has",
            IDENTITY_NAMES.map(|n| format!("`{n}`")).join(", ")
        ));
    }
}

/// References: an activation's link (the kind of the family its last path parameter names),
/// then the curated ones (replacing an inferred one of the same place). Returns each one's
/// provenance.
fn references(
    e: &KindSpec,
    kind: &mut ResourceKind,
    draft: Option<&Draft>,
    by_family: &BTreeMap<(String, String), &str>,
    api: &str,
) -> Vec<String> {
    let mut provenance = Vec::new();
    if let (ResourceShape::Activation, Some(d)) = (kind.shape, draft) {
        let families = by_family
            .keys()
            .filter(|(a, _)| a == api)
            .map(|(_, f)| f.as_str());
        let linked = infer::linked_family(&d.family, families);
        let linked =
            linked.and_then(|f| by_family.get(&(api.to_owned(), f.clone())).map(|k| (f, k)));
        if let (Some((family, target)), Some(param)) = (linked, &d.id_param) {
            kind.references.push(Reference {
                kind: (*target).to_owned(),
                field: None,
                param: Some(param.clone()),
                deferred: false,
            });
            provenance.push(format!(
                "inferred: the activation's last path parameter `{param}` names an object of family `{family}`"
            ));
        }
    }
    for r in &e.references {
        let same = |o: &Reference| o.kind == r.kind && o.field == r.field && o.param == r.param;
        if let Some(i) = kind.references.iter().position(same) {
            kind.references.remove(i);
            provenance.remove(i);
        }
        kind.references.push(Reference {
            kind: r.kind.clone(),
            field: r.field.clone(),
            param: r.param.clone(),
            deferred: r.deferred,
        });
        provenance.push(
            r.provenance
                .clone()
                .unwrap_or_else(|| "documented".to_owned()),
        );
    }
    provenance
}

/// Field rules: inferred, less the dropped paths, then the curated ones.
fn fields(
    e: &KindSpec,
    kind: &mut ResourceKind,
    table: &Table,
    bodies: &Bodies<'_>,
    file: &SourceFile,
    diags: &mut Diagnostics,
) {
    let mut rules = flags::infer(table, kind, bodies);
    for path in &e.drop_fields {
        let before = rules.len();
        rules.retain(|r| &r.path != path);
        if rules.len() == before {
            diags.push(at(
                file,
                &e.name,
                "drop_fields:",
                format!(
                    "kind `{}`: `drop_fields` names `{path}`, which no inferred rule has",
                    e.name
                ),
            ));
        }
    }
    for f in &e.fields {
        rules.retain(|r| !(r.path == f.path && r.flag == f.flag));
        let default = f
            .default
            .as_ref()
            .map(|v| serde_json::to_value(v).unwrap_or(serde_json::Value::Null));
        rules.push(FieldRule {
            path: f.path.clone(),
            flag: f.flag,
            default,
            provenance: f.provenance.clone(),
        });
    }
    kind.fields = rules;
}

/// The inferred gate exception: of a kind one of whose operations the simulator answers from
/// its schemas without keeping state, or of a link that nothing reads back.
fn gate(kind: &ResourceKind, table: &Table) -> Option<String> {
    let ops = &kind.operations;
    let canned = [&ops.create, &ops.read, &ops.update, &ops.delete, &ops.list]
        .into_iter()
        .flatten()
        .filter_map(|id| table.route(id))
        .find(|r| r.role == Role::Canned)
        .map(|r| format!(
            "inferred: the simulator answers `{}` from its schemas without keeping state (role canned), so a round trip cannot read back what it wrote",
            r.id
        ));
    let unread = (ops.read.is_none() && ops.list.is_none()).then(|| {
        "inferred: no operation of its family reads the link back (no read or list route), so an export sees it only through the objects it links".to_owned()
    });
    canned.or(unread)
}
