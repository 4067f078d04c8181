//! The call's span: opened with what the call is, its outcome recorded when it ends.

use std::time::Duration;

use tracing::Span;

use super::Prepared;
use crate::error::Error;
use crate::redact::Redactor;
use crate::response::RawResponse;

/// The span of one call, its outcome's fields still empty.
pub(super) fn call_span(req: &Prepared) -> Span {
    tracing::info_span!(
        target: "ruckus_one_runtime",
        "ruckus_one.call",
        operation = req.operation,
        method = req.method.as_str(),
        path = &*req.path_template,
        api = req.api,
        url = tracing::field::Empty,
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
pub(super) fn record(
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
