//! The RUCKUS One client generator.
//!
//! Pipeline: [`load`](load::load) the YAML spec (serde_yaml) -> [`validate`](validate::validate)
//! it into the [`ir`] (every check a [`Diagnostic`] with file and line, never a panic) ->
//! emit Rust (quote + prettyplease) and Markdown into a sorted map of files. The caller
//! (`cargo xtask`) decides whether to write or compare them.

mod additions;
pub mod chars;
pub mod closed;
pub mod diag;
mod emit;
pub mod ir;
pub mod limits;
pub mod load;
pub mod names;
pub mod op_overrides;
pub mod overrides;
pub mod resources;
pub mod source;
pub mod spec;
pub mod threads;
pub mod validate;

pub use diag::Diagnostic;
pub use emit::PREAMBLE;
pub use emit::cache::hash128;
/// Method names of every request builder; no parameter may take one as its Rust name.
pub use emit::reserved::BUILDER_METHODS as RESERVED_BUILDER_METHODS;
/// Type names generated code uses unqualified; a spec type may not take one.
pub use emit::reserved::TYPE_NAMES as RESERVED_TYPE_NAMES;

use std::collections::BTreeMap;
use std::path::Path;

/// Loads and validates the spec whose top-level file is `top`.
///
/// Spec file paths recorded in the output are shown relative to the parent of the spec
/// directory (`spec/analytics/users.yaml`), so output does not depend on where the checkout is.
pub fn build(top: &Path) -> Result<ir::Ir, Vec<Diagnostic>> {
    let loaded = load::load(top)?;
    let root = top.parent().and_then(Path::parent).unwrap_or(Path::new(""));
    validate::validate(&loaded, root)
}

/// Every generated file for the spec at `top`: path relative to `generated/` -> contents.
pub fn generate(top: &Path) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    let ir = build(top)?;
    emit::emit(&ir, None).map_err(|d| vec![d])
}

/// The OpenAPI 3.1 export of every API of the spec at `top` (`openapi/<api>.yaml`): path relative
/// to `generated/` -> contents. Apart from [`generate`], whose files are the client crate and docs.
pub fn openapi(top: &Path) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    Ok(emit::openapi::files(&build(top)?))
}

/// The files of [`generate`], of [`openapi`] and the operation catalog's tables together, from one load
/// and validation of the spec (what `cargo xtask generate` writes).
pub fn generate_all(top: &Path) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    generate_all_cached(top, None)
}

/// [`generate_all`] with formatted Rust cached under `cache` (a directory this generator build
/// owns): the output is the same, made faster when little changed since the last run.
pub fn generate_all_cached(
    top: &Path,
    cache: Option<&Path>,
) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    let ir = build(top)?;
    // The OpenAPI export and the catalog's tables (values, no token streams) are made beside
    // the emitter's threads.
    if threads::workers(2) == 1 {
        let mut files = emit::emit(&ir, cache).map_err(|d| vec![d])?;
        files.extend(emit::openapi::files(&ir));
        files.extend(emit::catalog::files(&ir));
        files.extend(resources::files(top, &files)?);
        return Ok(files);
    }
    let (files, others) = std::thread::scope(|scope| {
        let others = scope.spawn(|| {
            let mut others = emit::openapi::files(&ir);
            others.extend(emit::catalog::files(&ir));
            others
        });
        let files = emit::emit(&ir, cache);
        let others = others
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (files, others)
    });
    let mut files = files.map_err(|d| vec![d])?;
    files.extend(others);
    // The resource layer is checked against the tables just made.
    files.extend(resources::files(top, &files)?);
    Ok(files)
}

/// The TSV listing of every operation (removed ones included), header first.
///
/// After the seven descriptive columns come the wire facts the client works with: the 2xx
/// statuses it accepts, the request and response body types (Rust spelling without module
/// paths; `raw` for untyped JSON), the media types offered across versions, the default
/// version's media type, the paging style and items field, and whether it answers 202.
pub fn list_tsv(ir: &ir::Ir) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = String::from(
        "api\tid\tname\tmethod\tpath\tstatus\tprovenance\tsuccess\trequest_type\tresponse_type\tcontent_types\taccepts\tdefault_version\tpaging\titem_type\tasync\n",
    );
    for api in &ir.apis {
        for area in &api.areas {
            for op in &area.operations {
                let cells = [
                    api.name.clone(),
                    op.id.clone(),
                    op.name.clone(),
                    op.method.as_str().to_owned(),
                    op.path.clone(),
                    op.lifecycle.label().to_owned(),
                    emit::describe::provenance(&op.provenance, emit::describe::Style::Spec),
                ]
                .into_iter()
                .chain(list_wire_cells(op, api));
                let row: Vec<String> = cells.map(|c| clean(&c)).collect();
                out.push_str(&row.join("\t"));
                out.push('\n');
            }
        }
    }
    out
}

