//! The resource layer as people curate it (`spec/resources.yaml`, beside the top-level file):
//! which kinds of configuration object desired state manages, and the corrections and
//! additions to what the generator infers for each from the operations (`crate::resources`).
//!
//! A kind that names a `family` takes the generator's draft for that resource family (its
//! operations, parent, identity, id and field flags, each with an `inferred:` provenance); every
//! other key of the entry replaces or adds to the draft. A kind without a `family` is written
//! whole. `spec/README.md` (section "The resource layer") describes every key.

pub use crate::closed::{FieldFlag, ResourceShape, UpdateStyle};
use serde::Deserialize;

/// `spec/resources.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourcesFile {
    /// The API of every kind that names none (`network`).
    pub api: String,
    /// The kinds of the layer, in any order (the tables order them parents first).
    pub kinds: Vec<KindSpec>,
}

/// One kind of the layer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindSpec {
    /// Unique snake_case name (`venue`).
    pub name: String,
    /// What it is, in a few words.
    pub title: String,
    /// Its API, when not the file's.
    #[serde(default)]
    pub api: Option<String>,
    /// The resource family (collection path, `{}` for placeholders) whose inferred draft the
    /// kind takes; without it the kind is written whole here.
    #[serde(default)]
    pub family: Option<String>,
    #[serde(default)]
    pub shape: Option<ResourceShape>,
    #[serde(default)]
    pub parent: Option<String>,
    #[serde(default)]
    pub parent_param: Option<String>,
    /// Replaces the inferred identity (JSON pointers into the object).
    #[serde(default)]
    pub identity: Option<Vec<String>>,
    #[serde(default)]
    pub id_field: Option<String>,
    #[serde(default)]
    pub id_param: Option<String>,
    /// Operation ids; each slot given replaces the inferred one.
    #[serde(default)]
    pub operations: Option<OperationsSpec>,
    #[serde(default)]
    pub update_style: Option<UpdateStyle>,
    /// References, added to the inferred ones (a reference of the same kind and place replaces
    /// the inferred one).
    #[serde(default)]
    pub references: Vec<ReferenceSpec>,
    /// Field rules, added to the inferred ones (a rule of the same path and flag replaces the
    /// inferred one).
    #[serde(default)]
    pub fields: Vec<FieldSpec>,
    /// Inferred field rules that are wrong, by path (every flag of that path is dropped).
    #[serde(default)]
    pub drop_fields: Vec<String>,
    /// Where the kind comes from; required for a kind without `family`, else it replaces the
    /// inferred provenance.
    #[serde(default)]
    pub provenance: Option<String>,
    /// Why the simulator round trip cannot cover the kind.
    #[serde(default)]
    pub gate_exception: Option<String>,
    /// For reviewers; not emitted.
    #[serde(default)]
    pub note: Option<String>,
}

/// A kind's operation ids, by slot.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperationsSpec {
    #[serde(default)]
    pub create: Option<String>,
    #[serde(default)]
    pub read: Option<String>,
    #[serde(default)]
    pub update: Option<String>,
    #[serde(default)]
    pub delete: Option<String>,
    #[serde(default)]
    pub list: Option<String>,
}

/// A reference to an object of another kind: a body field or a path parameter.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceSpec {
    pub kind: String,
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default)]
    pub param: Option<String>,
    #[serde(default)]
    pub deferred: bool,
    /// Omitted: `documented`.
    #[serde(default)]
    pub provenance: Option<String>,
}

/// What one field means for a comparison.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    pub path: String,
    pub flag: FieldFlag,
    /// The value the service fills in (flag `default` only).
    #[serde(default)]
    pub default: Option<serde_yaml::Value>,
    pub provenance: String,
}
