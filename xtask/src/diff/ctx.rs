//! Where the changes of one API are collected while its operations, parts and types are
//! compared ([`super::api`], [`super::ops`], [`super::parts`], [`super::types`]).

use super::change::{Change, Class};
use super::usage::Usage;
use ruckus_codegen::ir::{ApiIr, Provenance};

/// Where the changes of one API are collected.
pub struct Ctx {
    api: String,
    old_usage: Usage,
    new_usage: Usage,
    pub changes: Vec<Change>,
}

impl Ctx {
    pub fn new(api: &str, old: Option<&ApiIr>, new: Option<&ApiIr>) -> Ctx {
        Ctx {
            api: api.to_owned(),
            old_usage: old.map(Usage::of).unwrap_or_default(),
            new_usage: new.map(Usage::of).unwrap_or_default(),
            changes: Vec::new(),
        }
    }

    pub fn push(
        &mut self,
        area: &str,
        subject: &str,
        kind: &'static str,
        class: Class,
        detail: impl Into<String>,
    ) {
        self.changes.push(Change {
            api: self.api.clone(),
            area: area.to_owned(),
            subject: subject.to_owned(),
            kind,
            class,
            detail: detail.into(),
        });
    }

    /// Whether a request (a parameter or a request body) can carry the named type, before or
    /// after the change.
    pub fn in_request(&self, ty: &str) -> bool {
        self.old_usage.request.contains(ty) || self.new_usage.request.contains(ty)
    }

    /// Whether a response can carry the named type, before or after the change.
    pub fn in_response(&self, ty: &str) -> bool {
        self.old_usage.response.contains(ty) || self.new_usage.response.contains(ty)
    }

    /// Reports a provenance whose kind changed (`inferred` → `reference`); a reworded reason
    /// is prose and not reported.
    pub fn provenance(
        &mut self,
        area: &str,
        subject: &str,
        what: &str,
        old: &Provenance,
        new: &Provenance,
    ) {
        if old.label() != new.label() {
            let detail = format!(
                "provenance of {what}: `{}` → `{}`",
                spec_notation(old),
                spec_notation(new)
            );
            self.push(
                area,
                subject,
                "provenance_changed",
                Class::Compatible,
                detail,
            );
        }
    }
}

/// A provenance as the spec writes it.
pub fn spec_notation(p: &Provenance) -> String {
    match p {
        Provenance::Documented => "documented".into(),
        Provenance::Inferred(why) => format!("inferred: {why}"),
        Provenance::Reference(section) => format!("reference: {section}"),
    }
}
