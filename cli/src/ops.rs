//! The catalog as the command line sees it: operations by command words, and the runtime's
//! `Api` and `Operation` for each, built once at run time (the binary does not link the
//! generated client).

use crate::exit::Failure;
use ruckus_one_catalog::{Catalog, Route, Table};
use ruckus_one_runtime::described;
use ruckus_one_runtime::{Api, AuthSettings, Operation};
use std::sync::OnceLock;

/// One table without its schemas (read at start: the schemas are most of the text).
#[derive(serde::Deserialize)]
struct Routes {
    api: ruckus_one_catalog::ApiInfo,
    routes: Vec<Route>,
}

/// One table's schemas only.
#[derive(serde::Deserialize)]
struct Schemas {
    schemas: serde_json::Map<String, serde_json::Value>,
}

/// The compiled-in catalog's operations, parsed once, without the schemas (see [`schema`]).
pub fn catalog() -> Result<&'static Catalog, Failure> {
    static CATALOG: OnceLock<Result<Catalog, String>> = OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let apis = ruckus_one_catalog::TABLES
                .iter()
                .map(|text| {
                    let r: Routes =
                        serde_json::from_str(text).map_err(|e| format!("catalog table: {e}"))?;
                    Ok(Table {
                        generated: String::new(),
                        api: r.api,
                        routes: r.routes,
                        schemas: serde_json::Map::new(),
                    })
                })
                .collect::<Result<Vec<Table>, String>>()?;
            Ok(Catalog { apis })
        })
        .as_ref()
        .map_err(|e| Failure::other(e.clone()))
}

/// The named schema a `$ref` of `table` points at; an API's schemas are parsed on first use.
pub fn schema(table: &Table, reference: &str) -> Option<&'static serde_json::Value> {
    static SCHEMAS: OnceLock<Vec<serde_json::Map<String, serde_json::Value>>> = OnceLock::new();
    let all = SCHEMAS.get_or_init(|| {
        ruckus_one_catalog::TABLES
            .iter()
            .map(|text| {
                serde_json::from_str::<Schemas>(text)
                    .map(|s| s.schemas)
                    .unwrap_or_default()
            })
            .collect()
    });
    let index = catalog().ok()?.api(&table.api.name)?.0;
    let name = reference.strip_prefix("#/components/schemas/")?;
    all.get(index)?.get(name)
}

/// One operation with its API's table.
#[derive(Clone, Copy)]
pub struct Op {
    pub table: &'static Table,
    pub route: &'static Route,
}

/// Every operation, in catalog order.
pub fn all() -> Result<Vec<Op>, Failure> {
    Ok(catalog()?
        .routes()
        .map(|(table, route)| Op { table, route })
        .collect())
}

/// The operation whose command words are `words`.
pub fn by_words(words: &[&str]) -> Result<Option<Op>, Failure> {
    Ok(all()?.into_iter().find(|o| {
        o.route
            .command
            .iter()
            .map(String::as_str)
            .eq(words.iter().copied())
    }))
}

/// The operation of `api` whose id is `id`.
pub fn by_id(table: &'static Table, id: &str) -> Option<Op> {
    table.route(id).map(|route| Op { table, route })
}

/// The API named `name`.
pub fn table(name: &str) -> Result<&'static Table, Failure> {
    catalog()?
        .api(name)
        .map(|(_, t)| t)
        .ok_or_else(|| Failure::other(format!("no API named `{name}`")))
}

/// The token settings (the same for every API).
pub fn auth_settings() -> Result<&'static AuthSettings, Failure> {
    Ok(described::auth_settings(&catalog()?.apis[0]))
}

/// The runtime's description of the API of `table`.
pub fn api(table: &'static Table) -> &'static Api {
    described::api(table)
}

/// The runtime operation of `op`: its media versions, error family and service (whose
/// published rate limit paces it), built once per operation.
pub fn operation(op: Op) -> &'static Operation {
    described::operation(op.table, op.route)
}
