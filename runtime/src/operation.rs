//! Static descriptions of APIs and operations.
//!
//! The generated client declares one [`Api`] per service and one [`Operation`]
//! per endpoint as `static` items; the runtime reads them when building a
//! request. Every type here has only plain public fields so that it can be
//! built in a `static` initialiser.

/// One service of the platform (for example the tenant or the analytics
/// administration API) with its regional hosts and path prefix.
#[derive(Debug)]
pub struct Api {
    /// Stable machine name of the API; used as the key of
    /// [`Config::api_base_url`](crate::Config::api_base_url) and
    /// [`Config::api_prefix`](crate::Config::api_prefix).
    pub name: &'static str,
    /// Human readable title.
    pub title: &'static str,
    /// Path prefix appended to the host (for example `"/ai"`), or `""`.
    pub prefix: &'static str,
    /// Host (scheme and authority, no trailing slash) per region.
    pub hosts: Hosts,
    /// How its operations authenticate.
    pub auth: ApiAuth,
    /// The limit every call of a tenant to this API counts against, whatever its service (see
    /// [`TenantLimit`]); `None` when none is published.
    pub tenant_limit: Option<TenantLimit>,
}

/// A limit shared by all the calls of one tenant: a token bucket of `max` calls that gets
/// `per_minute` calls back every minute, counted for every request the tenant makes (queries,
/// writes, activity polls), on top of each service's own [`RateLimit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TenantLimit {
    /// Most calls that can be made at once (the bucket's size).
    pub max: u32,
    /// Calls returned to the bucket each minute.
    pub per_minute: u32,
}

impl TenantLimit {
    /// A tenant-wide limit of `max` calls at once and `per_minute` calls back per minute.
    pub const fn new(max: u32, per_minute: u32) -> TenantLimit {
        TenantLimit { max, per_minute }
    }
}

/// How the operations of an [`Api`] authenticate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiAuth {
    /// `Authorization: Bearer` with an access token from the shared token service (OAuth 2.0
    /// client credentials).
    ClientCredentials,
    /// `Authorization: Bearer` with the token set by
    /// [`Config::unit_token`](crate::Config::unit_token) (the resident portal's unit token).
    UnitToken,
}

/// The host of an [`Api`] in each region, for example `https://api.ruckus.cloud`.
#[derive(Debug)]
pub struct Hosts {
    /// Host used with [`Region::Asia`](crate::Region::Asia).
    pub asia: &'static str,
    /// Host used with [`Region::Europe`](crate::Region::Europe).
    pub europe: &'static str,
    /// Host used with [`Region::NorthAmerica`](crate::Region::NorthAmerica).
    pub north_america: &'static str,
}

/// Where and how access tokens are obtained, and which header carries a
/// delegated tenant id.
#[derive(Debug)]
pub struct AuthSettings {
    /// Token URL template used when a token tenant id is configured; it may
    /// contain `{host}` and `{tenant_id}`.
    pub token_url: &'static str,
    /// Token URL template used without a token tenant id; it may contain
    /// `{host}`.
    pub token_url_without_tenant: &'static str,
    /// Name of the request header that selects a delegated tenant.
    pub tenant_header: &'static str,
}

/// HTTP method of an operation or a [`RawRequest`](crate::RawRequest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `PATCH`
    Patch,
    /// `DELETE`
    Delete,
}

impl Method {
    /// The method name as sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    /// Whether repeating the request has the same effect as sending it once
    /// (`GET`, `PUT` and `DELETE`). Only idempotent requests are retried after
    /// transport errors, timeouts and 502/503/504 answers.
    pub fn is_idempotent(self) -> bool {
        matches!(self, Method::Get | Method::Put | Method::Delete)
    }

