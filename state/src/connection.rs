//! Calls through the runtime by catalog entry: lists (every page), reads, writes with their
//! activities. The runtime paces every call by its service and tenant and retries what may be
//! retried.

use crate::error::Error;
use futures_util::StreamExt;
use ruckus_one_catalog::{Catalog, PageStyle as CatalogPageStyle, ResponseKind, Route, Table};
use ruckus_one_runtime::internal::{self, PageStyle, Paging, Request, described};
use ruckus_one_runtime::{Client, WaitOptions};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Rows asked for per page of a list.
const PAGE_SIZE: u64 = 100;

/// The service the engine talks to: a runtime client, the tenant acted for, and how long
/// to wait for asynchronous writes.
#[derive(Debug, Clone)]
pub struct Connection<'a> {
    client: &'a Client,
    tenant: Option<String>,
    catalog: &'static Catalog,
    wait: WaitOptions,
}

/// What a write left to wait for.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sent {
    /// The activity's request id, for an asynchronous write.
    pub request_id: Option<String>,
    /// The id of what the write created, when the answer names it.
    pub created_id: Option<String>,
}

/// Values of path parameters, by name.
pub(crate) type Params = BTreeMap<String, String>;

impl<'a> Connection<'a> {
    /// A connection through `client`, acting for the delegated `tenant` (`None`: the
    /// credential's own tenant). Fails when the compiled-in catalog does not parse.
    pub fn new(client: &'a Client, tenant: Option<&str>) -> Result<Connection<'a>, Error> {
        Ok(Connection {
            client,
            tenant: tenant.map(str::to_owned),
            catalog: Catalog::get().map_err(|e| Error::Resources(e.to_string()))?,
            wait: WaitOptions::default(),
        })
    }

    /// How asynchronous writes are waited for (default: the runtime's).
    pub fn wait_options(mut self, options: WaitOptions) -> Self {
        self.wait = options;
        self
    }

    /// The tenant acted for.
    pub fn tenant(&self) -> Option<&str> {
        self.tenant.as_deref()
    }

    /// The catalog entry of operation `id` of `api`.
    pub(crate) fn route(
        &self,
        api: &str,
        id: &str,
    ) -> Result<(&'static Table, &'static Route), Error> {
        let (_, table) = self
            .catalog
            .api(api)
            .ok_or_else(|| Error::Resources(format!("the catalog has no API `{api}`")))?;
        let route = table
            .route(id)
            .ok_or_else(|| Error::Resources(format!("the {api} API has no operation `{id}`")))?;
        Ok((table, route))
    }

    fn request(
        &self,
        table: &'static Table,
        route: &'static Route,
        params: &Params,
    ) -> Result<Request<'a>, Error> {
        let values = route
            .path_params
            .iter()
            .map(|p| {
                params.get(&p.name).map(String::as_str).ok_or_else(|| {
                    Error::Resources(format!(
                        "{}: no value for path parameter `{}`",
                        route.id, p.name
                    ))
                })
            })
            .collect::<Result<Vec<&str>, Error>>()?;
        let mut req = Request::new(self.client, described::operation(table, route), &values);
        if let Some(t) = &self.tenant {
            req.tenant(t);
        }
        Ok(req)
    }

    fn failed(route: &Route, context: &str, source: ruckus_one_runtime::Error) -> Error {
        Error::Call {
            operation: route.id.clone(),
            context: context.to_owned(),
            source,
        }
    }

