//! Sending a prepared request: token, attempts, retries, error decoding.

use std::time::{Duration, SystemTime};

use bytes::Bytes;
use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER, USER_AGENT,
};
use tracing::{Instrument, Span};

use crate::auth::failure_reason;
use crate::body::read_limited;
use crate::client::{Client, Shared};
use crate::config::MAX_ERROR_BODY_SIZE;
use crate::deadline::Deadline;
use crate::error::{ApiError, Error};
use crate::operation::{ApiAuth, ErrorFamily, Method, Service};
use crate::redact::Redactor;
use crate::response::RawResponse;
use crate::retry::{RetryPolicy, parse_retry_after};
use crate::tenant::Tenant;

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
    /// The service whose rate limit paces it (`None`: raw requests, not paced).
    pub(crate) service: Option<&'static Service>,
    /// The delegated tenant it acts for (its bucket), `None` for the token's own.
    pub(crate) tenant: Option<Tenant>,
}

/// How one attempt failed.
struct Failed {
    error: Error,
    /// Whether the request was sent. When no access token could be obtained
    /// nothing reached the API, so any method may try again.
    sent: bool,
    /// The answer's `Retry-After`, as a wait from when it arrived.
    retry_after: Option<Duration>,
    /// The access token the API refused with `401` (its [`Lease::id`](crate::auth::Lease)).
    refused_token: Option<u64>,
    /// No access token could be obtained; the token requests were already
    /// repeated as the policy allows.
    no_token: bool,
}

impl Failed {
    fn unsent(error: Error) -> Failed {
        Failed {
            error,
            sent: false,
            retry_after: None,
            refused_token: None,
            no_token: false,
        }
    }

    fn sent(error: Error) -> Failed {
        Failed {
            sent: true,
            ..Failed::unsent(error)
        }
    }
}

/// The settings of one call: the client's, with the call's overrides.
struct Settings<'a> {
    policy: &'a RetryPolicy,
    attempt_timeout: Duration,
    max_body_size: usize,
}

/// Sends `req`, repeating it as the retry policy allows and once more with a
/// fresh token after a `401`, all within the call's deadline, inside a
/// `ruckus_one.call` span.
pub(crate) async fn execute(client: &Client, req: &Prepared) -> Result<RawResponse, Error> {
    let config = &client.shared().config;
    let options = req.options.as_deref();
    let deadline = Deadline::after(
        options
            .and_then(|o| o.call_timeout)
            .unwrap_or(config.call_timeout),
    );
    let settings = Settings {
        policy: options
            .and_then(|o| o.retry.as_ref())
            .unwrap_or(&config.retry),
        attempt_timeout: options
            .and_then(|o| o.attempt_timeout)
            .unwrap_or(config.request_timeout),
        max_body_size: options
            .and_then(|o| o.max_body_size)
            .unwrap_or(config.max_body_size),
    };
    let span = tracing::info_span!(
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
    );
    // No timer covers the whole call: each step is bounded by the deadline itself (an
    // attempt's timeout is capped to the time left and covers its body too; waits
    // for budget or before a retry that would end after it are not made; a token request,
    // when one is needed, runs under it), which saves a timer per call.
    let started = (!span.is_disabled()).then(std::time::Instant::now);
    let result = attempts(client, req, &settings, &deadline, &span)
        .instrument(span.clone())
        .await;
    if let Some(started) = started {
        record_outcome(&span, &result, started.elapsed(), &client.redactor());
    }
    result
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
    }
}

