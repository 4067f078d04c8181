//! What part of a tenant an export, a plan or an apply covers: the whole tenant, or some
//! top-level objects by name (venues) with what lives under them and what they refer to.

use crate::kinds;
use crate::model::{Address, State};
use crate::pointer;
use ruckus_one_catalog::Resources;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

/// A scope: every object of the tenant, or the objects of `kind` named in `names`, the
/// objects under them, and the objects they (and those) refer to, with their parents and the
/// objects under those.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    /// The top-level kind the names are of (`venue`); empty: the whole tenant.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The names; empty: the whole tenant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

impl Scope {
    /// Every object of the tenant.
    pub fn tenant() -> Scope {
        Scope::default()
    }

    /// The objects of `kind` named `names` and what belongs to them.
    pub fn named(kind: &str, names: impl IntoIterator<Item = impl Into<String>>) -> Scope {
        Scope {
            kind: kind.to_owned(),
            names: names.into_iter().map(Into::into).collect(),
        }
    }

    /// Whether it is the whole tenant.
    pub fn is_tenant(&self) -> bool {
        self.names.is_empty()
    }

    /// Whether a top-level object of `kind` named `name` is to be read at all.
    pub(crate) fn reads(&self, kind: &str, name: &str) -> bool {
        self.is_tenant() || kind != self.kind || self.names.iter().any(|n| n == name)
    }

    /// Keeps the objects of `state` in the scope; `also` (the desired objects of a plan)
    /// are kept too when live, so that an object to be created is never missed.
    pub fn retain(&self, resources: &Resources, state: &mut State, also: &BTreeSet<Address>) {
        if self.is_tenant() {
            return;
        }
        let mut keep: BTreeSet<Address> = BTreeSet::new();
        let mut roots: Vec<Address> = state
            .objects
            .keys()
            .filter(|a| {
                let top = a.parents.first().unwrap_or(&a.name);
                let kind = resources
                    .kind(&a.kind)
                    .map(|k| kinds::top(resources, k).name.as_str());
                kind == Some(self.kind.as_str()) && self.names.contains(top)
            })
            .cloned()
            .collect();
        roots.extend(
            also.iter()
                .filter(|a| state.objects.contains_key(*a))
                .cloned(),
        );
        while let Some(a) = roots.pop() {
            if !keep.insert(a.clone()) {
                continue;
            }
            roots.extend(related(resources, state, &a));
        }
        state.objects.retain(|a, _| keep.contains(a));
    }
}

/// The objects the object at `a` refers to, its parent, and the objects under it.
fn related(resources: &Resources, state: &State, a: &Address) -> Vec<Address> {
    let mut out = Vec::new();
    let Some(kind) = resources.kind(&a.kind) else {
        return out;
    };
    if let Some(p) = kind.parent.as_deref().and_then(|p| a.parent(p)) {
        out.push(p);
    }
    let chain = a.chain();
    out.extend(
        state
            .objects
            .keys()
            .filter(|o| {
                o.parents == chain
                    && resources.kind(&o.kind).and_then(|k| k.parent.as_deref())
                        == Some(a.kind.as_str())
            })
            .cloned(),
    );
    let Some(obj) = state.get(a) else {
        return out;
    };
    for r in &kind.references {
        let names: Vec<String> = match (&r.field, &r.param) {
            (Some(field), _) => pointer::expand(&obj.doc, field)
                .iter()
                .filter_map(|at| {
                    obj.doc
                        .pointer(at)
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .collect(),
            (None, Some(param)) => obj
                .doc
                .get(param)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        };
        for name in names {
            out.push(kinds::referenced(resources, a, &r.kind, &name));
        }
    }
    out
}
