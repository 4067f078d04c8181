//! The YAML spec as written by maintainers: plain serde structs, no validation.
//!
//! `spec/README.md` documents every construct with an example. Everything here is
//! `deny_unknown_fields` so that a typo is a diagnostic instead of a silently ignored key.

pub use crate::closed::{
    AuthKind, BodyKind, FamilyKind, LifecycleStatus, LimitScope, Method, PageStyle, ParamLocation,
    ResponseKind,
};
use serde::{Deserialize, Serialize};

fn is_empty<T>(v: &[T]) -> bool {
    v.is_empty()
}
use std::collections::BTreeMap;

/// The top-level file (`spec/ruckus-one.yaml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopLevel {
    /// Settings of the generated client crate.
    #[serde(rename = "crate")]
    pub krate: CrateSettings,
    /// Authentication shared by every API (one token service).
    pub auth: Auth,
    /// The APIs, in the order they are generated and documented.
    pub apis: Vec<Api>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrateSettings {
    /// Cargo package name of the client crate, e.g. `ruckus-one`.
    pub name: String,
    pub version: String,
    pub description: String,
    /// Put each API area behind a cargo feature `<api>-<area>` (all on by default), so users can
    /// compile only the areas they need.
    #[serde(default)]
    pub area_features: bool,
    /// Put a short example (a `no_run` doctest naming this crate) in the rustdoc of the crate and
    /// of each area handler. Off for specs whose output is compiled as a module of another crate.
    #[serde(default)]
    pub doc_examples: bool,
    /// A Markdown file (relative to the top-level spec file) whose text between the markers
    /// `<!-- crate-guide:start -->` and `<!-- crate-guide:end -->` (or whole, without them) is
    /// the crate page's guide: one text for the README and the rustdoc.
    #[serde(default)]
    pub guide: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Auth {
    pub description: String,
    /// Token URL template used when the owning tenant id is configured.
    /// Placeholders: `{host}` (the regional host), `{tenant_id}`.
    pub token_url: Setting,
    /// Token URL template used without a tenant id. Placeholder: `{host}`.
    pub token_url_without_tenant: Setting,
    /// Header that selects a delegated tenant, e.g. `x-rks-tenantid`.
    pub tenant_header: Setting,
}

/// A single documented value with its provenance.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    pub value: String,
    #[serde(default)]
    pub provenance: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Api {
    /// Short name: `analytics`, `network`. Becomes the Rust module name.
    pub name: String,
    pub title: String,
    pub description: String,
    /// The seed document this API is curated from (for reviewers).
    pub source: String,
    /// Path prefix added after the host, e.g. `/ai`; empty for none.
    #[serde(default)]
    pub prefix: Setting0,
    /// Regional hosts.
    pub hosts: Hosts,
    /// Vendor part of versioned media types: `application/vnd.<vendor>.v1+json`.
    pub media_vendor: Setting,
    /// Error-body families that operations of this API may answer with.
    pub error_families: Vec<ErrorFamily>,
    /// Family used by operations that do not name one.
    pub default_error_family: String,
    /// How operations of this API authenticate: `client_credentials` (default: the OAuth2 token
    /// of the shared token service) or `unit_token` (a token the caller supplies, e.g. the
    /// resident portal's unit token).
    #[serde(default)]
    pub auth: Option<AuthSetting>,
    /// Id of the `GET .../activities/{requestId}` operation: the generated client then offers
    /// `wait_for_activity`, which polls it until an asynchronous request finishes.
    #[serde(default)]
    pub activity_operation: Option<String>,
    /// Id of the `POST .../activities/query` operation (in the activity operation's area): the
    /// generated client then offers `wait_all`, which follows many activities with one query
    /// per round.
    #[serde(default)]
    pub activity_query_operation: Option<String>,
    /// The API's status-code table (documentation).
    #[serde(default)]
    pub status_codes: Vec<StatusCode>,
    /// The vendor services that serve the API's operations, with their published rate limits.
    /// Without it, the API is one service named after it, with no limit.
    #[serde(default)]
    pub services: Vec<Service>,
    /// Area files, read from `<api name>/<area>.yaml` beside the top-level file.
    pub areas: Vec<String>,
}

/// A vendor service: the operations it serves share its rate limit (per tenant).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Service {
    /// snake_case name, the key areas and operations name it by.
    pub name: String,
    pub description: String,
    /// The published limit; omitted when the service publishes none.
    #[serde(default)]
    pub rate_limit: Option<RateLimit>,
    /// Where the limit comes from (`reference: <description file> ...`).
    #[serde(default)]
    pub provenance: Option<String>,
}

/// A token bucket: `max` calls at once, `per_second` calls back each second.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimit {
    pub max: u32,
    pub per_second: u32,
    /// What the limit is counted for; default `tenant`.
    #[serde(default)]
    pub scope: Option<LimitScope>,
}

/// How an API authenticates, with its provenance.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSetting {
    pub value: AuthKind,
    #[serde(default)]
    pub provenance: Option<String>,
}

