//! A successful answer, undecoded.

use std::fmt::Display;

use bytes::Bytes;
use reqwest::header::HeaderMap;

use crate::error::{DecodeError, Error};
use crate::mask::Masker;

/// A success answer (status 2xx) with its headers and body.
#[derive(Clone)]
pub struct RawResponse {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
    /// The secrets of the call, masked in decode errors.
    masker: Masker,
}

impl std::fmt::Debug for RawResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawResponse")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("body", &self.body)
            .finish()
    }
}

impl RawResponse {
    pub(crate) fn new(status: u16, headers: HeaderMap, body: Bytes, masker: Masker) -> Self {
        RawResponse {
            status,
            headers,
            body,
            masker,
        }
    }

    /// HTTP status code.
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

    /// The `x-request-id` header, if present.
    pub fn request_id(&self) -> Option<&str> {
        self.header("x-request-id")
    }

    /// The body.
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// Consumes the response and returns the body.
    pub fn into_body(self) -> Bytes {
        self.body
    }

    /// The [`Error::Decode`] for this answer, whose body could not be decoded
    /// because of `err`. The request id is the `x-request-id` header, or else
    /// the body's top-level `requestId`. Echoed secrets are masked in the
    /// body and the message.
    pub(crate) fn into_decode_error(self, err: impl Display) -> Error {
        let request_id = self.request_id().map(str::to_owned).or_else(|| {
            match serde_json::from_slice::<serde_json::Value>(&self.body) {
                Ok(serde_json::Value::Object(map)) => map
                    .get("requestId")
                    .and_then(|v| v.as_str())
                    .map(str::to_owned),
                _ => None,
            }
        });
        Error::Decode(DecodeError::new(
            self.status,
            request_id,
            self.masker.mask_str(&err.to_string()),
            self.masker.mask_bytes(self.body, false),
        ))
    }
}
