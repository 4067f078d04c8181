//! The validated, resolved model the emitters read. Emitters never see raw YAML.
//!
//! Every name here is already a valid, unique Rust identifier; every type reference resolves;
//! every order is the spec's order. Closed sets are the enums of [`crate::closed`].

pub use crate::closed::{
    AuthKind, BodyKind, FamilyKind, LifecycleStatus, LimitScope, Method, PageStyle, ParamLocation,
    ResponseKind,
};

/// Where a fact comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Provenance {
    /// Stated by the source document.
    Documented,
    /// Not shown by the document; chosen by the curator for the given reason.
    Inferred(String),
    /// From `shared/reference/public-facts.md`; the string names the section.
    Reference(String),
}

impl Provenance {
    /// `documented`, `inferred` or `reference`.
    pub fn label(&self) -> &'static str {
        match self {
            Provenance::Documented => "documented",
            Provenance::Inferred(_) => "inferred",
            Provenance::Reference(_) => "reference",
        }
    }
}

/// The whole client.
#[derive(Debug)]
pub struct Ir {
    pub krate: CrateIr,
    pub auth: AuthIr,
    pub apis: Vec<ApiIr>,
}

#[derive(Debug)]
pub struct CrateIr {
    pub name: String,
    pub version: String,
    pub description: String,
    /// Some operation is experimental: the crate gets an `experimental` feature.
    pub has_experimental: bool,
    /// Each area is behind a cargo feature (see [`AreaIr::feature`]).
    pub area_features: bool,
    /// Rustdoc examples (doctests) for the crate and each area handler.
    pub doc_examples: bool,
    /// The crate page's guide (Markdown), from the file `crate.guide` names.
    pub guide: Option<String>,
}

/// A value with its provenance.
#[derive(Debug, Clone)]
pub struct Valued<T = String> {
    pub value: T,
    pub provenance: Provenance,
}

#[derive(Debug)]
pub struct AuthIr {
    pub description: String,
    pub token_url: Valued,
    pub token_url_without_tenant: Valued,
    pub tenant_header: Valued,
}

#[derive(Debug)]
pub struct ApiIr {
    /// Module name (`analytics`).
    pub name: String,
    /// Client struct name (`AnalyticsClient`).
    pub client: String,
    pub title: String,
    pub description: String,
    pub source: String,
    pub prefix: Valued,
    pub hosts: HostsIr,
    pub media_vendor: Valued,
    /// How the API's operations authenticate, with provenance.
    pub auth: Valued<AuthKind>,
    pub status_codes: Vec<(u16, String, Provenance)>,
    /// The operation `wait_for_activity` polls.
    pub activity_operation: Option<String>,
    /// The activity query `wait_all` sends.
    pub activity_query_operation: Option<String>,
    /// The vendor services of the API (one, named after it, when the spec declares none).
    pub services: Vec<ServiceIr>,
    /// The limit all the calls of one tenant share.
    pub tenant_limit: Option<TenantLimitIr>,
    pub families: Vec<FamilyIr>,
    /// The family of operations that name none.
    pub default_family: String,
    pub areas: Vec<AreaIr>,
}

impl ApiIr {
    /// The activity operation `wait_for_activity` and `send_and_wait` poll, with its area.
    pub fn activity(&self) -> Option<(&AreaIr, &OpIr)> {
        let id = self.activity_operation.as_ref()?;
        self.areas
            .iter()
            .find_map(|a| a.operations.iter().find(|o| &o.id == id).map(|o| (a, o)))
    }
}

/// The tenant-wide limit: `max` calls at once, `per_minute` back each minute, refused for
/// `restoration_seconds` after it was exceeded.
#[derive(Debug)]
pub struct TenantLimitIr {
    pub max: u32,
    pub per_minute: u32,
    pub restoration_seconds: u32,
    pub provenance: Provenance,
}

/// A vendor service and its published rate limit.
#[derive(Debug)]
pub struct ServiceIr {
    pub name: String,
    /// Its static in the API module (`SERVICE_WIFI`).
    pub static_name: String,
    pub description: String,
    /// `(max, per_second, scope)`.
    pub rate_limit: Option<(u32, u32, LimitScope)>,
    pub provenance: Provenance,
}

