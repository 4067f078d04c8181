//! The swap's calls, each through the runtime's one road from a catalog entry
//! (`described::request`): reads that answer `None` on 404, writes that return once accepted
//! (with the activity's request id) and the wait for that activity.

use super::Error;
use futures_util::StreamExt;
use ruckus_one_catalog::{Catalog, Route, Table};
use ruckus_one_runtime::internal::described::{self, Arguments};
use ruckus_one_runtime::internal::{self, Request};
use ruckus_one_runtime::{Client, WaitOptions};
use serde_json::{Value, json};

/// The client, the tenant acted for and the network API's catalog table.
#[derive(Debug, Clone)]
pub struct Connection<'a> {
    client: &'a Client,
    tenant: Option<String>,
    table: &'static Table,
    wait: WaitOptions,
}

impl<'a> Connection<'a> {
    /// Calls through `client`, acting for the delegated `tenant` (`None`: the client's own).
    pub fn new(client: &'a Client, tenant: Option<&str>) -> Result<Connection<'a>, Error> {
        let catalog = Catalog::get().map_err(|e| Error::Catalog(e.to_string()))?;
        let (_, table) = catalog
            .api("network")
            .ok_or_else(|| Error::Catalog("no network API".to_owned()))?;
        Ok(Connection {
            client,
            tenant: tenant.map(str::to_owned),
            table,
            wait: WaitOptions::default(),
        })
    }

    /// How activities are waited for (default: the runtime's).
    pub fn wait_options(mut self, options: WaitOptions) -> Self {
        self.wait = options;
        self
    }

    pub(crate) fn table(&self) -> &'static Table {
        self.table
    }

    pub(crate) fn route(&self, id: &str) -> Result<&'static Route, Error> {
        self.table
            .route(id)
            .ok_or_else(|| Error::Catalog(format!("no operation `{id}`")))
    }

    fn request(
        &self,
        id: &str,
        path: &[&str],
        body: Option<&Value>,
        context: &str,
    ) -> Result<(&'static Route, Request<'a>), Error> {
        let route = self.route(id)?;
        let args = Arguments {
            path: path.iter().map(|p| (*p).to_owned()).collect(),
            body: body.cloned(),
            tenant: self.tenant.clone(),
            ..Arguments::default()
        };
        let req = described::request(self.client, self.table, route, &args)
            .map_err(|e| Error::call(context, e))?;
        Ok((route, req))
    }

    /// The answer of the read `id`; `None` on 404.
    pub(crate) async fn read(&self, id: &str, path: &[&str]) -> Result<Option<Value>, Error> {
        let context = format!("reading with {id}");
        let (_, req) = self.request(id, path, None, &context)?;
        match req.send_json::<Value>().await {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.status() == Some(404) => Ok(None),
            Err(e) => Err(Error::call(&context, e)),
        }
    }

    /// The first row of the paged query `id` with `filters`.
    pub(crate) async fn first_row(&self, id: &str, filters: Value) -> Result<Option<Value>, Error> {
        let context = format!("querying with {id}");
        let body = json!({ "pageSize": 10, "filters": filters });
        let (route, req) = self.request(id, &[], Some(&body), &context)?;
        let paging = described::paging(route)
            .ok_or_else(|| Error::Catalog(format!("`{id}` is not paged")))?;
        let mut items = req.items::<Value>(paging);
        match items.next().await {
            Some(row) => row.map(Some).map_err(|e| Error::call(&context, e)),
            None => Ok(None),
        }
    }

    /// Sends the write `id`. An asynchronous one returns once accepted, with the activity's
    /// request id; a 404 of a delete is `Ok(None)` (already gone).
    pub(crate) async fn write(
        &self,
        id: &str,
        path: &[&str],
        body: Option<&Value>,
        context: &str,
    ) -> Result<Option<String>, Error> {
        let (route, req) = self.request(id, path, body, context)?;
        let gone = |e: &ruckus_one_runtime::Error| {
            route.method == ruckus_one_catalog::Method::Delete && e.status() == Some(404)
        };
        if route.asynchronous {
            let activity = self.activity()?;
            return match req.send_accepted::<Value, Value>(activity).await {
                Ok(a) => Ok(a.request_id().map(str::to_owned)),
                Err(e) if gone(&e) => Ok(None),
                Err(e) => Err(Error::call(context, e)),
            };
        }
        match req.send_raw().await {
            Ok(_) => Ok(None),
            Err(e) if gone(&e) => Ok(None),
            Err(e) => Err(Error::call(context, e)),
        }
    }

    /// Waits for the activity `request_id` to finish; a failed activity is an error.
    pub(crate) async fn wait(&self, request_id: &str, context: &str) -> Result<(), Error> {
        internal::wait_for_activity_as::<Value>(
            self.client,
            self.activity()?,
            request_id,
            self.tenant.as_deref(),
            &self.wait,
        )
        .await
        .map(|_| ())
        .map_err(|e| Error::call(context, e))
    }

    fn activity(&self) -> Result<&'static internal::Operation, Error> {
        let id = self
            .table
            .api
            .activity
            .as_deref()
            .ok_or_else(|| Error::Catalog("the network API has no activities".to_owned()))?;
        Ok(described::operation(self.table, self.route(id)?))
    }
}
