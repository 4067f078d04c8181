//! Operations: method and path, parameters, bodies, media types, responses and paging.

use super::*;

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
    /// The fields of a row the command line shows as table columns by default (each must be a
    /// field of the row type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}
