//! Decoded error bodies of the three shapes the services use.

use serde_json::{Map, Value};

use crate::operation::ErrorFamily;

/// The decoded body of an error answer.
///
/// Decoding follows the [`ErrorFamily`] of the operation; when the body is
/// not JSON or does not have that family's shape the result is
/// [`ErrorBody::Raw`] and the bytes stay available through
/// [`ApiError::raw_body`](crate::ApiError::raw_body). Every field is
/// optional and unknown fields are ignored.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ErrorBody {
    /// `{"requestId": "...", "errors": [...]}` (configuration and analytics services).
    ErrorsArray(ErrorsArrayBody),
    /// `{"error": {...}, "requestId": "..."}` (entitlement operations).
    ErrorObject(ErrorObjectBody),
    /// `{"status", "timestamp", "message", "debugMessage", "subErrors"}` (identity services).
    StatusMessage(StatusMessageBody),
    /// The body did not match the expected shape.
    Raw,
}

/// One entry of an error body: a service-specific code and explanations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorDetail {
    /// Service-prefixed code such as `WIFI-10001`.
    pub code: Option<String>,
    /// What went wrong.
    pub message: Option<String>,
    /// Why it went wrong.
    pub reason: Option<String>,
    /// What to do about it.
    pub suggestion: Option<String>,
}

/// Body of the [`ErrorFamily::ErrorsArray`] shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorsArrayBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// The `errors` entries.
    pub errors: Vec<ErrorDetail>,
}

/// Body of the [`ErrorFamily::ErrorObject`] shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorObjectBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// The `error` object.
    pub error: ErrorDetail,
}

/// Body of the [`ErrorFamily::StatusMessage`] shape.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct StatusMessageBody {
    /// Status name, for example `BAD_REQUEST` (numbers are kept as text).
    pub status: Option<String>,
    /// When the error happened, as sent.
    pub timestamp: Option<String>,
    /// What went wrong.
    pub message: Option<String>,
    /// Additional detail.
    pub debug_message: Option<String>,
    /// `subErrors` entries, undecoded.
    pub sub_errors: Vec<Value>,
}

impl ErrorBody {
    /// The first human-readable explanation in the body, if any.
    pub fn message(&self) -> Option<&str> {
        match self {
            ErrorBody::ErrorsArray(body) => body.errors.iter().find_map(ErrorDetail::text),
            ErrorBody::ErrorObject(body) => body.error.text(),
            ErrorBody::StatusMessage(body) => body
                .message
                .as_deref()
                .or(body.debug_message.as_deref())
                .or(body.status.as_deref()),
            ErrorBody::Raw => None,
        }
    }
}

impl ErrorDetail {
    fn text(&self) -> Option<&str> {
        self.message
            .as_deref()
            .or(self.reason.as_deref())
            .or(self.code.as_deref())
    }

    fn from_value(value: &Value) -> Option<ErrorDetail> {
        match value {
            Value::Object(map) => Some(ErrorDetail {
                code: text(map, "code"),
                message: text(map, "message"),
                reason: text(map, "reason"),
                suggestion: text(map, "suggestion"),
            }),
            Value::String(message) => Some(ErrorDetail {
                message: Some(message.clone()),
                ..ErrorDetail::default()
            }),
            _ => None,
        }
    }
}

