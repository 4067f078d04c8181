//! One attempt of a call: authorize, then exchange and classify.

use std::future::Future;
use std::pin::{Pin, pin};
use std::task::Poll;
use std::time::{Duration, SystemTime};

use reqwest::Response;
use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER, USER_AGENT,
};
use tokio::time::Sleep;

use super::budget::answered;
use super::{Call, Prepared};
use crate::body::{Limited, read_limited};
use crate::client::Shared;
use crate::config::MAX_ERROR_BODY_SIZE;
use crate::deprecation::{self, Deprecation};
use crate::error::{ApiError, Error};
use crate::operation::Method;
use crate::pacing::Source;
use crate::redact::Redactor;
use crate::response::RawResponse;
use crate::retry::parse_retry_after;

/// How one attempt failed, its request sent (or sending it failed).
pub(super) struct Failed {
    pub(super) error: Error,
    /// The answer's `Retry-After`, as a wait from when it arrived.
    pub(super) retry_after: Option<Duration>,
    /// The access token the API refused with `401` (its [`Lease::id`](crate::auth::Lease)).
    pub(super) refused_token: Option<u64>,
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

/// The attempt's request, authorized and handed to reqwest, with what goes with the token sent.
pub(super) struct Authorized<P> {
    /// reqwest's pending answer (a pointer), rather than the request (a few hundred bytes,
    /// which would take room in the attempt's future throughout).
    pending: P,
    /// The id of the access token sent ([`Lease::id`](crate::auth::Lease)); `None` for the
    /// unit token.
    token: Option<u64>,
    /// Masks the token in the answer (the token's own redactor; the client's for the unit
    /// token).
    redactor: Redactor,
}

/// Authorizes the attempt's request with the unit token or an access token (the cached one,
/// else one requested now, within the call's deadline and repeated as the retry policy allows:
/// its error is the call's) and hands it to reqwest.
pub(super) async fn authorize(
    call: &Call<'_>,
) -> Result<Authorized<impl Future<Output = reqwest::Result<Response>> + use<>>, Error> {
    let shared = call.shared;
    let (header, token, redactor) = match call.unit_token {
        Some(unit) => (unit.clone(), None, shared.tokens.redactor()),
        None => {
            let lease = match shared.tokens.cached() {
                Some(lease) => lease,
                // Boxed: a token request is rare, and its future (a whole call of its own, with
                // retries) would otherwise double the size of every call's future.
                None => {
                    let fetch =
                        shared
                            .tokens
                            .get(&shared.http, &call.deadline, call.settings.policy);
                    Box::pin(call.deadline.run(fetch)).await?
                }
            };
            (lease.header, Some(lease.id), lease.redactor)
        }
    };
    let request = request(shared, call.req, header);
    if super::wire::wanted() {
        super::wire::request(&request, &redactor);
    }
    Ok(Authorized {
        pending: shared.http.execute(request),
        token,
        redactor,
    })
}

/// One attempt, its request authorized: exchange → classify. `starting`: where the attempt was
/// taken when its buckets were starting (the answer is told to them).
pub(super) async fn attempt(
    call: &Call<'_>,
    authorized: Authorized<impl Future<Output = reqwest::Result<Response>>>,
    starting: Option<Source>,
) -> Result<RawResponse, Failed> {
    let Authorized {
        pending,
        token,
        redactor,
    } = authorized;
    let (status, headers, body) = exchange(call, pending, starting).await?;
    if super::wire::wanted() {
        super::wire::response(status, &headers, &body.bytes, &redactor);
    }
    let limit = call.settings.max_body_size;
    let response = classify(call.req, status, headers, body, limit, redactor, token)?;
    call.span.record("status", status);
    Ok(response)
}

/// Waits for the answer to the request `pending` and reads its body (up to the call's limit,
/// less for an error), both under one timer: the attempt's timeout, capped to the call's
/// deadline. The timer is polled in place next to them: reqwest's own per-request timeout would
/// box a timer for the answer and another for the body (four allocations a call).
async fn exchange(
    call: &Call<'_>,
    pending: impl Future<Output = reqwest::Result<Response>>,
    starting: Option<Source>,
) -> Result<(u16, HeaderMap, Limited), Failed> {
    let shared = call.shared;
    let mut timer = pin!(tokio::time::sleep(
        call.deadline.cap(call.settings.attempt_timeout)
    ));
    let pending = pin!(pending);
    let mut response = settled(before(timer.as_mut(), pending).await)?;
    if let Some(source) = starting {
        answered(shared, call.req, call.tenant, source);
    }
    let status = response.status().as_u16();
    let success = (200..300).contains(&status);
    let limit = call.settings.max_body_size;
    let read_limit = if success {
        limit
    } else {
        limit.min(MAX_ERROR_BODY_SIZE)
    };
    let body = {
        let read = pin!(read_limited(&mut response, read_limit, success));
        settled(before(timer.as_mut(), read).await)?
    };
    Ok((status, std::mem::take(response.headers_mut()), body))
}

/// What [`before`] gave for a step of the exchange: its output, or how the attempt failed.
fn settled<T>(outcome: Option<Result<T, reqwest::Error>>) -> Result<T, Failed> {
    match outcome {
        Some(Ok(output)) => Ok(output),
        Some(Err(error)) => Err(Failed::from(Error::from_reqwest(error))),
        None => Err(Failed::from(Error::Timeout)),
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

/// The request of one attempt: `req` with `authorization`, the headers the runtime manages
/// replacing any of the same name the caller gave. Built as a whole rather than through
/// reqwest's builder, whose every call moves the builder (a few hundred bytes) once more.
fn request(shared: &Shared, req: &Prepared, authorization: HeaderValue) -> reqwest::Request {
    let mut request = reqwest::Request::new(req.method.to_reqwest(), req.url.clone());
    fill_headers(request.headers_mut(), shared, req, authorization);
    if let Some(body) = &req.body {
        *request.body_mut() = Some(body.clone().into());
    }
    request
}

/// The headers `req` is sent with: the caller's, then those the runtime manages (replacing any
/// of the same name), `authorization` among them. The one rule for a call and its preview.
pub(crate) fn fill_headers(
    headers: &mut HeaderMap,
    shared: &Shared,
    req: &Prepared,
    authorization: HeaderValue,
) {
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
}

/// What an answer of `status` with `headers` and `body` (read up to `limit`) means for the call:
/// the response, or how the attempt failed. `token` is the id of the access token sent, if any.
fn classify(
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
