//! [`Config`]: the settings of a client and their setters.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use super::credentials::Credentials;
use super::region::Region;
use crate::operation::{Api, AuthSettings};
use crate::pacing::Pacing;
use crate::retry::RetryPolicy;
use crate::secret::Secret;

/// Settings for a client (`Client::new` takes them), built with consuming setters.
///
/// ```
/// use std::time::Duration;
/// # extern crate ruckus_one_runtime as ruckus_one;
/// use ruckus_one::{Config, Credentials, Region, RetryPolicy};
/// let config = Config::new(Credentials::new("client-id", "client-secret"))
///     .region(Region::Europe)
///     .delegated_tenant("0123abcd")
///     .request_timeout(Duration::from_secs(30))
///     .retry(RetryPolicy::default().max_attempts(5));
/// assert!(!format!("{config:?}").contains("client-secret"));
/// ```
///
/// URL composition: an API's base URL is the one given with
/// [`api_base_url`](Config::api_base_url) if any; otherwise the host (the
/// [`base_url`](Config::base_url) override, or the API's host for the
/// region) followed by the API's prefix (overridable with
/// [`api_prefix`](Config::api_prefix)). Operation paths are appended to it.
#[derive(Clone, Debug)]
pub struct Config {
    pub(crate) credentials: Credentials,
    pub(crate) region: Region,
    pub(crate) base_url: Option<String>,
    pub(crate) api_base_urls: BTreeMap<String, String>,
    pub(crate) api_prefixes: BTreeMap<String, String>,
    pub(crate) token_url: Option<String>,
    pub(crate) token_tenant_id: Option<String>,
    pub(crate) delegated_tenant: Option<String>,
    pub(crate) connect_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) retry: RetryPolicy,
    pub(crate) user_agent: String,
    pub(crate) token_refresh_margin: Duration,
    pub(crate) unit_token: Option<Secret>,
    pub(crate) call_timeout: Duration,
    pub(crate) max_body_size: usize,
    /// Whether the user agent was set with [`Config::user_agent`].
    pub(crate) user_agent_set: bool,
    pub(crate) http_client: Option<HttpClient>,
    pub(crate) pacing: Pacing,
}

/// A caller-built HTTP client; `Debug` does not show its settings (its
/// default headers or proxy URLs may hold credentials).
#[derive(Clone)]
pub(crate) struct HttpClient(pub(crate) reqwest::Client);

impl fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("reqwest::Client { .. }")
    }
}

pub(super) const DEFAULT_USER_AGENT: &str = concat!("ruckus-one-rust/", env!("CARGO_PKG_VERSION"));

/// Default of [`Config::max_body_size`]: 64 MiB.
pub const DEFAULT_MAX_BODY_SIZE: usize = 64 * 1024 * 1024;

/// How much of an error answer's body is kept at most: 1 MiB (or
/// [`Config::max_body_size`] when that is smaller). The rest is not read.
pub const MAX_ERROR_BODY_SIZE: usize = 1024 * 1024;

impl Config {
    /// Default settings for the given credentials: North America, 10 s
    /// connect timeout, 30 s per attempt, 120 s per call (retries and the
    /// token request included), default [`RetryPolicy`], tokens renewed 60 s
    /// (at most a tenth of their lifetime) before they expire, bodies up to
    /// 64 MiB.
    pub fn new(credentials: Credentials) -> Self {
        Config {
            credentials,
            region: Region::default(),
            base_url: None,
            api_base_urls: BTreeMap::new(),
            api_prefixes: BTreeMap::new(),
            token_url: None,
            token_tenant_id: None,
            delegated_tenant: None,
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            retry: RetryPolicy::default(),
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            token_refresh_margin: Duration::from_secs(60),
            unit_token: None,
            call_timeout: Duration::from_secs(120),
            max_body_size: DEFAULT_MAX_BODY_SIZE,
            user_agent_set: false,
            http_client: None,
            pacing: Pacing::default(),
        }
    }

    /// A [`reqwest::ClientBuilder`] with the settings the runtime uses for
    /// its own HTTP client: redirects not followed (a token endpoint that
    /// redirects is reported as such), a 10 s connect timeout, the default
    /// user agent. Add proxies, root certificates or pool settings and pass
    /// the built client to [`Config::http_client`].
    ///
    /// With the `tls-ring` feature (and not `tls-aws-lc`) this also installs
    /// ring as the process's default rustls crypto provider if none is
    /// installed yet, which reqwest needs to build a client.
    pub fn http_client_builder() -> reqwest::ClientBuilder {
        crate::tls::ensure_crypto_provider();
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .user_agent(DEFAULT_USER_AGENT)
    }

