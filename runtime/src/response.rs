//! A successful answer, undecoded.

use std::fmt::Display;

use bytes::Bytes;
use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;

use crate::error::{DecodeError, Error};
use crate::redact::Redactor;

/// A success answer (status 2xx) with its headers and undecoded body: a [`Response`] of bytes
/// (its accessors are reached through `Deref`) that also knows the call's secrets, so a decode
/// error built from it never shows them.
#[derive(Clone)]
pub struct RawResponse {
    /// Also knows the secrets of the call, masked in decode errors.
    inner: Response<Bytes>,
    /// The answer to a write (201 or 202 to any method, any success to PUT, PATCH or DELETE):
    /// the service took it, so an answer that does not decode says so (the write must not be
    /// sent again; decode errors are never retried).
    write: bool,
}

impl std::fmt::Debug for RawResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Headers and body as the service sent them may echo a secret.
        let headers = self
            .inner
            .redactor
            .text(&format!("{:?}", self.inner.headers));
        let body = self.inner.redactor.bytes(self.inner.body.clone(), false);
        f.debug_struct("RawResponse")
            .field("status", &self.inner.status)
            .field("headers", &format_args!("{headers}"))
            .field("body", &body)
            .finish()
    }
}

impl std::ops::Deref for RawResponse {
    type Target = Response<Bytes>;

    fn deref(&self) -> &Response<Bytes> {
        &self.inner
    }
}

impl RawResponse {
    pub(crate) fn new(status: u16, headers: HeaderMap, body: Bytes, redactor: Redactor) -> Self {
        RawResponse {
            inner: Response {
                status,
                headers,
                body,
                redactor,
            },
            write: false,
        }
    }

    /// Marks the answer as one to a write (see [`Error::Decode`] of such an answer).
    pub(crate) fn of_write(mut self, write: bool) -> Self {
        self.write = write;
        self
    }

    /// Consumes the response and returns the body.
    pub fn into_body(self) -> Bytes {
        self.inner.body
    }

    /// The body decoded from JSON into `T`; an empty (or blank) body is
    /// decoded as JSON `null`, so `()` and `Option<_>` accept it. A body
    /// that does not decode is an [`Error::Decode`] keeping the status,
    /// request id and bytes.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let body = &self.inner.body;
        let result = if body.iter().all(u8::is_ascii_whitespace) {
            serde_json::from_slice(b"null")
        } else {
            serde_json::from_slice(body)
        };
        result.map_err(|e| self.clone().into_decode_error(e))
    }

    /// The body as text (for example `text/csv`). A body that is not valid
    /// UTF-8 is an [`Error::Decode`] keeping the status, request id and
    /// bytes.
    pub fn text(&self) -> Result<String, Error> {
        match std::str::from_utf8(&self.inner.body) {
            Ok(text) => Ok(text.to_owned()),
            Err(e) => Err(self.clone().into_decode_error(format_args!(
                "the response body is not valid UTF-8 text: {e}"
            ))),
        }
    }

    /// A [`Response`] with this answer's status and headers and `body`.
    pub fn with_body<T>(&self, body: T) -> Response<T> {
        Response {
            status: self.inner.status,
            headers: self.inner.headers.clone(),
            body,
            redactor: self.inner.redactor.clone(),
        }
    }

    /// The [`Error::Decode`] for this answer, whose body could not be decoded
    /// because of `err`. The request id is the `x-request-id` header, or else
    /// the body's top-level `requestId`. Echoed secrets are masked in the
    /// request id, the body and the message.
    pub(crate) fn into_decode_error(self, err: impl Display) -> Error {
        let request_id = self.request_id().map(str::to_owned).or_else(|| {
            match serde_json::from_slice::<serde_json::Value>(&self.inner.body) {
                Ok(serde_json::Value::Object(map)) => map
                    .get("requestId")
                    .and_then(|v| v.as_str())
                    .map(str::to_owned),
                _ => None,
            }
        });
        let message = if self.write {
            format!(
                "the service accepted the write (HTTP {}), but its answer did not decode; do not send it again: {err}",
                self.inner.status
            )
        } else {
            err.to_string()
        };
        Error::Decode(DecodeError::new(
            self.inner.status,
            request_id.as_deref(),
            &message,
            self.inner.body,
            &self.inner.redactor,
        ))
    }
}

/// A decoded success answer with its status and headers, as a send's future
/// answers it after `.with_response()`.
///
/// ```no_run
/// # async fn example(request: ruckus_one_runtime::internal::Request<'_>) -> Result<(), ruckus_one_runtime::Error> {
/// // `request` is any request builder of the client, e.g. `client.network().wireless_venues().get_venue(id)`.
/// let response = request.send_json::<serde_json::Value>().with_response().await?;
/// println!("HTTP {} request id {:?}", response.status(), response.request_id());
/// let venue = response.into_body();
/// # let _ = venue; Ok(()) }
/// ```
#[derive(Clone)]
pub struct Response<T> {
    status: u16,
    headers: HeaderMap,
    body: T,
    /// The secrets of the call, masked in `Debug`.
    redactor: Redactor,
}

/// The headers and the body as the service sent them may echo a secret:
/// they are shown through the call's redactor.
impl<T: std::fmt::Debug> std::fmt::Debug for Response<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers = self.redactor.text(&format!("{:?}", self.headers));
        let body = self.redactor.text(&format!("{:?}", self.body));
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("headers", &format_args!("{headers}"))
            .field("body", &format_args!("{body}"))
            .finish()
    }
}

impl<T> Response<T> {
    /// HTTP status code (2xx).
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The first value of a header (case-insensitive name), if present and
    /// valid text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// All headers as (lower-case name, raw value) pairs, in order received.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.headers.iter().map(|(k, v)| (k.as_str(), v.as_bytes()))
    }

    /// The `x-request-id` header, if present (the id support asks for).
    pub fn request_id(&self) -> Option<&str> {
        self.header("x-request-id")
    }

    /// What the answer says about the deprecation of the operation or of the version asked
    /// for (`Ruckus-Deprecated`, `Ruckus-Current-Version`, `Deprecation`, `Sunset`); `None`
    /// when it carries none of these headers.
    pub fn deprecation(&self) -> Option<crate::Deprecation> {
        crate::Deprecation::of(&self.headers)
    }

    /// The decoded body.
    pub fn body(&self) -> &T {
        &self.body
    }

    /// Consumes the response and returns the decoded body.
    pub fn into_body(self) -> T {
        self.body
    }

    /// The response with its body transformed by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Response<U> {
        Response {
            status: self.status,
            headers: self.headers,
            body: f(self.body),
            redactor: self.redactor,
        }
    }
}
