//! Decoded error bodies of the shapes the services use.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::operation::ErrorFamily;

/// The order in which the families are tried after the declared one: the
/// shapes with the most specific keys first, the generic status-and-message
/// shape last.
const ORDER: [ErrorFamily; 6] = [
    ErrorFamily::ErrorsArray,
    ErrorFamily::ErrorObject,
    ErrorFamily::FlatObject,
    ErrorFamily::ErrorsMap,
    ErrorFamily::Portal,
    ErrorFamily::StatusMessage,
];

/// The decoded body of an error answer.
///
/// A body is decoded as the operation's declared [`ErrorFamily`] when it
/// has that family's shape, else as the first of the other families whose
/// shape it has, in the order `ErrorsArray`, `ErrorObject`, `FlatObject`,
/// `ErrorsMap`, `Portal`, `StatusMessage`. A body has a family's shape when
/// it is a JSON object with that family's distinguishing keys, of the right
/// JSON type:
///
/// | family | the body has |
/// |---|---|
/// | `ErrorsArray` | an array `errors` |
/// | `ErrorObject` | an object `error` |
/// | `FlatObject` | a string or number `code` |
/// | `ErrorsMap` | an object `errors` |
/// | `Portal` | a string `detailedMessage` or an array `validationErrors` |
/// | `StatusMessage` | a string or number `status`, a string `debugMessage`, or an array `subErrors` or `nestedErrors`, and none of the keys of `Portal` |
///
/// A body with none of these shapes but a string `message` is decoded as
/// `StatusMessage` too. A body that is not JSON, not an object, or has none
/// of these shapes is
/// [`ErrorBody::Raw`]; the bytes stay available through
/// [`ApiError::raw_body`](crate::ApiError::raw_body) in every case. Every
/// field is optional and unknown fields are ignored.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ErrorBody {
    /// `{"requestId": "...", "errors": [...]}` (configuration and analytics services).
    ErrorsArray(ErrorsArrayBody),
    /// `{"error": {...}, "requestId": "..."}` (events and alarms, entitlement queries).
    ErrorObject(ErrorObjectBody),
    /// `{"status", "timestamp", "message", "debugMessage", "subErrors"}` (identity services,
    /// message templates, workflows, policies).
    StatusMessage(StatusMessageBody),
    /// `{"code", "message", "reason", "suggestion"}` (entitlements).
    FlatObject(FlatObjectBody),
    /// `{"errors": {"<field>": "<message>"}}` (managed-service-provider services).
    ErrorsMap(ErrorsMapBody),
    /// `{"status", "timestamp", "message", "detailedMessage", "validationErrors"}` (resident
    /// portal, property management).
    Portal(PortalBody),
    /// The body has none of the known shapes.
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
    /// Status as sent, for example `BAD_REQUEST` or `400 BAD_REQUEST` (numbers are kept as
    /// text).
    pub status: Option<String>,
    /// When the error happened, as sent.
    pub timestamp: Option<String>,
    /// What went wrong.
    pub message: Option<String>,
    /// Additional detail.
    pub debug_message: Option<String>,
    /// `subErrors` entries, undecoded.
    pub sub_errors: Vec<Value>,
    /// `nestedErrors` entries, undecoded.
    pub nested_errors: Vec<Value>,
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// `errors` entries, when the body also has an `errors` array.
    pub errors: Vec<ErrorDetail>,
}

/// Body of the [`ErrorFamily::FlatObject`] shape: the fields of an
/// [`ErrorDetail`] at the top level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FlatObjectBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// `code`, `message`, `reason` and `suggestion` of the body.
    pub error: ErrorDetail,
}

/// Body of the [`ErrorFamily::ErrorsMap`] shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorsMapBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// The `errors` object: field name to message, in key order. A value that
    /// is not a string is kept as its `message` field when it has a string
    /// one, else as compact JSON text; `null` values are left out.
    pub errors: BTreeMap<String, String>,
}

/// Body of the [`ErrorFamily::Portal`] shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PortalBody {
    /// Status as sent, for example `400 BAD_REQUEST` (numbers are kept as text).
    pub status: Option<String>,
    /// When the error happened, as sent.
    pub timestamp: Option<String>,
    /// What went wrong.
    pub message: Option<String>,
    /// Additional detail.
    pub detailed_message: Option<String>,
    /// `validationErrors` entries (entries that are not strings as compact JSON text).
    pub validation_errors: Vec<String>,
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// `errors` entries, when the body also has an `errors` array.
    pub errors: Vec<ErrorDetail>,
}

