//! Every operation of the RUCKUS One APIs as data, generated from the `ruckus-one` spec.
//!
//! The tables (`generated/catalog/<api>.json`, written by `cargo xtask generate`) are compiled
//! in; [`Catalog::get`] reads them once per process, whole; [`Index`] (`index.json`, written with
//! them) says where each API's header, each area's routes and each schema are in them, for a
//! reader that needs only a part. The simulator, the command line and the
//! MCP server read them through this model, and the generator writes them through it, so the
//! format has one definition.

#![warn(missing_docs, unreachable_pub)]
pub mod closed;
mod error;
mod index;
mod model;
mod resources;
mod schemas;
mod validate;

pub use closed::{
    AuthKind, BodyKind, FamilyKind, FieldFlag, LifecycleStatus, LimitScope, Method, PageStyle,
    ParamLocation, ResourceShape, ResponseKind, Role, UpdateStyle,
};
pub use error::Error;
pub use index::{ApiIndex, AreaIndex, Index, Span};
pub use model::{
    ApiInfo, ErrorFamily, Hosts, Paging, Param, RateLimit, RequestBody, ResponseBody, Route, Table,
    TenantLimit, TokenInfo, Version,
};
pub use resources::{FieldRule, Reference, ResourceKind, ResourceOperations, Resources};
pub use schemas::Schemas;
pub use validate::{Problem, kind, type_matches};

#[cfg(feature = "tables")]
use std::sync::OnceLock;

/// Each API's name and table text, compiled in (through the package's `tables` link to
/// `generated/catalog/`). A reader of part of them goes through [`Index`] (the command line
/// reads one area's routes and the schemas it uses).
#[cfg(feature = "tables")]
pub const TABLES: [(&str, &str); 3] = [
    ("analytics", include_str!("../tables/analytics.json")),
    ("network", include_str!("../tables/network.json")),
    (
        "resident_portal",
        include_str!("../tables/resident_portal.json"),
    ),
];

/// The resource layer's table (`resources.json`), compiled in; [`Catalog::resources`] parses it.
#[cfg(feature = "tables")]
pub const RESOURCES: &str = include_str!("../tables/resources.json");

/// Every API's table.
#[derive(Debug)]
pub struct Catalog {
    /// One table per API, in the order of `TABLES` (`analytics`, `network`, `resident_portal`);
    /// [`Catalog::api`] gives an API's position, the index the simulator keys its state by.
    pub apis: Vec<Table>,
}

impl Catalog {
    /// The compiled-in tables, parsed on first use: every route; each schema when it is first
    /// resolved (see [`Schemas`]). An error names what did not parse (a generator and a catalog
    /// of different versions).
    #[cfg(feature = "tables")]
    pub fn get() -> Result<&'static Catalog, Error> {
        static CATALOG: OnceLock<Result<Catalog, Error>> = OnceLock::new();
        CATALOG
            .get_or_init(|| {
                let index = Index::get()?;
                let apis = TABLES
                    .iter()
                    .map(|(name, text)| compiled_table(index, name, text))
                    .collect::<Result<Vec<Table>, Error>>()?;
                Ok(Catalog { apis })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The resource layer (every kind desired state manages, parents and referenced kinds
    /// first), parsed on first use. An error names what did not parse.
    #[cfg(feature = "tables")]
    pub fn resources() -> Result<&'static Resources, Error> {
        static RESOURCES_PARSED: OnceLock<Result<Resources, Error>> = OnceLock::new();
        RESOURCES_PARSED
            .get_or_init(|| {
                serde_json::from_str(RESOURCES).map_err(|e| Error::parse("resource layer", e))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The API named `name`, with its index.
    pub fn api(&self, name: &str) -> Option<(usize, &Table)> {
        self.apis
            .iter()
            .enumerate()
            .find(|(_, t)| t.api.name == name)
    }

    /// Every operation of every API, with its API's table.
    pub fn routes(&self) -> impl Iterator<Item = (&Table, &Route)> {
        self.apis
            .iter()
            .flat_map(|t| t.routes.iter().map(move |r| (t, r)))
    }
}

/// One compiled-in table: its header and routes parsed, its schemas found through the index.
#[cfg(feature = "tables")]
fn compiled_table(index: &Index, name: &str, text: &'static str) -> Result<Table, Error> {
    /// A table without its schemas (skipped, not parsed).
    #[derive(serde::Deserialize)]
    struct Routes {
        #[serde(default)]
        generated: String,
        api: ApiInfo,
        routes: Vec<Route>,
    }
    let r: Routes =
        serde_json::from_str(text).map_err(|e| Error::parse(format!("table of {name}"), e))?;
    let api = index
        .api(name)
        .ok_or_else(|| Error::NoApi(name.to_owned()))?;
    Ok(Table {
        generated: r.generated,
        api: r.api,
        routes: r.routes,
        schemas: api.lazy_schemas()?,
    })
}
