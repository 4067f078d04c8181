//! The YAML spec as written by maintainers: plain serde structs, no validation.
//!
//! `spec/README.md` documents every construct with an example. Everything here is
//! `deny_unknown_fields` so that a typo is a diagnostic instead of a silently ignored key.
//!
//! This module holds the top-level file (crate, auth, APIs and their settings); [`area`] the
//! area files and imported ones, [`overrides`] the corrections of imported types and drafted
//! operations, [`types`] the named types and type expressions, [`operation`] the operations.

pub use crate::closed::{
    AuthKind, BodyKind, FamilyKind, LifecycleStatus, LimitScope, Method, PageStyle, ParamLocation,
    ResponseKind,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod area;
mod operation;
mod overrides;
pub mod resources;
mod types;

pub use area::*;
pub use operation::*;
pub use overrides::*;
pub use types::*;

fn is_empty<T>(v: &[T]) -> bool {
    v.is_empty()
}

fn is_false(b: &bool) -> bool {
    !*b
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
    /// the crate page's guide: one text for the user guide and the rustdoc.
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
    /// The limit all the calls of one tenant share, whatever their service.
    #[serde(default)]
    pub tenant_limit: Option<TenantLimit>,
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

/// The tenant-wide token bucket: `max` calls at once, `per_minute` back each minute; after it
/// was exceeded, the tenant is refused for `restoration_seconds` (the simulator's model).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenantLimit {
    pub max: u32,
    pub per_minute: u32,
    pub restoration_seconds: u32,
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
