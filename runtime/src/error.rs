//! The error type returned by every call.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use serde_json::Value;

use crate::error_body::{self, ErrorBody, ErrorDetail};
use crate::operation::ErrorFamily;
use crate::redact::Redactor;
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
    /// [`wait_for_activity`](crate::wait_for_activity)).
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
            Error::BodyTooLarge { limit, status } => write!(
                f,
                "the HTTP {status} response body is larger than the limit of {limit} bytes"
            ),
            Error::InvalidTenantId { message } => write!(f, "invalid tenant id: {message}"),
            Error::Env { variable, problem } => {
                write!(f, "environment variable {variable} {problem}")
            }
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
    /// Whether `raw` is only the start of the body.
    truncated: bool,
    /// The answer's `Retry-After`, from when it arrived.
    retry_after: Option<Duration>,
}

impl<T: fmt::Debug> Answer<T> {
    fn new(status: u16, request_id: Option<String>, raw: Bytes, detail: T) -> Box<Self> {
        Box::new(Answer {
            status,
            request_id,
            raw,
            detail,
            truncated: false,
            retry_after: None,
        })
    }

    /// `Debug` of the error type `name`, showing `detail` as `field`.
    fn debug(&self, f: &mut fmt::Formatter<'_>, name: &str, field: &str) -> fmt::Result {
        f.debug_struct(name)
            .field("status", &self.status)
            .field("request_id", &self.request_id)
            .field(field, &self.detail)
            .field("raw_body", &String::from_utf8_lossy(&self.raw))
            .field("truncated", &self.truncated)
            .field("retry_after", &self.retry_after)
            .finish()
    }

    /// ` (request id <id>)`, when the request id is known.
    fn write_request_id(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.request_id {
            Some(id) => write!(f, " (request id {})", one_line(id, 100)),
            None => Ok(()),
        }
    }
}

/// An error answer from the service.
#[derive(Clone)]
pub struct ApiError(Box<Answer<ErrorBody>>);

impl ApiError {
    /// The error for an answer with status `status`, the `x-request-id`
    /// header `request_id` and the body `raw` (its start when `truncated`),
    /// decoded as `family` or another known shape. The body and the request
    /// id go through `redactor` before anything else reads them.
    pub(crate) fn new(
        status: u16,
        request_id: Option<&str>,
        raw: Bytes,
        truncated: bool,
        family: ErrorFamily,
        redactor: &Redactor,
    ) -> Self {
        let raw = redactor.bytes(raw, truncated);
        let (body, body_request_id) = error_body::decode(family, &raw);
        let request_id = redactor.option(request_id).or(body_request_id);
        let mut answer = Answer::new(status, request_id, raw, body);
        answer.truncated = truncated;
        ApiError(answer)
    }

    /// Sets the answer's `Retry-After`.
    pub(crate) fn with_retry_after(mut self, retry_after: Option<Duration>) -> Self {
        self.0.retry_after = retry_after;
        self
    }

    /// Whether [`raw_body`](Self::raw_body) is only the start of the body:
    /// of an error answer at most [`MAX_ERROR_BODY_SIZE`](crate::MAX_ERROR_BODY_SIZE)
    /// (or the maximum body size, if smaller) is read. A cut JSON body
    /// usually decodes as [`ErrorBody::Raw`].
    pub fn is_body_truncated(&self) -> bool {
        self.0.truncated
    }

    /// The answer's `Retry-After` (seconds or a date), as a wait from when
    /// the answer arrived.
    pub fn retry_after(&self) -> Option<Duration> {
        self.0.retry_after
    }

    /// HTTP status code.
    pub fn status(&self) -> u16 {
        self.0.status
    }

    /// The `x-request-id` response header, or else the body's `requestId`.
    pub fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }

    /// The decoded body: of the operation's [`ErrorFamily`](crate::ErrorFamily)
    /// when it has that shape, else of the first other family it matches
    /// (see [`ErrorBody`]).
    pub fn body(&self) -> &ErrorBody {
        &self.0.detail
    }

    /// The body as received (its start only when
    /// [`is_body_truncated`](Self::is_body_truncated)), with any echo of the
    /// client secret or the access token replaced by `***`.
    pub fn raw_body(&self) -> &[u8] {
        &self.0.raw
    }

    /// The first human-readable explanation of the decoded body, if any.
    pub fn message(&self) -> Option<&str> {
        self.0.detail.message()
    }

    /// The first service-specific error code of the decoded body, if any.
    pub fn code(&self) -> Option<&str> {
        self.0.detail.code()
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f, "ApiError", "body")
    }
}