#[derive(Debug)]
pub struct HostsIr {
    pub asia: String,
    pub europe: String,
    pub north_america: String,
    pub provenance: Provenance,
}

#[derive(Debug)]
pub struct FamilyIr {
    pub name: String,
    pub kind: FamilyKind,
    pub description: String,
    pub body: Option<String>,
    pub provenance: Provenance,
}

#[derive(Debug)]
pub struct AreaIr {
    /// Module and file name.
    pub name: String,
    pub title: String,
    pub description: Option<String>,
    /// The spec file, relative to the spec directory's parent (`spec/analytics/users.yaml`).
    pub spec_file: String,
    pub types: Vec<TypeIr>,
    /// All operations in spec order, removed ones included (emitters skip those).
    pub operations: Vec<OpIr>,
    /// Cargo feature of this area (`network-switches`), used when the crate has area features.
    pub feature: String,
    /// Other areas of the same API whose types this area uses (their features are required).
    pub uses: Vec<String>,
    /// The area's handler type (`SwitchesClient`), reached from the API client by the area's
    /// name; None when the area generates no operation.
    pub handler: Option<String>,
}

#[derive(Debug)]
pub struct TypeIr {
    pub name: String,
    pub description: String,
    pub provenance: Provenance,
    /// For inline types: where the document shows them.
    pub origin: Option<String>,
    pub kind: TypeKind,
    /// For a type of a types-only area (`common`): the features of the areas that need it,
    /// directly or through other such types; empty when it is always compiled with its area.
    pub users: Vec<String>,
}

#[derive(Debug)]
pub enum TypeKind {
    /// Fields, and whether other fields are kept in a map (`open`).
    Object(Vec<FieldIr>, bool),
    Enum(Vec<VariantIr>),
    Alias(TypeRef),
    NotShown(String),
    /// One of several named types.
    Union(UnionIr),
}

/// A union's discriminator and variants.
#[derive(Debug)]
pub struct UnionIr {
    /// Wire field whose string value selects the variant; None: variants are tried in order.
    pub discriminator: Option<String>,
    pub variants: Vec<UnionVariantIr>,
}

/// One variant of a union: a named type of the same API.
#[derive(Debug)]
pub struct UnionVariantIr {
    /// Rust variant name (UpperCamelCase, never `Unknown`).
    pub rust: String,
    /// Always [`TypeRef::Named`].
    pub ty: TypeRef,
    /// The discriminator value selecting it (present exactly when the union has a discriminator).
    pub tag: Option<String>,
    pub description: Option<String>,
}

impl UnionVariantIr {
    /// The variant type's name.
    pub fn type_name(&self) -> &str {
        match &self.ty {
            TypeRef::Named { name, .. } => name,
            _ => "",
        }
    }
}

/// Models with more than this many required (non-nullable) fields get a builder instead of a
/// positional `new`.
pub const MAX_NEW_ARGUMENTS: usize = 3;

/// The fields `new` takes as arguments, in order: the required, non-nullable ones.
pub fn new_arguments(fields: &[FieldIr]) -> Vec<&FieldIr> {
    fields
        .iter()
        .filter(|f| f.required && !f.nullable)
        .collect()
}

/// Whether a model with these fields is built with `builder()` rather than `new(...)`.
pub fn uses_builder(fields: &[FieldIr]) -> bool {
    new_arguments(fields).len() > MAX_NEW_ARGUMENTS
}

#[derive(Debug)]
pub struct FieldIr {
    pub wire: String,
    pub rust: String,
    pub ty: TypeRef,
    pub required: bool,
    pub nullable: bool,
    pub description: Option<String>,
    /// The field's own provenance, else its type's.
    pub provenance: Provenance,
    /// Whether `provenance` is the type's (the docs then do not repeat it per field).
    pub inherited: bool,
    pub secret: bool,
    pub constraints: Vec<(String, String)>,
    pub deprecated: Option<String>,
}