/// The `success` ... `async` cells of an operation's `list` row.
fn list_wire_cells(op: &ir::OpIr, api: &ir::ApiIr) -> [String; 9] {
    use ir::{BodyKind, ResponseKind};
    let success: Vec<String> = op
        .responses
        .iter()
        .filter(|r| (200..300).contains(&r.status))
        .map(|r| r.status.to_string())
        .collect();
    let request_type = op.request.as_ref().map_or(String::new(), |b| match b.kind {
        BodyKind::Json | BodyKind::Form => body_type_spelling(b.ty.as_ref()),
        BodyKind::Multipart => "Multipart".into(),
        BodyKind::Binary => "Bytes".into(),
    });
    let response_type = match op.success.kind {
        ResponseKind::Json => body_type_spelling(op.success.ty.as_ref()),
        ResponseKind::Binary => "Bytes".into(),
        ResponseKind::Text => "String".into(),
        ResponseKind::Empty => "()".into(),
    };
    let distinct = |media: Vec<&String>| {
        let mut seen: Vec<&String> = Vec::new();
        for m in media {
            if !seen.contains(&m) {
                seen.push(m);
            }
        }
        seen.iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    let content_types = distinct(
        op.versions
            .iter()
            .filter_map(|v| v.content_type.as_ref())
            .collect(),
    );
    let accepts = match op.success.kind {
        ResponseKind::Empty => String::new(),
        _ => distinct(op.versions.iter().map(|v| &v.accept).collect()),
    };
    let default_version = op.versions.first().map_or(String::new(), |v| {
        match (op.success.kind, &v.content_type) {
            (ResponseKind::Json, _) | (_, None) => v.accept.clone(),
            (_, Some(ct)) => ct.clone(),
        }
    });
    let paging = op.pagination.as_ref().map_or(String::new(), |p| {
        format!("{}:{}", p.style.as_str(), p.items)
    });
    let asynchronous = if op.asynchronous { "yes" } else { "no" };
    [
        success.join(","),
        request_type,
        response_type,
        content_types,
        accepts,
        default_version,
        paging,
        item_cell(op, api),
        asynchronous.into(),
    ]
}

/// The `item_type` cell: what `.items()` yields for a paged operation (`raw` for untyped JSON),
/// empty for the others.
fn item_cell(op: &ir::OpIr, api: &ir::ApiIr) -> String {
    let Some(p) = &op.pagination else {
        return String::new();
    };
    if let Some(t) = &p.item_type {
        return body_type_spelling(Some(t));
    }
    let element = match &op.success.ty {
        Some(ir::TypeRef::Named { name, .. }) => api
            .areas
            .iter()
            .flat_map(|a| &a.types)
            .find(|t| &t.name == name)
            .and_then(|t| match &t.kind {
                ir::TypeKind::Object(fields, _) => fields.iter().find(|f| f.wire == p.items),
                _ => None,
            })
            .and_then(|f| match &f.ty {
                ir::TypeRef::Array(inner) => Some(&**inner),
                _ => None,
            }),
        _ => None,
    };
    body_type_spelling(element)
}

/// A JSON body's Rust type for `list`: `raw` for untyped JSON, type names without module paths.
fn body_type_spelling(ty: Option<&ir::TypeRef>) -> String {
    match ty {
        None | Some(ir::TypeRef::Json | ir::TypeRef::NotShown(_)) => "raw".into(),
        Some(t) => type_spelling(t),
    }
}

/// A type's Rust spelling as the generated code writes it, without module paths.
fn type_spelling(t: &ir::TypeRef) -> String {
    use ir::TypeRef;
    match t {
        TypeRef::String => "String".into(),
        TypeRef::Integer => "i64".into(),
        TypeRef::Int32 => "i32".into(),
        TypeRef::Number => "f64".into(),
        TypeRef::Boolean => "bool".into(),
        TypeRef::Json | TypeRef::NotShown(_) => "serde_json::Value".into(),
        TypeRef::Array(inner) => format!("Vec<{}>", type_spelling(inner)),
        TypeRef::Map(inner) => format!("BTreeMap<String, {}>", type_spelling(inner)),
        TypeRef::Named { name, .. } => name.clone(),
    }
}
