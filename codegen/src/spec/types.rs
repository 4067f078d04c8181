//! Named types (objects, enums, aliases, unions), their fields and the type expressions that
//! name them.

use super::*;

/// A named type: exactly one of `fields` (object), `values` (enum), `alias`, `not_shown` or
/// `union`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    /// PascalCase type name, unique within the API.
    pub name: String,
    /// What the type is, in the project's words. Required of curated types; an imported type
    /// goes without one unless it has something to say (its provenance names its schema).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<Field>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<EnumValue>>,
    /// Another type expression this name stands for (e.g. `array<License>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<TypeExpr>,
    /// The document does not show the shape: raw JSON, with this note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_shown: Option<String>,
    /// One of several named types, optionally told apart by a discriminator field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub union: Option<Union>,
    /// For objects whose field list the document shows only in part: other fields are kept
    /// (and can be sent) in a map instead of being dropped.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Where an imported type was read (set by the loader; never written): diagnostics about
    /// it point into its imported file.
    #[serde(skip)]
    pub origin: Option<Origin>,
}

/// The imported file a type was read from, and the name it has there (before a `rename`).
#[derive(Debug, Clone)]
pub struct Origin {
    pub file: std::sync::Arc<crate::source::SourceFile>,
    pub name: String,
}

impl PartialEq for Origin {
    fn eq(&self, other: &Self) -> bool {
        self.file.path == other.file.path && self.name == other.name
    }
}

/// A union: a value that is one of several named types of the same API.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Union {
    /// Wire field whose string value selects the variant; without it the variants are tried
    /// in order and the first that decodes wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discriminator: Option<String>,
    /// The variants, in order (at least one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<UnionVariant>,
}

/// One variant of a union.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnionVariant {
    /// A named type of the same API.
    #[serde(rename = "type")]
    pub ty: String,
    /// The discriminator's value that selects this variant: required with a discriminator,
    /// not allowed without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Rust variant name (UpperCamelCase); default: from `value`, else the type name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Wire name, exactly as in the document.
    pub name: String,
    #[serde(rename = "type")]
    pub ty: TypeExpr,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    /// Holds a credential: redacted in `Debug`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secret: bool,
    /// Documented constraints, rendered into docs (`min_length: 2`, `default: "1"`, ...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub constraints: BTreeMap<String, serde_yaml::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
}

/// A type expression: a name (`string`, `integer`, `int64`, `number`, `boolean`, `json`,
/// `array<T>`, `map<T>`, a named type) or an inline shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TypeExpr {
    Name(String),
    Inline(InlineType),
}

impl<'de> Deserialize<'de> for TypeExpr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        string_or_map(
            d,
            "a type name or an inline shape (array, map, fields, values or not_shown)",
        )
        .map(|v| v.map_or_else(TypeExpr::Name, TypeExpr::Inline))
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InlineType {
    /// `array` items given inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<Box<TypeExpr>>,
    /// `map` (string keys) values given inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<Box<TypeExpr>>,
    /// Inline object: its fields. Named `<Parent><Field>` unless `name` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<Field>>,
    /// Inline enum: its values. Named `<Parent><Field>` unless `name` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<EnumValue>>,
    /// Shape not shown by the document: raw JSON with this note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_shown: Option<String>,
    /// Name for an inline object or enum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Inline object whose field list is partial (see `TypeDef::open`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum EnumValue {
    Bare(String),
    Full(EnumValueFull),
}

impl<'de> Deserialize<'de> for EnumValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        string_or_map(d, "a string or {value, description, deprecated}")
            .map(|v| v.map_or_else(EnumValue::Bare, EnumValue::Full))
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValueFull {
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
}