/// One line: `HTTP <status> <reason>: <code>: <message> (request id <id>)`;
/// without a code or message, the start of the body instead.
impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = self.0.status;
        write!(f, "HTTP {status}")?;
        if let Some(reason) = reqwest::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
        {
            write!(f, " {reason}")?;
        }
        match (self.code(), self.message()) {
            (Some(code), Some(message)) if code != message => write!(
                f,
                ": {}: {}",
                one_line(code, 100),
                one_line(message, MESSAGE_MAX)
            )?,
            (Some(text), _) | (None, Some(text)) => write!(f, ": {}", one_line(text, MESSAGE_MAX))?,
            (None, None) => {
                let start = one_line(&String::from_utf8_lossy(&self.0.raw), 200);
                if !start.is_empty() {
                    write!(f, ": {start}")?;
                }
            }
        }
        self.0.write_request_id(f)
    }
}

impl std::error::Error for ApiError {}

/// A success answer whose body could not be decoded.
#[derive(Clone)]
pub struct DecodeError(Box<Answer<String>>);

impl DecodeError {
    /// The error for a success answer with status `status` whose body
    /// `raw` could not be decoded, because of `message`. Everything goes
    /// through `redactor` first.
    pub(crate) fn new(
        status: u16,
        request_id: Option<&str>,
        message: &str,
        raw: Bytes,
        redactor: &Redactor,
    ) -> Self {
        DecodeError(Answer::new(
            status,
            redactor.option(request_id),
            redactor.bytes(raw, false),
            redactor.text(message),
        ))
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

    /// The body as received, with any echo of the client secret or the
    /// access token replaced by `***`.
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
    ) -> Error {
        let details = error
            .map(error_body::details_of_text)
            .unwrap_or_default()
            .into_iter()
            .map(|detail| redact_detail(detail, redactor))
            .collect();
        Error::Activity(Box::new(ActivityError {
            request_id: redactor.text(request_id),
            outcome: Outcome::Failed {
                details,
                error: redactor.option(error),
                activity: redactor.value(activity),
            },
        }))
    }

