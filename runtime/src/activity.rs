//! Waiting for an asynchronous request (a `202 Accepted` answer) to finish by polling its
//! activity resource.

use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde_json::Value;
use tracing::Instrument;

use crate::client::Client;
use crate::error::{ActivityError, DecodeError, Error};
use crate::operation::Operation;
use crate::request::Request;
use crate::tenant::Tenant;

/// How waiting for an asynchronous write polls its activity: `wait` of an
/// [`Accepted`](crate::Accepted) answer, `send_and_wait` of a request builder and
/// `wait_for_activity` of an API client.
///
/// ```
/// # extern crate ruckus_one_runtime as ruckus_one;
/// use ruckus_one::WaitOptions;
/// use std::time::Duration;
///
/// // Give up after 2 minutes; poll after 500 ms, then ever more slowly, at most every 5 s.
/// let options = WaitOptions::default()
///     .timeout(Duration::from_secs(120))
///     .initial_interval(Duration::from_millis(500))
///     .max_interval(Duration::from_secs(5));
/// assert_eq!(options.timeout, Duration::from_secs(120));
/// ```
///
/// With a server (`no_run`): a write answered `202 Accepted`, then its activity.
///
/// ```no_run
/// # extern crate ruckus_one_runtime as ruckus_one;
/// # use ruckus_one::WaitOptions;
/// # async fn example(accepted: ruckus_one::Accepted<serde_json::Value, serde_json::Value>) -> Result<(), ruckus_one::Error> {
/// // `accepted` is what `send()` of an asynchronous write returned, e.g.
/// // `client.network().wireless_venues().create_venue(&venue).send().await?`.
/// let activity = accepted.wait(&WaitOptions::default()).await?;
/// println!("done: {activity}");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WaitOptions {
    /// Give up after this long. Default 5 minutes.
    pub timeout: Duration,
    /// Pause before the second poll; each later pause is 1.5 times longer. Default 1 s.
    pub initial_interval: Duration,
    /// Longest pause between polls. Default 10 s.
    pub max_interval: Duration,
}

impl Default for WaitOptions {
    fn default() -> Self {
        WaitOptions {
            timeout: Duration::from_secs(300),
            initial_interval: Duration::from_secs(1),
            max_interval: Duration::from_secs(10),
        }
    }
}

impl WaitOptions {
    /// Sets [`timeout`](Self::timeout).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets [`initial_interval`](Self::initial_interval).
    pub fn initial_interval(mut self, interval: Duration) -> Self {
        self.initial_interval = interval;
        self
    }

    /// Sets [`max_interval`](Self::max_interval).
    pub fn max_interval(mut self, interval: Duration) -> Self {
        self.max_interval = interval;
        self
    }
}

/// Polls `op` (`GET .../activities/{requestId}`) until the activity's `status` is `SUCCESS`
/// (the activity is returned, decoded as `T`) or `FAIL` (an [`Error::Activity`]), or
/// `options.timeout` passes (also an [`Error::Activity`]).
///
/// `404` answers are expected while the activity is being created and mean "not yet"; other
/// errors end the wait. Generated clients call this from their `wait_for_activity` method.
///
/// Polls as `client` acts (its delegated tenant, if any). An activity belongs to the tenant the
/// request was made for: after a request sent with [`Request::tenant`], poll with
/// [`wait_for_activity_as`], or wait with the [`Accepted`](crate::Accepted) its
/// [`Request::send_accepted`] returned, which remembers the tenant.
pub async fn wait_for_activity<T: DeserializeOwned>(
    client: &Client,
    op: &'static Operation,
    request_id: &str,
    options: &WaitOptions,
) -> Result<T, Error> {
    wait(client, op, request_id, None, options).await
}

