//! Which named types a request can carry and which a response can: the rule for a removed enum
//! value depends on it (a response-only enum decodes an unknown value to `Unknown`; a request
//! loses the variant callers name).

use ruckus_codegen::ir::{ApiIr, TypeIr, TypeKind, TypeRef};
use std::collections::{BTreeMap, BTreeSet};

/// The named types of one API reachable from requests and from responses (generated operations
/// only), through fields, aliases, union variants, arrays and maps.
#[derive(Debug, Default)]
pub struct Usage {
    pub request: BTreeSet<String>,
    pub response: BTreeSet<String>,
}

impl Usage {
    pub fn of(api: &ApiIr) -> Usage {
        let types: BTreeMap<&str, &TypeIr> = api
            .areas
            .iter()
            .flat_map(|a| &a.types)
            .map(|t| (t.name.as_str(), t))
            .collect();
        let mut request = Vec::new();
        let mut response = Vec::new();
        for op in api
            .areas
            .iter()
            .flat_map(|a| &a.operations)
            .filter(|o| o.is_generated())
        {
            for p in op.path_params.iter().chain(&op.query).chain(&op.headers) {
                request.push(&p.ty);
            }
            request.extend(op.request.as_ref().and_then(|b| b.ty.as_ref()));
            response.extend(op.responses.iter().filter_map(|r| r.ty.as_ref()));
        }
        let mut response_names: Vec<&str> = api
            .families
            .iter()
            .filter_map(|f| f.body.as_deref())
            .collect();
        for t in response {
            names(t, &mut response_names);
        }
        let mut request_names = Vec::new();
        for t in request {
            names(t, &mut request_names);
        }
        Usage {
            request: closure(request_names, &types),
            response: closure(response_names, &types),
        }
    }
}

/// The type names a reference mentions.
fn names<'t>(t: &'t TypeRef, out: &mut Vec<&'t str>) {
    match t {
        TypeRef::Array(inner) | TypeRef::Map(inner) => names(inner, out),
        TypeRef::Named { name, .. } => out.push(name),
        _ => {}
    }
}

/// Every type reachable from `roots`.
fn closure<'t>(mut todo: Vec<&'t str>, types: &BTreeMap<&str, &'t TypeIr>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.to_owned()) {
            continue;
        }
        match types.get(name).map(|t| &t.kind) {
            Some(TypeKind::Object(fields, _)) => {
                for f in fields {
                    names(&f.ty, &mut todo);
                }
            }
            Some(TypeKind::Alias(target)) => names(target, &mut todo),
            Some(TypeKind::Union(u)) => {
                for v in &u.variants {
                    names(&v.ty, &mut todo);
                }
            }
            Some(TypeKind::Enum(_) | TypeKind::NotShown(_)) | None => {}
        }
    }
    seen
}
