//! The pieces every part of the export builds with: an ordered mapping, sentences, provenance
//! in the spec's notation, schema references.

use super::super::describe::{self, Style};
use crate::ir::Provenance;
use serde_yaml::{Mapping, Value};

/// A mapping built in the order its keys are set.
#[derive(Default)]
pub(super) struct Obj(pub(super) Mapping);

impl Obj {
    pub(super) fn new() -> Self {
        Obj::default()
    }

    pub(super) fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.into(), value.into());
        self
    }

    pub(super) fn opt(self, key: &str, value: Option<impl Into<Value>>) -> Self {
        match value {
            Some(v) => self.set(key, v),
            None => self,
        }
    }

    /// Sets `key` only when `cond` holds.
    pub(super) fn when(self, cond: bool, key: &str, value: impl Into<Value>) -> Self {
        if cond { self.set(key, value) } else { self }
    }
}

impl From<Obj> for Value {
    fn from(o: Obj) -> Value {
        Value::Mapping(o.0)
    }
}

/// `text` trimmed, ending with a full stop unless it ends with other punctuation.
pub(super) fn sentence(text: &str) -> String {
    let t = text.trim();
    if t.ends_with(['.', '!', '?', ':', ')']) {
        t.to_owned()
    } else {
        format!("{t}.")
    }
}

pub(super) fn spec_provenance(p: &Provenance) -> String {
    describe::provenance(p, Style::Spec)
}

pub(super) fn empty() -> Value {
    Value::Mapping(Mapping::new())
}

pub(super) fn reference(name: &str) -> Obj {
    Obj::new().set("$ref", format!("#/components/schemas/{name}"))
}
