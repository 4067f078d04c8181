//! The RUCKUS One client generator.
//!
//! Pipeline: [`load`](load::load) the YAML spec (serde_yaml) -> [`validate`](validate::validate)
//! it into the [`ir`] (every check a [`Diagnostic`] with file and line, never a panic) ->
//! emit Rust (quote + prettyplease) and Markdown into a sorted map of files. The caller
//! (`cargo xtask`) decides whether to write or compare them.

pub mod closed;
pub mod diag;
mod emit;
pub mod ir;
pub mod limits;
pub mod load;
mod names;
pub mod source;
pub mod spec;
pub mod validate;

pub use diag::Diagnostic;
pub use emit::PREAMBLE;

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
    emit::emit(&ir).map_err(|d| vec![d])
}

/// The TSV listing of every operation (removed ones included), header first.
pub fn list_tsv(ir: &ir::Ir) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = String::from("api\tid\tname\tmethod\tpath\tstatus\tprovenance\n");
    for api in &ir.apis {
        for area in &api.areas {
            for op in &area.operations {
                out.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    api.name,
                    op.id,
                    clean(&op.name),
                    op.method.as_str(),
                    clean(&op.path),
                    op.lifecycle.label(),
                    clean(&emit::describe::provenance(
                        &op.provenance,
                        emit::describe::Style::Spec
                    ))
                ));
            }
        }
    }
    out
}
