//! [`ActivityError`]: an asynchronous request that failed or did not finish.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

use super::text::{MESSAGE_MAX, one_line};
use crate::error_body::{self, ErrorDetail};
use crate::redact::Redactor;

/// An asynchronous request that failed, or did not finish in time.
#[derive(Debug, Clone)]
pub struct ActivityError {
    request_id: String,
    outcome: Outcome,
}

#[derive(Debug, Clone)]
enum Outcome {
    Failed {
        error: Option<String>,
        /// `error` parsed, when it is JSON of a known error shape.
        details: Vec<ErrorDetail>,
        activity: Value,
    },
    TimedOut {
        waited: Duration,
        last_status: Option<String>,
    },
}

impl ActivityError {
    /// The error for an activity whose status is `FAIL`, with its `error`
    /// text. Everything goes through `redactor` first (the entries parsed
    /// from the error text field by field, so that masking cannot break
    /// their parsing).
    pub(crate) fn failed(
        request_id: &str,
        error: Option<&str>,
        activity: Value,
        redactor: &Redactor,
    ) -> ActivityError {
        let details = error
            .map(error_body::details_of_text)
            .unwrap_or_default()
            .into_iter()
            .map(|detail| redact_detail(detail, redactor))
            .collect();
        ActivityError {
            request_id: redactor.text(request_id),
            outcome: Outcome::Failed {
                details,
                error: redactor.option(error),
                activity: redactor.value(activity),
            },
        }
    }

    /// The error for an activity still unfinished after `waited`.
    pub(crate) fn timed_out(
        request_id: &str,
        waited: Duration,
        last_status: Option<&str>,
        redactor: &Redactor,
    ) -> ActivityError {
        ActivityError {
            request_id: redactor.text(request_id),
            outcome: Outcome::TimedOut {
                waited,
                last_status: redactor.option(last_status),
            },
        }
    }

    /// The request id that was polled.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// The activity's `error` text when it failed (often a JSON document inside a string).
    pub fn error_text(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Failed { error, .. } => error.as_deref(),
            Outcome::TimedOut { .. } => None,
        }
    }

    /// The structured entries of the activity's `error`, when that text is
    /// JSON of one of the known error shapes (see
    /// [`ErrorBody`](crate::ErrorBody)) or an array of error objects
    /// (`{"code", "message", "reason", "suggestion"}`); empty when it is not,
    /// and for timeouts. [`error_text`](Self::error_text) keeps the text.
    pub fn errors(&self) -> Vec<ErrorDetail> {
        self.details().to_vec()
    }

    pub(super) fn details(&self) -> &[ErrorDetail] {
        match &self.outcome {
            Outcome::Failed { details, .. } => details,
            Outcome::TimedOut { .. } => &[],
        }
    }

    /// The failed activity as received.
    pub fn activity(&self) -> Option<&Value> {
        match &self.outcome {
            Outcome::Failed { activity, .. } => Some(activity),
            Outcome::TimedOut { .. } => None,
        }
    }

    /// Whether waiting gave up before the activity finished.
    pub fn is_timeout(&self) -> bool {
        matches!(self.outcome, Outcome::TimedOut { .. })
    }

    /// The last status seen before giving up (`None` if the activity was never found).
    pub fn last_status(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::TimedOut { last_status, .. } => last_status.as_deref(),
            Outcome::Failed { .. } => Some("FAIL"),
        }
    }
}

impl fmt::Display for ActivityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Outcome::Failed {
                error: Some(e),
                details,
                ..
            } => {
                write!(f, "activity {} failed: ", self.request_id)?;
                let first = details.first();
                let code = first.and_then(|d| d.code.as_deref());
                match (code, first.and_then(ErrorDetail::text)) {
                    (Some(code), Some(text)) if code != text => write!(
                        f,
                        "{}: {}",
                        one_line(code, 100),
                        one_line(text, MESSAGE_MAX)
                    ),
                    (_, Some(text)) => f.write_str(&one_line(text, MESSAGE_MAX)),
                    (_, None) => f.write_str(&one_line(e, MESSAGE_MAX)),
                }
            }
            Outcome::Failed { error: None, .. } => write!(f, "activity {} failed", self.request_id),
            Outcome::TimedOut {
                waited,
                last_status,
            } => write!(
                f,
                "activity {} did not finish within {waited:?} (last status: {})",
                self.request_id,
                last_status.as_deref().unwrap_or("not found yet")
            ),
        }
    }
}

impl std::error::Error for ActivityError {}

/// `detail` with each of its texts redacted.
fn redact_detail(detail: ErrorDetail, redactor: &Redactor) -> ErrorDetail {
    let redact = |text: Option<String>| text.map(|t| redactor.text(&t));
    ErrorDetail {
        code: redact(detail.code),
        field: redact(detail.field),
        message: redact(detail.message),
        reason: redact(detail.reason),
        suggestion: redact(detail.suggestion),
    }
}
