//! Decoding an error body: the declared family first, then the others.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::shapes::{
    ErrorBody, ErrorDetail, ErrorObjectBody, ErrorsArrayBody, ErrorsMapBody, FlatObjectBody,
    PortalBody, StatusMessageBody,
};
use crate::operation::ErrorFamily;

/// The order in which the families are tried after the declared one: the
/// shapes with the most specific keys first, the generic status-and-message
/// shape last.
pub(super) const ORDER: [ErrorFamily; 6] = [
    ErrorFamily::ErrorsArray,
    ErrorFamily::ErrorObject,
    ErrorFamily::FlatObject,
    ErrorFamily::ErrorsMap,
    ErrorFamily::Portal,
    ErrorFamily::StatusMessage,
];

/// An entry from an error object.
fn detail_of_map(map: &Map<String, Value>) -> ErrorDetail {
    ErrorDetail {
        code: text(map, "code"),
        field: text(map, "field"),
        message: text(map, "message"),
        reason: text(map, "reason"),
        suggestion: text(map, "suggestion"),
    }
}

/// An entry from an error object or a string.
pub(super) fn detail_of_value(value: &Value) -> Option<ErrorDetail> {
    match value {
        Value::Object(map) => Some(detail_of_map(map)),
        Value::String(message) => Some(ErrorDetail::of_message(message)),
        _ => None,
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
        Ok(Value::Object(map)) => decode_map(ErrorFamily::ErrorsArray, &map).entries(),
        Ok(Value::Array(items)) => items
            .iter()
            .filter_map(detail_of_value)
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
                Some(Value::Object(error)) => detail_of_map(error),
                _ => ErrorDetail::default(),
            },
            root_causes: match map.get("error") {
                Some(Value::Object(error)) => details(error, "rootCauseErrors"),
                _ => Vec::new(),
            },
        }),
        ErrorFamily::FlatObject => ErrorBody::FlatObject(FlatObjectBody {
            request_id,
            error: detail_of_map(map),
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
    array(map, key).iter().filter_map(detail_of_value).collect()
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
