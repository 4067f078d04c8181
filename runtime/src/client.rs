//! The shared client: HTTP connection pool, token cache and configuration.

use std::fmt;
use std::sync::{Arc, OnceLock};

use reqwest::header::{HeaderName, HeaderValue};

use crate::auth::TokenSource;
use crate::config::{Config, Region};
use crate::error::Error;
use crate::operation::{Api, AuthSettings};
use crate::pacing::Pacer;
use crate::path::{BaseUrl, check_base_url};
use crate::redact::Redactor;
use crate::tenant::{Tenant, check_tenant_id};
use crate::tls::ensure_crypto_provider;

/// A configured client. Cloning is cheap; clones share the connection pool
/// and the access token cache.
///
/// ```no_run
/// # async fn example(auth: &'static ruckus_one_runtime::internal::AuthSettings) -> Result<(), ruckus_one_runtime::Error> {
/// use ruckus_one_runtime::{Client, Config, Credentials};
/// let client = Client::new(Config::new(Credentials::new("id", "secret")), auth)?;
/// let customer = client.with_tenant("customer-tenant-id")?;
/// # let _ = customer; Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    shared: Arc<Shared>,
    tenant: Option<Tenant>,
}

/// APIs whose base URL a client keeps parsed; a generated crate has three.
const BASE_URL_SLOTS: usize = 8;

pub(crate) struct Shared {
    pub(crate) http: reqwest::Client,
    pub(crate) config: Config,
    pub(crate) tenant_header: HeaderName,
    pub(crate) tokens: TokenSource,
    /// A `User-Agent` to send with every request (with a caller-built
    /// client whose user agent was chosen in the configuration).
    pub(crate) user_agent: Option<HeaderValue>,
    /// `Bearer <unit token>`, marked sensitive, when the configuration has one.
    pub(crate) unit_token: Option<HeaderValue>,
    /// The rate-limit buckets, per (service, tenant).
    pub(crate) pacer: Pacer,
    /// Base URLs resolved so far, by the address of their (static) API: read by every call
    /// without a lock or a write, so concurrent callers do not contend for them.
    base_urls: [OnceLock<(usize, BaseUrl)>; BASE_URL_SLOTS],
}

impl Client {
    /// Builds a client. Fails with [`Error::InvalidRequest`] when a URL,
    /// the user agent, the unit token or the tenant header name is invalid, and with
    /// [`Error::InvalidTenantId`] when the delegated or the token tenant id
    /// is (see [`Config::delegated_tenant`]).
    pub fn new(config: Config, auth: &'static AuthSettings) -> Result<Client, Error> {
        if let Some(url) = &config.base_url {
            check_base_url("base URL", url).map_err(Error::invalid)?;
        }
        for (name, url) in &config.api_base_urls {
            check_base_url(&format!("base URL of API `{name}`"), url).map_err(Error::invalid)?;
        }
        if let Some(tenant) = &config.token_tenant_id {
            check_tenant_id(tenant, "token tenant id")?;
        }
        let token_url = config.resolve_token_url(auth);
        check_base_url("token URL", &token_url).map_err(Error::invalid)?;
        let tenant_header =
            HeaderName::from_bytes(auth.tenant_header.as_bytes()).map_err(|_| {
                Error::invalid(format!(
                    "`{}` is not a valid tenant header name",
                    auth.tenant_header
                ))
            })?;
        let user_agent = HeaderValue::from_str(&config.user_agent).map_err(|_| {
            Error::invalid("the user agent contains characters not allowed in a header")
        })?;
        // Sent with every request when the caller chose it for their own
        // client; the runtime's own client sends it by default.
        let user_agent_header =
            (config.http_client.is_some() && config.user_agent_set).then(|| user_agent.clone());
        let tenant = config
            .delegated_tenant
            .as_deref()
            .map(|id| Tenant::new(id, "delegated tenant id"))
            .transpose()?;
        let http = match &config.http_client {
            Some(client) => client.0.clone(),
            None => {
                ensure_crypto_provider();
                let builder = reqwest::Client::builder()
                    .redirect(reqwest::redirect::Policy::none())
                    .connect_timeout(config.connect_timeout)
                    .user_agent(user_agent);
                without_tls_roots(builder, config.plain_http_only(&token_url))
                    .build()
                    .map_err(|e| Error::Transport(Box::new(e)))?
            }
        };
        let tokens = TokenSource::new(
            token_url,
            config.credentials.clone(),
            config.token_refresh_margin,
            config.request_timeout,
            user_agent_header.clone(),
            config.unit_token.as_ref(),
        );
        let unit_token = config
            .unit_token
            .as_ref()
            .map(|secret| {
                HeaderValue::from_str(&format!("Bearer {}", secret.expose())).map_err(|_| {
                    Error::invalid("the unit token contains characters not allowed in a header")
                })
            })
            .transpose()?
            .map(|mut value| {
                value.set_sensitive(true);
                value
            });
        let host = config
            .base_url
            .as_deref()
            .unwrap_or_else(|| config.region.api_host());
        let own_tenant = match &config.token_tenant_id {
            Some(tenant) => tenant.clone(),
            None => format!("client {}", config.credentials.client_id()),
        };
        let pacer =
            Pacer::new(config.pacing.clone()).owned_by(host.trim_end_matches('/'), &own_tenant);
        Ok(Client {
            shared: Arc::new(Shared {
                http,
                config,
                tenant_header,
                tokens,
                user_agent: user_agent_header,
                unit_token,
                pacer,
                base_urls: Default::default(),
            }),
            tenant,
        })
    }

