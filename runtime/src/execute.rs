//! Sending a prepared request: token, attempts, retries, error decoding.

use std::future::Future;
use std::pin::{Pin, pin};
use std::task::Poll;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER, USER_AGENT,
};
use tokio::time::Sleep;
use tracing::{Instrument, Span};

use crate::auth::failure_reason;
use crate::body::{Limited, read_limited};
use crate::client::{Client, Shared};
use crate::config::{Config, MAX_ERROR_BODY_SIZE};
use crate::deadline::Deadline;
use crate::deprecation::{self, Deprecation};
use crate::error::{ApiError, Error};
use crate::operation::{ApiAuth, ErrorFamily, Method, Service, TenantLimit};
use crate::redact::Redactor;
use crate::request::SendFuture;
use crate::response::RawResponse;
use crate::retry::{RetryPolicy, parse_retry_after};
use crate::tenant::Tenant;

mod budget;

use budget::{answered, budget_wait, plan_of};

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
    /// The call only reads (a query sent as `POST`): retried as an idempotent method is.
    pub(crate) read: bool,
}

/// A request ready to be sent (and re-sent): everything but the
/// `Authorization` header.
pub(crate) struct Prepared {
    pub(crate) method: Method,
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
    pub(crate) path_template: std::borrow::Cow<'static, str>,
    /// The service whose rate limit paces it (`None`: raw requests, paced by the tenant limit
    /// only).
    pub(crate) service: Option<&'static Service>,
    /// The limit of the whole tenant that the API publishes (every call counts against it).
    pub(crate) tenant_limit: Option<TenantLimit>,
    /// The delegated tenant it acts for (its bucket), `None` for the token's own.
    pub(crate) tenant: Option<Tenant>,
}

/// How one attempt failed, its request sent (or sending it failed).
struct Failed {
    error: Error,
    /// The answer's `Retry-After`, as a wait from when it arrived.
    retry_after: Option<Duration>,
    /// The access token the API refused with `401` (its [`Lease::id`](crate::auth::Lease)).
    refused_token: Option<u64>,
}

impl From<Error> for Failed {
    fn from(error: Error) -> Failed {
        Failed {
            error,
            retry_after: None,
            refused_token: None,
        }
    }
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

/// The future of one call: `req` sent by [`attempts`] inside a `ruckus_one.call` span, which
/// records the call's outcome.
///
/// The call is one boxed future with as few futures nested in it as the work allows (the
/// span's wrapper around the whole, the attempts' loop inside): a nested future is built, then
/// moved into its parent, so each level of nesting copies it once more on every call.
pub(crate) fn send(client: &Client, req: Prepared) -> SendFuture<'_> {
    let span = call_span(&req);
    let call = span.clone();
    Box::pin(
        async move {
            // No timer covers the whole call: each step is bounded by the deadline itself (an
            // attempt's timeout is capped to the time left and covers its body too; waits
            // for budget or before a retry that would end after it are not made; a token
            // request, when one is needed, runs under it), which saves a timer per call.
            let started = (!call.is_disabled()).then(std::time::Instant::now);
            let result = attempts(client, &req, &call).await;
            if let Some(started) = started {
                record_outcome(&call, &result, started.elapsed(), &client.redactor());
            }
            result
        }
        .instrument(span),
    )
}

/// The span of one call, its outcome's fields still empty.
fn call_span(req: &Prepared) -> Span {
    tracing::info_span!(
        target: "ruckus_one_runtime",
        "ruckus_one.call",
        operation = req.operation,
        method = req.method.as_str(),
        path = &*req.path_template,
        api = req.api,
        attempts = tracing::field::Empty,
        status = tracing::field::Empty,
        request_id = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        error = tracing::field::Empty,
        code = tracing::field::Empty,
        paced_ms = tracing::field::Empty,
    )
}