impl ErrorBody {
    /// The first human-readable explanation in the body, if any.
    pub fn message(&self) -> Option<&str> {
        match self {
            ErrorBody::ErrorsArray(body) => first_text(&body.errors),
            ErrorBody::ErrorObject(ErrorObjectBody { error, .. })
            | ErrorBody::FlatObject(FlatObjectBody { error, .. }) => error.text(),
            ErrorBody::ErrorsMap(body) => body.errors.values().next().map(String::as_str),
            ErrorBody::StatusMessage(body) => body
                .message
                .as_deref()
                .or(body.debug_message.as_deref())
                .or_else(|| first_text(&body.errors))
                .or(body.status.as_deref()),
            ErrorBody::Portal(body) => body
                .message
                .as_deref()
                .or(body.detailed_message.as_deref())
                .or(body.validation_errors.first().map(String::as_str))
                .or_else(|| first_text(&body.errors))
                .or(body.status.as_deref()),
            ErrorBody::Raw => None,
        }
    }

    /// The first service-specific error code in the body (such as
    /// `WIFI-10001`), if any. HTTP status texts are not codes: the
    /// `status` of [`StatusMessage`](ErrorBody::StatusMessage) and
    /// [`Portal`](ErrorBody::Portal) bodies is not returned here.
    pub fn code(&self) -> Option<&str> {
        match self {
            ErrorBody::ErrorsArray(ErrorsArrayBody { errors, .. })
            | ErrorBody::StatusMessage(StatusMessageBody { errors, .. })
            | ErrorBody::Portal(PortalBody { errors, .. }) => {
                errors.iter().find_map(|e| e.code.as_deref())
            }
            ErrorBody::ErrorObject(ErrorObjectBody { error, .. })
            | ErrorBody::FlatObject(FlatObjectBody { error, .. }) => error.code.as_deref(),
            ErrorBody::ErrorsMap(_) | ErrorBody::Raw => None,
        }
    }

    /// The body's entries as a list of details: the `errors` entries of
    /// shapes that have them, else one detail with the body's message.
    pub(crate) fn details(&self) -> Vec<ErrorDetail> {
        let message_only = |message: Option<&str>| {
            message
                .map(|m| ErrorDetail {
                    message: Some(m.to_owned()),
                    ..ErrorDetail::default()
                })
                .into_iter()
                .collect()
        };
        match self {
            ErrorBody::ErrorsArray(body) => body.errors.clone(),
            ErrorBody::ErrorObject(ErrorObjectBody { error, .. })
            | ErrorBody::FlatObject(FlatObjectBody { error, .. }) => vec![error.clone()],
            ErrorBody::ErrorsMap(body) => body
                .errors
                .iter()
                .map(|(field, message)| ErrorDetail {
                    message: Some(format!("{field}: {message}")),
                    ..ErrorDetail::default()
                })
                .collect(),
            ErrorBody::StatusMessage(StatusMessageBody { errors, .. })
            | ErrorBody::Portal(PortalBody { errors, .. })
                if !errors.is_empty() =>
            {
                errors.clone()
            }
            ErrorBody::StatusMessage(_) | ErrorBody::Portal(_) => message_only(self.message()),
            ErrorBody::Raw => Vec::new(),
        }
    }
}

fn first_text(details: &[ErrorDetail]) -> Option<&str> {
    details.iter().find_map(ErrorDetail::text)
}

impl ErrorDetail {
    pub(crate) fn text(&self) -> Option<&str> {
        self.message
            .as_deref()
            .or(self.reason.as_deref())
            .or(self.code.as_deref())
    }

    fn is_empty(&self) -> bool {
        self.code.is_none()
            && self.message.is_none()
            && self.reason.is_none()
            && self.suggestion.is_none()
    }

    fn from_map(map: &Map<String, Value>) -> ErrorDetail {
        ErrorDetail {
            code: text(map, "code"),
            message: text(map, "message"),
            reason: text(map, "reason"),
            suggestion: text(map, "suggestion"),
        }
    }

    fn from_value(value: &Value) -> Option<ErrorDetail> {
        match value {
            Value::Object(map) => Some(ErrorDetail::from_map(map)),
            Value::String(message) => Some(ErrorDetail {
                message: Some(message.clone()),
                ..ErrorDetail::default()
            }),
            _ => None,
        }
    }
}

/// Decodes `raw`: as `declared` when the body has that shape, else as the
/// first other family (in [`ORDER`]) whose shape it has, else
/// [`ErrorBody::Raw`]. Also returns the body's top-level `requestId` when
/// the body is a JSON object that has one.
pub(crate) fn decode(declared: ErrorFamily, raw: &[u8]) -> (ErrorBody, Option<String>) {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(raw) else {
        return (ErrorBody::Raw, None);
    };
    let request_id = text(&map, "requestId");
    (decode_map(declared, &map), request_id)
}

