//! The decoded error body types.

use std::collections::BTreeMap;

use serde_json::Value;

use super::decode::detail_of_value;

/// The decoded body of an error answer.
///
/// A body is decoded as the operation's declared error family (`error_family` in the spec) when it
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
    /// `{"error": {...}, "requestId": "..."}` (events and alarms, entitlement queries, and guest
    /// services with `{"error": {"rootCauseErrors": [...]}}`).
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

/// One entry of an error: a service-specific code, the request field it is
/// about, and explanations. Every part is optional: services fill in
/// different ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorDetail {
    /// Service-prefixed code such as `WIFI-10001`.
    pub code: Option<String>,
    /// The request field the entry is about: the key of an `errors` map, or
    /// the `field` of a validation entry.
    pub field: Option<String>,
    /// What went wrong.
    pub message: Option<String>,
    /// Why it went wrong.
    pub reason: Option<String>,
    /// What to do about it.
    pub suggestion: Option<String>,
}

/// Body of the `ErrorsArray` shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorsArrayBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// The `errors` entries.
    pub errors: Vec<ErrorDetail>,
}

/// Body of the `ErrorObject` shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorObjectBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// The `error` object.
    pub error: ErrorDetail,
    /// The `rootCauseErrors` entries of the `error` object (guest services
    /// put their codes and messages there).
    pub root_causes: Vec<ErrorDetail>,
}

/// Body of the `StatusMessage` shape.
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

/// Body of the `FlatObject` shape: the fields of an
/// [`ErrorDetail`] at the top level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FlatObjectBody {
    /// `requestId` of the body.
    pub request_id: Option<String>,
    /// `code`, `message`, `reason` and `suggestion` of the body.
    pub error: ErrorDetail,
}

/// Body of the `ErrorsMap` shape.
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

/// Body of the `Portal` shape.
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
            ErrorBody::ErrorObject(body) => {
                body.error.text().or_else(|| first_text(&body.root_causes))
            }
            ErrorBody::FlatObject(FlatObjectBody { error, .. }) => error.text(),
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

    /// The request field the [`message`](Self::message) is about, where the body names one:
    /// the key of an `errors` map, or the `field` of the entry the message comes from.
    pub fn message_field(&self) -> Option<&str> {
        match self {
            ErrorBody::ErrorsArray(body) => field_of_first_text(&body.errors),
            ErrorBody::ErrorObject(body) => match body.error.text() {
                Some(_) => body.error.field.as_deref(),
                None => field_of_first_text(&body.root_causes),
            },
            ErrorBody::FlatObject(FlatObjectBody { error, .. }) => error.field.as_deref(),
            ErrorBody::ErrorsMap(body) => body.errors.keys().next().map(String::as_str),
            ErrorBody::StatusMessage(b) if b.message.is_none() && b.debug_message.is_none() => {
                field_of_first_text(&b.errors)
            }
            ErrorBody::Portal(b)
                if b.message.is_none()
                    && b.detailed_message.is_none()
                    && b.validation_errors.is_empty() =>
            {
                field_of_first_text(&b.errors)
            }
            ErrorBody::StatusMessage(_) | ErrorBody::Portal(_) | ErrorBody::Raw => None,
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
            ErrorBody::ErrorObject(body) => body
                .error
                .code
                .as_deref()
                .or_else(|| body.root_causes.iter().find_map(|e| e.code.as_deref())),
            ErrorBody::FlatObject(FlatObjectBody { error, .. }) => error.code.as_deref(),
            ErrorBody::ErrorsMap(_) | ErrorBody::Raw => None,
        }
    }

    /// Every entry of the body, in the body's order, each with whatever
    /// code, field and explanations it has:
    ///
    /// | family | entries |
    /// |---|---|
    /// | `ErrorsArray` | the `errors` entries |
    /// | `ErrorObject` | the `error` object (when it has a text), then its `rootCauseErrors` |
    /// | `FlatObject` | the body itself |
    /// | `ErrorsMap` | one per key of `errors`, in key order, the key as `field` |
    /// | `StatusMessage` | the `errors`, `subErrors` and `nestedErrors` entries; without any, the body's message |
    /// | `Portal` | the `errors` entries, then each of `validationErrors`; without any, the body's message |
    /// | `Raw` | none |
    ///
    /// Entries without any text are left out.
    pub fn entries(&self) -> Vec<ErrorDetail> {
        let entries: Vec<ErrorDetail> = match self {
            ErrorBody::ErrorsArray(body) => body.errors.clone(),
            ErrorBody::ErrorObject(body) => std::iter::once(&body.error)
                .chain(&body.root_causes)
                .cloned()
                .collect(),
            ErrorBody::FlatObject(body) => vec![body.error.clone()],
            ErrorBody::ErrorsMap(body) => body
                .errors
                .iter()
                .map(|(field, message)| ErrorDetail {
                    field: Some(field.clone()),
                    message: Some(message.clone()),
                    ..ErrorDetail::default()
                })
                .collect(),
            ErrorBody::StatusMessage(body) => body
                .errors
                .iter()
                .cloned()
                .chain(body.sub_errors.iter().filter_map(detail_of_value))
                .chain(body.nested_errors.iter().filter_map(detail_of_value))
                .collect(),
            ErrorBody::Portal(body) => body
                .errors
                .iter()
                .cloned()
                .chain(
                    body.validation_errors
                        .iter()
                        .map(|m| ErrorDetail::of_message(m)),
                )
                .collect(),
            ErrorBody::Raw => Vec::new(),
        };
        let mut entries: Vec<ErrorDetail> = entries.into_iter().filter(|e| !e.is_empty()).collect();
        if entries.is_empty() && matches!(self, ErrorBody::StatusMessage(_) | ErrorBody::Portal(_))
        {
            entries.extend(self.message().map(ErrorDetail::of_message));
        }
        entries
    }
}

/// The field of the first entry with a text.
fn field_of_first_text(details: &[ErrorDetail]) -> Option<&str> {
    details
        .iter()
        .find(|d| d.text().is_some())?
        .field
        .as_deref()
}

fn first_text(details: &[ErrorDetail]) -> Option<&str> {
    details.iter().find_map(ErrorDetail::text)
}

impl ErrorDetail {
    /// An entry with only a message.
    pub(crate) fn of_message(message: &str) -> ErrorDetail {
        ErrorDetail {
            message: Some(message.to_owned()),
            ..ErrorDetail::default()
        }
    }

    /// Whether the entry has no text at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.code.is_none()
            && self.field.is_none()
            && self.message.is_none()
            && self.reason.is_none()
            && self.suggestion.is_none()
    }

    /// The first of the message, the reason and the code.
    pub(crate) fn text(&self) -> Option<&str> {
        self.message
            .as_deref()
            .or(self.reason.as_deref())
            .or(self.code.as_deref())
    }
}
