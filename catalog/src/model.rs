//! The tables' typed model: one [`Table`] per API, written by the generator and read by every
//! tool that needs to know the operations.

use crate::closed::{
    AuthKind, BodyKind, FamilyKind, LifecycleStatus, LimitScope, Method, PageStyle, ResponseKind,
    Role,
};
use crate::schemas::Schemas;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One API's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// A note that the file is generated (ignored on read).
    #[serde(default)]
    pub generated: String,
    /// The header: hosts, token service, error families and rate limits of every operation.
    pub api: ApiInfo,
    /// Every operation, area by area (each area a consecutive run, see
    /// [`AreaIndex`](crate::AreaIndex)).
    pub routes: Vec<Route>,
    /// The API's named schemas (JSON Schema, as in the OpenAPI export, without prose), by name.
    pub schemas: Schemas,
}

/// What holds for every operation of an API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiInfo {
    /// `analytics`, `network` or `resident_portal`.
    pub name: String,
    /// What the API is, in a few words.
    pub title: String,
    /// The API's host in each region.
    pub hosts: Hosts,
    /// Where access tokens come from and which header names a delegated tenant.
    pub token: TokenInfo,
    /// The operation that reads one activity (`GET /activities/{requestId}`), if the API has
    /// asynchronous writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity: Option<String>,
    /// The operation that queries many activities at once, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_query: Option<String>,
    /// The path prefix every operation's path is under (`/ai`), or empty.
    pub prefix: String,
    /// How its operations authenticate: `client_credentials` unless the spec says `unit_token`.
    pub auth: AuthKind,
    /// The error family of operations that name none.
    pub default_family: String,
    /// The error-body shapes its operations answer with; the runtime tries an operation's own
    /// first, then the others.
    pub families: Vec<ErrorFamily>,
    /// The services' published rate limits.
    pub rate_limits: Vec<RateLimit>,
    /// The limit all the calls of one tenant share, when the API has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant_limit: Option<TenantLimit>,
}

/// The tenant-wide limit: `max` calls at once, `per_minute` back each minute; a tenant that
/// exceeded it is refused for `restoration_seconds`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TenantLimit {
    /// Bucket size: the calls a tenant may make at once (1 to 6,000,000).
    pub max: u32,
    /// Calls returned to the bucket each minute, spread evenly (`per_minute / 60` a second).
    pub per_minute: u32,
    /// How long the simulator refuses every call of a tenant that found the bucket empty (at
    /// most 3600; inferred, the vendor publishes no figure). The client does not use it.
    pub restoration_seconds: u32,
}

/// An API's host (scheme and authority) per region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hosts {
    /// Asia (`https://api.asia.ruckus.cloud` for the network API).
    pub asia: String,
    /// Europe (`https://api.eu.ruckus.cloud` for the network API).
    pub europe: String,
    /// North America, the client's default region (`https://api.ruckus.cloud`).
    pub north_america: String,
}

/// The token service's URLs (templates with `{host}` and `{tenant_id}`) and the header that
/// selects a delegated tenant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenInfo {
    /// With the tenant (`{host}/oauth2/token/{tenant_id}`): used when the configuration names
    /// the token's tenant.
    pub url: String,
    /// Without it (`{host}/oauth2/token`): used when no token tenant is configured.
    pub url_without_tenant: String,
    /// The header naming the delegated tenant a call acts for (`x-rks-tenantid`).
    pub tenant_header: String,
}

/// A service's published limit: a token bucket of `max` calls, `per_second` back each second,
/// counted per `scope`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateLimit {
    /// The service, snake_case (`switch`): the routes whose [`Route::service`] it is count
    /// against the limit.
    pub service: String,
    /// Bucket size: calls at once (at most 100,000).
    pub max: u32,
    /// Calls back each second (1 to `max`).
    pub per_second: u32,
    /// What one bucket counts; only `tenant` limits are paced by the client and enforced by
    /// the simulator.
    pub scope: LimitScope,
}

