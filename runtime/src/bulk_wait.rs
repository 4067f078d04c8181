//! Waiting for many asynchronous writes at once: one activity query per round for up to
//! [`BULK_QUERY_SIZE`] request ids of one tenant, instead of one poll loop per write.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::time::Instant;
use tracing::Instrument;

use crate::activity::WaitOptions;
use crate::client::Client;
use crate::error::{ActivityError, DecodeError, Error};
use crate::operation::Operation;
use crate::redact::Redactor;
use crate::request::Request;
use crate::tenant::Tenant;

/// Most request ids asked for in one activity query (the query's largest page).
pub const BULK_QUERY_SIZE: usize = 500;

/// Activity queries of different tenants sent at once in a round.
const QUERIES_AT_ONCE: usize = 16;

/// An asynchronous write to wait for with the generated client's `wait_all`: its request id and
/// the tenant it was sent as. [`Accepted::pending`](crate::Accepted::pending) makes one from an
/// answer.
#[derive(Clone)]
pub struct PendingActivity {
    request_id: String,
    tenant: Option<Tenant>,
    /// The secrets of the client whose answer the request id came from, for `Debug`.
    redactor: Redactor,
}

impl PendingActivity {
    /// The activity `request_id` of delegated tenant `tenant` (`None`: as the client acts). An
    /// invalid tenant id is an [`Error::InvalidTenantId`]. Its `Debug` shows the id as given
    /// (no client, no secrets known); [`Accepted::pending`](crate::Accepted::pending)'s masks
    /// the client's secrets in it.
    pub fn new(request_id: impl Into<String>, tenant: Option<&str>) -> Result<Self, Error> {
        Ok(PendingActivity {
            request_id: request_id.into(),
            tenant: tenant
                .map(|id| Tenant::new(id, "delegated tenant id"))
                .transpose()?,
            redactor: Redactor::default(),
        })
    }

    /// The request id of an answer of `client`.
    pub(crate) fn of(request_id: String, tenant: Option<Tenant>, client: &Client) -> Self {
        PendingActivity {
            request_id,
            tenant,
            redactor: client.redactor(),
        }
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
            .field("request_id", &self.redactor.text(&self.request_id))
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
/// Activities the query does not list yet (they are created asynchronously) count as open.
/// The query is a read: the retry policy repeats it as it does a `GET`. A query that still
/// fails ends the activities it asked for with its error (those of other tenants and other
/// queries go on). `options.timeout` bounds the whole wait, the queries included: an activity
/// whose query did not answer in time is timed out. The outer `Result` is always `Ok` (kept
/// for compatibility). The future is `Send`, so it can be `tokio::spawn`ed. The round runs in a
/// `ruckus_one.wait_all` span (`activities`, `rounds`, `queries`).
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
    Ok(rounds(client, query, &pending, options, &span)
        .instrument(span.clone())
        .await)
}

/// The activities still waited for, by tenant (`""`: as `client` acts).
fn groups(client: &Client, pending: &[PendingActivity]) -> BTreeMap<String, Group> {
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
    groups
}

async fn rounds<A: DeserializeOwned>(
    client: &Client,
    query: &'static Operation,
    pending: &[PendingActivity],
    options: &WaitOptions,
    span: &tracing::Span,
) -> Vec<Result<A, Error>> {
    let mut results: Vec<Option<Result<A, Error>>> = pending.iter().map(|_| None).collect();
    let mut last_status: Vec<Option<String>> = vec![None; pending.len()];
    let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, p) in pending.iter().enumerate() {
        by_id.entry(p.request_id.as_str()).or_default().push(index);
    }
    let mut groups = groups(client, pending);
    let started = Instant::now();
    let mut interval = options.initial_interval;
    let (mut round, mut queries) = (0u32, 0usize);
    loop {
        round += 1;
        let state = State {
            results: &mut results,
            last_status: &mut last_status,
            by_id: &by_id,
        };
        queries += one_round(client, query, pending, &groups, state, started, options).await;
        span.record("rounds", round);
        span.record("queries", queries);
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
        if started.elapsed() >= options.timeout {
            // No time is left for another query.
            break;
        }
    }
    let waited = started.elapsed();
    results
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
        .collect()
}

/// What is known of the activities waited for.
struct State<'s, 'p, A> {
    results: &'s mut [Option<Result<A, Error>>],
    last_status: &'s mut [Option<String>],
    by_id: &'s HashMap<&'p str, Vec<usize>>,
}

/// One round: a query per [`BULK_QUERY_SIZE`] open activities of each group, at most
/// [`QUERIES_AT_ONCE`] at a time, each bounded by the time left; what they say recorded in
/// `state`. Returns the number of queries sent.
async fn one_round<A: DeserializeOwned>(
    client: &Client,
    query: &'static Operation,
    pending: &[PendingActivity],
    groups: &BTreeMap<String, Group>,
    state: State<'_, '_, A>,
    started: Instant,
    options: &WaitOptions,
) -> usize {
    let left = options.timeout.saturating_sub(started.elapsed());
    let chunks: Vec<(Option<&Tenant>, &[usize])> = groups
        .values()
        .flat_map(|g| {
            g.open
                .chunks(BULK_QUERY_SIZE)
                .map(|c| (g.tenant.as_ref(), c))
        })
        .collect();
    let sent = chunks.len();
    // Futures of a named function, not a stream adapter's closure (see `for_each_tenant`).
    let mut chunks = chunks.into_iter();
    let mut answers = FuturesUnordered::new();
    loop {
        while answers.len() < QUERIES_AT_ONCE {
            let Some((tenant, chunk)) = chunks.next() else {
                break;
            };
            answers.push(query_chunk(client, query, pending, tenant, chunk, left));
        }
        let Some((chunk, answer)) = answers.next().await else {
            break;
        };
        match answer {
            Ok(rows) => {
                for row in rows {
                    settle(client, state.by_id, &row, state.results, state.last_status);
                }
            }
            // Out of time: the activities stay open, and are timed out.
            Err(Error::Timeout) if started.elapsed() >= options.timeout => {}
            Err(error) => {
                for &i in chunk {
                    state.results[i].get_or_insert_with(|| Err(error.duplicate()));
                }
            }
        }
    }
    sent
}

async fn pause(wait: Duration) {
    if wait.is_zero() {
        tokio::task::yield_now().await;
    } else {
        tokio::time::sleep(wait).await;
    }
}

/// One activity query for the activities `chunk` (indexes into `pending`) of `tenant`, sent as
/// a read and given at most `left`: the chunk, with the rows of its answer.
async fn query_chunk<'c>(
    client: &Client,
    query: &'static Operation,
    pending: &[PendingActivity],
    tenant: Option<&Tenant>,
    chunk: &'c [usize],
    left: Duration,
) -> (&'c [usize], Result<Vec<Value>, Error>) {
    let ids: Vec<&str> = chunk
        .iter()
        .map(|&i| pending[i].request_id.as_str())
        .collect();
    let mut request = Request::new(client, query, &[]);
    if let Some(tenant) = tenant {
        request.set_tenant(tenant.clone());
    }
    request.timeout(left);
    request.json(&json!({"filters": {"id": ids}, "page": 1, "pageSize": ids.len()}));
    let answer = request.send_json::<Value>().await.map(|mut answer| {
        match answer.get_mut("data").map(Value::take) {
            Some(Value::Array(rows)) => rows,
            _ => Vec::new(),
        }
    });
    (chunk, answer)
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
