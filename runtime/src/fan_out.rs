//! Fan-out: one piece of work for many customer tenants, with bounded concurrency.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt, StreamExt};
use tracing::Instrument;

use crate::client::Client;
use crate::error::Error;
use crate::redact::Redactor;

/// A client that can act for a delegated tenant: the runtime's [`Client`] and the generated
/// crate's, so that [`for_each_tenant`] hands the work the client type it knows.
pub trait ForTenant: Sized {
    /// The same client (connection pool, token, pacing buckets) acting for `tenant_id`.
    fn for_tenant(&self, tenant_id: &str) -> Result<Self, Error>;

    /// The runtime client underneath, whose secrets the outcomes' `Debug` masks; `None` (the
    /// default) leaves them unmasked.
    #[doc(hidden)]
    fn runtime_client(&self) -> Option<&Client> {
        None
    }
}

impl ForTenant for Client {
    fn for_tenant(&self, tenant_id: &str) -> Result<Self, Error> {
        self.with_tenant(tenant_id)
    }

    fn runtime_client(&self) -> Option<&Client> {
        Some(self)
    }
}

/// What one tenant's work came to in [`for_each_tenant`]. Its `Debug` masks the client's
/// secrets (a request id or body that echoes one).
pub struct TenantOutcome<T> {
    /// The tenant id, as given.
    pub tenant: String,
    /// The work's result, or why it failed (an invalid tenant id fails before any work).
    pub result: Result<T, Error>,
    redactor: Redactor,
}

impl<T: fmt::Debug> fmt::Debug for TenantOutcome<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TenantOutcome")
            .field("tenant", &self.redactor.text(&self.tenant))
            .field("result", &self.redactor.debug(&self.result))
            .finish()
    }
}

/// How long one tenant's work may take in [`for_each_tenant`] (30 minutes): past it, that
/// tenant's outcome is an [`Error::Timeout`] and the others are not held up.
/// [`for_each_tenant_within`] takes another bound.
pub const TENANT_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Runs `work` once per tenant of `tenants`, each with a clone of `client` acting for that
/// tenant, at most `concurrency` at a time (at least one), and returns every tenant's outcome
/// in the order of `tenants`. One tenant's failure does not stop the others: its work failing,
/// panicking ([`Error::Panicked`]) or running past [`TENANT_TIMEOUT`] ([`Error::Timeout`]) is
/// that tenant's outcome.
///
/// All the clones share `client`'s access token (one token request, however many tenants),
/// connection pool and pacing buckets, so each tenant's calls stay within that tenant's
/// published limits. Each tenant's work runs in a `ruckus_one.tenant` span (`tenant`). The
/// future is `Send` when the work's is, so it can be `tokio::spawn`ed.
///
/// ```no_run
/// # async fn example(client: ruckus_one_runtime::Client) {
/// use ruckus_one_runtime::{Method, RawRequest, for_each_tenant};
/// # static API: ruckus_one_runtime::internal::Api = ruckus_one_runtime::internal::Api { name: "network", title: "", prefix: "",
/// #     hosts: ruckus_one_runtime::internal::Hosts { asia: "", europe: "", north_america: "" },
/// #     auth: ruckus_one_runtime::internal::ApiAuth::ClientCredentials, tenant_limit: None };
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
    for_each_tenant_within(client, tenants, concurrency, TENANT_TIMEOUT, work).await
}

/// [`for_each_tenant`] with `timeout` as the bound of each tenant's work instead of
/// [`TENANT_TIMEOUT`].
pub async fn for_each_tenant_within<C, I, S, T, F, Fut>(
    client: &C,
    tenants: I,
    concurrency: usize,
    timeout: Duration,
    work: F,
) -> Vec<TenantOutcome<T>>
where
    C: ForTenant,
    I: IntoIterator<Item = S>,
    S: Into<String>,
    F: Fn(C) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    // No closure is kept across an await (a stream adapter's would be): futures holding one
    // that takes borrowed arguments are not `Send` to the compiler, so could not be spawned.
    let mut waiting = tenants.into_iter().map(S::into).enumerate();
    let mut running = FuturesUnordered::new();
    let mut outcomes: Vec<Option<TenantOutcome<T>>> = Vec::new();
    loop {
        while running.len() < concurrency.max(1) {
            let Some((index, tenant)) = waiting.next() else {
                break;
            };
            outcomes.push(None);
            running.push(one_tenant(client, &work, index, tenant, timeout));
        }
        match running.next().await {
            Some((index, outcome)) => outcomes[index] = Some(outcome),
            None => break,
        }
    }
    outcomes.into_iter().flatten().collect()
}

/// The work of one tenant, its panic or its running past `timeout` caught as its outcome.
async fn one_tenant<C, T, F, Fut>(
    client: &C,
    work: &F,
    index: usize,
    tenant: String,
    timeout: Duration,
) -> (usize, TenantOutcome<T>)
where
    C: ForTenant,
    F: Fn(C) -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let span = tracing::info_span!(
        target: "ruckus_one_runtime",
        "ruckus_one.tenant",
        tenant = tenant.as_str(),
    );
    let result = match client.for_tenant(&tenant) {
        Ok(for_tenant) => match std::panic::catch_unwind(AssertUnwindSafe(|| work(for_tenant))) {
            Ok(future) => {
                let guarded = AssertUnwindSafe(future).catch_unwind().instrument(span);
                match tokio::time::timeout(timeout, guarded).await {
                    Ok(Ok(result)) => result,
                    Ok(Err(_panic)) => Err(Error::Panicked),
                    Err(_elapsed) => Err(Error::Timeout),
                }
            }
            Err(_panic) => Err(Error::Panicked),
        },
        Err(e) => Err(e),
    };
    let redactor = client
        .runtime_client()
        .map(Client::redactor)
        .unwrap_or_default();
    let outcome = TenantOutcome {
        tenant,
        result,
        redactor,
    };
    (index, outcome)
}
