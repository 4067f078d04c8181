//! Validation: the loaded spec becomes the IR, or a list of diagnostics with file and line.
//!
//! Every check reports and carries on, so one run shows every problem; the diagnostics are
//! sorted by file and line at the end, so the order of the checks does not matter. Nothing here
//! panics on a spec: unsupported shapes are diagnostics.
//!
//! One file per concern, top-down:
//! - [`top`]: the crate, the token service and the list of APIs;
//! - [`api`]: one API's settings (families, prefix, hosts, auth, status codes, activity
//!   operation) and its areas;
//! - [`types`]: named and inline types, fields, enum values, type references; [`nesting`]:
//!   types that hold themselves, and how deep named types nest (bounded);
//! - [`operation`]: one operation's id, method, path, parameters, responses, error family and
//!   pagination; [`body`] its request body and media-type versions; [`lifecycle`] its lifecycle;
//! - [`cross`]: checks across the areas of an API (routes, item namespace, enum parameters,
//!   pagination items) and the areas each area uses;
//! - [`rules`]: small pure rules (paths, media types, dates, constraints).

mod api;
mod body;
mod cross;
mod lifecycle;
#[cfg(test)]
mod media_tests;
mod nesting;
mod operation;
mod rules;
mod services;
mod top;
mod types;

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{FamilyKind, Ir, Provenance, Valued};
use crate::load::Loaded;
use crate::source::SourceFile;
use std::collections::{BTreeMap, BTreeSet};

/// Validates `loaded` and builds the IR. `display_root` is stripped from file paths recorded
/// in the IR (so docs name `spec/analytics/users.yaml`, not an absolute path).
pub fn validate(loaded: &Loaded, display_root: &std::path::Path) -> Result<Ir, Vec<Diagnostic>> {
    let mut v = Validator {
        diags: Diagnostics::default(),
    };
    let ir = v.ir(loaded, display_root);
    if v.diags.is_empty() {
        Ok(ir)
    } else {
        Err(v.diags.into_sorted())
    }
}

struct Validator {
    diags: Diagnostics,
}

/// Per-API context: the API-wide facts operations and types are checked against.
struct ApiCtx {
    /// Type name -> area module.
    types: BTreeMap<String, String>,
    /// Vendor part of versioned media types.
    vendor: String,
    /// Error family name -> how it is decoded (the first declaration of a name).
    families: BTreeMap<String, FamilyKind>,
    /// Family of operations that name none.
    default_family: String,
    /// Operation ids seen so far (unique across the API).
    op_ids: BTreeSet<String>,
    /// Names of the API's services.
    services: Vec<String>,
    /// The service of the area being checked, if it names one.
    area_service: Option<String>,
}

/// Where the current element is, for diagnostics and inline type names.
struct At<'a> {
    file: &'a SourceFile,
    anchors: Vec<String>,
    /// Which match of the last anchor (1-based): duplicates are reported where they repeat.
    nth: usize,
}

impl<'a> At<'a> {
    /// The top of `file`.
    fn file(file: &'a SourceFile) -> Self {
        At {
            file,
            anchors: vec![],
            nth: 1,
        }
    }

    fn anchors(&self) -> Vec<&str> {
        self.anchors.iter().map(String::as_str).collect()
    }

    fn with(&self, more: &[&str]) -> Self {
        let mut anchors = self.anchors.clone();
        anchors.extend(more.iter().map(|s| s.to_string()));
        At {
            file: self.file,
            anchors,
            nth: 1,
        }
    }

    /// A named type: in its area file, or in the imported file it was read from (found by the
    /// name it has there).
    fn type_def(area_file: &'a SourceFile, t: &'a crate::spec::TypeDef) -> Self {
        let (file, name) = match &t.origin {
            Some(o) => (&*o.file, &o.name),
            None => (area_file, &t.name),
        };
        At::file(file).with(&["types:", &format!("name: {name}")])
    }

    /// An operation: in its area file, or in the imported file a drafted one was read from
    /// (found by the id it has there).
    fn operation(area_file: &'a SourceFile, op: &'a crate::spec::Operation) -> Self {
        let (file, id) = match &op.origin {
            Some(o) => (&*o.file, &o.name),
            None => (area_file, &op.id),
        };
        At::file(file).with(&["operations:", &format!("id: {id}")])
    }

    /// The same place, at the `nth` match of the last anchor.
    fn nth(mut self, nth: usize) -> Self {
        self.nth = nth;
        self
    }
}

impl Validator {
    fn err(&mut self, at: &At<'_>, message: impl Into<String>) {
        self.diags
            .push_with(|| at.file.diag_nth(&at.anchors(), at.nth, message));
    }

    fn setting(&mut self, at: &At<'_>, s: &crate::spec::Setting) -> Valued {
        Valued {
            value: s.value.clone(),
            provenance: self.provenance(at, s.provenance.as_deref()),
        }
    }

    fn provenance(&mut self, at: &At<'_>, p: Option<&str>) -> Provenance {
        let Some(p) = p else {
            return Provenance::Documented;
        };
        let p = p.trim();
        if p == "documented" {
            return Provenance::Documented;
        }
        let parsed = if let Some(why) = p.strip_prefix("inferred:") {
            Some((true, why.trim()))
        } else {
            p.strip_prefix("reference:").map(|src| (false, src.trim()))
        };
        match parsed {
            Some((_, "")) => {
                self.err(
                    &at.with(&["provenance:"]),
                    "provenance needs a reason or source after the colon",
                );
                Provenance::Documented
            }
            Some((true, why)) => Provenance::Inferred(why.to_owned()),
            Some((false, src)) => Provenance::Reference(src.to_owned()),
            None => {
                self.err(
                    &at.with(&["provenance:"]),
                    format!("provenance `{p}` must be `documented`, `inferred: <reason>` or `reference: <source>`"),
                );
                Provenance::Documented
            }
        }
    }
}
