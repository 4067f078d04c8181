//! The query operations a report reads: every page, each row handed on as it arrives (one
//! page in memory at a time), every call through the runtime's one road from a catalog entry
//! (`described::request`), so that it is paced and retried as any other.

use super::Error;
use futures_util::StreamExt;
use ruckus_one_catalog::{Catalog, Route, Table};
use ruckus_one_runtime::Client;
use ruckus_one_runtime::internal::described::{self, Arguments};
use serde_json::{Value, json};

/// Rows asked for per page.
pub(crate) const PAGE_SIZE: u64 = 500;

/// The catalog entry of the network API's operation `id`.
pub(crate) fn route(id: &str) -> Result<(&'static Table, &'static Route), Error> {
    let catalog = Catalog::get().map_err(|e| Error::Catalog(e.to_string()))?;
    let (_, table) = catalog
        .api("network")
        .ok_or_else(|| Error::Catalog("no network API".to_owned()))?;
    let route = table
        .route(id)
        .ok_or_else(|| Error::Catalog(format!("no operation `{id}`")))?;
    Ok((table, route))
}

/// Calls `each` with every row of the paged query `op`, acting for `tenant` (`None`: the
/// client's own), with `fields` asked for when given; `context` names it in errors.
pub(crate) async fn each_row(
    client: &Client,
    tenant: Option<&str>,
    op: &str,
    context: &str,
    mut each: impl FnMut(Value) -> Result<(), Error>,
) -> Result<u64, Error> {
    let (table, route) = route(op)?;
    let paging =
        described::paging(route).ok_or_else(|| Error::Catalog(format!("`{op}` is not paged")))?;
    let args = Arguments {
        body: Some(json!({ "pageSize": PAGE_SIZE })),
        tenant: tenant.map(str::to_owned),
        ..Arguments::default()
    };
    let request =
        described::request(client, table, route, &args).map_err(|e| Error::call(context, e))?;
    let mut items = request.items::<Value>(paging);
    let mut count = 0;
    while let Some(item) = items.next().await {
        each(item.map_err(|e| Error::call(context, e))?)?;
        count += 1;
    }
    Ok(count)
}

/// The customer tenant ids of the MSP account the client acts for.
pub async fn customers(client: &Client) -> Result<Vec<String>, Error> {
    let mut ids = Vec::new();
    each_row(client, None, "query_msp_ecs", "listing customers", |row| {
        if let Some(id) = row.get("id").and_then(Value::as_str) {
            ids.push(id.to_owned());
        }
        Ok(())
    })
    .await?;
    Ok(ids)
}