impl FieldIr {
    /// The provenance a field's docs state: its own, when not `documented`.
    pub fn stated_provenance(&self) -> Option<&Provenance> {
        (!self.inherited && !matches!(self.provenance, Provenance::Documented))
            .then_some(&self.provenance)
    }
}

#[derive(Debug)]
pub struct VariantIr {
    pub wire: String,
    pub rust: String,
    pub description: Option<String>,
    pub deprecated: Option<String>,
}

/// A resolved type reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeRef {
    String,
    Integer,
    Int32,
    Number,
    Boolean,
    Json,
    Array(Box<TypeRef>),
    Map(Box<TypeRef>),
    /// A named (or named inline) type and the area module that defines it.
    Named {
        name: String,
        area: String,
    },
    /// Raw JSON whose shape the document does not show.
    NotShown(String),
}

impl TypeRef {
    /// Spec-style spelling for docs (`array<License>`).
    pub fn display(&self) -> String {
        match self {
            TypeRef::String => "string".into(),
            TypeRef::Integer => "integer".into(),
            TypeRef::Int32 => "int32".into(),
            TypeRef::Number => "number".into(),
            TypeRef::Boolean => "boolean".into(),
            TypeRef::Json => "json".into(),
            TypeRef::Array(t) => format!("array<{}>", t.display()),
            TypeRef::Map(t) => format!("map<{}>", t.display()),
            TypeRef::Named { name, .. } => name.clone(),
            TypeRef::NotShown(_) => "json (shape not shown)".into(),
        }
    }

    /// Whether a value of this type can go in a query string or header.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            TypeRef::String
                | TypeRef::Integer
                | TypeRef::Int32
                | TypeRef::Number
                | TypeRef::Boolean
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lifecycle {
    Stable,
    Deprecated {
        note: String,
        removal: Option<String>,
    },
    Experimental {
        note: Option<String>,
    },
    Removed {
        note: Option<String>,
        removal: Option<String>,
    },
}

impl Lifecycle {
    pub fn status(&self) -> LifecycleStatus {
        match self {
            Lifecycle::Stable => LifecycleStatus::Stable,
            Lifecycle::Deprecated { .. } => LifecycleStatus::Deprecated,
            Lifecycle::Experimental { .. } => LifecycleStatus::Experimental,
            Lifecycle::Removed { .. } => LifecycleStatus::Removed,
        }
    }

    /// `stable`, `deprecated`, `experimental` or `removed`.
    pub fn label(&self) -> &'static str {
        self.status().as_str()
    }