    pub(crate) fn to_reqwest(self) -> reqwest::Method {
        match self {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
            Method::Put => reqwest::Method::PUT,
            Method::Patch => reqwest::Method::PATCH,
            Method::Delete => reqwest::Method::DELETE,
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Shape of the error bodies an operation's service answers with.
///
/// The declared family is tried first when an error body is decoded; the
/// others follow (see [`ErrorBody`](crate::ErrorBody) for the order and the
/// test that decides whether a body has a family's shape), so a service that
/// answers in another shape than declared is still understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorFamily {
    /// `{"requestId": "...", "errors": [{"code", "message", "reason", "suggestion"}]}`.
    ErrorsArray,
    /// `{"error": {"code", "message", "reason", "suggestion"}, "requestId"}`.
    ErrorObject,
    /// `{"status", "timestamp", "message", "debugMessage", "subErrors": [...]}`
    /// (also `nestedErrors`, and `requestId` with an `errors` array).
    StatusMessage,
    /// `{"code", "message", "reason", "suggestion"}` at the top level.
    FlatObject,
    /// `{"errors": {"<field>": "<message>", ...}}`: an object, not an array.
    ErrorsMap,
    /// `{"status", "timestamp", "message", "detailedMessage", "validationErrors": [...]}`.
    Portal,
}

/// One representation (version) of an operation: the media types sent in
/// `Content-Type` and `Accept`.
#[derive(Debug)]
pub struct MediaTypes {
    /// Media type of the request body, when the operation has one.
    pub content_type: Option<&'static str>,
    /// Media type requested with the `Accept` header.
    pub accept: &'static str,
}

/// A single endpoint of an [`Api`].
#[derive(Debug)]
pub struct Operation {
    /// Stable identifier, for example `"get_application_token"`.
    pub id: &'static str,
    /// HTTP method.
    pub method: Method,
    /// Path template relative to the API base, with `{name}` placeholders,
    /// for example `"/applicationTokens/{applicationTokenId}"`.
    pub path: &'static str,
    /// The API the operation belongs to.
    pub api: &'static Api,
    /// Available representations; index 0 is the default. Never empty.
    pub versions: &'static [MediaTypes],
    /// Shape of the service's error bodies.
    pub error_family: ErrorFamily,
    /// The vendor service that serves it, whose rate limit paces it.
    pub service: &'static Service,
    /// The call only reads: a `GET`, or a query sent as `POST` (a `.../query` path or a paged
    /// body). The retry policy repeats it after a `502`-`504` answer, a timeout or a transport
    /// failure, as it does an idempotent method.
    pub reads: bool,
}

/// The vendor service an [`Operation`] is served by, with the rate limit the service publishes
/// (if any). Every operation names one; the client paces calls per (tenant, service) by it (see
/// [`Pacing`](crate::Pacing)).
#[derive(Debug)]
pub struct Service {
    /// Stable machine name of the service (`"wifi"`, `"switch"`), the key of
    /// [`Pacing::limit`](crate::Pacing::limit).
    pub name: &'static str,
    /// The published limit; `None` when the service publishes none (such calls are not paced,
    /// and a `429` is retried as usual).
    pub rate_limit: Option<RateLimit>,
}

/// A published rate limit: a token bucket of `max` calls that gets `per_second` calls back
/// every second, applied per [`LimitScope`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    /// Most calls that can be made at once (the bucket's size).
    pub max: u32,
    /// Calls returned to the bucket each second.
    pub per_second: u32,
    /// What the limit is counted for.
    pub scope: LimitScope,
}

impl RateLimit {
    /// A per-tenant limit of `max` calls at once and `per_second` calls back per second.
    pub const fn per_tenant(max: u32, per_second: u32) -> RateLimit {
        RateLimit {
            max,
            per_second,
            scope: LimitScope::Tenant,
        }
    }
}

/// What a [`RateLimit`] is counted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitScope {
    /// Each tenant (the delegated tenant a call acts for, or the token's own): paced.
    Tenant,
    /// Each property (resident portal, enrollment): recorded, not paced (the property is not
    /// known to the client in general; a `429` is retried as usual).
    Property,
    /// Each workflow: recorded, not paced.
    Workflow,
}
