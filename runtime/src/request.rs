//! Building one call of an operation; used by the generated code.

use std::fmt::{Display, Write as _};
use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::client::{Client, Tenant};
use crate::error::Error;
use crate::execute::{Prepared, execute};
use crate::multipart::Multipart;
use crate::operation::Operation;
use crate::path;
use crate::response::RawResponse;

/// One call of an [`Operation`], built by generated code and then sent.
///
/// Problems found while building (a body that cannot be serialized, an
/// invalid header value, an empty path parameter, a version index out of
/// range) do not panic: the first one is kept and returned by the `send_*`
/// method as [`Error::InvalidRequest`], without sending anything.
///
/// Headers managed by the runtime (`Authorization`, `Accept`,
/// `Content-Type` of a body, the tenant header when a tenant is set) replace
/// any value of the same name given with [`Request::header`].
#[derive(Clone)]
pub struct Request<'a> {
    client: &'a Client,
    op: &'static Operation,
    path: String,
    query: String,
    headers: HeaderMap,
    body: Body,
    tenant: Option<Tenant>,
    version: usize,
    error: Option<String>,
}

#[derive(Clone)]
enum Body {
    None,
    Json(Bytes),
    Form(Bytes),
    Multipart { content_type: String, bytes: Bytes },
    Binary(Bytes),
}

type SendFuture<'a> = Pin<Box<dyn Future<Output = Result<RawResponse, Error>> + Send + 'a>>;

