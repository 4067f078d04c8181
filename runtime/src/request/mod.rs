//! Building one call of an operation; used by the generated code. Sending it first turns it into
//! what the executor sends ([`prepare`]).

mod prepare;
mod preview;

pub use preview::Preview;

use crate::sending::Sending;
use std::fmt::{Display, Write as _};
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::client::Client;
use crate::error::Error;
use crate::execute::{self, CallOptions, Prepared, SendFuture};
use crate::multipart::Multipart;
use crate::operation::{Api, ErrorFamily, Method, Operation};
use crate::path;
use crate::response::{RawResponse, Response};
use crate::retry::RetryPolicy;
use crate::tenant::Tenant;

/// One call of an [`Operation`], built by generated code and then sent.
///
/// Problems found while building (a body that cannot be serialized, an
/// invalid header value, an empty path parameter, a version index out of
/// range) do not panic: the first one is kept and returned by the `send_*`
/// method as [`Error::InvalidRequest`] (an invalid tenant id as
/// [`Error::InvalidTenantId`]), without sending anything.
///
/// A `send_*` method prepares the call at once (URL, headers, body) and returns a future that
/// sends it when awaited; the future does not keep the request, only what it sends.
///
/// Headers managed by the runtime (`Authorization`, `Accept`,
/// `Content-Type` of a body, the tenant header when a tenant is set) replace
/// any value of the same name given with [`Request::header`].
#[derive(Clone)]
pub struct Request<'a> {
    client: &'a Client,
    target: Target,
    path: String,
    query: String,
    headers: HeaderMap,
    body: Body,
    tenant: Option<Tenant>,
    version: usize,
    error: Option<BuildError>,
    /// Set only when the call overrides a setting of the client's (rare): a call's request and
    /// the future that sends it stay small.
    options: Option<Box<CallOptions>>,
}

/// The first problem found while building a request, returned when it is
/// sent.
#[derive(Clone, Debug)]
enum BuildError {
    /// Becomes [`Error::InvalidRequest`].
    Invalid(String),
    /// Becomes [`Error::InvalidTenantId`].
    Tenant(String),
}

impl From<BuildError> for Error {
    fn from(error: BuildError) -> Error {
        match error {
            BuildError::Invalid(message) => Error::InvalidRequest { message },
            BuildError::Tenant(message) => Error::InvalidTenantId { message },
        }
    }
}

