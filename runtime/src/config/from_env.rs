//! [`Config::from_env`] and [`Config::from_vars`].

use super::credentials::Credentials;
use super::env;
use super::region::Region;
use super::settings::Config;
use crate::error::Error;

impl Config {
    /// Settings from the environment variables `RUCKUS_CLIENT_ID`,
    /// `RUCKUS_CLIENT_SECRET`, `RUCKUS_TENANT_ID` (the token tenant id),
    /// `RUCKUS_REGION` (`na`, `eu` or `asia`, in any case) and the optional
    /// `RUCKUS_BASE_URL` (see `runtime::env` and [`Config::from_vars`] for the
    /// rules); the other settings are the defaults of [`Config::new`].
    ///
    /// A missing or invalid variable is an [`Error::Env`] naming it.
    pub fn from_env() -> Result<Config, Error> {
        Config::from_vars(|name| {
            std::env::var_os(name).map(|value| match value.into_string() {
                Ok(text) => text,
                // Never valid: refused below as a character that is not
                // allowed (or as a credential that does not authenticate).
                Err(raw) => raw.to_string_lossy().into_owned(),
            })
        })
    }

    /// [`Config::from_env`] reading the variables through `var` (which
    /// returns a variable's value, `None` when it is not set), for tests
    /// and other sources of settings.
    ///
    /// Rules: `RUCKUS_CLIENT_ID` and
    /// `RUCKUS_CLIENT_SECRET` are required and not empty;
    /// `RUCKUS_TENANT_ID` is required and a valid tenant id (see
    /// [`delegated_tenant`](Config::delegated_tenant));
    /// `RUCKUS_REGION` is required unless
    /// `RUCKUS_BASE_URL` is set, and one of the names
    /// [`Region::from_name`] accepts; `RUCKUS_BASE_URL`, when set
    /// and not empty, is an `http://` or `https://` URL. The first problem
    /// found, in that order, is returned as an [`Error::Env`].
    ///
    /// ```
    /// # extern crate ruckus_one_runtime as ruckus_one;
    /// use ruckus_one::{Config, Error, Region};
    /// let vars = |name: &str| match name {
    ///     "RUCKUS_CLIENT_ID" => Some("id".to_owned()),
    ///     "RUCKUS_CLIENT_SECRET" => Some("secret".to_owned()),
    ///     "RUCKUS_TENANT_ID" => Some("0123abcd".to_owned()),
    ///     "RUCKUS_REGION" => Some("EU".to_owned()),
    ///     _ => None,
    /// };
    /// let config = Config::from_vars(vars)?;
    /// assert!(format!("{config:?}").contains("Europe"));
    ///
    /// let err = Config::from_vars(|name| vars(name).filter(|_| name != "RUCKUS_TENANT_ID"))
    ///     .unwrap_err();
    /// assert!(matches!(err, Error::Env { variable: "RUCKUS_TENANT_ID", .. }));
    /// assert_eq!(err.to_string(), "environment variable RUCKUS_TENANT_ID is not set");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Config, Error> {
        let invalid =
            |variable: &'static str, problem: &'static str| Error::Env { variable, problem };
        let required = |variable: &'static str| match var(variable) {
            None => Err(invalid(variable, "is not set")),
            Some(value) if value.is_empty() => Err(invalid(variable, "is empty")),
            Some(value) => Ok(value),
        };
        let client_id = required(env::CLIENT_ID)?;
        let client_secret = required(env::CLIENT_SECRET)?;
        let tenant_id = required(env::TENANT_ID)?;
        if crate::tenant::check_tenant_id(&tenant_id, "token tenant id").is_err() {
            return Err(invalid(
                env::TENANT_ID,
                "is not a valid tenant id: 1 to 128 visible ASCII characters, no white space, \
                 not `.` or `..`",
            ));
        }
        let base_url = var(env::BASE_URL).filter(|url| !url.is_empty());
        let region = match (var(env::REGION).as_deref(), &base_url) {
            (None | Some(""), Some(_)) => Region::default(),
            (None, None) => return Err(invalid(env::REGION, "is not set")),
            (Some(""), None) => return Err(invalid(env::REGION, "is empty")),
            (Some(name), _) => Region::from_name(name)
                .ok_or_else(|| invalid(env::REGION, "is not a region: expected na, eu or asia"))?,
        };
        if let Some(url) = &base_url {
            if crate::path::check_base_url("base URL", url).is_err() {
                return Err(invalid(
                    env::BASE_URL,
                    "is not an absolute http:// or https:// URL",
                ));
            }
        }
        let mut config = Config::new(Credentials::new(client_id, client_secret))
            .region(region)
            .token_tenant_id(tenant_id);
        if let Some(url) = base_url {
            config = config.base_url(url);
        }
        Ok(config)
    }
}