/// Records the outcome of a call on its span, and says it in an event. The
/// request id of a success answer goes through `redactor` (that of an
/// error went through it when the error was made).
fn record_outcome(
    span: &Span,
    result: &Result<RawResponse, Error>,
    elapsed: Duration,
    redactor: &Redactor,
) {
    let duration_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    span.record("duration_ms", duration_ms);
    match result {
        Ok(response) => {
            span.record("status", response.status());
            if let Some(id) = response.request_id() {
                span.record("request_id", redactor.text(id).as_str());
            }
            tracing::debug!(
                target: "ruckus_one_runtime",
                parent: span,
                status = response.status(),
                duration_ms,
                "call succeeded"
            );
        }
        Err(error) => {
            let kind = error_kind(error);
            span.record("error", kind);
            if let Some(status) = error.status() {
                span.record("status", status);
            }
            if let Some(id) = error.request_id() {
                span.record("request_id", id);
            }
            if let Some(code) = error.code() {
                span.record("code", code);
            }
            tracing::debug!(
                target: "ruckus_one_runtime",
                parent: span,
                error = kind,
                status = error.status(),
                duration_ms,
                "call failed"
            );
        }
    }
}

/// The kind of an error, for traces.
fn error_kind(error: &Error) -> &'static str {
    match error {
        Error::Transport(_) => "transport",
        Error::Timeout => "timeout",
        Error::Auth { .. } => "auth",
        Error::Api(_) => "api",
        Error::Decode(_) => "decode",
        Error::InvalidRequest { .. } => "invalid_request",
        Error::Activity(_) => "activity",
        Error::BodyTooLarge { .. } => "body_too_large",
        Error::InvalidTenantId { .. } => "invalid_tenant_id",
        Error::Env { .. } => "env",
        Error::Panicked => "panicked",
    }
}

/// Sends `req`, repeating it as the retry policy allows and once more with a fresh token after
/// a `401`, all within the call's deadline; records the attempts and the time paced on `span`.
///
/// One attempt's steps are inline in the loop rather than a future of their own (see [`send`]).
async fn attempts(client: &Client, req: &Prepared, span: &Span) -> Result<RawResponse, Error> {
    let shared = client.shared();
    let settings = Settings::of(&shared.config, req.options.as_deref());
    let deadline = Deadline::after(settings.call_timeout);
    let policy = settings.policy;
    let mut tries = Tries::default();
    let unit_token = match req.auth {
        ApiAuth::ClientCredentials => None,
        ApiAuth::UnitToken => Some(unit_token(shared, req.api)?),
    };
    let tenant = req.tenant.as_ref().map_or("", Tenant::id);
    let mut paced = Duration::ZERO;
    loop {
        let (budget, starting) = budget_wait(shared, req, tenant, &deadline).await?;
        if let Some((wait, unsent)) = budget {
            tokio::time::sleep(wait).await;
            unsent.sent();
            paced += wait;
            span.record("paced_ms", millis(paced));
        }
        tries.sent += 1;
        span.record("attempts", tries.sent);
        // One attempt. Its values live in this block only: a value still in scope at an
        // `await` takes room in the call's future, even when it was moved away.
        let failure = 'attempt: {
            // The token's own redactor masks it too; a unit token call takes the client's.
            let (outgoing, token, redactor) = match unit_token {
                Some(unit) => (
                    request(shared, req, unit.clone()),
                    None,
                    shared.tokens.redactor(),
                ),
                None => {
                    let lease = match shared.tokens.cached() {
                        Some(lease) => lease,
                        // Boxed: a token request is rare, and its future (a whole call of its
                        // own, with retries) would otherwise double the size of every call's
                        // future. Token requests were already repeated as the policy allows.
                        None => {
                            let fetch = shared.tokens.get(&shared.http, &deadline, policy);
                            Box::pin(deadline.run(fetch)).await?
                        }
                    };
                    (
                        request(shared, req, lease.header),
                        Some(lease.id),
                        lease.redactor,
                    )
                }
            };
            // The attempt (answer and body) is bounded by one timer, polled in place next to
            // them: reqwest's own per-request timeout would box a timer for the answer and
            // another for the body (four allocations a call).
            let mut timer = pin!(tokio::time::sleep(deadline.cap(settings.attempt_timeout)));
            let mut pending = pin!(shared.http.execute(outgoing));
            let mut response = match before(timer.as_mut(), pending.as_mut()).await {
                Some(Ok(response)) => {
                    if let Some(source) = starting {
                        answered(shared, req, tenant, source);
                    }
                    response
                }
                Some(Err(error)) => break 'attempt Failed::from(Error::from_reqwest(error)),
                None => break 'attempt Failed::from(Error::Timeout),
            };
            let status = response.status().as_u16();
            let success = (200..300).contains(&status);
            let limit = settings.max_body_size;
            let read_limit = if success {
                limit
            } else {
                limit.min(MAX_ERROR_BODY_SIZE)
            };
            let body = {
                let read = pin!(read_limited(&mut response, read_limit, success));
                before(timer.as_mut(), read).await
            };
            let body = match body {
                Some(Ok(body)) => body,
                Some(Err(error)) => break 'attempt Failed::from(Error::from_reqwest(error)),
                None => break 'attempt Failed::from(Error::Timeout),
            };
            let headers = std::mem::take(response.headers_mut());
            match answer(req, status, headers, body, limit, redactor, token) {
                Ok(response) => {
                    span.record("status", status);
                    return Ok(response);
                }
                Err(failure) => failure,
            }
        };
        if let Some(wait) =
            after_failure(shared, req, span, failure, &mut tries, policy, &deadline)?
        {
            tokio::time::sleep(wait).await;
        }
    }
}

