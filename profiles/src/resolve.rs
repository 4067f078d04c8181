//! One order for finding credentials: the caller's overrides, then the environment, then the
//! stored profile and its secret.

use crate::{Error, Profile, Store};
use ruckus_one_runtime::{Config, env};

/// Values the caller was given directly (command-line flags); each wins over the environment
/// and the profile. There is no secret here: a secret is never taken from a flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Overrides {
    /// The client id, over `RUCKUS_CLIENT_ID` and the profile's.
    pub client_id: Option<String>,
    /// The tenant that owns the token, over `RUCKUS_TENANT_ID` and the profile's.
    pub token_tenant: Option<String>,
    /// The region (`na`, `eu`, `asia`), over `RUCKUS_REGION` and the profile's.
    pub region: Option<String>,
    /// A host replacing the region's (a proxy, a simulator), over `RUCKUS_BASE_URL` and the
    /// profile's.
    pub base_url: Option<String>,
}

/// A configuration and what the profile adds to it.
#[derive(Debug)]
#[non_exhaustive]
pub struct Resolved {
    /// The client configuration, the secret included (redacted by its `Debug`).
    pub config: Config,
    /// The tenant that owns the token, from wherever it came.
    pub token_tenant: String,
    /// The profile's default tenant to act for, if it names one.
    pub tenant: Option<String>,
}

/// The configuration for `profile`: each setting from `overrides`, else from `vars` (the
/// environment: `|name| std::env::var(name).ok()`), else from the stored profile; the client
/// secret from `RUCKUS_CLIENT_SECRET`, else the keychain, else the secrets file.
pub fn resolve(
    store: &Store,
    profile: &str,
    overrides: &Overrides,
    vars: impl Fn(&str) -> Option<String>,
) -> Result<Resolved, Error> {
    let stored = store.profile(profile)?.unwrap_or_default();
    let stored_secret = match vars(env::CLIENT_SECRET) {
        Some(_) => None,
        None => store.secret(profile)?.map(|(secret, _)| secret),
    };
    let Profile {
        client_id,
        token_tenant,
        region,
        base_url,
        tenant,
    } = overrides.over(&stored, &vars);
    let config = Config::from_vars(|name| match name {
        n if n == env::CLIENT_ID => client_id.clone(),
        n if n == env::CLIENT_SECRET => vars(n).or_else(|| stored_secret.clone()),
        n if n == env::TENANT_ID => token_tenant.clone(),
        n if n == env::REGION => region.clone(),
        n if n == env::BASE_URL => base_url.clone(),
        other => vars(other),
    })
    .map_err(Error::Config)?;
    Ok(Resolved {
        config,
        // `from_vars` refused a configuration without it.
        token_tenant: token_tenant.unwrap_or_default(),
        tenant,
    })
}

impl Overrides {
    /// `stored` with each setting taken from these overrides, else from `vars` (the
    /// environment), else from `stored`: the settings a call would use, secret aside. The default
    /// tenant to act for is the profile's.
    pub fn over(&self, stored: &Profile, vars: impl Fn(&str) -> Option<String>) -> Profile {
        let pick = |given: &Option<String>, name: &str, saved: &Option<String>| {
            given
                .clone()
                .or_else(|| vars(name))
                .or_else(|| saved.clone())
        };
        Profile {
            client_id: pick(&self.client_id, env::CLIENT_ID, &stored.client_id),
            token_tenant: pick(&self.token_tenant, env::TENANT_ID, &stored.token_tenant),
            region: pick(&self.region, env::REGION, &stored.region),
            base_url: pick(&self.base_url, env::BASE_URL, &stored.base_url),
            tenant: stored.tenant.clone(),
        }
    }
}
