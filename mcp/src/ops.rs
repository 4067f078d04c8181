//! The runtime's descriptions of the operations the server calls, built from the tables by the
//! runtime (`ruckus_one_runtime::internal::described`): a table operation is sent exactly like a
//! generated one, paced by its service and tenant in buckets shared with every other call of the
//! client.

use ruckus_one_catalog::{Catalog, Route, Table};
use ruckus_one_runtime as rt;

/// The token service the tables name.
pub(crate) fn auth() -> Result<&'static rt::internal::AuthSettings, String> {
    let catalog = Catalog::get().map_err(|e| e.to_string())?;
    let first = catalog.apis.first().ok_or("the catalog holds no API")?;
    Ok(rt::internal::described::auth_settings(first))
}

/// The runtime's operation for `route` of `table`.
pub(crate) fn operation(
    table: &'static Table,
    route: &'static Route,
) -> &'static rt::internal::Operation {
    rt::internal::described::operation(table, route)
}
