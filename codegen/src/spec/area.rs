//! Area files (`spec/<api>/<area>.yaml`) and imported area files; the curated corrections of
//! imported types and drafted operations (`overrides:`) are in [`super::overrides`].

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
