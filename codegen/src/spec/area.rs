//! Area files (`spec/<api>/<area>.yaml`), imported area files and the curated corrections of
//! imported types and drafted operations (`overrides:`).

use super::*;

/// One area file (`spec/<api>/<area>.yaml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Must equal the file stem.
    pub area: String,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    /// The service (of the API's `services`) serving the area's operations, unless one names
    /// another.
    #[serde(default)]
    pub service: Option<String>,
    /// Named types, in the order they are documented.
    #[serde(default)]
    pub types: Vec<TypeDef>,
    #[serde(default)]
    pub operations: Vec<Operation>,
    /// Corrections of the area's imported types (`imported/<area>.yaml`), applied when loading.
    #[serde(default)]
    pub overrides: Vec<Override>,
}

/// An imported area file (`spec/<api>/imported/<area>.yaml`), written whole by `cargo xtask
/// import`: the types the vendor's descriptions give the area's bodies.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ImportedArea {
    /// Must equal the file stem (and the curated area's name).
    pub area: String,
    #[serde(default)]
    pub types: Vec<TypeDef>,
    /// Operations drafted from description routes the curated spec lacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<Operation>,
    /// Fields of curated types of the area that the curated file does not list, from the
    /// description schema each type stands for: the loader appends them to the type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additions: Vec<Addition>,
}

/// The fields the import adds to one curated object type (after its own, which always win).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Addition {
    /// The curated type's name.
    #[serde(rename = "type")]
    pub target: String,
    /// Where the fields were read: each added field's provenance unless it has its own.
    pub provenance: String,
    pub fields: Vec<Field>,
}

/// A curated correction of one imported type or one drafted operation, applied on top of the
/// import (the import can be run again without losing it). Exactly one of `type` and
/// `operation` names the target; every other key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Override {
    /// The imported type's name, as the imported file has it (empty for an operation override).
    #[serde(rename = "type", default)]
    pub target: String,
    /// A drafted operation's id, as the imported file has it (anywhere in the API).
    #[serde(default)]
    pub operation: Option<String>,
    /// Operations: the area the import places the operation in (an area of the API).
    #[serde(default)]
    pub area: Option<String>,
    /// Operations: the route is not drafted, for this reason (listed by the import).
    #[serde(default)]
    pub skip: Option<String>,
    /// Operations: the operation's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Why the correction is made (for reviewers; not rendered).
    #[serde(default)]
    pub note: Option<String>,
    /// A new Rust name for the type (for an operation: its new id).
    #[serde(default)]
    pub rename: Option<String>,
    /// Another type of the API (curated or imported) to use instead: this one is left out and
    /// every imported reference to it names that type. Goes with no other correction.
    #[serde(default)]
    pub replace_with: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    /// Replaces the type's provenance.
    #[serde(default)]
    pub provenance: Option<String>,
    #[serde(default)]
    pub open: Option<bool>,
    /// Corrections of fields, by wire name.
    #[serde(default)]
    pub fields: Vec<FieldOverride>,
    /// Wire names of fields to leave out.
    #[serde(default)]
    pub remove_fields: Vec<String>,
    /// Enum values the import lacks, appended.
    #[serde(default)]
    pub values: Vec<EnumValue>,
    /// Union variants: a variant's tag value or Rust name, by variant type.
    #[serde(default)]
    pub variants: Vec<VariantOverride>,
}

/// A correction of one field of an imported object type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldOverride {
    /// Wire name of the field.
    pub name: String,
    /// The field is not in the import: add it (then `type` is required).
    #[serde(default)]
    pub add: bool,
    #[serde(rename = "type", default)]
    pub ty: Option<TypeExpr>,
    #[serde(default)]
    pub required: Option<bool>,
    #[serde(default)]
    pub nullable: Option<bool>,
    #[serde(default)]
    pub secret: Option<bool>,
    #[serde(default)]
    pub description: Option<String>,
    /// Provenance of the correction (`reference: payloads <file>`, `inferred: <why>`).
    #[serde(default)]
    pub provenance: Option<String>,
    #[serde(default)]
    pub deprecated: Option<String>,
    /// Replaces the field's constraints.
    #[serde(default)]
    pub constraints: Option<BTreeMap<String, serde_yaml::Value>>,
}

/// A correction of one union variant, chosen by its type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantOverride {
    #[serde(rename = "type")]
    pub ty: String,
    /// The tag value that selects it.
    #[serde(default)]
    pub value: Option<String>,
    /// Rust variant name.
    #[serde(default)]
    pub name: Option<String>,
}
