//! The default table columns of a paged operation (`Route::columns`): the spec's `columns`
//! when it gives them, else chosen from the row type: name-like fields first, then ids, then
//! other scalar fields in the type's order, at most [`MAX`].

use crate::ir::{ApiIr, FieldIr, OpIr, TypeKind, TypeRef};

/// Columns chosen when the spec names none.
const MAX: usize = 6;

/// The columns of `op`, empty when it is not paged or its rows are untyped.
pub fn of(api: &ApiIr, op: &OpIr) -> Vec<String> {
    let Some(p) = &op.pagination else {
        return Vec::new();
    };
    if !p.columns.is_empty() {
        return p.columns.clone();
    }
    let Some((_, fields)) = crate::ir::row_fields(&api.areas, op) else {
        return Vec::new();
    };
    let scalars: Vec<&FieldIr> = fields.iter().filter(|f| is_scalar(api, &f.ty)).collect();
    let is_name = |f: &&FieldIr| f.wire == "name" || f.wire.ends_with("Name");
    let is_id = |f: &&FieldIr| f.wire == "id" || f.wire.ends_with("Id") || f.wire == "serialNumber";
    let names = scalars.iter().filter(|f| is_name(f));
    let ids = scalars.iter().filter(|f| is_id(f) && !is_name(f));
    let rest = scalars.iter().filter(|f| !is_id(f) && !is_name(f));
    names
        .chain(ids)
        .chain(rest)
        .take(MAX)
        .map(|f| f.wire.clone())
        .collect()
}

/// A string, number, boolean or enum: something a table cell shows whole.
fn is_scalar(api: &ApiIr, ty: &TypeRef) -> bool {
    match ty {
        TypeRef::String
        | TypeRef::Integer
        | TypeRef::Int32
        | TypeRef::Number
        | TypeRef::Boolean => true,
        TypeRef::Named { name, .. } => api
            .areas
            .iter()
            .flat_map(|a| &a.types)
            .find(|t| &t.name == name)
            .is_some_and(|t| matches!(t.kind, TypeKind::Enum(_))),
        _ => false,
    }
}
