//! The catalog as the command line sees it: areas from the catalog's index, an area's operations
//! and its API's schemas (each parsed when first resolved), and the runtime's `Api` and `Operation` for each (the
//! binary does not link the generated client). `ruckus --help` reads the index only; a command
//! reads its area's routes and the schemas its flags use, not the whole 1.9 MB of tables.

use crate::exit::Failure;
use ruckus_one_catalog::{ApiIndex, AreaIndex, Index, Route, Table};
use ruckus_one_runtime::internal::described;
use ruckus_one_runtime::internal::{Api, AuthSettings, Operation};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// One operation with its API's table (the API's header: no routes, no schemas; see [`area`]
/// and [`schema`]).
#[derive(Clone, Copy)]
pub(crate) struct Op {
    pub table: &'static Table,
    pub route: &'static Route,
}

/// One area of the command line: its word, its API and its spec area, how many operations.
pub(crate) struct Area {
    pub command: &'static str,
    pub api: &'static str,
    pub area: &'static str,
    pub operations: usize,
}

/// A value built once per key and kept for the process (the command line runs one command).
fn once<T: Send + Sync>(
    cells: &'static OnceLock<Mutex<HashMap<String, &'static T>>>,
    key: &str,
    build: impl FnOnce() -> Result<T, ruckus_one_catalog::Error>,
) -> Result<&'static T, Failure> {
    let cells = cells.get_or_init(Default::default);
    let mut map = cells
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(v) = map.get(key) {
        return Ok(v);
    }
    let v: &'static T = Box::leak(Box::new(build()?));
    map.insert(key.to_owned(), v);
    Ok(v)
}

fn index() -> Result<&'static Index, Failure> {
    Ok(Index::get()?)
}

fn api_index(name: &str) -> Result<&'static ApiIndex, Failure> {
    index()?
        .api(name)
        .ok_or_else(|| Failure::other(format!("no API named `{name}`")))
}

/// Every area, in catalog order.
pub(crate) fn areas() -> Result<Vec<Area>, Failure> {
    Ok(index()?
        .areas()
        .map(|(api, a)| Area {
            command: &a.command,
            api: &api.name,
            area: &a.area,
            operations: a.ids.len(),
        })
        .collect())
}

/// The API named `name`: its header (what every operation of it shares) and its schemas, each
/// parsed when a `$ref` first names it (the catalog's [`Table::deref`]).
pub(crate) fn table(name: &str) -> Result<&'static Table, Failure> {
    static TABLES: OnceLock<Mutex<HashMap<String, &'static Table>>> = OnceLock::new();
    let api = api_index(name)?;
    once(&TABLES, name, || api.header_table())
}

fn area_ops(api: &'static ApiIndex, area: &'static AreaIndex) -> Result<Vec<Op>, Failure> {
    static ROUTES: OnceLock<Mutex<HashMap<String, &'static Vec<Route>>>> = OnceLock::new();
    let table = table(&api.name)?;
    let routes = once(&ROUTES, &format!("{} {}", api.name, area.area), || {
        api.routes(area)
    })?;
    Ok(routes.iter().map(|route| Op { table, route }).collect())
}

/// The operations of the area whose command word is `command` (none when there is no such area).
pub(crate) fn area(command: &str) -> Result<Vec<Op>, Failure> {
    match index()?.by_command(command) {
        Some((api, area)) => area_ops(api, area),
        None => Ok(Vec::new()),
    }
}

/// Every operation, in catalog order (every area parsed: completion, man page, `schema`).
pub(crate) fn all() -> Result<Vec<Op>, Failure> {
    let mut out = Vec::new();
    for (api, area) in index()?.areas() {
        out.extend(area_ops(api, area)?);
    }
    Ok(out)
}

/// The operation whose command words are `words`.
pub(crate) fn by_words(words: &[&str]) -> Result<Option<Op>, Failure> {
    let Some(first) = words.first() else {
        return Ok(None);
    };
    Ok(area(first)?.into_iter().find(|o| {
        o.route
            .command
            .iter()
            .map(String::as_str)
            .eq(words.iter().copied())
    }))
}

/// The operation of `table`'s API whose id is `id`.
pub(crate) fn by_id(table: &'static Table, id: &str) -> Option<Op> {
    let api = api_index(&table.api.name).ok()?;
    let area = index().ok()?.by_id(&api.name, id)?;
    area_ops(api, area)
        .ok()?
        .into_iter()
        .find(|o| o.route.id == id)
}

/// The token settings (the same for every API).
pub(crate) fn auth_settings() -> Result<&'static AuthSettings, Failure> {
    let first = index()?
        .apis
        .first()
        .ok_or_else(|| Failure::other("the catalog has no API"))?;
    Ok(described::auth_settings(table(&first.name)?))
}

/// The runtime's description of the API of `table`.
pub(crate) fn api(table: &'static Table) -> &'static Api {
    described::api(table)
}

/// The runtime operation of `op`: its media versions, error family and service (whose
/// published rate limit paces it), built once per operation.
pub(crate) fn operation(op: Op) -> &'static Operation {
    described::operation(op.table, op.route)
}
