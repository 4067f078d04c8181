//! Checks across the areas of one API, run once every area is resolved, and the areas each
//! area uses.

use super::{ApiCtx, Validator};
use crate::ir::{AreaIr, OpIr, TypeIr, TypeKind, TypeRef};
use crate::source::SourceFile;
use crate::spec;
use std::collections::{BTreeMap, BTreeSet};

/// Every resolved operation with the file it is declared in (its imported file for a drafted
/// one) and the anchor of its entry there (`id: <id as written>`), in spec order.
fn each_op<'a>(
    areas: &'a [AreaIr],
    files: &'a [(SourceFile, spec::Area)],
) -> impl Iterator<Item = (&'a SourceFile, String, &'a OpIr)> {
    // `areas` is built from `files` one to one, in the same order.
    files
        .iter()
        .zip(areas)
        .flat_map(|((file, spec_area), area)| {
            area.operations.iter().map(move |o| {
                let origin = spec_area
                    .operations
                    .iter()
                    .find(|s| s.id == o.id)
                    .and_then(|s| s.origin.as_ref());
                match origin {
                    Some(origin) => (&*origin.file, format!("id: {}", origin.name), o),
                    None => (file, op_anchor(o), o),
                }
            })
        })
}

/// The named type `name`, wherever it is declared.
fn find_type<'a>(areas: &'a [AreaIr], name: &str) -> Option<&'a TypeIr> {
    areas.iter().flat_map(|a| &a.types).find(|t| t.name == name)
}

fn op_anchor(o: &OpIr) -> String {
    format!("id: {}", o.id)
}

impl Validator {
    pub(super) fn cross_area_checks(
        &mut self,
        areas: &[AreaIr],
        files: &[(SourceFile, spec::Area)],
        ctx: &ApiCtx,
    ) {
        self.check_routes(areas, files);
        self.check_namespace(areas, files, ctx);
        self.check_parameter_types(areas, files);
        self.check_pagination_items(areas, files);
        self.check_columns(areas, files);
        self.check_union_tags(areas, files);
        self.check_recursion(areas, files);
        self.check_nesting(areas, files);
    }

    /// Each variant of a union with a discriminator is an object that declares the
    /// discriminator field, as a string or as an enum holding the variant's value: the variant
    /// type then carries the tag itself, so a decoded value is sent back as it came.
    fn check_union_tags(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        for ((file, _), area) in files.iter().zip(areas) {
            for t in &area.types {
                let TypeKind::Union(u) = &t.kind else {
                    continue;
                };
                let Some(d) = &u.discriminator else {
                    continue;
                };
                let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
                for v in &u.variants {
                    let name = v.type_name();
                    let nth = seen.entry(name).or_default();
                    *nth += 1;
                    let tag = v.tag.as_deref().unwrap_or_default();
                    if carries_tag(areas, name, d, tag) {
                        continue;
                    }
                    let anchors = [
                        "types:",
                        &format!("name: {}", t.name),
                        "union:",
                        "variants:",
                        &format!("type: {name}"),
                    ];
                    self.diags.push_with(|| file.diag_nth(
                        &anchors,
                        *nth,
                        format!("variant type `{name}` of union `{}` must be an object with the discriminator field `{d}` (a string, or an enum with the value `{tag}`)", t.name),
                    ));
                }
            }
        }
    }

    /// Same method and path twice is a curation mistake unless the operations offer
    /// different media types (differently typed versions of one route).
    fn check_routes(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        let mut routes: BTreeMap<(&str, &str), Vec<OpAt<'_>>> = BTreeMap::new();
        for (file, anchor, o) in each_op(areas, files) {
            routes
                .entry((o.method.as_str(), o.path.as_str()))
                .or_default()
                .push((file, anchor, o));
        }
        for ((method, path), ops) in &routes {
            let [(_, _, first), (file, anchor, _), ..] = ops.as_slice() else {
                continue;
            };
            let mut seen = BTreeSet::new();
            let disjoint = ops.iter().all(|(_, _, o)| {
                !o.versions.is_empty() && o.versions.iter().all(|v| seen.insert(v.accept.clone()))
            });
            if !disjoint {
                self.diags.push_with(|| file.diag(
                    &["operations:", anchor],
                    format!("`{method} {path}` is also operation `{}`; give them different media types or merge them", first.id),
                ));
            }
        }
    }