    /// Every row `op` lists: every page of a paged operation (a query sends `filters`), the
    /// array or the items field of an unpaged one.
    pub(crate) async fn rows(
        &self,
        api: &str,
        op: &str,
        params: &Params,
        filters: Option<&Map<String, Value>>,
    ) -> Result<Vec<Value>, Error> {
        let (table, route) = self.route(api, op)?;
        let context = format!("listing with {op}");
        let mut req = self.request(table, route, params)?;
        let takes_body = route.request.is_some();
        if let Some(p) = &route.paging {
            let mut body = json!({ "pageSize": PAGE_SIZE });
            if let Some(f) = filters {
                body["filters"] = Value::Object(f.clone());
            }
            match p.style {
                CatalogPageStyle::QueryBody => req.json(&body),
                CatalogPageStyle::Spring => req.query("size", &PAGE_SIZE),
                CatalogPageStyle::QueryParams => req.query("pageSize", &PAGE_SIZE),
            }
            let paging = Paging {
                style: match p.style {
                    CatalogPageStyle::QueryBody => PageStyle::QueryBody,
                    CatalogPageStyle::QueryParams => PageStyle::QueryParams,
                    CatalogPageStyle::Spring => PageStyle::Spring,
                },
                items: p.items.as_str(),
                first_page: u32::try_from(p.first_page).unwrap_or(0),
            };
            let mut items = req.items::<Value>(paging);
            let mut rows = Vec::new();
            while let Some(item) = items.next().await {
                rows.push(item.map_err(|e| Self::failed(route, &context, e))?);
            }
            return Ok(rows);
        }
        if takes_body {
            let mut body = json!({});
            if let Some(f) = filters {
                body["filters"] = Value::Object(f.clone());
            }
            req.json(&body);
        }
        let answer: Value = req
            .send_json()
            .await
            .map_err(|e| Self::failed(route, &context, e))?;
        Ok(match answer {
            Value::Array(rows) => rows,
            Value::Object(mut m) => match ["data", "content", "items"]
                .iter()
                .find_map(|k| m.remove(*k))
            {
                Some(Value::Array(rows)) => rows,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        })
    }

    /// The answer of the read `op`; `None` when the service answers 404.
    pub(crate) async fn read(
        &self,
        api: &str,
        op: &str,
        params: &Params,
    ) -> Result<Option<Value>, Error> {
        let (table, route) = self.route(api, op)?;
        let req = self.request(table, route, params)?;
        match req.send_json::<Value>().await {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.status() == Some(404) => Ok(None),
            Err(e) => Err(Self::failed(route, &format!("reading with {op}"), e)),
        }
    }

    /// Sends the write `op` (with `body` when given). An asynchronous write returns once
    /// accepted, with its request id to wait for; `context` names the step for errors.
    pub(crate) async fn write(
        &self,
        api: &str,
        op: &str,
        params: &Params,
        body: Option<&Value>,
        context: &str,
    ) -> Result<Sent, Error> {
        let (table, route) = self.route(api, op)?;
        let mut req = self.request(table, route, params)?;
        if let Some(b) = body {
            req.json(b);
        }
        let fail = |e| Self::failed(route, context, e);
        if route.asynchronous {
            let activity = self.activity_op(table)?;
            let accepted = req
                .send_accepted::<Value, Value>(activity)
                .await
                .map_err(fail)?;
            return Ok(Sent {
                request_id: accepted.request_id().map(str::to_owned),
                created_id: accepted.created_id().map(str::to_owned),
            });
        }
        let answer = match route.response.kind {
            ResponseKind::Json => req.send_raw().await.map_err(fail)?,
            _ => {
                req.send_empty().await.map_err(fail)?;
                return Ok(Sent::default());
            }
        };
        let v: Value = serde_json::from_slice(answer.body()).unwrap_or(Value::Null);
        let created_id = v
            .get("id")
            .or_else(|| v.pointer("/response/id"))
            .and_then(id_text);
        Ok(Sent {
            request_id: None,
            created_id,
        })
    }

    /// Waits for the activity `request_id` of a write of `api` to finish. A failed activity
    /// is an error; so is a wait that timed out (the write was accepted: the caller reports
    /// it as still running, not as failed).
    pub(crate) async fn wait(
        &self,
        api: &str,
        request_id: &str,
    ) -> Result<(), ruckus_one_runtime::Error> {
        let Some((_, table)) = self.catalog.api(api) else {
            return Ok(());
        };
        let Ok(activity) = self.activity_op(table) else {
            return Ok(());
        };
        internal::wait_for_activity_as::<Value>(
            self.client,
            activity,
            request_id,
            self.tenant.as_deref(),
            &self.wait,
        )
        .await
        .map(|_| ())
    }

    fn activity_op(&self, table: &'static Table) -> Result<&'static internal::Operation, Error> {
        let id = table.api.activity.as_deref().ok_or_else(|| {
            Error::Resources(format!("the {} API has no activities", table.api.name))
        })?;
        let route = table
            .route(id)
            .ok_or_else(|| Error::Resources(format!("no activity operation `{id}`")))?;
        Ok(described::operation(table, route))
    }
}

/// The body a create of one object sends: the object, or a list of it when the operation
/// takes a batch (a venue's switches are added as a list of them).
pub(crate) fn one_or_batch(table: &Table, route: &Route, body: Value) -> Value {
    let batch = route.request.as_ref().is_some_and(|rb| {
        table.deref(&rb.schema).get("type").and_then(Value::as_str) == Some("array")
    });
    match body {
        Value::Array(_) => body,
        one if batch => Value::Array(vec![one]),
        one => one,
    }
}

/// An id as text (a string, or a number's decimal text).
pub(crate) fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_create_sends_a_list_of_one() {
        let catalog = Catalog::get().unwrap();
        let (_, table) = catalog.api("network").unwrap();
        let switches = table.route("create_venue_switch").unwrap();
        let venues = table.route("create_venue").unwrap();
        let one = json!({"name": "S"});
        assert_eq!(one_or_batch(table, switches, one.clone()), json!([one]));
        assert_eq!(one_or_batch(table, venues, one.clone()), one);
    }
}