/// The structured entries of an error text that is JSON: an object of any
/// known shape (tried as `ErrorsArray` first), or an array of error objects
/// or strings. Empty when the text is not such JSON.
pub(crate) fn details_of_text(text: &str) -> Vec<ErrorDetail> {
    match serde_json::from_str::<Value>(text.trim()) {
        Ok(Value::Object(map)) => decode_map(ErrorFamily::ErrorsArray, &map).details(),
        Ok(Value::Array(items)) => items
            .iter()
            .filter_map(ErrorDetail::from_value)
            .filter(|d| !d.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

fn decode_map(declared: ErrorFamily, map: &Map<String, Value>) -> ErrorBody {
    std::iter::once(declared)
        .chain(ORDER.into_iter().filter(|f| *f != declared))
        .find(|family| has_shape(*family, map))
        .or_else(|| {
            // A lone message, as gateways send it, is the generic shape.
            map.get("message")
                .is_some_and(Value::is_string)
                .then_some(ErrorFamily::StatusMessage)
        })
        .map_or(ErrorBody::Raw, |family| decode_as(family, map))
}

/// Whether `map` has the distinguishing keys of `family`, with the right
/// JSON types.
fn has_shape(family: ErrorFamily, map: &Map<String, Value>) -> bool {
    let is = |key: &str, test: fn(&Value) -> bool| map.get(key).is_some_and(test);
    let text_or_number = |v: &Value| v.is_string() || v.is_number();
    let portal = is("detailedMessage", Value::is_string) || is("validationErrors", Value::is_array);
    match family {
        ErrorFamily::ErrorsArray => is("errors", Value::is_array),
        ErrorFamily::ErrorObject => is("error", Value::is_object),
        ErrorFamily::FlatObject => is("code", text_or_number),
        ErrorFamily::ErrorsMap => is("errors", Value::is_object),
        ErrorFamily::Portal => portal,
        ErrorFamily::StatusMessage => {
            !portal
                && (is("status", text_or_number)
                    || is("debugMessage", Value::is_string)
                    || is("subErrors", Value::is_array)
                    || is("nestedErrors", Value::is_array))
        }
    }
}

/// Decodes `map`, which has the shape of `family`.
fn decode_as(family: ErrorFamily, map: &Map<String, Value>) -> ErrorBody {
    let request_id = text(map, "requestId");
    match family {
        ErrorFamily::ErrorsArray => ErrorBody::ErrorsArray(ErrorsArrayBody {
            request_id,
            errors: details(map, "errors"),
        }),
        ErrorFamily::ErrorObject => ErrorBody::ErrorObject(ErrorObjectBody {
            request_id,
            error: match map.get("error") {
                Some(Value::Object(error)) => ErrorDetail::from_map(error),
                _ => ErrorDetail::default(),
            },
        }),
        ErrorFamily::FlatObject => ErrorBody::FlatObject(FlatObjectBody {
            request_id,
            error: ErrorDetail::from_map(map),
        }),
        ErrorFamily::ErrorsMap => ErrorBody::ErrorsMap(ErrorsMapBody {
            request_id,
            errors: match map.get("errors") {
                Some(Value::Object(errors)) => errors
                    .iter()
                    .filter_map(|(field, value)| Some((field.clone(), map_entry(value)?)))
                    .collect(),
                _ => BTreeMap::new(),
            },
        }),
        ErrorFamily::Portal => ErrorBody::Portal(PortalBody {
            status: text(map, "status"),
            timestamp: text(map, "timestamp"),
            message: text(map, "message"),
            detailed_message: text(map, "detailedMessage"),
            validation_errors: array(map, "validationErrors")
                .iter()
                .filter_map(value_text)
                .collect(),
            request_id,
            errors: details(map, "errors"),
        }),
        ErrorFamily::StatusMessage => ErrorBody::StatusMessage(StatusMessageBody {
            status: text(map, "status"),
            timestamp: text(map, "timestamp"),
            message: text(map, "message"),
            debug_message: text(map, "debugMessage"),
            sub_errors: array(map, "subErrors").to_vec(),
            nested_errors: array(map, "nestedErrors").to_vec(),
            request_id,
            errors: details(map, "errors"),
        }),
    }
}

/// The array `key` of `map`, or an empty slice.
fn array<'m>(map: &'m Map<String, Value>, key: &str) -> &'m [Value] {
    match map.get(key) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

/// The entries of the array `key` that are objects or strings, as details.
fn details(map: &Map<String, Value>, key: &str) -> Vec<ErrorDetail> {
    array(map, key)
        .iter()
        .filter_map(ErrorDetail::from_value)
        .collect()
}

/// A value of an `errors` map as a message.
fn map_entry(value: &Value) -> Option<String> {
    match value {
        Value::Object(entry) => match entry.get("message") {
            Some(Value::String(message)) => Some(message.clone()),
            _ => Some(value.to_string()),
        },
        other => value_text(other),
    }
}

/// A field as text (see [`value_text`]).
fn text(map: &Map<String, Value>, key: &str) -> Option<String> {
    value_text(map.get(key)?)
}

/// Strings as is, numbers and booleans formatted, other JSON kept as compact
/// JSON text, `null` as `None`.
fn value_text(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [ErrorFamily; 6] = ORDER;

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
        assert_eq!(body.code(), Some("WIFI-1"));
    }

    #[test]
    fn errors_array_of_strings() {
        // The venue service declares its `errors` entries as strings.
        let (body, _) = decode(ErrorFamily::ErrorsArray, br#"{"errors":["no such venue"]}"#);
        assert_eq!(body.message(), Some("no such venue"));
        assert_eq!(body.code(), None);
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
        assert_eq!(body.code(), Some("E1"));
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
        assert_eq!(body.code(), None);
    }

    #[test]
    fn status_message_keeps_status_strings_and_numbers() {
        for (raw, status) in [
            (
                &br#"{"status":"400 BAD_REQUEST","message":"m"}"#[..],
                "400 BAD_REQUEST",
            ),
            (
                br#"{"status":400,"error":"Bad Request","path":"/x"}"#,
                "400",
            ),
        ] {
            let (body, _) = decode(ErrorFamily::ErrorsArray, raw);
            let ErrorBody::StatusMessage(b) = &body else {
                panic!("{body:?}")
            };
            assert_eq!(b.status.as_deref(), Some(status));
        }
    }

    #[test]
    fn status_message_with_errors_and_nested_errors() {
        // Identity services add `requestId` and an `errors` array; workflows
        // and message templates send `nestedErrors`.
        let raw = br#"{"status":"404 NOT_FOUND","message":"gone","requestId":"r","errors":[{"code":"IDM-4","message":"no group"}],"nestedErrors":[{"field":"a"}]}"#;
        let (body, rid) = decode(ErrorFamily::StatusMessage, raw);
        assert_eq!(rid.as_deref(), Some("r"));
        let ErrorBody::StatusMessage(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.request_id.as_deref(), Some("r"));
        assert_eq!(b.nested_errors.len(), 1);
        assert_eq!(body.code(), Some("IDM-4"));
        assert_eq!(body.message(), Some("gone"));
    }

    #[test]
    fn flat_object() {
        let raw = br#"{"code":"ENT-404","message":"no tenant","reason":"r","suggestion":"s"}"#;
        let (body, _) = decode(ErrorFamily::FlatObject, raw);
        let ErrorBody::FlatObject(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.error.suggestion.as_deref(), Some("s"));
        assert_eq!(body.code(), Some("ENT-404"));
        assert_eq!(body.message(), Some("no tenant"));
    }

    #[test]
    fn errors_map() {
        let raw = br#"{"errors":{"name":"must not be blank","age":{"message":"too old"},"x":{"n":1},"gone":null}}"#;
        let (body, _) = decode(ErrorFamily::ErrorsMap, raw);
        let ErrorBody::ErrorsMap(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.errors.len(), 3);
        assert_eq!(b.errors["name"], "must not be blank");
        assert_eq!(b.errors["age"], "too old");
        assert_eq!(b.errors["x"], r#"{"n":1}"#);
        assert_eq!(body.message(), Some("too old")); // key order: age, name, x
        assert_eq!(body.code(), None);
        assert_eq!(body.details().len(), 3);
        assert_eq!(body.details()[0].message.as_deref(), Some("age: too old"));
    }

    #[test]
    fn portal() {
        let raw = br#"{"status":"400 BAD_REQUEST","timestamp":"t","message":"invalid","detailedMessage":"d","validationErrors":["a is empty",5]}"#;
        let (body, _) = decode(ErrorFamily::Portal, raw);
        let ErrorBody::Portal(b) = &body else {
            panic!("{body:?}")
        };
        assert_eq!(b.status.as_deref(), Some("400 BAD_REQUEST"));
        assert_eq!(b.detailed_message.as_deref(), Some("d"));
        assert_eq!(b.validation_errors, ["a is empty", "5"]);
        assert_eq!(body.message(), Some("invalid"));
        let (body, _) = decode(ErrorFamily::Portal, br#"{"validationErrors":["only"]}"#);
        assert_eq!(body.message(), Some("only"));
    }

    /// Each family's body is decoded as that family whatever the declared
    /// family is.
    #[test]
    fn every_shape_decodes_through_every_declaration() {
        let samples: [(ErrorFamily, &[u8]); 6] = [
            (ErrorFamily::ErrorsArray, br#"{"errors":[{"code":"A"}]}"#),
            (ErrorFamily::ErrorObject, br#"{"error":{"code":"B"}}"#),
            (ErrorFamily::FlatObject, br#"{"code":"C","message":"m"}"#),
            (ErrorFamily::ErrorsMap, br#"{"errors":{"f":"m"}}"#),
            (
                ErrorFamily::Portal,
                br#"{"status":"400 BAD_REQUEST","detailedMessage":"d"}"#,
            ),
            (ErrorFamily::StatusMessage, br#"{"status":"BAD_REQUEST"}"#),
        ];
        for (shape, raw) in samples {
            for declared in ALL {
                let (body, _) = decode(declared, raw);
                let found = match body {
                    ErrorBody::ErrorsArray(_) => ErrorFamily::ErrorsArray,
                    ErrorBody::ErrorObject(_) => ErrorFamily::ErrorObject,
                    ErrorBody::FlatObject(_) => ErrorFamily::FlatObject,
                    ErrorBody::ErrorsMap(_) => ErrorFamily::ErrorsMap,
                    ErrorBody::Portal(_) => ErrorFamily::Portal,
                    ErrorBody::StatusMessage(_) => ErrorFamily::StatusMessage,
                    ErrorBody::Raw => panic!("{declared:?} {}", String::from_utf8_lossy(raw)),
                };
                assert_eq!(found, shape, "declared {declared:?}");
            }
        }
    }

    #[test]
    fn a_lone_message_is_a_status_message_when_nothing_else_matches() {
        for declared in ALL {
            let (body, _) = decode(declared, br#"{"message":"Forbidden"}"#);
            assert!(matches!(body, ErrorBody::StatusMessage(_)), "{body:?}");
            assert_eq!(body.message(), Some("Forbidden"));
            let (body, _) = decode(declared, br#"{"message":"m","code":"C"}"#);
            assert!(matches!(body, ErrorBody::FlatObject(_)), "{body:?}");
        }
    }

    #[test]
    fn declared_family_wins_when_several_match() {
        let raw = br#"{"status":"400 BAD_REQUEST","message":"m","errors":[{"code":"X"}]}"#;
        assert!(matches!(
            decode(ErrorFamily::StatusMessage, raw).0,
            ErrorBody::StatusMessage(_)
        ));
        assert!(matches!(
            decode(ErrorFamily::Portal, raw).0,
            ErrorBody::ErrorsArray(_)
        ));
    }

    #[test]
    fn mismatches_are_raw() {
        for family in ALL {
            for raw in [
                &b""[..],
                b"not json",
                b"[1,2]",
                b"{}",
                b"\"text\"",
                b"{\"unrelated\":true}",
                br#"{"errors":"nope"}"#,
                br#"{"error":5}"#,
                br#"{"error":"a string is not the error object"}"#,
                br#"{"code":null,"status":true,"message":7,"detailedMessage":[]}"#,
            ] {
                assert_eq!(decode(family, raw).0, ErrorBody::Raw);
            }
        }
    }

    #[test]
    fn details_of_error_texts() {
        let d = details_of_text(r#"{"errors":[{"code":"WIFI-1","message":"m"}]}"#);
        assert_eq!(d[0].code.as_deref(), Some("WIFI-1"));
        let d = details_of_text(r#"{"code":"WIFI-2","message":"m2"}"#);
        assert_eq!(d[0].code.as_deref(), Some("WIFI-2"));
        let d = details_of_text(r#" [{"code":"A","message":"a"},{"message":"b"},{"x":1},3]"#);
        assert_eq!(d.len(), 2);
        assert_eq!(d[1].message.as_deref(), Some("b"));
        let d = details_of_text(r#"{"message":"only text"}"#);
        assert_eq!(d[0].message.as_deref(), Some("only text"));
        for text in ["plain words", "", "{}", "5", r#"{"x":1}"#] {
            assert!(details_of_text(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn deep_nesting_does_not_panic() {
        let raw = "[".repeat(100_000);
        assert_eq!(
            decode(ErrorFamily::ErrorsArray, raw.as_bytes()).0,
            ErrorBody::Raw
        );
        assert!(details_of_text(&raw).is_empty());
    }
}