    /// One line for docs, with note and removal date.
    pub fn describe(&self) -> String {
        match self {
            Lifecycle::Stable => "stable".into(),
            Lifecycle::Deprecated { note, removal } => match removal {
                Some(date) => format!("deprecated: {note} (removal: {date})"),
                None => format!("deprecated: {note}"),
            },
            Lifecycle::Experimental { note } => match note {
                Some(n) => format!("experimental: {n} (behind the `experimental` cargo feature)"),
                None => "experimental (behind the `experimental` cargo feature)".into(),
            },
            Lifecycle::Removed { note, removal } => {
                let mut s = "removed".to_owned();
                if let Some(n) = note {
                    s.push_str(": ");
                    s.push_str(n);
                }
                if let Some(d) = removal {
                    s.push_str(&format!(" (removed {d})"));
                }
                s
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct ParamIr {
    pub wire: String,
    pub rust: String,
    pub location: ParamLocation,
    pub ty: TypeRef,
    pub required: bool,
    pub description: Option<String>,
    pub provenance: Provenance,
    pub constraints: Vec<(String, String)>,
}

#[derive(Debug)]
pub struct BodyIr {
    pub kind: BodyKind,
    pub ty: Option<TypeRef>,
    pub required: bool,
    pub parts: Vec<(String, Option<String>)>,
    pub description: Option<String>,
    pub provenance: Provenance,
}

#[derive(Debug, Clone)]
pub struct ResponseIr {
    pub status: u16,
    pub kind: ResponseKind,
    pub ty: Option<TypeRef>,
    pub media_type: String,
    pub description: Option<String>,
    pub provenance: Provenance,
}

/// One selectable representation of an operation.
#[derive(Debug)]
pub struct VersionIr {
    /// Label for docs and the version enum (`v1.1`, or the media type itself).
    pub label: String,
    /// Variant of the operation's version enum (`V1_1`).
    pub variant: String,
    pub content_type: Option<String>,
    pub accept: String,
}

#[derive(Debug)]
pub struct PaginationIr {
    pub style: PageStyle,
    pub items: String,
    /// The type of one item, when the spec gives it apart from the answer's type.
    pub item_type: Option<TypeRef>,
    pub first_page: u32,
    /// The spec's default table columns (fields of the row type), or empty.
    pub columns: Vec<String>,
    pub provenance: Provenance,
}

/// The fields of one row of a paged operation: its `item_type`, else the elements of the
/// answer's items field, when that is a named object type.
pub fn row_fields<'a>(areas: &'a [AreaIr], op: &OpIr) -> Option<(&'a str, &'a [FieldIr])> {
    let p = op.pagination.as_ref()?;
    let object = |name: &str| {
        let t = areas
            .iter()
            .flat_map(|a| &a.types)
            .find(|t| t.name == name)?;
        match &t.kind {
            TypeKind::Object(fields, _) => Some((t.name.as_str(), fields.as_slice())),
            _ => None,
        }
    };
    if let Some(TypeRef::Named { name, .. }) = &p.item_type {
        return object(name);
    }
    let Some(TypeRef::Named { name, .. }) = &op.success.ty else {
        return None;
    };
    let (_, fields) = object(name)?;
    match &fields.iter().find(|f| f.wire == p.items)?.ty {
        TypeRef::Array(inner) => match inner.as_ref() {
            TypeRef::Named { name, .. } => object(name),
            _ => None,
        },
        _ => None,
    }
}

#[derive(Debug)]
pub struct OpIr {
    /// Method name and stable id.
    pub id: String,
    /// Request builder struct (emitted only for an operation with optional parameters or
    /// pages; the name is reserved for every operation).
    pub builder: String,
    /// Static descriptor.
    pub static_name: String,
    pub name: String,
    pub description: Option<String>,
    pub method: Method,
    pub path: String,
    pub provenance: Provenance,
    /// The vendor's operationId, where known (the spec's `operation_id`, else the one a
    /// `reference: <file> <operationId>` provenance names).
    pub operation_id: Option<String>,
    pub lifecycle: Lifecycle,
    /// Path parameters in template order.
    pub path_params: Vec<ParamIr>,
    pub query: Vec<ParamIr>,
    pub headers: Vec<ParamIr>,
    pub request: Option<BodyIr>,
    pub responses: Vec<ResponseIr>,
    /// The first 2xx response: what `send` returns.
    pub success: ResponseIr,
    pub versions: Vec<VersionIr>,
    /// Where the offered versions come from.
    pub versions_provenance: Provenance,
    pub error_family: String,
    pub error_kind: FamilyKind,
    /// The static of the service serving it (`SERVICE_WIFI`).
    pub service: String,
    pub pagination: Option<PaginationIr>,
    pub notes: Vec<String>,
    /// Answers 202 Accepted with the asynchronous result envelope.
    pub asynchronous: bool,
}

impl OpIr {
    /// Whether the operation only reads: a `GET`, or a query sent as `POST` (a `query` segment
    /// in its path, as in `/venues/query` and `/guestUsers/query/csvFiles`, or its pages asked
    /// for in the body). The one rule the client's statics, the catalog's routes and so the
    /// command line and the MCP server take it from.
    pub fn reads(&self) -> bool {
        match self.method {
            Method::Get => true,
            Method::Post => {
                self.path.split('/').any(|segment| segment == "query") || self.pagination.is_some()
            }
            Method::Put | Method::Patch | Method::Delete => false,
        }
    }

    /// Removed operations are documented but not generated.
    pub fn is_generated(&self) -> bool {
        !matches!(self.lifecycle, Lifecycle::Removed { .. })
    }
}
