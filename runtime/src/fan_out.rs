//! Fan-out: one piece of work for many customer tenants, with bounded concurrency.

use std::future::Future;

use futures_util::StreamExt;
use tracing::Instrument;

use crate::client::Client;
use crate::error::Error;

/// A client that can act for a delegated tenant: the runtime's [`Client`] and the generated
/// crate's, so that [`for_each_tenant`] hands the work the client type it knows.
pub trait ForTenant: Sized {
    /// The same client (connection pool, token, pacing buckets) acting for `tenant_id`.
    fn for_tenant(&self, tenant_id: &str) -> Result<Self, Error>;
}

impl ForTenant for Client {
    fn for_tenant(&self, tenant_id: &str) -> Result<Self, Error> {
        self.with_tenant(tenant_id)
    }
}

/// What one tenant's work came to in [`for_each_tenant`].
#[derive(Debug)]
pub struct TenantOutcome<T> {
    /// The tenant id, as given.
    pub tenant: String,
    /// The work's result, or why it failed (an invalid tenant id fails before any work).
    pub result: Result<T, Error>,
}

/// Runs `work` once per tenant of `tenants`, each with a clone of `client` acting for that
/// tenant, at most `concurrency` at a time (at least one), and returns every tenant's outcome
/// in the order of `tenants`. One tenant's failure does not stop the others.
///
/// All the clones share `client`'s access token (one token request, however many tenants),
/// connection pool and pacing buckets, so each tenant's calls stay within that tenant's
/// published limits. Each tenant's work runs in a `ruckus_one.tenant` span (`tenant`).
///
/// ```no_run
/// # async fn example(client: ruckus_one_runtime::Client) {
/// use ruckus_one_runtime::{Method, RawRequest, for_each_tenant};
/// # static API: ruckus_one_runtime::Api = ruckus_one_runtime::Api { name: "network", title: "", prefix: "",
/// #     hosts: ruckus_one_runtime::Hosts { asia: "", europe: "", north_america: "" },
/// #     auth: ruckus_one_runtime::ApiAuth::ClientCredentials };
/// let tenants = ["customer-1", "customer-2", "customer-3"];
/// let outcomes = for_each_tenant(&client, tenants, 8, |customer| async move {
///     let venues: serde_json::Value =
///         RawRequest::new(&customer, &API, Method::Get, "/venues").send_json().await?;
///     Ok(venues)
/// })
/// .await;
/// for outcome in outcomes {
///     match outcome.result {
///         Ok(venues) => println!("{}: {venues}", outcome.tenant),
///         Err(e) => eprintln!("{}: {e}", outcome.tenant),
///     }
/// }
/// # }
/// ```
pub async fn for_each_tenant<C, I, S, T, F, Fut>(
    client: &C,
    tenants: I,
    concurrency: usize,
    work: F,
) -> Vec<TenantOutcome<T>>
where
    C: ForTenant,
    I: IntoIterator<Item = S>,
    S: Into<String>,
    F: Fn(C) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let work = &work;
    let mut outcomes: Vec<(usize, TenantOutcome<T>)> =
        futures_util::stream::iter(tenants.into_iter().map(Into::into).enumerate())
            .map(|(index, tenant): (usize, String)| async move {
                let span = tracing::info_span!(
                    target: "ruckus_one_runtime",
                    "ruckus_one.tenant",
                    tenant = tenant.as_str(),
                );
                let result = match client.for_tenant(&tenant) {
                    Ok(for_tenant) => work(for_tenant).instrument(span).await,
                    Err(e) => Err(e),
                };
                (index, TenantOutcome { tenant, result })
            })
            .buffer_unordered(concurrency.max(1))
            .collect()
            .await;
    outcomes.sort_by_key(|(index, _)| *index);
    outcomes.into_iter().map(|(_, outcome)| outcome).collect()
}
