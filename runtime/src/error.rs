//! The error type returned by every call.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use serde_json::Value;

use crate::error_body::ErrorBody;
use crate::retry::Failure;

/// Everything that can go wrong while calling the service.
///
/// Neither the client secret nor the access token ever appears in an error's
/// `Display` or `Debug` output.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The connection could not be established or broke (DNS, TCP, TLS,
    /// HTTP protocol errors). The underlying error is kept as the source.
    Transport(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// An attempt exceeded the connect or request timeout.
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
    /// [`wait_for_activity`](crate::wait_for_activity)).
    Activity(Box<ActivityError>),
}

impl Error {
    /// HTTP status of the answer this error came from, if any.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.status()),
            Error::Decode(e) => Some(e.status()),
            Error::Auth { status, .. } => *status,
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

/// The shape [`ApiError`] and [`DecodeError`] share: status, request id and
/// body as received of the answer, plus what each type adds (`detail`: the
/// decoded error body, or why decoding failed).
#[derive(Clone)]
struct Answer<T> {
    status: u16,
    request_id: Option<String>,
    raw: Bytes,
    detail: T,
}

impl<T: fmt::Debug> Answer<T> {
    fn new(status: u16, request_id: Option<String>, raw: Bytes, detail: T) -> Box<Self> {
        Box::new(Answer {
            status,
            request_id,
            raw,
            detail,
        })
    }

    /// `Debug` of the error type `name`, showing `detail` as `field`.
    fn debug(&self, f: &mut fmt::Formatter<'_>, name: &str, field: &str) -> fmt::Result {
        f.debug_struct(name)
            .field("status", &self.status)
            .field("request_id", &self.request_id)
            .field(field, &self.detail)
            .field("raw_body", &String::from_utf8_lossy(&self.raw))
            .finish()
    }

    /// ` (request id <id>)`, when the request id is known.
    fn write_request_id(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.request_id {
            Some(id) => write!(f, " (request id {id})"),
            None => Ok(()),
        }
    }
}

/// An error answer from the service.
#[derive(Clone)]
pub struct ApiError(Box<Answer<ErrorBody>>);

impl ApiError {
    pub(crate) fn new(
        status: u16,
        request_id: Option<String>,
        body: ErrorBody,
        raw: Bytes,
    ) -> Self {
        ApiError(Answer::new(status, request_id, raw, body))
    }

    /// HTTP status code.
    pub fn status(&self) -> u16 {
        self.0.status
    }

    /// The `x-request-id` response header, or else the body's `requestId`.
    pub fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }

    /// The body decoded according to the operation's
    /// [`ErrorFamily`](crate::ErrorFamily).
    pub fn body(&self) -> &ErrorBody {
        &self.0.detail
    }

    /// The body exactly as received.
    pub fn raw_body(&self) -> &[u8] {
        &self.0.raw
    }

    /// The first human-readable explanation of the decoded body, if any.
    pub fn message(&self) -> Option<&str> {
        self.0.detail.message()
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f, "ApiError", "body")
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the service answered HTTP {}", self.0.status)?;
        self.0.write_request_id(f)?;
        match self.message() {
            Some(message) => write!(f, ": {message}"),
            None if self.0.raw.is_empty() => Ok(()),
            None => write!(f, ": {}", snippet(&self.0.raw)),
        }
    }
}

impl std::error::Error for ApiError {}

/// A success answer whose body could not be decoded.
#[derive(Clone)]
pub struct DecodeError(Box<Answer<String>>);

impl DecodeError {
    pub(crate) fn new(
        status: u16,
        request_id: Option<String>,
        message: String,
        raw: Bytes,
    ) -> Self {
        DecodeError(Answer::new(status, request_id, raw, message))
    }

    /// HTTP status code of the answer.
    pub fn status(&self) -> u16 {
        self.0.status
    }

    /// The `x-request-id` response header, or else the body's `requestId`.
    pub fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }

    /// Why decoding failed.
    pub fn message(&self) -> &str {
        &self.0.detail
    }

    /// The body exactly as received.
    pub fn raw_body(&self) -> &[u8] {
        &self.0.raw
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f, "DecodeError", "message")
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "could not decode the HTTP {} response body",
            self.0.status
        )?;
        self.0.write_request_id(f)?;
        write!(f, ": {}", self.0.detail)
    }
}

impl std::error::Error for DecodeError {}

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
        activity: Value,
    },
    TimedOut {
        waited: Duration,
        last_status: Option<String>,
    },
}

impl ActivityError {
    /// The error for an activity whose status is `FAIL`.
    pub(crate) fn failed(request_id: &str, error: Option<String>, activity: Value) -> Error {
        Error::Activity(Box::new(ActivityError {
            request_id: request_id.to_owned(),
            outcome: Outcome::Failed { error, activity },
        }))
    }

    /// The error for an activity still unfinished after `waited`.
    pub(crate) fn timed_out(
        request_id: &str,
        waited: Duration,
        last_status: Option<String>,
    ) -> Error {
        Error::Activity(Box::new(ActivityError {
            request_id: request_id.to_owned(),
            outcome: Outcome::TimedOut {
                waited,
                last_status,
            },
        }))
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
            Outcome::Failed { error: Some(e), .. } => {
                write!(f, "activity {} failed: {e}", self.request_id)
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

/// At most 200 characters of a body, for messages.
pub(crate) fn snippet(raw: &[u8]) -> String {
    const MAX: usize = 200;
    let text = String::from_utf8_lossy(raw);
    let mut out: String = text.chars().take(MAX).collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_send_sync_static() {
        fn check<T: Send + Sync + std::error::Error + 'static>() {}
        check::<Error>();
        check::<ApiError>();
        check::<DecodeError>();
    }

    #[test]
    fn error_stays_small() {
        assert!(
            std::mem::size_of::<Error>() <= 40,
            "{}",
            std::mem::size_of::<Error>()
        );
    }

    #[test]
    fn helpers() {
        let e = Error::Api(ApiError::new(
            429,
            Some("rid".into()),
            ErrorBody::Raw,
            Bytes::from_static(b"slow down"),
        ));
        assert_eq!(e.status(), Some(429));
        assert_eq!(e.request_id(), Some("rid"));
        assert_eq!(e.raw_body(), Some(&b"slow down"[..]));
        assert!(e.is_retryable());
        assert!(e.api_error().is_some());
        assert_eq!(
            e.to_string(),
            "the service answered HTTP 429 (request id rid): slow down"
        );
        let e = Error::Api(ApiError::new(404, None, ErrorBody::Raw, Bytes::new()));
        assert!(!e.is_retryable());
        assert!(Error::Timeout.is_retryable());
        assert!(!Error::invalid("x").is_retryable());
        assert_eq!(Error::invalid("x").status(), None);
        let d = Error::Decode(DecodeError::new(
            200,
            None,
            "bad".into(),
            Bytes::from_static(b"{"),
        ));
        assert_eq!(d.status(), Some(200));
        assert_eq!(d.raw_body(), Some(&b"{"[..]));
        assert!(!d.is_retryable());
    }

    #[test]
    fn snippet_truncates_on_char_boundary() {
        let long = "é".repeat(300);
        let s = snippet(long.as_bytes());
        assert_eq!(s.chars().count(), 201);
        assert_eq!(snippet(b"\xff\xfe"), "\u{fffd}\u{fffd}");
    }
}