/// Decodes `raw` according to `family`; also returns the body's top-level
/// `requestId` when the body is a JSON object that has one.
pub(crate) fn decode(family: ErrorFamily, raw: &[u8]) -> (ErrorBody, Option<String>) {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(raw) else {
        return (ErrorBody::Raw, None);
    };
    let request_id = text(&map, "requestId");
    let body = match family {
        ErrorFamily::ErrorsArray => match map.get("errors") {
            Some(Value::Array(items)) => ErrorBody::ErrorsArray(ErrorsArrayBody {
                request_id: request_id.clone(),
                errors: items.iter().filter_map(ErrorDetail::from_value).collect(),
            }),
            _ => ErrorBody::Raw,
        },
        ErrorFamily::ErrorObject => match map.get("error") {
            Some(error @ (Value::Object(_) | Value::String(_))) => {
                match ErrorDetail::from_value(error) {
                    Some(error) => ErrorBody::ErrorObject(ErrorObjectBody {
                        request_id: request_id.clone(),
                        error,
                    }),
                    None => ErrorBody::Raw,
                }
            }
            _ => ErrorBody::Raw,
        },
        ErrorFamily::StatusMessage => {
            let known = ["status", "message", "debugMessage", "subErrors"];
            if known
                .iter()
                .any(|k| map.get(*k).is_some_and(|v| !v.is_null()))
            {
                ErrorBody::StatusMessage(StatusMessageBody {
                    status: text(&map, "status"),
                    timestamp: text(&map, "timestamp"),
                    message: text(&map, "message"),
                    debug_message: text(&map, "debugMessage"),
                    sub_errors: match map.get("subErrors") {
                        Some(Value::Array(items)) => items.clone(),
                        _ => Vec::new(),
                    },
                })
            } else {
                ErrorBody::Raw
            }
        }
    };
    (body, request_id)
}

/// A field as text: strings as is, numbers and booleans formatted, other
/// JSON kept as compact JSON text, `null` or missing as `None`.
fn text(map: &Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key)? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_array() {
        let raw = br#"{"requestId":"r1","errors":[{"code":"WIFI-1","message":"m","reason":"r","suggestion":"s","extra":1},{"code":42}]}"#;
        let (body, rid) = decode(ErrorFamily::ErrorsArray, raw);
        assert_eq!(rid.as_deref(), Some("r1"));
        let ErrorBody::ErrorsArray(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.errors.len(), 2);
        assert_eq!(b.errors[0].code.as_deref(), Some("WIFI-1"));
        assert_eq!(b.errors[0].suggestion.as_deref(), Some("s"));
        assert_eq!(b.errors[1].code.as_deref(), Some("42"));
        assert_eq!(body.message(), Some("m"));
    }

    #[test]
    fn error_object() {
        let raw = br#"{"error":{"code":"E1","reason":"why","suggestion":"do"},"requestId":"r2"}"#;
        let (body, rid) = decode(ErrorFamily::ErrorObject, raw);
        assert_eq!(rid.as_deref(), Some("r2"));
        let ErrorBody::ErrorObject(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.error.reason.as_deref(), Some("why"));
        assert_eq!(body.message(), Some("why"));
    }

    #[test]
    fn status_message() {
        let raw = br#"{"status":"BAD_REQUEST","timestamp":"t","message":"bad","debugMessage":"dbg","subErrors":[{"field":"x"}]}"#;
        let (body, rid) = decode(ErrorFamily::StatusMessage, raw);
        assert_eq!(rid, None);
        let ErrorBody::StatusMessage(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.status.as_deref(), Some("BAD_REQUEST"));
        assert_eq!(b.debug_message.as_deref(), Some("dbg"));
        assert_eq!(b.sub_errors.len(), 1);
    }

    #[test]
    fn mismatches_are_raw() {
        for family in [
            ErrorFamily::ErrorsArray,
            ErrorFamily::ErrorObject,
            ErrorFamily::StatusMessage,
        ] {
            for raw in [
                &b""[..],
                b"not json",
                b"[1,2]",
                b"{}",
                b"\"text\"",
                b"{\"unrelated\":true}",
            ] {
                assert_eq!(decode(family, raw).0, ErrorBody::Raw);
            }
        }
        assert_eq!(
            decode(ErrorFamily::ErrorsArray, br#"{"errors":"nope"}"#).0,
            ErrorBody::Raw
        );
        assert_eq!(
            decode(ErrorFamily::ErrorObject, br#"{"error":5}"#).0,
            ErrorBody::Raw
        );
    }

    #[test]
    fn deep_nesting_does_not_panic() {
        let raw = "[".repeat(100_000);
        assert_eq!(
            decode(ErrorFamily::ErrorsArray, raw.as_bytes()).0,
            ErrorBody::Raw
        );
    }
}