/// An error body shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorFamily {
    /// The name an operation's [`Route::error_family`] gives (`configuration`, `identity`).
    pub name: String,
    /// How the runtime decodes a body of this shape.
    pub kind: FamilyKind,
    /// The body's JSON Schema (a `$ref` into [`Table::schemas`]), or `{}` when the spec names
    /// no body type.
    pub schema: Value,
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// The client's method name, the operation's stable id (`query_venues`).
    pub id: String,
    /// The spec area it belongs to (`venues`); the client's cargo feature is `<api>-<area>`.
    pub area: String,
    /// What it does, in a few words.
    pub summary: String,
    /// HTTP method; with [`Route::reads`], it decides whether a failed call is retried.
    pub method: Method,
    /// The path template, `{name}` for each path parameter.
    pub path: String,
    /// `stable`, `deprecated` or `experimental` (a removed operation is not in the tables).
    pub lifecycle: LifecycleStatus,
    /// The removal date of a deprecated operation, when the spec knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal: Option<String>,
    /// Where the operation's existence and shape come from: `documented`, `inferred: <why>`
    /// or `reference: <source>`.
    pub provenance: String,
    /// The status `send` returns on.
    pub status: u16,
    /// Every success status.
    pub statuses: Vec<u16>,
    /// Answers 202 with a request id whose activity tells the outcome.
    #[serde(rename = "async")]
    pub asynchronous: bool,
    /// Only reads: a `GET`, or a query sent as `POST` (a `.../query` path or a paged body);
    /// retried after a `502`-`504` or a transport failure as an idempotent method is.
    pub reads: bool,
    /// The path template's parameters, in template order (each a required string).
    pub path_params: Vec<Param>,
    /// Query parameters, each sent only when given.
    pub query: Vec<Param>,
    /// Header parameters the caller sets, beside the client's own (`Authorization`, the
    /// tenant header).
    pub headers: Vec<Param>,
    /// The request body; `None` when the operation takes none.
    pub request: Option<RequestBody>,
    /// The success answer: kind, media types and schema.
    pub response: ResponseBody,
    /// The media versions offered (at least one), the default first: what the client's
    /// operation sends in `Content-Type` and `Accept`.
    pub versions: Vec<Version>,
    /// How the operation's answer is paged; `None` when it comes whole.
    pub paging: Option<Paging>,
    /// The [`ErrorFamily::name`] of its error bodies (resolve it with [`Table::family`]).
    pub error_family: String,
    /// The service serving it, whose rate limit (if published) it counts against.
    pub service: String,
    /// The resource family (its collection path with `{}` for placeholders), or empty.
    pub family: String,
    /// What the simulator does with it, inferred by the generator from the methods and paths
    /// of its family.
    pub role: Role,
    /// The command line's words for it (`venues list`): area, resource (when it is not the
    /// area's own) and verb, unique within the catalog (see the generator's `command` module).
    pub command: Vec<String>,
    /// For a paged operation: the fields of a row shown as table columns by default, names
    /// first (the spec's `columns`, else chosen from the row's schema); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
}

/// A path, query or header parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The wire name.
    pub name: String,
    /// Must be given (always, for a path parameter); an optional one left out is not sent.
    pub required: bool,
    /// What it is, when the spec says more than its name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Its JSON Schema: a scalar (`{"type": "string"}`) or a `$ref` to a named type, typically
    /// an enum.
    pub schema: Value,
}

/// A request body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestBody {
    /// Encoding: JSON, form fields, multipart parts or raw bytes.
    pub kind: BodyKind,
    /// The operation is not sent without it (the spec's default); `false`: optional.
    pub required: bool,
    /// The media types it may be sent as.
    pub types: Vec<String>,
    /// Its schema (usually a `$ref` into [`Table::schemas`]), or null for bodies that are not
    /// JSON or form data.
    pub schema: Value,
}

/// The answer `send` returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseBody {
    /// Whether it is JSON, bytes, text or nothing.
    pub kind: ResponseKind,
    /// The media type answered by default.
    pub media_type: String,
    /// Every media type it may be answered in.
    pub types: Vec<String>,
    /// The JSON answer's schema (usually a `$ref` into [`Table::schemas`]); `{"type": "string"}`
    /// for text, null for a binary or empty answer.
    pub schema: Value,
}

/// One media version of an operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// `v1.1`, or the media type itself.
    pub label: String,
    /// The request's `Content-Type` in this version, if it has a body.
    pub content_type: Option<String>,
    /// The `Accept` header in this version (`application/vnd.ruckus.v1.1+json`).
    pub accept: String,
}

/// How a paged operation is paged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paging {
    /// Where the page number goes: the JSON body or the query string.
    pub style: PageStyle,
    /// The field of the answer holding the page's rows.
    pub items: String,
    /// The number of the first page (0 or 1).
    pub first_page: u64,
    /// The schema of one row, when the spec types the rows apart from a page type that many
    /// operations share (whose items the page's own schema leaves open).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<Value>,
}

impl Table {
    /// The schema a `$ref` names.
    pub fn resolve<'a>(&'a self, reference: &str) -> Option<&'a Value> {
        let name = reference.strip_prefix("#/components/schemas/")?;
        self.schemas.get(name)
    }

    /// What `schema` points at when it is a `$ref`: `None` when it is not one, `Some(None)`
    /// when it names no schema of the table.
    pub fn referenced(&self, schema: &Value) -> Option<Option<&Value>> {
        let reference = schema.get("$ref")?.as_str()?;
        Some(self.resolve(reference))
    }

    /// `schema` with its `$ref`s followed (a chain of at most 16), else `schema` itself: the
    /// one place a `$ref` of the tables is resolved for reading (validation resolves them as
    /// it goes).
    pub fn deref<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut at = schema;
        for _ in 0..16 {
            match at
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| self.resolve(r))
            {
                Some(target) => at = target,
                None => break,
            }
        }
        at
    }

    /// The properties of the object `schema` describes (through `$ref`s), with whether each
    /// is required, in the schema's order; empty for a schema that is not an object's.
    pub fn properties<'a>(&'a self, schema: &'a Value) -> Vec<(&'a str, &'a Value, bool)> {
        let s = self.deref(schema);
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        s.get("properties")
            .and_then(Value::as_object)
            .map(|p| {
                p.iter()
                    .map(|(k, v)| (k.as_str(), v, required.contains(&k.as_str())))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The error family `name`, else the API's default.
    pub fn family(&self, name: &str) -> Option<&ErrorFamily> {
        let families = &self.api.families;
        families
            .iter()
            .find(|f| f.name == name)
            .or_else(|| families.iter().find(|f| f.name == self.api.default_family))
    }

    /// The operation whose id is `id`.
    pub fn route(&self, id: &str) -> Option<&Route> {
        self.routes.iter().find(|r| r.id == id)
    }
}
