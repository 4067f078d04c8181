//! Error answers in the shape of the operation's error family (the spec's `error_families`),
//! made to validate against the family's body schema.

use crate::conform::Samples;
use crate::model::{FamilyKind, Table};
use serde_json::{Value, json};

/// A refusal: status, a service-style code and a message.
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    /// Seconds for `Retry-After` (429).
    pub retry_after: Option<u64>,
    /// The rate limit that refused the call (a service's name, or `(tenant)`).
    pub limit: Option<String>,
}

impl Refusal {
    pub(crate) fn new(status: u16, code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            code,
            message: message.into(),
            retry_after: None,
            limit: None,
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> Refusal {
        Refusal::new(400, "SIM-400", message)
    }

    pub(crate) fn not_found(what: &str) -> Refusal {
        Refusal::new(404, "SIM-404", format!("{what} not found"))
    }
}

/// The body of `r` in the family `family` of `samples.table`.
pub(crate) fn body(samples: &Samples<'_>, family: &str, r: &Refusal, request_id: &str) -> Value {
    let table: &Table = samples.table;
    let Some(f) = table.family(family) else {
        return json!({"message": r.message, "requestId": request_id});
    };
    let candidate = match f.kind {
        FamilyKind::ErrorsArray => json!({
            "requestId": request_id,
            "errors": [{"code": r.code, "message": r.message, "reason": r.message}],
        }),
        FamilyKind::ErrorsMap => json!({"errors": {"request": r.message}}),
        FamilyKind::StatusMessage => json!({
            "status": r.status,
            "timestamp": samples.now,
            "message": r.message,
            "debugMessage": r.code,
            "subErrors": [],
        }),
        FamilyKind::Portal => json!({
            "status": r.status,
            "timestamp": samples.now,
            "message": r.message,
            "detailedMessage": r.code,
            "validationErrors": [],
        }),
        FamilyKind::FlatObject | FamilyKind::ErrorObject => json!({
            "code": r.code,
            "message": r.message,
            "reason": r.message,
            "suggestion": "See the message.",
        }),
    };
    samples.conform(Some(&candidate), &f.schema)
}