/// The attempts of one call so far.
#[derive(Default)]
struct Tries {
    /// Attempts sent.
    sent: u32,
    /// Attempts that failed, the one repeated with a fresh token aside.
    failed: u32,
    /// Whether the access token was renewed after a `401` (once a call).
    renewed_token: bool,
}

/// What follows a failed attempt: `Ok(None)` to repeat it at once with a fresh token (after the
/// first `401`), `Ok(Some(wait))` to repeat it after `wait` as the retry policy allows, or the
/// attempt's error to give up. Records the status on `span` and a `429` on the service's pacer.
fn after_failure(
    shared: &Shared,
    req: &Prepared,
    span: &Span,
    failure: Failed,
    tries: &mut Tries,
    policy: &RetryPolicy,
    deadline: &Deadline,
) -> Result<Option<Duration>, Error> {
    if let Some(status) = failure.error.status() {
        span.record("status", status);
    }
    if let (Some(token), false) = (failure.refused_token, tries.renewed_token) {
        tracing::debug!(
            target: "ruckus_one_runtime",
            "the access token was refused (HTTP 401): renewing it and repeating the call"
        );
        tries.renewed_token = true;
        shared.tokens.invalidate(token);
        return Ok(None);
    }
    let tenant = req.tenant.as_ref().map_or("", Tenant::id);
    throttle(shared, req, tenant, policy, &failure);
    tries.failed += 1;
    // A `POST .../query` or the activity query is a read, whatever its method.
    let idempotent = req.method.is_idempotent() || req.options.as_ref().is_some_and(|o| o.read);
    let retryable = failure
        .error
        .failure()
        .is_some_and(|f| f.is_retryable(idempotent));
    if !retryable || tries.failed >= policy.attempts() {
        return Err(failure.error);
    }
    retry_wait(policy, tries.failed, tries.sent, failure, deadline).map(Some)
}

/// After a `429` to a paced call, empties the buckets of `req` for `tenant` and holds them for
/// the answer's `Retry-After`, at most the policy's `max_retry_after`: a longer wait is the
/// caller's to honour (the error carries it), never a hold of the buckets for hours.
fn throttle(shared: &Shared, req: &Prepared, tenant: &str, policy: &RetryPolicy, failure: &Failed) {
    if failure.error.status() != Some(429) {
        return;
    }
    if let Some(plan) = plan_of(shared, req, tenant) {
        let hold = failure.retry_after.map(|d| d.min(policy.max_retry_after));
        shared.pacer.throttled(&plan, tenant, hold);
    }
}

/// `work`'s output, or `None` when `timer` fires first; both stay where they are (pinned in the
/// caller's future) instead of moving into a combinator.
fn before<'a, F: Future>(
    mut timer: Pin<&'a mut Sleep>,
    mut work: Pin<&'a mut F>,
) -> impl Future<Output = Option<F::Output>> + 'a {
    std::future::poll_fn(move |cx| {
        if let Poll::Ready(output) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        timer.as_mut().poll(cx).map(|()| None)
    })
}