    /// The error for an activity still unfinished after `waited`.
    pub(crate) fn timed_out(
        request_id: &str,
        waited: Duration,
        last_status: Option<&str>,
        redactor: &Redactor,
    ) -> Error {
        Error::Activity(Box::new(ActivityError {
            request_id: redactor.text(request_id),
            outcome: Outcome::TimedOut {
                waited,
                last_status: redactor.option(last_status),
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

    /// The structured entries of the activity's `error`, when that text is
    /// JSON of one of the known error shapes (see
    /// [`ErrorBody`](crate::ErrorBody)) or an array of error objects
    /// (`{"code", "message", "reason", "suggestion"}`); empty when it is not,
    /// and for timeouts. [`error_text`](Self::error_text) keeps the text.
    pub fn errors(&self) -> Vec<ErrorDetail> {
        self.details().to_vec()
    }

    fn details(&self) -> &[ErrorDetail] {
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
        message: redact(detail.message),
        reason: redact(detail.reason),
        suggestion: redact(detail.suggestion),
    }
}

/// Longest message shown by `Display`.
const MESSAGE_MAX: usize = 300;

/// `text` on one line, for `Display`: control characters and runs of white
/// space become one space, and at most `max` characters are kept.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if count >= max {
            out.push('…');
            return out;
        }
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= max {
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
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
        check::<ActivityError>();
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
        let none = Redactor::default();
        let e = Error::Api(ApiError::new(
            429,
            Some("rid"),
            Bytes::from_static(b"slow down"),
            false,
            ErrorFamily::ErrorsArray,
            &none,
        ));
        assert_eq!(e.status(), Some(429));
        assert_eq!(e.request_id(), Some("rid"));
        assert_eq!(e.raw_body(), Some(&b"slow down"[..]));
        assert!(e.is_retryable());
        assert!(e.api_error().is_some());
        assert_eq!(
            e.to_string(),
            "HTTP 429 Too Many Requests: slow down (request id rid)"
        );
        assert_eq!(e.code(), None);
        assert_eq!(e.message(), None);
        let e = Error::Api(ApiError::new(
            404,
            None,
            Bytes::new(),
            false,
            ErrorFamily::ErrorsArray,
            &none,
        ));
        assert!(!e.is_retryable());
        assert!(Error::Timeout.is_retryable());
        assert!(!Error::invalid("x").is_retryable());
        assert_eq!(Error::invalid("x").status(), None);
        let d = Error::Decode(DecodeError::new(
            200,
            None,
            "bad",
            Bytes::from_static(b"{"),
            &none,
        ));
        assert_eq!(d.status(), Some(200));
        assert_eq!(d.raw_body(), Some(&b"{"[..]));
        assert!(!d.is_retryable());
    }

    fn api(status: u16, request_id: Option<&str>, raw: &'static [u8]) -> Error {
        Error::Api(ApiError::new(
            status,
            request_id,
            Bytes::from_static(raw),
            false,
            ErrorFamily::ErrorsArray,
            &Redactor::default(),
        ))
    }

    #[test]
    fn api_error_display_is_one_line() {
        let e = api(
            400,
            Some("abc"),
            br#"{"errors":[{"code":"WIFI-10001","message":"Venue\r\n  not found"}]}"#,
        );
        assert_eq!(
            e.to_string(),
            "HTTP 400 Bad Request: WIFI-10001: Venue not found (request id abc)"
        );
        assert_eq!(e.code(), Some("WIFI-10001"));
        assert_eq!(e.message(), Some("Venue\r\n  not found"));
        // The code only once when it is also the only text.
        let e = api(409, None, br#"{"errors":[{"code":"E-1"}]}"#);
        assert_eq!(e.to_string(), "HTTP 409 Conflict: E-1");
        // No code.
        let e = api(
            404,
            None,
            br#"{"status":"404 NOT_FOUND","message":"no group"}"#,
        );
        assert_eq!(e.to_string(), "HTTP 404 Not Found: no group");
        assert_eq!(e.code(), None);
        // Undecodable: the start of the body, on one line; unknown status.
        let e = api(599, Some("r"), b"<html>\n<body>oops</body>\n</html>");
        assert_eq!(
            e.to_string(),
            "HTTP 599: <html> <body>oops</body> </html> (request id r)"
        );
        let e = api(502, None, b"");
        assert_eq!(e.to_string(), "HTTP 502 Bad Gateway");
        let e = api(500, None, b"{}");
        assert_eq!(e.to_string(), "HTTP 500 Internal Server Error: {}");
        assert!(!api(400, None, &[b'x'; 5000]).to_string().contains('\n'));
    }

    #[test]
    fn activity_errors_parse_json_in_the_error_text() {
        let failed = ActivityError::failed(
            "req",
            Some(
                r#"{"requestId":"req","errors":[{"code":"WIFI-10123","message":"VLAN in use","reason":"r"}]}"#,
            ),
            Value::Null,
            &Redactor::default(),
        );
        let Error::Activity(activity) = &failed else {
            panic!("{failed:?}")
        };
        assert_eq!(activity.errors().len(), 1);
        assert_eq!(activity.errors()[0].reason.as_deref(), Some("r"));
        assert_eq!(failed.code(), Some("WIFI-10123"));
        assert_eq!(failed.message(), Some("VLAN in use"));
        assert_eq!(
            failed.to_string(),
            "activity req failed: WIFI-10123: VLAN in use"
        );
        let plain =
            ActivityError::failed("req", Some("it broke"), Value::Null, &Redactor::default());
        let Error::Activity(activity) = &plain else {
            panic!("{plain:?}")
        };
        assert!(activity.errors().is_empty());
        assert_eq!(activity.error_text(), Some("it broke"));
        assert_eq!(plain.code(), None);
        assert_eq!(plain.message(), Some("it broke"));
        assert_eq!(plain.to_string(), "activity req failed: it broke");
        let timeout =
            ActivityError::timed_out("req", Duration::from_secs(1), None, &Redactor::default());
        assert_eq!(timeout.code(), None);
        assert_eq!(timeout.message(), None);
    }

    #[test]
    fn one_line_collapses_and_truncates() {
        assert_eq!(one_line(" a\r\n\tb  c ", 100), "a b c");
        assert_eq!(one_line("abcdef", 3), "abc…");
        assert_eq!(one_line("ab cd", 2), "ab…");
        assert_eq!(one_line("", 3), "");
    }

    #[test]
    fn snippet_truncates_on_char_boundary() {
        let long = "é".repeat(300);
        let s = snippet(long.as_bytes());
        assert_eq!(s.chars().count(), 201);
        assert_eq!(snippet(b"\xff\xfe"), "\u{fffd}\u{fffd}");
    }
}