/// [`wait_for_activity`] acting for the delegated tenant `tenant` (sent in the tenant header of
/// every poll), as a request with [`Request::tenant`] does; with `None`, exactly
/// [`wait_for_activity`]. An invalid tenant id is an [`Error::InvalidTenantId`].
pub async fn wait_for_activity_as<T: DeserializeOwned>(
    client: &Client,
    op: &'static Operation,
    request_id: &str,
    tenant: Option<&str>,
    options: &WaitOptions,
) -> Result<T, Error> {
    let tenant = tenant
        .map(|id| Tenant::new(id, "delegated tenant id"))
        .transpose()?;
    wait(client, op, request_id, tenant, options).await
}

/// Waits for the activity, polling for `tenant` (else as `client` acts).
pub(crate) async fn wait<T: DeserializeOwned>(
    client: &Client,
    op: &'static Operation,
    request_id: &str,
    tenant: Option<Tenant>,
    options: &WaitOptions,
) -> Result<T, Error> {
    // The request id came from the service: traced redacted.
    let shown_id = client.redactor().text(request_id);
    let span = tracing::info_span!(
        target: "ruckus_one_runtime",
        "ruckus_one.wait_for_activity",
        operation = op.id,
        request_id = shown_id.as_str(),
        polls = tracing::field::Empty,
    );
    let ids = Ids {
        request: request_id,
        shown: &shown_id,
    };
    let activity = poll(client, op, ids, tenant.as_ref(), options, &span)
        .instrument(span.clone())
        .await?;
    serde_json::from_value(activity.clone()).map_err(|e| {
        Error::Decode(DecodeError::new(
            200,
            Some(request_id),
            &e.to_string(),
            activity.to_string().into(),
            &client.redactor(),
        ))
    })
}

/// The request id of an activity: to poll with, and to trace.
#[derive(Clone, Copy)]
struct Ids<'a> {
    request: &'a str,
    /// Redacted.
    shown: &'a str,
}

async fn poll(
    client: &Client,
    op: &'static Operation,
    ids: Ids<'_>,
    tenant: Option<&Tenant>,
    options: &WaitOptions,
    span: &tracing::Span,
) -> Result<Value, Error> {
    let started = Instant::now();
    let mut interval = options.initial_interval;
    let mut last_status = None;
    let mut polls = 0u32;
    loop {
        let mut request = Request::new(client, op, &[ids.request]);
        if let Some(tenant) = tenant {
            request.set_tenant(tenant.clone());
        }
        polls += 1;
        span.record("polls", polls);
        let answer = request.send_json::<Value>().await;
        match answer {
            Ok(activity) => {
                let status = activity
                    .get("status")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                tracing::debug!(
                    target: "ruckus_one_runtime",
                    request_id = ids.shown,
                    poll = polls,
                    status = status.as_deref().unwrap_or("none"),
                    "activity polled"
                );
                match status.as_deref() {
                    Some("SUCCESS") => return Ok(activity),
                    Some("FAIL") => {
                        let error = activity.get("error").map(|e| match e {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        });
                        return Err(Error::activity(ActivityError::failed(
                            ids.request,
                            error.as_deref(),
                            activity,
                            &client.redactor(),
                        )));
                    }
                    _ => last_status = status,
                }
            }
            Err(e) if e.status() == Some(404) => {
                tracing::debug!(
                    target: "ruckus_one_runtime",
                    request_id = ids.shown,
                    poll = polls,
                    status = "not found yet",
                    "activity polled"
                );
            }
            Err(e) => return Err(e),
        }
        let waited = started.elapsed();
        if waited >= options.timeout {
            return Err(Error::activity(ActivityError::timed_out(
                ids.request,
                waited,
                last_status.as_deref(),
                &client.redactor(),
            )));
        }
        let pause = interval.min(options.timeout - waited);
        if pause.is_zero() {
            // tokio rounds a timer up to its next millisecond tick: a zero pause would cost
            // about a millisecond per poll.
            tokio::task::yield_now().await;
        } else {
            tokio::time::sleep(pause).await;
        }
        interval = interval.mul_f64(1.5).min(options.max_interval);
    }
}
