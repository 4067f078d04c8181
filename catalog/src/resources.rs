//! The resource layer: each kind of configuration object that desired state (`ruckus export |
//! plan | apply`) manages, as the generator writes it to `generated/catalog/resources.json`
//! from the spec's `resources.yaml` and what it infers from the operations.
//!
//! A kind names the operations that create, read, update, delete and list its objects, how
//! an object is named within its parent (its identity), the references it holds to objects of
//! other kinds (ids on the wire, names in a file), and what each field means for a comparison
//! (set by the service, secret, volatile, filled in by default).

use crate::closed::{FieldFlag, ResourceShape, UpdateStyle};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Every resource kind, in an order where each kind comes after its parent and after the kinds
/// it references (the order an apply creates them in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resources {
    /// A note that the file is generated (ignored on read).
    #[serde(default)]
    pub generated: String,
    /// Every kind, each after its parent and the kinds it references.
    pub kinds: Vec<ResourceKind>,
}

impl Resources {
    /// The kind named `name`.
    pub fn kind(&self, name: &str) -> Option<&ResourceKind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// The kinds whose parent is `name` (`None`: the top-level kinds).
    pub fn children<'a>(&'a self, name: Option<&'a str>) -> impl Iterator<Item = &'a ResourceKind> {
        self.kinds
            .iter()
            .filter(move |k| k.parent.as_deref() == name)
    }
}

/// One kind of configuration object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceKind {
    /// Stable snake_case name, unique in the layer (`venue`, `ap_group`, `wifi_network`); the
    /// directory of its objects in an export.
    pub name: String,
    /// The API its operations belong to (`network`).
    pub api: String,
    /// What it is, in a few words.
    pub title: String,
    /// A collection of objects with ids, one settings object per parent, or an activation.
    pub shape: ResourceShape,
    /// The kind its objects live under (`venue` for an AP group); its id fills the parent's
    /// path parameter of every operation. `None`: directly under the tenant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// The path parameter the parent's id fills (`venueId`), when there is a parent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_param: Option<String>,
    /// The body fields (JSON pointers) whose values together name an object uniquely within
    /// its parent (`/name` for a venue, `/serialNumber` for an AP). Empty for a settings
    /// kind (one object per parent) and for an activation (named by its references).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub identity: Vec<String>,
    /// The field of a read answer that holds the object's id (`/id`), for a collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_field: Option<String>,
    /// The path parameter the object's own id fills in its read, update and delete
    /// (`venueId`), for a collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_param: Option<String>,
    /// The ids of the operations that create, read, update, delete and list its objects
    /// (those its shape has).
    pub operations: ResourceOperations,
    /// How `operations.update` changes an object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_style: Option<UpdateStyle>,
    /// The references its objects hold to objects of other kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Reference>,
    /// What fields mean for a comparison, beyond an ordinary field that is read, compared and
    /// sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldRule>,
    /// Where the kind comes from: `documented`, `inferred: <why>` or `reference: <source>`.
    pub provenance: String,
    /// Why the generated round-trip gate does not cover this kind, when it does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate_exception: Option<String>,
}

/// The operation ids (`create_venue`) of a kind, each of the kind's API.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceOperations {
    /// Creates an object (a collection) or activates one (an activation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create: Option<String>,
    /// Reads one object (or a parent's settings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<String>,
    /// Changes one object (or a parent's settings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update: Option<String>,
    /// Deletes one object (or deactivates it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete: Option<String>,
    /// Lists the objects under one parent (a GET list or a query; paged when the operation is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
}

/// A reference from an object to an object of another kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// The kind referred to.
    pub kind: String,
    /// Where the id is: a body field (a JSON pointer, `/apGroupId`; `*` stands for every
    /// member of an array: `/vlanPoolIds/*`) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// ... or a path parameter of the kind's operations (`wifiNetworkId` of an activation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    /// The reference may be set after both objects exist (a second pass), which is how a
    /// cycle of references is ordered.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deferred: bool,
}

/// What one field means for a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldRule {
    /// The field, as a JSON pointer into the object (`*` for every member of an array).
    pub path: String,
    /// What the field is: set by the service, write-only, secret, volatile or defaulted.
    pub flag: FieldFlag,
    /// The value the service fills in when the field is not sent (flag `default`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// `documented`, `inferred: <why>` or `reference: <source>`.
    pub provenance: String,
}