async fn attempts(
    client: &Client,
    req: &Prepared,
    settings: &Settings<'_>,
    deadline: &Deadline,
    span: &Span,
) -> Result<RawResponse, Error> {
    let shared = client.shared();
    let policy = settings.policy;
    let attempts = policy.attempts();
    let idempotent = req.method.is_idempotent();
    let mut failed = 0u32;
    let mut sent = 0u32;
    let mut renewed_token = false;
    let unit_token = match req.auth {
        ApiAuth::ClientCredentials => None,
        ApiAuth::UnitToken => Some(unit_token_header(client, req.api)?),
    };
    let tenant = req.tenant.as_ref().map_or("", Tenant::id);
    let mut paced = Duration::ZERO;
    loop {
        if let Some(service) = req.service {
            pace(shared, service, tenant, deadline, span, &mut paced).await?;
        }
        sent += 1;
        span.record("attempts", sent);
        let failure =
            match attempt(shared, req, unit_token.as_ref(), settings, deadline, span).await {
                Ok(response) => return Ok(response),
                Err(failure) => failure,
            };
        if let (Some(token), false) = (failure.refused_token, renewed_token) {
            tracing::debug!(
                target: "ruckus_one_runtime",
                "the access token was refused (HTTP 401): renewing it and repeating the call"
            );
            renewed_token = true;
            shared.tokens.invalidate(token);
            continue;
        }
        if let (Some(service), Some(429)) = (req.service, failure.error.status()) {
            shared.pacer.throttled(service, tenant, failure.retry_after);
        }
        failed += 1;
        let retryable = !failure.no_token
            && failure
                .error
                .failure()
                .is_some_and(|f| f.is_retryable(idempotent || !failure.sent));
        if !retryable || failed >= attempts {
            return Err(failure.error);
        }
        let reason = failure_reason(&failure.error);
        // A service that asks for a longer wait than the policy allows, or
        // a wait that would end after the deadline: the error now.
        match policy.delay(failed, failure.retry_after) {
            Some(wait) if deadline.allows_wait(wait) => {
                tracing::info!(
                    target: "ruckus_one_runtime",
                    attempt = sent,
                    delay_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                    reason = %reason,
                    retry_after_s = failure.retry_after.map(|d| d.as_secs()),
                    "retrying"
                );
                tokio::time::sleep(wait).await;
            }
            Some(_) => {
                tracing::info!(
                    target: "ruckus_one_runtime",
                    attempt = sent,
                    reason = %reason,
                    "not retrying: the wait would end after the call's deadline"
                );
                return Err(failure.error);
            }
            None => {
                tracing::info!(
                    target: "ruckus_one_runtime",
                    attempt = sent,
                    reason = %reason,
                    retry_after_s = failure.retry_after.map(|d| d.as_secs()),
                    "not retrying: the service asks to wait longer than the retry policy allows"
                );
                return Err(failure.error);
            }
        }
    }
}

