//! The errors that keep a service's answer: [`ApiError`] (an error status)
//! and [`DecodeError`] (a success whose body did not decode).

use std::fmt;
use std::time::Duration;

use bytes::Bytes;

use super::text::{MESSAGE_MAX, one_line};
use crate::error_body::{self, ErrorBody, ErrorDetail};
use crate::operation::ErrorFamily;
use crate::redact::Redactor;

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
    /// of an error answer at most 1 MiB (`runtime::MAX_ERROR_BODY_SIZE`)
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

    /// The decoded body: of the operation's error family
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

    /// Every entry of the decoded body, in order (see
    /// [`ErrorBody::entries`]).
    pub fn entries(&self) -> Vec<ErrorDetail> {
        self.0.detail.entries()
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f, "ApiError", "body")
    }
}

/// One line: `HTTP <status> <reason>: <code>: <field>: <message> (request id <id>)`, the field
/// where the body names the request field the message is about;
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
        let field = self.0.detail.message_field();
        let text = |t: &str| match field {
            Some(field) if Some(t) == self.message() => {
                format!("{}: {}", one_line(field, 100), one_line(t, MESSAGE_MAX))
            }
            _ => one_line(t, MESSAGE_MAX),
        };
        match (self.code(), self.message()) {
            (Some(code), Some(message)) if code != message => {
                write!(f, ": {}: {}", one_line(code, 100), text(message))?
            }
            (Some(t), _) | (None, Some(t)) => write!(f, ": {}", text(t))?,
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
