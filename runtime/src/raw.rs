//! Calling an endpoint the generated client does not describe.

use crate::sending::{Sending, Waiting};
use std::fmt::Display;
use std::time::Duration;

use bytes::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::accepted::{Accepted, Completed};
use crate::activity::WaitOptions;
use crate::client::Client;
use crate::error::Error;
use crate::operation::{Api, Method, Operation};
use crate::request::Request;
use crate::response::{RawResponse, Response};
use crate::retry::RetryPolicy;

/// A call of any endpoint of an API, described at run time: the escape
/// hatch for endpoints (or parameters) the generated client does not have.
///
/// It is sent exactly like a generated operation: the same authentication
/// (the access token, or the unit token for the APIs that take one, such
/// as the resident portal), the delegated tenant header (the client's, or the one set with
/// [`RawRequest::tenant`]), the same retries (idempotency follows the
/// method), and the same typed errors: error bodies are decoded against
/// every known shape, `ErrorsArray` first (see
/// [`ErrorBody`](crate::ErrorBody)).
///
/// The path is relative to the API's base URL (host and prefix, as for the
/// generated operations of that API) and is used **as given**: it is not
/// percent-encoded, so encode values put into it yourself. Query parameters
/// added with [`RawRequest::query`] are encoded.
///
/// Problems found while building (an invalid header name or value, a body
/// that cannot be serialized, an invalid tenant id or media type) do not
/// panic: the first one is returned by the `send_*` method as
/// [`Error::InvalidRequest`], and nothing is sent. `Authorization`,
/// `Accept`, `Content-Type` (of a body) and the tenant header are set by the
/// runtime and replace headers of the same name given with
/// [`RawRequest::header`]; use [`RawRequest::accept`] and
/// [`RawRequest::content_type`] for the media types.
///
/// ```no_run
/// # extern crate ruckus_one_runtime as ruckus_one;
/// use ruckus_one::{Error, Method, RawRequest};
/// use serde_json::{Value, json};
///
/// # struct Network<'a>(&'a ruckus_one_runtime::Client, &'static ruckus_one_runtime::internal::Api);
/// # impl<'a> Network<'a> {
/// #     fn raw(&self, method: Method, path: &str) -> RawRequest<'a> {
/// #         RawRequest::new(self.0, self.1, method, path)
/// #     }
/// # }
/// # async fn example(client: &ruckus_one_runtime::Client, api: &'static ruckus_one_runtime::internal::Api) -> Result<(), Error> {
/// # let network = Network(client, api);
/// // `network` is `client.network()`: `raw` starts a request on that API's base URL.
/// // GET <base>/venues/v-1/aps?page=2 for a customer tenant.
/// let aps: Value = network.raw(Method::Get, "/venues/v-1/aps")
///     .query("page", 2)
///     .tenant("customer-tenant-id")
///     .send_json()
///     .await?;
///
/// // A write with a vendor media type, answered as text.
/// let csv = network.raw(Method::Post, "/venues/export")
///     .json(&json!({"fields": ["name"]}))
///     .content_type("application/vnd.ruckus.v1+json")
///     .accept("text/csv")
///     .send_text()
///     .await?;
/// # let _ = (aps, csv); Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[must_use = "a request does nothing until a `send_*` method is awaited"]
pub struct RawRequest<'a> {
    inner: Request<'a>,
}

impl<'a> RawRequest<'a> {
    /// Starts a `method` call of `path` (relative to the base URL of `api`,
    /// used as given) with `Accept: application/json` and no body.
    pub fn new(client: &'a Client, api: &'static Api, method: Method, path: &str) -> Self {
        RawRequest {
            inner: Request::dynamic(client, api, method, path),
        }
    }

    /// Adds the query parameter `name=value` (both percent-encoded); may be
    /// called several times with the same name.
    pub fn query(mut self, name: &str, value: impl Display) -> Self {
        self.inner.push_query(name, &value.to_string());
        self
    }

