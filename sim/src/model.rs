//! The generated tables (`generated/ruckus-one-sim/<api>.json`, reached through the package's
//! `tables` link so that the packaged crate holds them), read once per process.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The tables, compiled in.
const TABLES: [&str; 3] = [
    include_str!("../tables/analytics.json"),
    include_str!("../tables/network.json"),
    include_str!("../tables/resident_portal.json"),
];

/// One API's table.
#[derive(Debug, Deserialize)]
pub struct Table {
    pub api: ApiInfo,
    pub routes: Vec<Route>,
    pub schemas: Map<String, Value>,
}

#[derive(Debug, Deserialize)]
pub struct ApiInfo {
    pub name: String,
    pub prefix: String,
    pub auth: String,
    pub default_family: String,
    pub families: Vec<ErrorFamily>,
    /// The services' published rate limits (the spec's `services`).
    pub rate_limits: Vec<RateLimit>,
    /// The limit all the calls of one tenant share (the spec's `tenant_limit`).
    pub tenant_limit: Option<TenantLimit>,
}

/// The tenant-wide limit: `max` calls at once, `per_minute` back each minute; a tenant that
/// exceeded it is refused for `restoration_seconds`.
#[derive(Debug, Deserialize)]
pub struct TenantLimit {
    pub max: u32,
    pub per_minute: u32,
    pub restoration_seconds: u32,
}

/// A service's published limit: a token bucket of `max` calls, `per_second` back each second,
/// counted per `scope` (`tenant`, `property` or `workflow`).
#[derive(Debug, Deserialize)]
pub struct RateLimit {
    pub service: String,
    pub max: u32,
    pub per_second: u32,
    pub scope: String,
}

/// An error body shape.
#[derive(Debug, Deserialize)]
pub struct ErrorFamily {
    pub name: String,
    pub kind: String,
    pub schema: Value,
}

/// One operation.
#[derive(Debug, Deserialize)]
pub struct Route {
    pub id: String,
    pub area: String,
    pub method: String,
    pub path: String,
    pub experimental: bool,
    /// A deprecated operation's removal date (`""`: none known); `None` when not deprecated.
    pub deprecated: Option<String>,
    pub status: u16,
    pub statuses: Vec<u16>,
    #[serde(rename = "async")]
    pub asynchronous: bool,
    pub path_params: Vec<String>,
    pub query: Vec<Param>,
    pub headers: Vec<Param>,
    pub request: Option<RequestBody>,
    pub response: ResponseBody,
    pub paging: Option<Paging>,
    pub error_family: String,
    /// The service serving it (its rate limit, if it publishes one).
    pub service: String,
    pub family: String,
    pub role: Role,
}

#[derive(Debug, Deserialize)]
pub struct Param {
    pub name: String,
    pub required: bool,
    pub schema: Value,
}

#[derive(Debug, Deserialize)]
pub struct RequestBody {
    pub kind: String,
    pub required: bool,
    pub types: Vec<String>,
    pub schema: Value,
}

#[derive(Debug, Deserialize)]
pub struct ResponseBody {
    pub kind: String,
    pub media_type: String,
    pub types: Vec<String>,
    pub schema: Value,
}

#[derive(Debug, Deserialize)]
pub struct Paging {
    pub style: String,
    pub items: String,
    pub first_page: u64,
}

/// What the simulator does with an operation (inferred by the generator from the paths).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Create,
    List,
    Query,
    /// A query over the family's collections of every parent (`/venues/aps/query` over
    /// `/venues/{venueId}/aps`).
    QueryAcross,
    /// A query of the calling tenant's customers (`/mspecs/query`): those the configuration
    /// names and those it created.
    CustomerQuery,
    /// The tenant acted as, reading itself (`GET /tenants/self`): what the tenant wrote to its
    /// own document, else its manager's record of it, always with its own id.
    OwnTenant,
    Read,
    Replace,
    Merge,
    Delete,
    Upsert,
    BulkDelete,
    SettingsRead,
    SettingsWrite,
    ActivityRead,
    ActivityQuery,
    Canned,
}

/// Every API's table.
#[derive(Debug)]
pub struct Model {
    pub apis: Vec<Table>,
}

impl Model {
    /// The tables, parsed on first use.
    pub fn get() -> Result<&'static Model, String> {
        static MODEL: OnceLock<Result<Model, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                let apis = TABLES
                    .iter()
                    .map(|t| serde_json::from_str(t).map_err(|e| e.to_string()))
                    .collect::<Result<Vec<Table>, String>>()?;
                Ok(Model { apis })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The API named `name`.
    pub fn api(&self, name: &str) -> Option<(usize, &Table)> {
        self.apis
            .iter()
            .enumerate()
            .find(|(_, t)| t.api.name == name)
    }
}

impl Table {
    /// The schema a `$ref` names.
    pub fn resolve<'a>(&'a self, reference: &str) -> Option<&'a Value> {
        let name = reference.strip_prefix("#/components/schemas/")?;
        self.schemas.get(name)
    }

    /// The error family `name`, else the API's default.
    pub fn family(&self, name: &str) -> Option<&ErrorFamily> {
        self.api
            .families
            .iter()
            .find(|f| f.name == name)
            .or_else(|| {
                self.api
                    .families
                    .iter()
                    .find(|f| f.name == self.api.default_family)
            })
    }
}
