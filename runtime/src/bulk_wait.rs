//! Waiting for many asynchronous writes at once: one activity query per round for up to
//! [`BULK_QUERY_SIZE`] request ids of one tenant, instead of one poll loop per write.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::time::Instant;
use tracing::Instrument;

use crate::activity::WaitOptions;
use crate::client::Client;
use crate::error::{ActivityError, DecodeError, Error};
use crate::operation::Operation;
use crate::request::Request;
use crate::tenant::Tenant;

/// Most request ids asked for in one activity query (the query's largest page).
pub const BULK_QUERY_SIZE: usize = 500;

/// Activity queries of different tenants sent at once in a round.
const QUERIES_AT_ONCE: usize = 16;

/// An asynchronous write to wait for with [`wait_all`]: its request id and the tenant it was
/// sent as. [`Accepted::pending`](crate::Accepted::pending) makes one from an answer.
#[derive(Clone)]
pub struct PendingActivity {
    request_id: String,
    tenant: Option<Tenant>,
}

impl PendingActivity {
    /// The activity `request_id` of delegated tenant `tenant` (`None`: as the client acts). An
    /// invalid tenant id is an [`Error::InvalidTenantId`].
    pub fn new(request_id: impl Into<String>, tenant: Option<&str>) -> Result<Self, Error> {
        Ok(PendingActivity {
            request_id: request_id.into(),
            tenant: tenant
                .map(|id| Tenant::new(id, "delegated tenant id"))
                .transpose()?,
        })
    }

    pub(crate) fn of(request_id: String, tenant: Option<Tenant>) -> Self {
        PendingActivity { request_id, tenant }
    }

    /// The request id.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// The delegated tenant, if any.
    pub fn tenant(&self) -> Option<&str> {
        self.tenant.as_ref().map(Tenant::id)
    }
}

impl std::fmt::Debug for PendingActivity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingActivity")
            .field("request_id", &self.request_id)
            .field("tenant", &self.tenant())
            .finish()
    }
}

/// The activities of one tenant still waited for: their indexes in the caller's list.
struct Group {
    tenant: Option<Tenant>,
    open: Vec<usize>,
}

/// Waits for every activity of `pending` with the activity query `query`
/// (`POST .../activities/query`, filtered by request id): each round sends one query per
/// [`BULK_QUERY_SIZE`] open activities of each tenant (as that tenant), then pauses as
/// [`WaitOptions`] says (the first pause `initial_interval`, each later one 1.5 times longer,
/// up to `max_interval`).
///
/// Returns one result per activity, in the order given: the activity decoded as `A` once it
/// succeeds, an [`Error::Activity`] when it fails or is still open after `options.timeout`.
/// Activities the query does not list yet (they are created asynchronously) count as open. A
/// query that fails after its retries ends the whole wait with its error (the outer `Err`).
/// The round runs in a `ruckus_one.wait_all` span (`activities`, `rounds`, `queries`).
pub async fn wait_all<A: DeserializeOwned>(
    client: &Client,
    query: &'static Operation,
    pending: impl IntoIterator<Item = PendingActivity>,
    options: &WaitOptions,
) -> Result<Vec<Result<A, Error>>, Error> {
    let pending: Vec<PendingActivity> = pending.into_iter().collect();
    let span = tracing::info_span!(
        target: "ruckus_one_runtime",
        "ruckus_one.wait_all",
        activities = pending.len(),
        rounds = tracing::field::Empty,
        queries = tracing::field::Empty,
    );
    rounds(client, query, &pending, options, &span)
        .instrument(span.clone())
        .await
}