/// What a request calls: a generated operation, or a call described at run
/// time by a [`RawRequest`](crate::RawRequest).
#[derive(Clone)]
enum Target {
    Operation(&'static Operation),
    Dynamic(Box<Dynamic>),
}

/// The parts of an [`Operation`] a [`RawRequest`](crate::RawRequest) gives
/// at run time.
#[derive(Clone)]
struct Dynamic {
    api: &'static Api,
    method: Method,
    /// `Accept` header.
    accept: String,
    /// `Content-Type` of any body, overriding the body's own.
    content_type: Option<String>,
}

#[derive(Clone)]
enum Body {
    None,
    Json(Bytes),
    Form(Bytes),
    Multipart {
        content_type: String,
        bytes: Bytes,
    },
    Binary(Bytes),
    /// Bytes with their own content type (raw requests).
    Typed {
        content_type: String,
        bytes: Bytes,
    },
}

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
            Err(message) => (String::new(), Some(BuildError::Invalid(message))),
        };
        Request {
            client,
            target: Target::Operation(op),
            path,
            query: String::new(),
            headers: HeaderMap::new(),
            body: Body::None,
            tenant: None,
            version: 0,
            error,
            options: None,
        }
    }

    /// Starts a call described at run time: `path` (already encoded) is
    /// relative to the API base, errors are decoded with `ErrorsArray` first.
    pub(crate) fn dynamic(
        client: &'a Client,
        api: &'static Api,
        method: Method,
        path: &str,
    ) -> Request<'a> {
        Request {
            client,
            target: Target::Dynamic(Box::new(Dynamic {
                api,
                method,
                accept: "application/json".to_owned(),
                content_type: None,
            })),
            path: path.to_owned(),
            query: String::new(),
            headers: HeaderMap::new(),
            body: Body::None,
            tenant: None,
            version: 0,
            error: None,
            options: None,
        }
    }

    fn fail(&mut self, message: impl FnOnce() -> String) {
        if self.error.is_none() {
            self.error = Some(BuildError::Invalid(message()));
        }
    }

    /// Adds a query parameter; may be called several times with the same
    /// name.
    pub fn query(&mut self, name: &'static str, value: &dyn Display) {
        self.push_query(name, &value.to_string());
    }

    pub(crate) fn push_query(&mut self, name: &str, value: &str) {
        if !self.query.is_empty() {
            self.query.push('&');
        }
        self.query.push_str(&path::encode_component(name));
        self.query.push('=');
        self.query.push_str(&path::encode_component(value));
    }

    /// Adds a request header.
    pub fn header(&mut self, name: &'static str, value: &dyn Display) {
        let mut text = String::new();
        let _ = write!(text, "{value}");
        self.push_header(name, &text);
    }

    pub(crate) fn push_header(&mut self, name: &str, text: &str) {
        let Ok(header_name) = HeaderName::from_bytes(name.as_bytes()) else {
            self.fail(|| format!("`{name}` is not a valid header name"));
            return;
        };
        match HeaderValue::from_str(text) {
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
    /// client's. An id that breaks the rule given at
    /// [`Config::delegated_tenant`](crate::Config::delegated_tenant) makes
    /// the call fail with [`Error::InvalidTenantId`] when sent, before
    /// anything is sent.
    pub fn tenant(&mut self, tenant_id: &str) {
        match Tenant::new(tenant_id, "delegated tenant id") {
            Ok(tenant) => self.tenant = Some(tenant),
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(match e {
                        Error::InvalidTenantId { message } => BuildError::Tenant(message),
                        other => BuildError::Invalid(other.to_string()),
                    });
                }
            }
        }
    }

    /// Largest response body read for this call, in bytes, instead of
    /// [`Config::max_body_size`](crate::Config::max_body_size) (for example
    /// for a large download with [`send_bytes`](Self::send_bytes)).
    pub fn max_body_size(&mut self, bytes: usize) {
        self.options_mut().max_body_size = Some(bytes);
    }

    /// Sets a body sent with `content_type` (raw requests).
    pub(crate) fn typed_body(&mut self, bytes: Bytes, content_type: &str) {
        self.body = Body::Typed {
            content_type: content_type.to_owned(),
            bytes,
        };
    }

    /// Sets the `Accept` header and a `Content-Type` overriding the body's
    /// (raw requests; ignored for operations, whose versions say).
    pub(crate) fn media_types(&mut self, accept: Option<&str>, content_type: Option<&str>) {
        if let Target::Dynamic(dynamic) = &mut self.target {
            if let Some(accept) = accept {
                dynamic.accept = accept.to_owned();
            }
            if let Some(content_type) = content_type {
                dynamic.content_type = Some(content_type.to_owned());
            }
        }
    }

    /// Acts for `tenant` (already checked) for this call only.
    pub(crate) fn set_tenant(&mut self, tenant: Tenant) {
        self.tenant = Some(tenant);
    }

    /// Selects the representation `op.versions[index]` (0 is the default).
    pub fn version(&mut self, index: usize) {
        let Target::Operation(op) = self.target else {
            self.fail(|| "a raw request has a single representation".to_owned());
            return;
        };
        if index < op.versions.len() {
            self.version = index;
        } else {
            let id = op.id;
            let count = op.versions.len();
            self.fail(|| {
                format!("operation `{id}` has {count} versions; index {index} is out of range")
            });
        }
    }

    /// Sends the request and decodes the JSON success body into `T`. An empty
    /// body is decoded as JSON `null` (so `()` and `Option<_>` accept it).
    pub fn send_json<T: DeserializeOwned + 'a>(self) -> Sending<'a, T> {
        Sending::new(self.send_boxed(), |raw| raw.json())
    }

    /// Sends the request and ignores the success body.
    pub fn send_empty(self) -> Sending<'a, ()> {
        Sending::new(self.send_boxed(), |_| Ok(()))
    }

    /// Sends the request and returns the success body as bytes.
    pub fn send_bytes(self) -> Sending<'a, Bytes> {
        Sending::new(self.send_boxed(), |raw| Ok(raw.into_body()))
    }

    /// Sends the request and returns the success body as text (for example
    /// `text/csv`). A body that is not valid UTF-8 is an [`Error::Decode`]
    /// keeping the status, request id and bytes.
    pub fn send_text(self) -> Sending<'a, String> {
        Sending::new(self.send_boxed(), |raw| raw.text())
    }

    /// Sends the request and returns the body decoded by `decode` together
    /// with the answer's status and headers (and so its request id), for
    /// decodings the `send_*` methods do not offer.
    ///
    /// ```no_run
    /// # async fn example(request: ruckus_one_runtime::internal::Request<'_>) -> Result<(), ruckus_one_runtime::Error> {
    /// use ruckus_one_runtime::RawResponse;
    /// let response = request.send_with_meta(|raw: &RawResponse| Ok(raw.body().len())).await?;
    /// println!("{} bytes, request id {:?}", response.body(), response.request_id());
    /// # Ok(()) }
    /// ```
    pub fn send_with_meta<T: 'a, F>(self, decode: F) -> Sending<'a, Response<T>>
    where
        F: FnOnce(&RawResponse) -> Result<T, Error> + Send + 'a,
    {
        Sending::new(self.send_boxed(), |raw| {
            let body = decode(&raw)?;
            Ok(raw.with_body(body))
        })
    }

    /// Time allowed for this whole call (token request, attempts and waits
    /// between them), instead of
    /// [`Config::call_timeout`](crate::Config::call_timeout).
    pub fn timeout(&mut self, timeout: Duration) {
        self.options_mut().call_timeout = Some(timeout);
    }

    /// Time allowed for each attempt of this call, instead of
    /// [`Config::request_timeout`](crate::Config::request_timeout).
    pub fn attempt_timeout(&mut self, timeout: Duration) {
        self.options_mut().attempt_timeout = Some(timeout);
    }

    /// How this call is repeated, instead of
    /// [`Config::retry`](crate::Config::retry) (for example
    /// [`RetryPolicy::none`] for a call that must not be repeated). It also
    /// applies to an access token request this call makes.
    pub fn retry(&mut self, policy: RetryPolicy) {
        self.options_mut().retry = Some(policy);
    }

    /// Sends the request and returns the success status, headers and body.
    pub fn send_raw(self) -> Sending<'a, RawResponse> {
        Sending::new(self.send_boxed(), Ok)
    }

    pub(crate) fn options_mut(&mut self) -> &mut CallOptions {
        self.options.get_or_insert_with(Box::default)
    }

    /// The client the request is sent with.
    pub(crate) fn client(&self) -> &'a Client {
        self.client
    }

    /// The tenant the request acts for: the one set with
    /// [`Request::tenant`], else the client's delegated tenant.
    pub(crate) fn acting_tenant(&self) -> Option<Tenant> {
        self.tenant
            .clone()
            .or_else(|| self.client.tenant().cloned())
    }

    // `Request::send_accepted` and `Request::send_and_wait` are in
    // `accepted.rs`, `Request::pages` and `Request::items` in
    // `paging/request_pages.rs`.

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

    /// The one non-generic path every `send_*` goes through. The request is prepared before
    /// the future is made, and the future borrows it: it is copied into the boxed future once,
    /// and neither the request nor its prepared form is kept twice in that future (a future's
    /// size is copied and touched on every call).
    pub(crate) fn send_boxed(self) -> SendFuture<'a> {
        let client = self.client;
        let prepared = match self.prepare() {
            Ok(prepared) => prepared,
            Err(error) => return Box::pin(std::future::ready(Err(error))),
        };
        execute::send(client, prepared)
    }
}

impl std::fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut f = f.debug_struct("Request");
        match &self.target {
            Target::Operation(op) => f.field("operation", &op.id),
            Target::Dynamic(dynamic) => f
                .field("api", &dynamic.api.name)
                .field("method", &dynamic.method),
        };
        // Query values and bodies may hold credentials (a key's password): not shown.
        f.field("path", &self.path)
            .field("version", &self.version)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}