    /// Adds a request header. An invalid name or value makes the call fail
    /// with [`Error::InvalidRequest`] when sent.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.inner.push_header(name, value);
        self
    }

    /// Acts on this delegated tenant for this call only, overriding the
    /// client's. An id that breaks the rule given at
    /// [`Config::delegated_tenant`](crate::Config::delegated_tenant) makes the call fail
    /// with [`Error::InvalidTenantId`] before anything is sent.
    pub fn tenant(mut self, tenant_id: &str) -> Self {
        self.inner.tenant(tenant_id);
        self
    }

    /// Sets a JSON body, sent as `application/json` unless
    /// [`RawRequest::content_type`] says otherwise.
    pub fn json<T: Serialize + ?Sized>(mut self, body: &T) -> Self {
        self.inner.json(body);
        self
    }

    /// Sets a body of bytes sent with `content_type` (unless
    /// [`RawRequest::content_type`] says otherwise).
    pub fn bytes(mut self, body: Bytes, content_type: &str) -> Self {
        self.inner.typed_body(body, content_type);
        self
    }

    /// Sets the `Content-Type` of the body, whichever way it was given.
    pub fn content_type(mut self, content_type: &str) -> Self {
        self.inner.media_types(None, Some(content_type));
        self
    }

    /// Sets the `Accept` header (default `application/json`).
    pub fn accept(mut self, accept: &str) -> Self {
        self.inner.media_types(Some(accept), None);
        self
    }

    /// Largest response body read for this call, in bytes, instead of
    /// [`Config::max_body_size`](crate::Config::max_body_size).
    pub fn max_body_size(mut self, bytes: usize) -> Self {
        self.inner.max_body_size(bytes);
        self
    }

    /// Sends the request and decodes the JSON success body into `T`; an
    /// empty body is decoded as JSON `null`.
    pub fn send_json<T: DeserializeOwned + 'a>(self) -> Sending<'a, T> {
        self.inner.send_json()
    }

    /// Sends the request and returns the success body as bytes.
    pub fn send_bytes(self) -> Sending<'a, Bytes> {
        self.inner.send_bytes()
    }

    /// Sends the request and returns the success body as text; a body that
    /// is not UTF-8 is an [`Error::Decode`].
    pub fn send_text(self) -> Sending<'a, String> {
        self.inner.send_text()
    }

    /// Sends the request and ignores the success body.
    pub fn send_empty(self) -> Sending<'a, ()> {
        self.inner.send_empty()
    }

    /// Sends the request and returns the success status, headers and body.
    pub fn send_raw(self) -> Sending<'a, RawResponse> {
        self.inner.send_raw()
    }

    /// Time allowed for this whole call (token request, attempts and waits
    /// between them), instead of
    /// [`Config::call_timeout`](crate::Config::call_timeout).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.inner.timeout(timeout);
        self
    }

    /// Time allowed for each attempt of this call, instead of
    /// [`Config::request_timeout`](crate::Config::request_timeout).
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.inner.attempt_timeout(timeout);
        self
    }

    /// How this call is repeated, instead of
    /// [`Config::retry`](crate::Config::retry); it also applies to an access
    /// token request this call makes.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.inner.retry(policy);
        self
    }

    /// Sends the request and returns the body decoded by `decode` with the
    /// answer's status and headers, for decodings the `send_*` methods do
    /// not offer.
    pub fn send_with_meta<T: 'a, F>(self, decode: F) -> Sending<'a, Response<T>>
    where
        F: FnOnce(&RawResponse) -> Result<T, Error> + Send + 'a,
    {
        self.inner.send_with_meta(decode)
    }

    /// Sends an asynchronous request and keeps what it takes to wait for
    /// it, as a generated request's `send_accepted` does: [`Accepted::wait`]
    /// polls `activity` as the tenant of this request.
    pub fn send_accepted<T: DeserializeOwned + 'a, A: 'a>(
        self,
        activity: &'static Operation,
    ) -> Sending<'a, Accepted<T, A>> {
        self.inner.send_accepted(activity)
    }

    /// Sends an asynchronous request and waits for its activity, as a
    /// generated request's `send_and_wait` does (polling `activity` for the same
    /// tenant as this request): the answer decoded as `T` with the
    /// activity decoded as `A`.
    pub fn send_and_wait<
        T: DeserializeOwned + Send + Sync + 'a,
        A: DeserializeOwned + Send + 'a,
    >(
        self,
        activity: &'static Operation,
        options: &WaitOptions,
    ) -> Waiting<'a, Completed<T, A>> {
        self.inner.send_and_wait(activity, options)
    }
}
