//! The audit (`cargo xtask audit [--openapi DIR] [--tsv | --summary] [--spec FILE]`): compares the spec
//! with the vendor's OpenAPI descriptions and prints what disagrees (statuses, media types,
//! versions, bodies, content kinds, paging, error bodies), which description operations the spec
//! lacks and which spec operations no description lists; and the services: each published rate
//! limit against its description's `info.description`, each listed operation's service against
//! the file that lists it.
//!
//! It is a report: it exits 0 whatever it finds, and skips with a message when the directory of
//! descriptions is absent. It fails only on a usage error or a spec that does not load. The
//! command line lives in xtask (`xtask/src/audit.rs`).

pub mod compare;
pub mod openapi;
pub mod report;
pub mod services;

use ruckus_codegen::ir::Ir;
use std::path::Path;

pub use openapi::{Descriptions, load};

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Markdown,
    Summary,
    Tsv,
}

/// An audit rendered: the report (for stdout) and the notes beside it (for stderr).
pub struct Rendered {
    pub report: String,
    pub notes: Vec<String>,
}

/// Audits the spec `ir` against the descriptions `descs` read from `dir`, rendered in `format`.
pub fn render(ir: &Ir, descs: &Descriptions, dir: &Path, format: Format) -> Rendered {
    let audit = compare::audit(ir, descs);
    let services = services::check(ir, descs, dir);
    let shown = dir.display().to_string();
    let mut notes = Vec::new();
    let report = match format {
        Format::Markdown => format!(
            "{}{}",
            report::markdown(&audit, &shown),
            services::render(&services, true)
        ),
        Format::Summary => format!(
            "{}{}",
            report::summary(&audit),
            services::render(&services, false)
        ),
        Format::Tsv => {
            for (api, ops) in &audit.skipped {
                notes.push(format!(
                    "audit: `{api}` ({ops} spec operation(s)) skipped: no description lists any of its operations"
                ));
            }
            report::tsv(&audit)
        }
    };
    Rendered { report, notes }
}