    /// Builders, version enums and types share one namespace per API (glob re-exports).
    fn check_namespace(
        &mut self,
        areas: &[AreaIr],
        files: &[(SourceFile, spec::Area)],
        ctx: &ApiCtx,
    ) {
        let mut items: BTreeMap<String, String> = ctx
            .types
            .keys()
            .chain(areas.iter().flat_map(|a| a.types.iter().map(|t| &t.name)))
            .map(|k| (k.clone(), "type".to_owned()))
            .collect();
        for ((file, _), area) in files.iter().zip(areas) {
            for t in &area.types {
                let TypeKind::Object(fields, _) = &t.kind else {
                    continue;
                };
                if !crate::ir::uses_builder(fields) {
                    continue;
                }
                let builder = format!("{}Builder", t.name);
                let by = format!("the builder of type `{}`", t.name);
                if let Some(prev) = items.insert(builder.clone(), by) {
                    // An inline type is reported where its parent type is declared.
                    let name = t.origin.as_deref().map_or(t.name.as_str(), |o| {
                        find_parent(&area.types, o).unwrap_or(t.name.as_str())
                    });
                    self.diags.push_with(|| file.diag(
                        &["types:", &format!("name: {name}")],
                        format!("type `{}` has more than {} required fields, so it is built with the generated `{builder}`, which is already a {prev}; rename one of them", t.name, crate::ir::MAX_NEW_ARGUMENTS),
                    ));
                }
            }
        }
        for ((file, _), area) in files.iter().zip(areas) {
            let Some(handler) = &area.handler else {
                continue;
            };
            let by = format!("the handler of area `{}`", area.name);
            if let Some(prev) = items.insert(handler.clone(), by) {
                self.diags.push(file.diag(
                    &["area:"],
                    format!("area `{}` generates the handler `{handler}`, which is already a {prev}; rename one of them", area.name),
                ));
            }
        }
        for (file, anchor, o) in each_op(areas, files) {
            let n = &o.builder;
            let by = format!("generated for operation `{}`", o.id);
            match items.insert(n.clone(), by.clone()) {
                Some(prev) if prev != by => self.diags.push_with(|| file.diag(
                    &["operations:", &anchor],
                    format!("operation `{}` generates the item `{n}`, which is already a {prev}; rename one of them", o.id),
                )),
                _ => {}
            }
        }
    }

    /// Parameters typed by name must be enums: they are sent with the enum's wire value.
    fn check_parameter_types(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        for (file, anchor, o) in each_op(areas, files) {
            for p in o.query.iter().chain(&o.headers) {
                let TypeRef::Named { name, .. } = &p.ty else {
                    continue;
                };
                let is_enum = areas
                    .iter()
                    .flat_map(|a| &a.types)
                    .any(|t| &t.name == name && matches!(t.kind, TypeKind::Enum(_)));
                if !is_enum {
                    self.diags.push_with(|| file.diag(
                        &["operations:", &anchor, "parameters:", &format!("name: {}", p.wire)],
                        format!("parameter `{}` has type `{name}`, which is not an enum; parameters must be scalars or enums", p.wire),
                    ));
                }
            }
        }
    }

    /// A paged operation's items field must exist on its (object) response type.
    fn check_pagination_items(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        for (file, anchor, o) in each_op(areas, files) {
            let (Some(p), Some(TypeRef::Named { name, .. })) = (&o.pagination, &o.success.ty)
            else {
                continue;
            };
            let Some(TypeKind::Object(fields, _)) = find_type(areas, name).map(|t| &t.kind) else {
                continue;
            };
            if !fields.iter().any(|f| f.wire == p.items) {
                self.diags.push_with(|| {
                    file.diag(
                        &["operations:", &anchor, "pagination:", "items:"],
                        format!(
                            "pagination items field `{}` is not a field of `{name}`",
                            p.items
                        ),
                    )
                });
            }
        }
    }
}

impl Validator {
    /// A paged operation's `columns` must name fields of its row type.
    fn check_columns(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        for (file, anchor, o) in each_op(areas, files) {
            let Some(p) = o.pagination.as_ref().filter(|p| !p.columns.is_empty()) else {
                continue;
            };
            let row = crate::ir::row_fields(areas, o);
            for column in &p.columns {
                let message = match row {
                    None => "`columns` needs a row type: set `item_type`".to_owned(),
                    Some((name, fields)) if !fields.iter().any(|f| &f.wire == column) => {
                        format!("column `{column}` is not a field of the row type `{name}`")
                    }
                    Some(_) => continue,
                };
                self.diags.push_with(|| {
                    file.diag(
                        &["operations:", &anchor, "pagination:", "columns:"],
                        message,
                    )
                });
            }
        }
    }
}