/// The wait before the next attempt after `failure` (the `failed`-th failure, of `sent`
/// attempts), or the failure's error when it is not to be retried: the service asks for a
/// longer wait than the policy allows, or the wait would end after the deadline.
fn retry_wait(
    policy: &RetryPolicy,
    failed: u32,
    sent: u32,
    failure: Failed,
    deadline: &Deadline,
) -> Result<Duration, Error> {
    let reason = failure_reason(&failure.error);
    let retry_after_s = failure.retry_after.map(|d| d.as_secs());
    match policy.delay(failed, failure.retry_after) {
        Some(wait) if deadline.allows_wait(wait) => {
            tracing::info!(
                target: "ruckus_one_runtime",
                attempt = sent,
                delay_ms = millis(wait),
                reason = %reason,
                retry_after_s,
                "retrying"
            );
            Ok(wait)
        }
        Some(_) => {
            tracing::info!(
                target: "ruckus_one_runtime",
                attempt = sent,
                reason = %reason,
                "not retrying: the wait would end after the call's deadline"
            );
            Err(failure.error)
        }
        None => {
            tracing::info!(
                target: "ruckus_one_runtime",
                attempt = sent,
                reason = %reason,
                retry_after_s,
                "not retrying: the service asks to wait longer than the retry policy allows"
            );
            Err(failure.error)
        }
    }
}
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The request of one attempt: `req` with `authorization`, the headers the runtime manages
/// replacing any of the same name the caller gave. Built as a whole rather than through
/// reqwest's builder, whose every call moves the builder (a few hundred bytes) once more.
fn request(shared: &Shared, req: &Prepared, authorization: HeaderValue) -> reqwest::Request {
    let mut request = reqwest::Request::new(req.method.to_reqwest(), req.url.clone());
    let headers = request.headers_mut();
    // The call's headers go straight into reqwest's (their values are shared, not copied).
    if let Some(given) = &req.headers {
        headers.clone_from(given);
    }
    headers.insert(ACCEPT, req.accept.clone());
    if let Some(value) = &req.content_type {
        headers.insert(CONTENT_TYPE, value.clone());
    }
    if let Some(tenant) = &req.tenant {
        headers.insert(shared.tenant_header.clone(), tenant.header().clone());
    }
    headers.insert(AUTHORIZATION, authorization);
    if let Some(user_agent) = &shared.user_agent {
        headers.insert(USER_AGENT, user_agent.clone());
    }
    if let Some(body) = &req.body {
        *request.body_mut() = Some(body.clone().into());
    }
    request
}

/// What an answer of `status` with `headers` and `body` (read up to `limit`) means for the call:
/// the response, or how the attempt failed. `token` is the id of the access token sent, if any.
fn answer(
    req: &Prepared,
    status: u16,
    headers: HeaderMap,
    body: Limited,
    limit: usize,
    redactor: Redactor,
    token: Option<u64>,
) -> Result<RawResponse, Failed> {
    if (200..300).contains(&status) {
        if let Some(found) = Deprecation::of(&headers) {
            let version = deprecation::version_of(req.accept.to_str().unwrap_or_default());
            let operation = match req.operation {
                "raw" => &req.path_template,
                id => id,
            };
            deprecation::warn_once(operation, version, &found);
        }
        if body.exceeded {
            return Err(Failed::from(Error::BodyTooLarge {
                limit: limit as u64,
                status,
            }));
        }
        // A write the service took: 201 or 202 to any method, any success to PUT, PATCH or
        // DELETE (a POST answered 200 may be a query, which is no write).
        let write = matches!(status, 201 | 202)
            || matches!(req.method, Method::Put | Method::Patch | Method::Delete);
        return Ok(RawResponse::new(status, headers, body.bytes, redactor).of_write(write));
    }
    let retry_after = headers
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| parse_retry_after(v, SystemTime::now()));
    let request_id = headers.get("x-request-id").and_then(|v| v.to_str().ok());
    let error = ApiError::new(
        status,
        request_id,
        body.bytes,
        body.exceeded,
        req.family,
        &redactor,
    )
    .with_retry_after(retry_after);
    Err(Failed {
        retry_after,
        refused_token: token.filter(|_| status == 401),
        ..Failed::from(Error::Api(error))
    })
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
