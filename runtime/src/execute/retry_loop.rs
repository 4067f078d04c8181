//! The loop over a call's attempts: pace, authorize, attempt, then decide whether to go again.

use std::time::Duration;

use tracing::Span;

use super::attempt::{Failed, attempt, authorize};
use super::budget::{budget_wait, plan_of};
use super::{Call, Prepared, millis};
use crate::auth::failure_reason;
use crate::client::Shared;
use crate::deadline::Deadline;
use crate::error::Error;
use crate::pacing::Source;
use crate::response::RawResponse;
use crate::retry::RetryPolicy;

/// Sends `req`, repeating it as the retry policy allows and once more with a fresh token after
/// a `401`, all within the call's deadline; records the attempts and the time paced on `span`.
pub(super) async fn run(
    shared: &Shared,
    req: &Prepared,
    span: &Span,
) -> Result<RawResponse, Error> {
    let call = Call::new(shared, req, span)?;
    let mut tries = Tries::default();
    loop {
        let starting = pace(&call, &mut tries).await?;
        tries.sent += 1;
        span.record("attempts", tries.sent);
        // A token request that fails ends the call: it was repeated as the policy allows.
        let authorized = authorize(&call).await?;
        let failure = match attempt(&call, authorized, starting).await {
            Ok(response) => return Ok(response),
            Err(failure) => failure,
        };
        match decide(&call, failure, &mut tries) {
            Next::Renewed => {}
            Next::RetryAfter(wait) => tokio::time::sleep(wait).await,
            Next::Stop(error) => return Err(error),
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
    /// Time spent waiting for rate budget, all attempts together.
    paced: Duration,
}

/// Takes the next attempt from the call's buckets, waiting until the limits allow it; records
/// the time paced on the span. With it, where the attempt was taken when its buckets were
/// starting (its answer is to be told).
async fn pace(call: &Call<'_>, tries: &mut Tries) -> Result<Option<Source>, Error> {
    let (budget, starting) =
        budget_wait(call.shared, call.req, call.tenant, &call.deadline).await?;
    if let Some((wait, unsent)) = budget {
        tokio::time::sleep(wait).await;
        unsent.sent();
        tries.paced += wait;
        call.span.record("paced_ms", millis(tries.paced));
    }
    Ok(starting)
}

/// What follows a failed attempt.
enum Next {
    /// The access token was refused (the first `401`) and is forgotten: repeat at once with a
    /// fresh one.
    Renewed,
    /// Repeat after this wait, as the retry policy allows.
    RetryAfter(Duration),
    /// Give up with the attempt's error.
    Stop(Error),
}

/// What follows `failure`. Records the status on the span and a `429` on the call's buckets.
fn decide(call: &Call<'_>, failure: Failed, tries: &mut Tries) -> Next {
    if let Some(status) = failure.error.status() {
        call.span.record("status", status);
    }
    if let (Some(token), false) = (failure.refused_token, tries.renewed_token) {
        tracing::debug!(
            target: "ruckus_one_runtime",
            "the access token was refused (HTTP 401): renewing it and repeating the call"
        );
        tries.renewed_token = true;
        call.shared.tokens.invalidate(token);
        return Next::Renewed;
    }
    let policy = call.settings.policy;
    throttle(call, policy, &failure);
    tries.failed += 1;
    // A `POST .../query` or the activity query is a read, whatever its method.
    let req = call.req;
    let idempotent = req.method.is_idempotent() || req.reads;
    let retryable = failure
        .error
        .failure()
        .is_some_and(|f| f.is_retryable(idempotent));
    if !retryable || tries.failed >= policy.attempts() {
        return Next::Stop(failure.error);
    }
    match retry_wait(policy, tries.failed, tries.sent, failure, &call.deadline) {
        Ok(wait) => Next::RetryAfter(wait),
        Err(error) => Next::Stop(error),
    }
}

/// After a `429` to a paced call, empties the call's buckets and holds them for
/// the answer's `Retry-After`, at most the policy's `max_retry_after`: a longer wait is the
/// caller's to honour (the error carries it), never a hold of the buckets for hours.
fn throttle(call: &Call<'_>, policy: &RetryPolicy, failure: &Failed) {
    if failure.error.status() != Some(429) {
        return;
    }
    if let Some(plan) = plan_of(call.shared, call.req, call.tenant) {
        let hold = failure.retry_after.map(|d| d.min(policy.max_retry_after));
        call.shared.pacer.throttled(&plan, call.tenant, hold);
    }
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