impl<'a> Request<'a> {
    /// Starts a call of `op`. `path_params` are the values of the `{...}`
    /// placeholders of [`Operation::path`], in order of appearance; each is
    /// percent-encoded as one path segment (everything but `A-Z a-z 0-9 - . _ ~`
    /// is encoded, so `/`, `?` and `#` cannot change the path). An empty value,
    /// `.` or `..` makes the call fail with [`Error::InvalidRequest`]: the
    /// HTTP stack's URL parser would remove `%2E` and `%2E%2E` as dot
    /// segments, so those values cannot be sent as a segment safely.
    pub fn new(client: &'a Client, op: &'static Operation, path_params: &[&str]) -> Request<'a> {
        let (path, error) = match path::expand(op.path, path_params) {
            Ok(path) => (path, None),
            Err(message) => (String::new(), Some(message)),
        };
        Request {
            client,
            op,
            path,
            query: String::new(),
            headers: HeaderMap::new(),
            body: Body::None,
            tenant: None,
            version: 0,
            error,
        }
    }

    fn fail(&mut self, message: impl FnOnce() -> String) {
        if self.error.is_none() {
            self.error = Some(message());
        }
    }

    /// Adds a query parameter; may be called several times with the same
    /// name.
    pub fn query(&mut self, name: &'static str, value: &dyn Display) {
        if !self.query.is_empty() {
            self.query.push('&');
        }
        self.query.push_str(&path::encode_component(name));
        self.query.push('=');
        self.query
            .push_str(&path::encode_component(&value.to_string()));
    }

    /// Adds a request header.
    pub fn header(&mut self, name: &'static str, value: &dyn Display) {
        let Ok(header_name) = HeaderName::from_bytes(name.as_bytes()) else {
            self.fail(|| format!("`{name}` is not a valid header name"));
            return;
        };
        let mut text = String::new();
        let _ = write!(text, "{value}");
        match HeaderValue::from_str(&text) {
            Ok(v) => {
                self.headers.append(header_name, v);
            }
            Err(_) => self.fail(|| {
                format!("the value of header `{name}` contains characters not allowed in a header")
            }),
        }
    }

    /// Sets a JSON body.
    pub fn json<T: Serialize + ?Sized>(&mut self, body: &T) {
        match serde_json::to_vec(body) {
            Ok(bytes) => self.body = Body::Json(Bytes::from(bytes)),
            Err(e) => self.fail(|| format!("the JSON body could not be serialized: {e}")),
        }
    }

    /// Sets an `application/x-www-form-urlencoded` body.
    pub fn form<T: Serialize + ?Sized>(&mut self, body: &T) {
        match serde_urlencoded::to_string(body) {
            Ok(text) => self.body = Body::Form(Bytes::from(text)),
            Err(e) => self.fail(|| format!("the form body could not be serialized: {e}")),
        }
    }

    /// Sets a `multipart/form-data` body.
    pub fn multipart(&mut self, body: Multipart) {
        match body.encode() {
            Ok((content_type, bytes)) => {
                self.body = Body::Multipart {
                    content_type,
                    bytes,
                }
            }
            Err(message) => self.fail(|| message),
        }
    }

    /// Sets a binary body, sent with the version's content type or
    /// `application/octet-stream`.
    pub fn binary(&mut self, body: Bytes) {
        self.body = Body::Binary(body);
    }

    /// Acts on this delegated tenant for this call only, overriding the
    /// client's.
    pub fn tenant(&mut self, tenant_id: &str) {
        match Tenant::new(tenant_id) {
            Ok(tenant) => self.tenant = Some(tenant),
            Err(e) => self.fail(|| match e {
                Error::InvalidRequest { message } => message,
                other => other.to_string(),
            }),
        }
    }

    /// Selects the representation `op.versions[index]` (0 is the default).
    pub fn version(&mut self, index: usize) {
        if index < self.op.versions.len() {
            self.version = index;
        } else {
            let id = self.op.id;
            let count = self.op.versions.len();
            self.fail(|| {
                format!("operation `{id}` has {count} versions; index {index} is out of range")
            });
        }
    }

    /// Sends the request and decodes the JSON success body into `T`. An empty
    /// body is decoded as JSON `null` (so `()` and `Option<_>` accept it).
    pub async fn send_json<T: DeserializeOwned>(self) -> Result<T, Error> {
        let raw = self.send_boxed().await?;
        let body = raw.body();
        let is_blank = body.iter().all(u8::is_ascii_whitespace);
        let result = if is_blank {
            serde_json::from_slice(b"null")
        } else {
            serde_json::from_slice(body)
        };
        result.map_err(|e| raw.into_decode_error(e))
    }

    /// Sends the request and ignores the success body.
    pub async fn send_empty(self) -> Result<(), Error> {
        self.send_boxed().await.map(drop)
    }

    /// Sends the request and returns the success body as bytes.
    pub async fn send_bytes(self) -> Result<Bytes, Error> {
        self.send_boxed().await.map(RawResponse::into_body)
    }

    /// Sends the request and returns the success status, headers and body.
    pub async fn send_raw(self) -> Result<RawResponse, Error> {
        self.send_boxed().await
    }

    // `Request::pages` is in `paging.rs`, on top of the three helpers below.

    /// The first value of query parameter `name`, as encoded.
    pub(crate) fn query_value(&self, name: &str) -> Option<&str> {
        let prefix = format!("{}=", path::encode_component(name));
        self.query
            .split('&')
            .find_map(|p| p.strip_prefix(prefix.as_str()))
    }

    /// Removes every query parameter `name`.
    pub(crate) fn remove_query(&mut self, name: &str) {
        let prefix = format!("{}=", path::encode_component(name));
        let kept: Vec<&str> = self
            .query
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with(&prefix))
            .collect();
        self.query = kept.join("&");
    }

    /// The JSON body, parsed, if one is set and valid.
    pub(crate) fn json_body(&self) -> Option<serde_json::Value> {
        match &self.body {
            Body::Json(bytes) => serde_json::from_slice(bytes).ok(),
            _ => None,
        }
    }

    /// The one non-generic path every `send_*` goes through.
    fn send_boxed(self) -> SendFuture<'a> {
        let client = self.client;
        Box::pin(async move {
            let prepared = self.prepare()?;
            execute(client, prepared).await
        })
    }

    fn prepare(self) -> Result<Prepared, Error> {
        if let Some(message) = self.error {
            return Err(Error::InvalidRequest { message });
        }
        let op = self.op;
        let version = op.versions.get(self.version).ok_or_else(|| {
            Error::invalid(format!("operation `{}` declares no media types", op.id))
        })?;
        let mut url = path::join(&self.client.base_url(op.api), &self.path);
        if !self.query.is_empty() {
            url.push('?');
            url.push_str(&self.query);
        }
        let mut headers = self.headers;
        headers.insert(ACCEPT, static_value(version.accept, "Accept")?);
        let (content_type, body) = match self.body {
            Body::None => (None, None),
            Body::Json(bytes) => (
                Some(static_value(
                    version.content_type.unwrap_or("application/json"),
                    "Content-Type",
                )?),
                Some(bytes),
            ),
            Body::Form(bytes) => (
                Some(static_value(
                    version
                        .content_type
                        .unwrap_or("application/x-www-form-urlencoded"),
                    "Content-Type",
                )?),
                Some(bytes),
            ),
            Body::Multipart {
                content_type,
                bytes,
            } => (
                Some(
                    HeaderValue::from_str(&content_type)
                        .map_err(|_| Error::invalid("invalid multipart content type"))?,
                ),
                Some(bytes),
            ),
            Body::Binary(bytes) => (
                Some(static_value(
                    version.content_type.unwrap_or("application/octet-stream"),
                    "Content-Type",
                )?),
                Some(bytes),
            ),
        };
        if let Some(value) = content_type {
            headers.insert(CONTENT_TYPE, value);
        }
        let shared = self.client.shared();
        if let Some(tenant) = self.tenant.as_ref().or(self.client.tenant()) {
            headers.insert(shared.tenant_header.clone(), tenant.header().clone());
        }
        Ok(Prepared {
            method: op.method,
            url,
            headers,
            body,
            family: op.error_family,
            auth: op.api.auth,
            api: op.api.name,
        })
    }
}

fn static_value(value: &'static str, what: &str) -> Result<HeaderValue, Error> {
    HeaderValue::from_str(value)
        .map_err(|_| Error::invalid(format!("invalid {what} media type `{value}`")))
}

impl std::fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("operation", &self.op.id)
            .field("path", &self.path)
            .field("query", &self.query)
            .field("version", &self.version)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}
