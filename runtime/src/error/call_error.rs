//! [`Error`], the error type returned by every call.

use std::fmt;
use std::time::Duration;

use super::activity_error::ActivityError;
use super::answer::{ApiError, DecodeError};
use crate::error_body::ErrorDetail;
use crate::retry::Failure;

/// Everything that can go wrong while calling the service.
///
/// Neither the client secret nor the access token ever appears in an error's
/// `Display` or `Debug` output.
///
/// ```
/// # extern crate ruckus_one_runtime as ruckus_one;
/// use ruckus_one::Error;
///
/// // What a caller typically reports of a failed call.
/// fn report(e: &Error) -> String {
///     match e.status() {
///         Some(429) => format!("rate limited; retry after {:?}", e.retry_after()),
///         Some(status) => format!(
///             "HTTP {status} ({:?}): {e}; request id {:?} for support",
///             e.code(),
///             e.request_id()
///         ),
///         None if e.is_retryable() => format!("no answer, worth retrying: {e}"),
///         None => format!("failed before an answer: {e}"),
///     }
/// }
///
/// // Settings are checked before anything is sent, with errors of the same type.
/// let err = ruckus_one::Config::from_vars(|_| None).unwrap_err();
/// assert!(matches!(err, Error::Env { variable: "RUCKUS_CLIENT_ID", .. }));
/// assert_eq!(err.status(), None);
/// assert!(report(&err).starts_with("failed before an answer"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The connection could not be established or broke (DNS, TCP, TLS,
    /// HTTP protocol errors). The underlying error is kept as the source.
    Transport(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// An attempt exceeded the connect or request timeout, or the call
    /// exceeded its call timeout (see
    /// [`Config::call_timeout`](crate::Config::call_timeout)).
    Timeout,
    /// No access token could be obtained: the token endpoint refused the
    /// credentials, redirected, or answered something that is not a token.
    Auth {
        /// HTTP status of the token endpoint's answer, when there was one.
        status: Option<u16>,
        /// Explanation, including the endpoint's error text when available.
        message: String,
    },
    /// The service answered with a non-success status.
    Api(ApiError),
    /// The service answered with success but the body could not be decoded
    /// into the expected type.
    Decode(DecodeError),
    /// The request could not be built (bad parameter value, body that cannot
    /// be serialized, invalid header value, invalid configuration). Nothing
    /// was sent.
    InvalidRequest {
        /// What is wrong.
        message: String,
    },
    /// An asynchronous request failed, or did not finish in time (see
    /// `wait` of an `Accepted` answer and `wait_for_activity` of an API client).
    Activity(Box<ActivityError>),
    /// A success answer's body is larger than the call's maximum body size
    /// (see [`Config::max_body_size`](crate::Config::max_body_size)); the
    /// rest of it was not read.
    BodyTooLarge {
        /// The limit, in bytes.
        limit: u64,
        /// HTTP status of the answer.
        status: u16,
    },
    /// A tenant id (delegated, per call, or the token tenant id) is not
    /// acceptable (see [`Config::delegated_tenant`](crate::Config::delegated_tenant)
    /// for the rule). Nothing was sent.
    InvalidTenantId {
        /// Which tenant id, and what is wrong with it.
        message: String,
    },
    /// A variable read by [`Config::from_env`](crate::Config::from_env) is
    /// missing or invalid.
    Env {
        /// The variable, for example `RUCKUS_REGION`.
        variable: &'static str,
        /// What is wrong: `is not set`, `is empty`, `is not a region: ...`.
        problem: &'static str,
    },
    /// The work of one tenant in `for_each_tenant` panicked: that
    /// tenant's outcome (the others keep theirs). The panic's message is not kept (it may
    /// hold anything); the panic hook has reported it.
    Panicked,
}

