//! Sending a prepared request, in named phases:
//!
//! - [`send`]: the call's future, inside a `ruckus_one.call` span that records its outcome
//!   ([`outcome`]).
//! - [`retry_loop::run`]: the loop over attempts. Before each, [`retry_loop::pace`] waits for
//!   rate budget ([`budget`]) and [`attempt::authorize`] puts a token on the request (the unit
//!   token, or a cached or fetched access token); after a failed one, [`retry_loop::decide`]
//!   says whether to renew the token and repeat, retry after a wait, or stop.
//! - [`attempt::attempt`]: one attempt, exchange (send, read the body, under one timer) →
//!   classify (the response, or how the attempt failed).
//!
//! Each phase is a future of its own, nested in the one before: a nested future is built, then
//! moved into its parent, so each level copies it once more per call (a few hundred bytes).
//! The token request, rare and large, is boxed so that it takes no room in every call's future.

use std::borrow::Cow;
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderValue};
use tracing::{Instrument, Span};

use crate::client::{Client, Shared};
use crate::config::Config;
use crate::deadline::Deadline;
use crate::error::Error;
use crate::operation::{ApiAuth, ErrorFamily, Method, Service, TenantLimit};
use crate::retry::RetryPolicy;
use crate::tenant::Tenant;

mod attempt;
pub(crate) use attempt::fill_headers;
mod budget;
mod outcome;
mod retry_loop;
mod wire;

/// The future of one call: what [`send`] returns and a [`Sending`](crate::Sending) holds.
pub(crate) type SendFuture<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<crate::response::RawResponse, Error>> + Send + 'a>,
>;

/// Settings of one call that override the client's.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallOptions {
    /// Instead of [`Config::call_timeout`](crate::Config::call_timeout).
    pub(crate) call_timeout: Option<Duration>,
    /// Instead of [`Config::request_timeout`](crate::Config::request_timeout).
    pub(crate) attempt_timeout: Option<Duration>,
    /// Instead of [`Config::retry`](crate::Config::retry).
    pub(crate) retry: Option<RetryPolicy>,
    /// Instead of [`Config::max_body_size`](crate::Config::max_body_size).
    pub(crate) max_body_size: Option<usize>,
}

/// A request ready to be sent (and re-sent): everything but the
/// `Authorization` header.
pub(crate) struct Prepared {
    pub(crate) method: Method,
    /// The call only reads ([`Operation::reads`](crate::internal::Operation::reads)): retried
    /// as an idempotent method is.
    pub(crate) reads: bool,
    pub(crate) url: reqwest::Url,
    /// The caller's own headers (`Request::header`), when there are any; `accept`,
    /// `content_type`, the tenant header and the runtime's own replace any of the same name.
    pub(crate) headers: Option<Box<HeaderMap>>,
    pub(crate) accept: HeaderValue,
    pub(crate) content_type: Option<HeaderValue>,
    pub(crate) body: Option<Bytes>,
    pub(crate) family: ErrorFamily,
    pub(crate) auth: ApiAuth,
    /// Name of the API, for error messages.
    pub(crate) api: &'static str,
    pub(crate) options: Option<Box<CallOptions>>,
    /// Operation id (`raw` for raw requests), for traces.
    pub(crate) operation: &'static str,
    /// Path template (the path of raw requests), for traces.
    pub(crate) path_template: Cow<'static, str>,
    /// The service whose rate limit paces it (`None`: raw requests, paced by the tenant limit
    /// only).
    pub(crate) service: Option<&'static Service>,
    /// The limit of the whole tenant that the API publishes (every call counts against it).
    pub(crate) tenant_limit: Option<TenantLimit>,
    /// The delegated tenant it acts for (its bucket), `None` for the token's own.
    pub(crate) tenant: Option<Tenant>,
}

/// The settings of one call: the client's, with the call's overrides.
struct Settings<'a> {
    policy: &'a RetryPolicy,
    call_timeout: Duration,
    attempt_timeout: Duration,
    max_body_size: usize,
}

impl<'a> Settings<'a> {
    fn of(config: &'a Config, options: Option<&'a CallOptions>) -> Settings<'a> {
        Settings {
            policy: options
                .and_then(|o| o.retry.as_ref())
                .unwrap_or(&config.retry),
            call_timeout: options
                .and_then(|o| o.call_timeout)
                .unwrap_or(config.call_timeout),
            attempt_timeout: options
                .and_then(|o| o.attempt_timeout)
                .unwrap_or(config.request_timeout),
            max_body_size: options
                .and_then(|o| o.max_body_size)
                .unwrap_or(config.max_body_size),
        }
    }
}

/// The future of one call: `req` sent by [`retry_loop::run`] inside a `ruckus_one.call` span,
/// which records the call's outcome.
pub(crate) fn send(client: &Client, req: Prepared) -> SendFuture<'_> {
    let span = outcome::call_span(&req);
    if !span.is_disabled() {
        let url = wire::shown_url(req.url.as_str(), &client.redactor());
        span.record("url", url.as_str());
    }
    let call = span.clone();
    Box::pin(
        async move {
            // No timer covers the whole call: each step is bounded by the deadline itself (an
            // attempt's timeout is capped to the time left and covers its body too; waits
            // for budget or before a retry that would end after it are not made; a token
            // request, when one is needed, runs under it), which saves a timer per call.
            let started = (!call.is_disabled()).then(std::time::Instant::now);
            let result = retry_loop::run(client.shared(), &req, &call).await;
            if let Some(started) = started {
                outcome::record(&call, &result, started.elapsed(), &client.redactor());
            }
            result
        }
        .instrument(span),
    )
}

/// What every phase of one call reads: the request, the client's state, the call's settings
/// and deadline.
struct Call<'a> {
    shared: &'a Shared,
    req: &'a Prepared,
    /// The call's span, on which the phases record attempts, pacing and status.
    span: &'a Span,
    settings: Settings<'a>,
    deadline: Deadline,
    /// The unit token's `Authorization` value, for an API that takes one instead of an
    /// access token.
    unit_token: Option<&'a HeaderValue>,
    /// The delegated tenant's id (its buckets), empty for the token's own.
    tenant: &'a str,
}

impl<'a> Call<'a> {
    /// The call of `req`, or the error of one that needs a unit token the client lacks.
    fn new(shared: &'a Shared, req: &'a Prepared, span: &'a Span) -> Result<Call<'a>, Error> {
        let settings = Settings::of(&shared.config, req.options.as_deref());
        let deadline = Deadline::after(settings.call_timeout);
        let unit_token = match req.auth {
            ApiAuth::ClientCredentials => None,
            ApiAuth::UnitToken => Some(unit_token(shared, req.api)?),
        };
        Ok(Call {
            shared,
            req,
            span,
            settings,
            deadline,
            unit_token,
            tenant: req.tenant.as_ref().map_or("", Tenant::id),
        })
    }
}

/// The unit token's `Authorization` value, or the error of a call that needs one when the
/// configuration has none.
fn unit_token<'a>(shared: &'a Shared, api: &str) -> Result<&'a HeaderValue, Error> {
    shared.unit_token.as_ref().ok_or_else(|| Error::Auth {
        status: None,
        message: format!(
            "operations of the `{api}` API need a token: set it with Config::unit_token"
        ),
    })
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