    /// A client acting on the delegated account `tenant_id`, sharing this
    /// client's connection pool and token cache. An id that breaks the rule
    /// given at [`Config::delegated_tenant`] is an
    /// [`Error::InvalidTenantId`].
    pub fn with_tenant(&self, tenant_id: &str) -> Result<Client, Error> {
        Ok(Client {
            shared: self.shared.clone(),
            tenant: Some(Tenant::new(tenant_id, "delegated tenant id")?),
        })
    }

    /// A client acting on the account that owns the credentials (no tenant
    /// header), sharing this client's connection pool and token cache.
    pub fn without_tenant(&self) -> Client {
        Client {
            shared: self.shared.clone(),
            tenant: None,
        }
    }

    /// The delegated tenant id sent with every request, if any.
    pub fn delegated_tenant(&self) -> Option<&str> {
        self.tenant.as_ref().map(Tenant::id)
    }

    /// The configured region.
    pub fn region(&self) -> Region {
        self.shared.config.region
    }

    /// The base URL (prefix included, no trailing slash) that operations of
    /// `api` are sent to.
    pub fn base_url(&self, api: &Api) -> String {
        self.shared.config.resolve_base_url(api)
    }

    /// Calls `f` with [`base_url`](Self::base_url), resolved and parsed once per API.
    pub(crate) fn with_base_url<T>(&self, api: &'static Api, f: impl FnOnce(&BaseUrl) -> T) -> T {
        let key = std::ptr::from_ref(api) as usize;
        let resolve = || BaseUrl::new(self.shared.config.resolve_base_url(api));
        for slot in &self.shared.base_urls {
            let (slot_key, url) = slot.get_or_init(|| (key, resolve()));
            if *slot_key == key {
                return f(url);
            }
        }
        // More APIs than slots (not so in any generated crate): resolved per call.
        f(&resolve())
    }

    /// `text` with every echo of this client's secrets (the client secret, the unit token,
    /// the current and previous access tokens), in every encoding the runtime recognises,
    /// replaced by `***`: for tools that show what a server answered (a command line, an MCP
    /// server) and must never show a secret.
    pub fn redact(&self, text: &str) -> String {
        self.redactor().text(text)
    }

    /// The redactor of every live secret of this client (see
    /// [`TokenSource::redactor`]).
    pub(crate) fn redactor(&self) -> Redactor {
        self.shared.tokens.redactor()
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    pub(crate) fn tenant(&self) -> Option<&Tenant> {
        self.tenant.as_ref()
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = &self.shared.config;
        f.debug_struct("Client")
            .field("client_id", &config.credentials.client_id())
            .field("region", &config.region)
            .field("base_url", &config.base_url)
            .field("token_url", &self.shared.tokens.url())
            .field("delegated_tenant", &self.delegated_tenant())
            .finish_non_exhaustive()
    }
}

/// A client whose every URL is plain HTTP (a simulator on loopback) opens no TLS connection
/// (redirects are not followed): it trusts no root certificate instead of loading the system's,
/// which is most of the time building a client takes.
fn without_tls_roots(builder: reqwest::ClientBuilder, plain: bool) -> reqwest::ClientBuilder {
    #[cfg(any(feature = "tls-aws-lc", feature = "tls-ring"))]
    if plain {
        return builder.tls_certs_only([]);
    }
    let _ = plain;
    builder
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Credentials;
    use crate::operation::{ApiAuth, Hosts};

    const fn api(prefix: &'static str) -> Api {
        Api {
            name: "test",
            title: "Test",
            prefix,
            hosts: Hosts {
                asia: "https://asia.example",
                europe: "https://eu.example",
                north_america: "https://na.example",
            },
            auth: ApiAuth::ClientCredentials,
            tenant_limit: None,
        }
    }

    /// More APIs than the client keeps parsed: two more than its slots.
    static APIS: [Api; BASE_URL_SLOTS + 2] = {
        let prefixes = ["/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h", "/i", "/j"];
        let mut apis = [const { api("") }; BASE_URL_SLOTS + 2];
        let mut i = 0;
        while i < apis.len() {
            apis[i] = api(prefixes[i]);
            i += 1;
        }
        apis
    };

    static AUTH: AuthSettings = AuthSettings {
        token_url: "{host}/oauth2/token/{tenant_id}",
        token_url_without_tenant: "{host}/oauth2/token",
        tenant_header: "x-rks-tenantid",
    };

    #[test]
    fn every_api_is_sent_to_its_own_base_url_beyond_the_kept_ones() {
        let client = Client::new(Config::new(Credentials::new("id", "secret")), &AUTH).unwrap();
        for round in 0..2 {
            for api in &APIS {
                let url = client
                    .with_base_url(api, |base| base.request_url("/x", ""))
                    .unwrap();
                assert_eq!(
                    url.as_str(),
                    format!("https://na.example{}/x", api.prefix),
                    "round {round}"
                );
            }
        }
    }
}