/// Takes one call from the bucket of (`service`, `tenant`), waiting until the service's limit
/// allows it; the time waited is added to `paced` and recorded on the call's span
/// (`paced_ms`). A wait that would end after the call's deadline gives the call back and fails
/// at once with [`Error::Timeout`].
async fn pace(
    shared: &Shared,
    service: &'static Service,
    tenant: &str,
    deadline: &Deadline,
    span: &Span,
    paced: &mut Duration,
) -> Result<(), Error> {
    let Some(reservation) = shared.pacer.reserve(service, tenant) else {
        return Ok(());
    };
    let wait = reservation.wait;
    if wait.is_zero() {
        return Ok(());
    }
    if !deadline.allows_wait(wait) {
        shared.pacer.release(service, tenant);
        tracing::info!(
            target: "ruckus_one_runtime",
            service = service.name,
            wait_ms = millis(wait),
            "not sending: the rate budget frees up after the call's deadline"
        );
        return Err(Error::Timeout);
    }
    tracing::debug!(
        target: "ruckus_one_runtime",
        service = service.name,
        wait_ms = millis(wait),
        "waiting for rate budget"
    );
    tokio::time::sleep(wait).await;
    *paced += wait;
    span.record("paced_ms", millis(*paced));
    Ok(())
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Obtains the token if needed and sends `req` once.
async fn attempt(
    shared: &Shared,
    req: &Prepared,
    unit_token: Option<&HeaderValue>,
    settings: &Settings<'_>,
    deadline: &Deadline,
    span: &Span,
) -> Result<RawResponse, Failed> {
    let lease = match unit_token {
        Some(_) => None,
        None => match shared.tokens.cached() {
            Some(lease) => Some(lease),
            // Boxed: a token request is rare, and its future (a whole call of its own, with
            // retries) would otherwise double the size of every call's future, which is copied
            // and touched on every call.
            None => Some(
                Box::pin(deadline.run(shared.tokens.get(&shared.http, deadline, settings.policy)))
                    .await
                    .map_err(|error| Failed {
                        no_token: true,
                        ..Failed::unsent(error)
                    })?,
            ),
        },
    };
    // The token's own redactor masks it too; a unit token call takes the client's.
    let (authorization, token, redactor) = match lease {
        Some(lease) => (Some(lease.header), Some(lease.id), lease.redactor),
        None => (unit_token.cloned(), None, shared.tokens.redactor()),
    };
    let mut builder = shared
        .http
        .request(req.method.to_reqwest(), req.url.clone());
    // The call's headers go straight into reqwest's (their values are shared, not copied),
    // except those the runtime sets itself, which replace any given.
    for (name, value) in req.headers.iter().flat_map(|h| h.iter()) {
        let managed = name == ACCEPT
            || (name == CONTENT_TYPE && req.content_type.is_some())
            || (name == shared.tenant_header && req.tenant.is_some())
            || (name == AUTHORIZATION && authorization.is_some())
            || (name == USER_AGENT && shared.user_agent.is_some());
        if !managed {
            builder = builder.header(name.clone(), value.clone());
        }
    }
    builder = builder.header(ACCEPT, req.accept.clone());
    if let Some(value) = &req.content_type {
        builder = builder.header(CONTENT_TYPE, value.clone());
    }
    if let Some(tenant) = &req.tenant {
        builder = builder.header(shared.tenant_header.clone(), tenant.header().clone());
    }
    if let Some(value) = authorization {
        builder = builder.header(AUTHORIZATION, value);
    }
    if let Some(user_agent) = &shared.user_agent {
        builder = builder.header(USER_AGENT, user_agent.clone());
    }
    if let Some(body) = &req.body {
        builder = builder.body(body.clone());
    }
    let limit = settings.max_body_size;
    // The attempt (answer and body) is bounded by tokio's timeout around it, kept inside this
    // future: reqwest's own per-request timeout would box a timer for the answer and another
    // for the body (four allocations a call).
    let attempt_limit = deadline.cap(settings.attempt_timeout);
    // Sent now: the future below holds reqwest's small pending call, not the request builder.
    let pending = builder.send();
    let outcome = tokio::time::timeout(attempt_limit, async {
        let mut response = pending.await?;
        let status = response.status().as_u16();
        let success = (200..300).contains(&status);
        let read_limit = if success {
            limit
        } else {
            limit.min(MAX_ERROR_BODY_SIZE)
        };
        let body = read_limited(&mut response, read_limit, success).await?;
        // Taken after the body: not kept in the future while the body is read.
        let headers = std::mem::take(response.headers_mut());
        Ok::<_, reqwest::Error>((status, headers, body))
    })
    .await;
    let (status, headers, body) = match outcome {
        Ok(answer) => answer.map_err(|e| Failed::sent(Error::from_reqwest(e)))?,
        Err(_elapsed) => return Err(Failed::sent(Error::Timeout)),
    };
    span.record("status", status);
    if (200..300).contains(&status) {
        if body.exceeded {
            return Err(Failed::sent(Error::BodyTooLarge {
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
        ..Failed::sent(Error::Api(error))
    })
}

/// `Bearer <unit token>` from the configuration, marked sensitive.
fn unit_token_header(client: &Client, api: &str) -> Result<reqwest::header::HeaderValue, Error> {
    let missing = || Error::Auth {
        status: None,
        message: format!(
            "operations of the `{api}` API need a token: set it with Config::unit_token"
        ),
    };
    let secret = client
        .shared()
        .config
        .unit_token
        .as_ref()
        .ok_or_else(missing)?;
    let mut value = reqwest::header::HeaderValue::from_str(&format!("Bearer {}", secret.expose()))
        .map_err(|_| Error::InvalidRequest {
            message: "the unit token contains characters not allowed in a header".to_owned(),
        })?;
    value.set_sensitive(true);
    Ok(value)
}