/// One row of an API's status-code table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusCode {
    pub status: u16,
    pub meaning: String,
    #[serde(default)]
    pub provenance: Option<String>,
}

/// A setting that may be omitted (empty value, documented).
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Setting0 {
    #[serde(default)]
    pub value: String,
    #[serde(default)]
    pub provenance: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hosts {
    pub asia: String,
    pub europe: String,
    pub north_america: String,
    #[serde(default)]
    pub provenance: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorFamily {
    pub name: String,
    /// How the runtime decodes it.
    pub kind: FamilyKind,
    pub description: String,
    /// Named type describing the body (for the docs), optional.
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub provenance: Option<String>,
}

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

/// A named type: exactly one of `fields` (object), `values` (enum), `alias`, `not_shown` or
/// `union`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    /// PascalCase type name, unique within the API.
    pub name: String,
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

fn is_false(b: &bool) -> bool {
    !*b
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

/// A scalar becomes `Err(string)`, a map is deserialized as `T` (`Ok`), so errors inside the
/// map keep their own message and position instead of a vague "did not match any variant".
fn string_or_map<'de, D, T>(d: D, expected: &'static str) -> Result<Result<T, String>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct V<T>(&'static str, std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
        type Value = Result<T, String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Err(v.to_owned()))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Err(v.to_string()))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Err(v.to_string()))
        }
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Err(v.to_string()))
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Ok)
        }
    }
    d.deserialize_any(V(expected, std::marker::PhantomData))
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

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Operation {
    /// Stable snake_case id: the Rust method name. Never renamed once published.
    pub id: String,
    /// The operation's name as the document gives it (or a descriptive name where it gives none).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub method: Method,
    pub path: String,
    /// Provenance of the operation's method and path (the least certain facts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    /// The vendor's operationId in its OpenAPI description (`getVenueAps`): a rustdoc search
    /// alias of the method. Without it, the operationId a `reference: <file> <operationId>`
    /// provenance names is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub parameters: Vec<Parameter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<RequestBody>,
    pub responses: Vec<Response>,
    /// Media types offered (versions); the first is the default. A string applies to the JSON
    /// request body's `Content-Type` and the JSON response's `Accept`; `{content_type, accept}`
    /// sets them apart.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub media_types: Vec<MediaTypeEntry>,
    /// Provenance of `media_types` (which versions exist, which one is the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_types_provenance: Option<String>,
    /// Error family name; defaults to the API's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_family: Option<String>,
    /// The service serving it (of the API's `services`); defaults to the area's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    /// Free-form notes rendered into docs (rules, caveats the document states).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub notes: Vec<String>,
    /// Where a drafted operation was read (set by the loader; never written): diagnostics
    /// about it point into its imported file.
    #[serde(skip)]
    pub origin: Option<Origin>,
}

/// One offered representation: a media type for both directions, or each direction's own.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum MediaTypeEntry {
    Both(String),
    Split(SplitMediaType),
}

impl<'de> Deserialize<'de> for MediaTypeEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        string_or_map(d, "a media type or {content_type, accept}")
            .map(|v| v.map_or_else(MediaTypeEntry::Both, MediaTypeEntry::Split))
    }
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SplitMediaType {
    /// `Content-Type` of the JSON request body (omit to keep the body's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// `Accept` for the JSON response (omit to keep the response's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accept: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lifecycle {
    pub status: LifecycleStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `YYYY-MM-DD`, for deprecated or removed operations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// Wire name.
    pub name: String,
    #[serde(rename = "in")]
    pub location: ParamLocation,
    /// Rust name of the argument or builder method, when the wire name's own would clash with
    /// a name the request builder reserves (see `emit::ops::RESERVED_BUILDER_METHODS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<String>,
    #[serde(rename = "type", default = "default_param_type")]
    pub ty: TypeExpr,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub constraints: BTreeMap<String, serde_yaml::Value>,
}

fn default_param_type() -> TypeExpr {
    TypeExpr::Name("string".to_owned())
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RequestBody {
    /// Default `json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<BodyKind>,
    /// Body type for `json` and `form`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeExpr>,
    #[serde(default = "yes")]
    pub required: bool,
    /// Exact `Content-Type` when it is not the kind's default and not versioned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    /// Named parts of a multipart body (documentation).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub parts: Vec<Part>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Provenance of the body's presence, kind and required flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Response {
    pub status: u16,
    /// Default `json` when a type is given, `empty` without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ResponseKind>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeExpr>,
    /// Exact media type when it is not the kind's default and not versioned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Provenance of this response (e.g. `inferred: status not shown`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Pagination {
    pub style: PageStyle,
    /// Field of the response holding the items.
    pub items: String,
    /// Number of the first page (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_page: Option<u32>,
    /// The type of one item, where the answer's type leaves its items raw (a page shared by
    /// many queries): `.items()` decodes each item as this type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_type: Option<TypeExpr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}