impl Error {
    /// HTTP status of the answer this error came from, if any.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.status()),
            Error::Decode(e) => Some(e.status()),
            Error::Auth { status, .. } => *status,
            Error::BodyTooLarge { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// How long the service asked to wait before trying again (the
    /// `Retry-After` header of a `429`, `503`... answer, as seconds or as a
    /// date, measured from when the answer arrived), if it did.
    ///
    /// The client itself waits that long between attempts only when the
    /// wait is at most [`RetryPolicy::max_retry_after`](crate::RetryPolicy::max_retry_after)
    /// and fits in the call timeout; otherwise it returns the error at once,
    /// and this tells the caller when to try again.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Error::Api(e) => e.retry_after(),
            _ => None,
        }
    }

    /// Request id of the failed call (the `x-request-id` response header, or
    /// the body's `requestId`), if known.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.request_id(),
            Error::Decode(e) => e.request_id(),
            _ => None,
        }
    }

    /// The first service-specific error code (such as `WIFI-10001`) of the
    /// service's error answer, or of a failed activity's error; `None` for
    /// other errors and for answers without a code.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.code(),
            Error::Activity(e) => e.details().iter().find_map(|d| d.code.as_deref()),
            _ => None,
        }
    }

    /// The first human-readable explanation of the service's error answer,
    /// or of a failed activity's error; `None` for other errors (their
    /// `Display` explains them) and for answers without one.
    pub fn message(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.message(),
            Error::Activity(e) => e
                .details()
                .iter()
                .find_map(ErrorDetail::text)
                .or_else(|| e.error_text()),
            _ => None,
        }
    }

    /// Every entry of the service's error answer, or of a failed activity's
    /// error, in order: each with the code, the request field and the
    /// explanations it has (all optional). Empty for other errors and for
    /// answers without any text.
    ///
    /// Whatever shape the service used (an `errors` array, an `error` object
    /// with `rootCauseErrors`, an `errors` map of field names, validation
    /// lists; see [`ErrorBody::entries`](crate::ErrorBody::entries)), this
    /// lists them all:
    ///
    /// ```
    /// # extern crate ruckus_one_runtime as ruckus_one;
    /// fn show(e: &ruckus_one::Error) -> Vec<String> {
    ///     e.entries()
    ///         .iter()
    ///         .map(|entry| {
    ///             let parts = [&entry.code, &entry.field, &entry.message];
    ///             let parts: Vec<&str> = parts.iter().filter_map(|p| p.as_deref()).collect();
    ///             parts.join(": ")
    ///         })
    ///         .collect()
    /// }
    /// assert!(show(&ruckus_one::Error::Timeout).is_empty());
    /// ```
    ///
    /// A failed activity whose `error` text is not JSON of a known shape
    /// gives one entry with that text as its message.
    pub fn entries(&self) -> Vec<ErrorDetail> {
        match self {
            Error::Api(e) => e.entries(),
            Error::Activity(e) if e.details().is_empty() => e
                .error_text()
                .map(ErrorDetail::of_message)
                .into_iter()
                .collect(),
            Error::Activity(e) => e.details().to_vec(),
            _ => Vec::new(),
        }
    }

    /// The undecoded response body, for API and decode errors.
    pub fn raw_body(&self) -> Option<&[u8]> {
        match self {
            Error::Api(e) => Some(e.raw_body()),
            Error::Decode(e) => Some(e.raw_body()),
            _ => None,
        }
    }

    /// Whether repeating the call later may succeed: rate limited (429),
    /// locked (423), gateway errors (502, 503, 504), timeouts and transport
    /// errors.
    ///
    /// The method is not known here, so this answers as for an idempotent
    /// one: the client itself repeats gateway errors, timeouts and transport
    /// errors only for `GET`, `PUT` and `DELETE`.
    pub fn is_retryable(&self) -> bool {
        self.failure().is_some_and(|f| f.is_retryable(true))
    }

    /// This error as a failed attempt, for the retry rule; `None` for errors
    /// that no repetition can cure.
    pub(crate) fn failure(&self) -> Option<Failure> {
        match self {
            Error::Transport(_) | Error::Timeout => Some(Failure::Transport),
            Error::Api(e) => Some(Failure::Status(e.status())),
            _ => None,
        }
    }

    /// The API error, when the service answered with an error status.
    pub fn api_error(&self) -> Option<&ApiError> {
        match self {
            Error::Api(e) => Some(e),
            _ => None,
        }
    }

    /// The error for a failed or unfinished activity.
    pub(crate) fn activity(error: ActivityError) -> Error {
        Error::Activity(Box::new(error))
    }

    /// A copy of this error, for each of several results it ends (the activities of one failed
    /// query); a transport error's source becomes its text.
    pub(crate) fn duplicate(&self) -> Error {
        match self {
            Error::Transport(source) => Error::Transport(source.to_string().into()),
            Error::Timeout => Error::Timeout,
            Error::Auth { status, message } => Error::Auth {
                status: *status,
                message: message.clone(),
            },
            Error::Api(e) => Error::Api(e.clone()),
            Error::Decode(e) => Error::Decode(e.clone()),
            Error::InvalidRequest { message } => Error::invalid(message.clone()),
            Error::Activity(e) => Error::Activity(e.clone()),
            Error::BodyTooLarge { limit, status } => Error::BodyTooLarge {
                limit: *limit,
                status: *status,
            },
            Error::InvalidTenantId { message } => Error::InvalidTenantId {
                message: message.clone(),
            },
            Error::Env { variable, problem } => Error::Env { variable, problem },
            Error::Panicked => Error::Panicked,
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::InvalidRequest {
            message: message.into(),
        }
    }

    pub(crate) fn from_reqwest(err: reqwest::Error) -> Error {
        if err.is_builder() {
            Error::InvalidRequest {
                message: format!("the request could not be built: {err}"),
            }
        } else if err.is_timeout() {
            Error::Timeout
        } else {
            Error::Transport(Box::new(err))
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Transport(source) => write!(f, "transport error: {source}"),
            Error::Timeout => f.write_str("the request timed out"),
            Error::Auth {
                status: Some(status),
                message,
            } => write!(f, "authentication failed (HTTP {status}): {message}"),
            Error::Auth {
                status: None,
                message,
            } => write!(f, "authentication failed: {message}"),
            Error::Api(e) => fmt::Display::fmt(e, f),
            Error::Decode(e) => fmt::Display::fmt(e, f),
            Error::InvalidRequest { message } => write!(f, "invalid request: {message}"),
            Error::Activity(e) => fmt::Display::fmt(e, f),
            Error::BodyTooLarge { limit, status } => write!(
                f,
                "the HTTP {status} response body is larger than the limit of {limit} bytes"
            ),
            Error::InvalidTenantId { message } => write!(f, "invalid tenant id: {message}"),
            Error::Env { variable, problem } => {
                write!(f, "environment variable {variable} {problem}")
            }
            Error::Panicked => f.write_str("the work for this tenant panicked"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport(source) => Some(&**source),
            _ => None,
        }
    }
}