/// The declared type an inline type's origin (`<Parent><Field>`) starts with, if any.
fn find_parent<'a>(types: &'a [TypeIr], origin: &str) -> Option<&'a str> {
    types
        .iter()
        .filter(|t| t.origin.is_none() && origin.starts_with(t.name.as_str()))
        .map(|t| t.name.as_str())
        .max_by_key(|n| n.len())
}

/// Whether the named type `name` is an object whose field `field` can hold the string `tag`.
fn carries_tag(areas: &[AreaIr], name: &str, field: &str, tag: &str) -> bool {
    let Some(TypeKind::Object(fields, _)) = find_type(areas, name).map(|t| &t.kind) else {
        return false;
    };
    let Some(f) = fields.iter().find(|f| f.wire == field) else {
        return false;
    };
    match &f.ty {
        TypeRef::String => !f.secret,
        TypeRef::Named { name, .. } => matches!(
            find_type(areas, name).map(|t| &t.kind),
            Some(TypeKind::Enum(values)) if values.iter().any(|v| v.wire == tag)
        ),
        _ => false,
    }
}

/// The other areas whose types `area`'s types and operations refer to, sorted.
pub(super) fn area_uses(area: &str, types: &[TypeIr], ops: &[OpIr]) -> Vec<String> {
    fn walk(t: &TypeRef, out: &mut BTreeSet<String>) {
        match t {
            TypeRef::Named { area, .. } => {
                out.insert(area.clone());
            }
            TypeRef::Array(inner) | TypeRef::Map(inner) => walk(inner, out),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for t in types {
        match &t.kind {
            TypeKind::Object(fields, _) => fields.iter().for_each(|f| walk(&f.ty, &mut out)),
            TypeKind::Alias(a) => walk(a, &mut out),
            TypeKind::Union(u) => u.variants.iter().for_each(|v| walk(&v.ty, &mut out)),
            TypeKind::Enum(_) | TypeKind::NotShown(_) => {}
        }
    }
    for o in ops.iter().filter(|o| o.is_generated()) {
        for p in o.path_params.iter().chain(&o.query).chain(&o.headers) {
            walk(&p.ty, &mut out);
        }
        for t in o
            .request
            .iter()
            .filter_map(|b| b.ty.as_ref())
            .chain(o.success.ty.as_ref())
            .chain(o.pagination.as_ref().and_then(|p| p.item_type.as_ref()))
        {
            walk(t, &mut out);
        }
    }
    out.remove(area);
    out.into_iter().collect()
}

/// The named types a type expression mentions, with their areas.
fn named_refs(t: &TypeRef, out: &mut Vec<(String, String)>) {
    match t {
        TypeRef::Named { name, area } => out.push((area.clone(), name.clone())),
        TypeRef::Array(inner) | TypeRef::Map(inner) => named_refs(inner, out),
        _ => {}
    }
}

/// The named types a type's fields, alias or variants mention.
pub(super) fn type_refs(t: &TypeIr) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match &t.kind {
        TypeKind::Object(fields, _) => fields.iter().for_each(|f| named_refs(&f.ty, &mut out)),
        TypeKind::Alias(a) => named_refs(a, &mut out),
        TypeKind::Union(u) => u.variants.iter().for_each(|v| named_refs(&v.ty, &mut out)),
        TypeKind::Enum(_) | TypeKind::NotShown(_) => {}
    }
    out
}

/// Sets `users` on the types of types-only areas (`common`): the features of the areas that
/// need each one, directly or through other such types, so a build with a few areas compiles
/// only the shared types they use. A shared type no area needs, and everything it mentions,
/// stays ungated (always compiled with its area).
pub(super) fn shared_type_users(areas: &mut [AreaIr]) {
    let shared: BTreeSet<String> = areas
        .iter()
        .filter(|a| !a.operations.iter().any(|o| o.is_generated()))
        .map(|a| a.name.clone())
        .collect();
    if shared.is_empty() {
        return;
    }
    let mut users: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for a in areas.iter().filter(|a| !shared.contains(&a.name)) {
        let mut refs = Vec::new();
        for t in &a.types {
            refs.extend(type_refs(t));
        }
        for o in a.operations.iter().filter(|o| o.is_generated()) {
            for p in o.path_params.iter().chain(&o.query).chain(&o.headers) {
                named_refs(&p.ty, &mut refs);
            }
            for t in o
                .request
                .iter()
                .filter_map(|b| b.ty.as_ref())
                .chain(o.success.ty.as_ref())
                .chain(o.pagination.as_ref().and_then(|p| p.item_type.as_ref()))
                .chain(o.pagination.as_ref().and_then(|p| p.item_type.as_ref()))
            {
                named_refs(t, &mut refs);
            }
        }
        for r in refs.into_iter().filter(|(area, _)| shared.contains(area)) {
            users.entry(r).or_default().insert(a.feature.clone());
        }
    }
    // What a shared type mentions is needed wherever the type is.
    let mentions: BTreeMap<(String, String), Vec<(String, String)>> = areas
        .iter()
        .filter(|a| shared.contains(&a.name))
        .flat_map(|a| {
            a.types
                .iter()
                .map(move |t| ((a.name.clone(), t.name.clone()), type_refs(t)))
        })
        .map(|(k, refs)| {
            (
                k,
                refs.into_iter()
                    .filter(|(area, _)| shared.contains(area))
                    .collect(),
            )
        })
        .collect();
    loop {
        let mut changed = false;
        for (t, refs) in &mentions {
            let Some(from) = users.get(t).cloned() else {
                continue;
            };
            for r in refs {
                let to = users.entry(r.clone()).or_default();
                let before = to.len();
                to.extend(from.iter().cloned());
                changed |= to.len() != before;
            }
        }
        if !changed {
            break;
        }
    }
    let mut ungated: Vec<(String, String)> = mentions
        .keys()
        .filter(|k| !users.contains_key(*k))
        .cloned()
        .collect();
    let mut always = BTreeSet::new();
    while let Some(t) = ungated.pop() {
        if always.insert(t.clone()) {
            ungated.extend(mentions.get(&t).cloned().unwrap_or_default());
        }
    }
    for a in areas.iter_mut().filter(|a| shared.contains(&a.name)) {
        for t in &mut a.types {
            let key = (a.name.clone(), t.name.clone());
            if !always.contains(&key) {
                t.users = users
                    .get(&key)
                    .map(|u| u.iter().cloned().collect())
                    .unwrap_or_default();
            }
        }
    }
}

/// A union with a discriminator owns its tag: it reads the tag to choose the variant and writes
/// the variant's tag back. So a variant type used nowhere but as a variant of such unions (with
/// the same discriminator) loses its discriminator field: there is no second copy of the tag to
/// contradict the variant. (Validation has already checked that each variant declares it.)
pub(super) fn union_owns_tags(areas: &mut [AreaIr]) {
    // Variant type -> the discriminators of the unions it is a variant of.
    let mut tagged: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Every other mention of a named type.
    let mut elsewhere: BTreeSet<String> = BTreeSet::new();
    for a in areas.iter() {
        for t in &a.types {
            match &t.kind {
                TypeKind::Union(u) => match &u.discriminator {
                    Some(d) => u.variants.iter().for_each(|v| {
                        tagged
                            .entry(v.type_name().to_owned())
                            .or_default()
                            .insert(d.clone());
                    }),
                    None => u.variants.iter().for_each(|v| {
                        elsewhere.insert(v.type_name().to_owned());
                    }),
                },
                _ => {
                    for (_, name) in type_refs(t) {
                        elsewhere.insert(name);
                    }
                }
            }
        }
        for o in &a.operations {
            let mut refs = Vec::new();
            for p in o.path_params.iter().chain(&o.query).chain(&o.headers) {
                named_refs(&p.ty, &mut refs);
            }
            for t in o
                .request
                .iter()
                .filter_map(|b| b.ty.as_ref())
                .chain(o.responses.iter().filter_map(|r| r.ty.as_ref()))
                .chain(o.pagination.as_ref().and_then(|p| p.item_type.as_ref()))
            {
                named_refs(t, &mut refs);
            }
            elsewhere.extend(refs.into_iter().map(|(_, n)| n));
        }
    }
    for a in areas.iter_mut() {
        for t in &mut a.types {
            let Some(ds) = tagged.get(&t.name) else {
                continue;
            };
            let (Some(d), 1) = (ds.iter().next(), ds.len()) else {
                continue;
            };
            if elsewhere.contains(&t.name) {
                continue;
            }
            if let TypeKind::Object(fields, _) = &mut t.kind {
                fields.retain(|f| &f.wire != d);
            }
        }
    }
}

/// An operation with the file and the anchor its diagnostics point at.
type OpAt<'a> = (&'a SourceFile, String, &'a OpIr);