    /// Sends every request with this caller-built HTTP client instead of one
    /// built by the runtime: its proxies, TLS roots, connection pool,
    /// connect timeout, redirect policy and default headers apply (build it
    /// from [`Config::http_client_builder`] to start from the runtime's
    /// settings; a client that follows redirects hides a token endpoint's
    /// redirect behind the page it leads to).
    ///
    /// [`request_timeout`](Config::request_timeout) and
    /// [`call_timeout`](Config::call_timeout) still apply, per request;
    /// [`connect_timeout`](Config::connect_timeout) does not (it is a
    /// setting of the client). The `User-Agent` is the client's unless set
    /// with [`user_agent`](Config::user_agent).
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.http_client = Some(HttpClient(client));
        self
    }

    /// Selects the region.
    pub fn region(mut self, region: Region) -> Self {
        self.region = region;
        self
    }

    /// Replaces the regional host of every API (and the `{host}` of the token
    /// URL) with `url`, for example `http://127.0.0.1:8080`. Each API's
    /// prefix is still appended.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Sets the complete base URL, prefix included, of the API named
    /// `api_name` (its module in the generated crate:
    /// `analytics`, `network`, ...).
    pub fn api_base_url(mut self, api_name: impl Into<String>, url: impl Into<String>) -> Self {
        self.api_base_urls.insert(api_name.into(), url.into());
        self
    }

    /// Replaces the path prefix of the API named `api_name`, for example
    /// `"/ai"`; `""` removes it.
    pub fn api_prefix(mut self, api_name: impl Into<String>, prefix: impl Into<String>) -> Self {
        self.api_prefixes.insert(api_name.into(), prefix.into());
        self
    }

    /// Uses exactly this token URL instead of the templates of the
    /// token service (the generated crate's `AUTH`).
    pub fn token_url(mut self, url: impl Into<String>) -> Self {
        self.token_url = Some(url.into());
        self
    }

    /// The tenant that owns the application token (a tenant id as described
    /// at [`delegated_tenant`](Config::delegated_tenant), checked by
    /// `Client::new`). With it the token URL is the token service's
    /// URL with `{tenant_id}` filled in; without it, its URL without a
    /// tenant (both in the generated crate's `AUTH`).
    pub fn token_tenant_id(mut self, tenant_id: impl Into<String>) -> Self {
        self.token_tenant_id = Some(tenant_id.into());
        self
    }

    /// Acts on a delegated account: every request carries this tenant id in
    /// the tenant header.
    ///
    /// A tenant id (here, in `Client::with_tenant`,
    /// the `tenant` setter of every request builder and
    /// [`token_tenant_id`](Config::token_tenant_id)) has 1 to 128 characters,
    /// all visible ASCII (`!` to `~`: no space, no control or non-ASCII
    /// character, so no leading or trailing white space either). Any other
    /// value is refused with [`Error::InvalidTenantId`](crate::Error::InvalidTenantId)
    /// before anything is sent: it is never trimmed or re-encoded into
    /// another tenant's id. `Client::new` checks this
    /// one.
    pub fn delegated_tenant(mut self, tenant_id: impl Into<String>) -> Self {
        self.delegated_tenant = Some(tenant_id.into());
        self
    }

    /// Time allowed to establish a connection. Default 10 s. Not applied to
    /// a client given with [`http_client`](Config::http_client).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Time allowed for one attempt (one token request, or one request to
    /// the API), from connecting until the whole response body has arrived.
    /// Default 30 s, so that the default three attempts fit in the default
    /// [`call_timeout`](Config::call_timeout).
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// Time allowed for a whole call: obtaining the access token (or waiting
    /// for another call that is obtaining it), every attempt and every wait
    /// between attempts. Default 120 s.
    ///
    /// Each attempt gets at most the time left; a retry whose wait would end
    /// after the deadline is not made, the last failure is returned instead.
    /// When the deadline passes during an attempt the call fails with
    /// [`Error::Timeout`](crate::Error::Timeout). Waiting for an activity
    /// (`send_and_wait`) and paging
    /// are made of several calls: the deadline applies to each of them, the
    /// wait has its own [`WaitOptions::timeout`](crate::WaitOptions::timeout).
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Largest response body read, in bytes. Default 64 MiB
    /// ([`DEFAULT_MAX_BODY_SIZE`]).
    ///
    /// Bodies are read in chunks as they arrive. A success answer whose body
    /// is larger (by its `Content-Length`, or once more has arrived) fails
    /// with [`Error::BodyTooLarge`](crate::Error::BodyTooLarge); the rest is
    /// not read. The limit applies to every `send_*` method, downloads with
    /// `send_bytes` included; a request builder's `max_body_size`
    /// changes it for one call. Of an error answer at most
    /// [`MAX_ERROR_BODY_SIZE`] (1 MiB, or this limit if smaller) is kept:
    /// the call still fails with its status
    /// ([`ApiError::is_body_truncated`](crate::ApiError::is_body_truncated)
    /// tells that the body was cut).
    pub fn max_body_size(mut self, bytes: usize) -> Self {
        self.max_body_size = bytes;
        self
    }

    /// How failed requests are repeated.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// The `User-Agent` header. Default `ruckus-one-rust/<version>` (with a
    /// client given to [`http_client`](Config::http_client): that client's).
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self.user_agent_set = true;
        self
    }

    /// How long before its expiry a cached access token is replaced. Default
    /// 60 s.
    ///
    /// The margin used for a token is the smaller of this and a tenth of the
    /// token's lifetime, so a short-lived token is still reused for most of
    /// its life (a 30 s token for 27 s). The lifetime is the token answer's
    /// `expires_in`; zero or negative means the token is renewed at once
    /// (it serves only the call that obtained it); when it is missing or not
    /// a number, one hour is assumed (a `401` answer renews a token that
    /// expired earlier than assumed).
    pub fn token_refresh_margin(mut self, margin: Duration) -> Self {
        self.token_refresh_margin = margin;
        self
    }

    /// The token sent as `Authorization: Bearer` by operations of APIs that authenticate with
    /// a caller-supplied token (`auth: unit_token` in the spec), such as
    /// the resident portal's unit token. Kept as a [`Secret`]; `Client::new`
    /// refuses one that cannot be sent in a header.
    pub fn unit_token(mut self, token: impl Into<Secret>) -> Self {
        self.unit_token = Some(token.into());
        self
    }

    /// The URL the access token is requested from.
    /// How calls are paced to stay inside the services' published rate limits (default:
    /// [`Pacing::default`], on). [`Pacing::off`] sends every call at once.
    pub fn pacing(mut self, pacing: Pacing) -> Self {
        self.pacing = pacing;
        self
    }

    pub(crate) fn resolve_token_url(&self, auth: &AuthSettings) -> String {
        if let Some(url) = &self.token_url {
            return url.clone();
        }
        let host = self
            .base_url
            .as_deref()
            .unwrap_or_else(|| self.region.api_host());
        match &self.token_tenant_id {
            Some(tenant) => crate::path::fill_token_url(auth.token_url, host, Some(tenant)),
            None => crate::path::fill_token_url(auth.token_url_without_tenant, host, None),
        }
    }

    /// Every URL the client sends to (the token URL `token_url`, every API's base URL) is plain
    /// HTTP: set, and not the regions' hosts.
    pub(crate) fn plain_http_only(&self, token_url: &str) -> bool {
        let plain = |url: &str| {
            url.get(..7)
                .is_some_and(|s| s.eq_ignore_ascii_case("http://"))
        };
        self.base_url.as_deref().is_some_and(plain)
            && self.api_base_urls.values().all(|u| plain(u))
            && plain(token_url)
    }

    /// The base URL of an API, prefix included, without trailing slash.
    pub(crate) fn resolve_base_url(&self, api: &Api) -> String {
        if let Some(url) = self.api_base_urls.get(api.name) {
            return url.trim_end_matches('/').to_owned();
        }
        let host = self
            .base_url
            .as_deref()
            .unwrap_or_else(|| self.region.host_of(&api.hosts));
        let prefix = self
            .api_prefixes
            .get(api.name)
            .map(String::as_str)
            .unwrap_or(api.prefix);
        crate::path::join(host, prefix)
    }
}