async fn rounds<A: DeserializeOwned>(
    client: &Client,
    query: &'static Operation,
    pending: &[PendingActivity],
    options: &WaitOptions,
    span: &tracing::Span,
) -> Result<Vec<Result<A, Error>>, Error> {
    let mut results: Vec<Option<Result<A, Error>>> = pending.iter().map(|_| None).collect();
    let mut last_status: Vec<Option<String>> = vec![None; pending.len()];
    let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, p) in pending.iter().enumerate() {
        by_id.entry(p.request_id.as_str()).or_default().push(index);
    }
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for (index, p) in pending.iter().enumerate() {
        let key = p.tenant().unwrap_or("").to_owned();
        groups
            .entry(key)
            .or_insert_with(|| Group {
                tenant: p.tenant.clone().or_else(|| client.tenant().cloned()),
                open: Vec::new(),
            })
            .open
            .push(index);
    }
    let started = Instant::now();
    let mut interval = options.initial_interval;
    let (mut round, mut queries) = (0u32, 0usize);
    loop {
        round += 1;
        let chunks: Vec<(Option<&Tenant>, &[usize])> = groups
            .values()
            .flat_map(|g| {
                g.open
                    .chunks(BULK_QUERY_SIZE)
                    .map(|c| (g.tenant.as_ref(), c))
            })
            .collect();
        queries += chunks.len();
        let answers: Vec<Result<Vec<Value>, Error>> = futures_util::stream::iter(chunks)
            .map(|(tenant, chunk)| query_chunk(client, query, pending, tenant, chunk))
            .buffer_unordered(QUERIES_AT_ONCE)
            .collect()
            .await;
        span.record("rounds", round);
        span.record("queries", queries);
        for rows in answers {
            for row in rows? {
                settle(client, &by_id, &row, &mut results, &mut last_status);
            }
        }
        for group in groups.values_mut() {
            group.open.retain(|&i| results[i].is_none());
        }
        groups.retain(|_, g| !g.open.is_empty());
        let waited = started.elapsed();
        if groups.is_empty() || waited >= options.timeout {
            break;
        }
        pause(interval.min(options.timeout - waited)).await;
        interval = interval.mul_f64(1.5).min(options.max_interval);
    }
    let waited = started.elapsed();
    Ok(results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.unwrap_or_else(|| {
                Err(Error::activity(ActivityError::timed_out(
                    &pending[i].request_id,
                    waited,
                    last_status[i].as_deref(),
                    &client.redactor(),
                )))
            })
        })
        .collect())
}

async fn pause(wait: Duration) {
    if wait.is_zero() {
        tokio::task::yield_now().await;
    } else {
        tokio::time::sleep(wait).await;
    }
}

/// One activity query for the activities `chunk` (indexes into `pending`) of `tenant`: the
/// rows of its answer.
async fn query_chunk(
    client: &Client,
    query: &'static Operation,
    pending: &[PendingActivity],
    tenant: Option<&Tenant>,
    chunk: &[usize],
) -> Result<Vec<Value>, Error> {
    let ids: Vec<&str> = chunk
        .iter()
        .map(|&i| pending[i].request_id.as_str())
        .collect();
    let mut request = Request::new(client, query, &[]);
    if let Some(tenant) = tenant {
        request.set_tenant(tenant.clone());
    }
    request.json(&json!({"filters": {"id": ids}, "page": 1, "pageSize": ids.len()}));
    let mut answer: Value = request.send_json().await?;
    Ok(match answer.get_mut("data").map(Value::take) {
        Some(Value::Array(rows)) => rows,
        _ => Vec::new(),
    })
}

/// Records what one row of an answer says about the activity it names.
fn settle<A: DeserializeOwned>(
    client: &Client,
    by_id: &HashMap<&str, Vec<usize>>,
    row: &Value,
    results: &mut [Option<Result<A, Error>>],
    last_status: &mut [Option<String>],
) {
    let Some(id) = row.get("requestId").and_then(Value::as_str) else {
        return;
    };
    let status = row.get("status").and_then(Value::as_str);
    for &i in by_id.get(id).map_or(&[][..], Vec::as_slice) {
        if results[i].is_some() {
            continue;
        }
        last_status[i] = status.map(str::to_owned);
        results[i] = match status {
            Some("SUCCESS") => Some(serde_json::from_value(row.clone()).map_err(|e| {
                Error::Decode(DecodeError::new(
                    200,
                    Some(id),
                    &e.to_string(),
                    row.to_string().into(),
                    &client.redactor(),
                ))
            })),
            Some("FAIL") => {
                let error = row.get("error").map(|e| match e {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                });
                Some(Err(Error::activity(ActivityError::failed(
                    id,
                    error.as_deref(),
                    row.clone(),
                    &client.redactor(),
                ))))
            }
            _ => None,
        };
    }
}
