//! The client every call goes through: credentials from the flags, then the environment
//! (`RUCKUS_*`, read as the client reads them), then the stored profile and its secret
//! (`ruckus-one-profiles`: the keychain, else the 0600 file); or,
//! with `--local`, the simulator started in process with its own credentials.

use crate::exit::{Exit, Failure};
use crate::opts::Opts;
use ruckus_one_profiles::{Error as ProfileError, Overrides, Store, resolve};
use ruckus_one_runtime::{Client, Config, Credentials};
use ruckus_one_sim::{Seed, SimConfig, Simulator};
use std::time::Duration;

/// What `--local` starts with when no `--seed` is given: two venues with whole addresses (the
/// list's columns and the nested `address` alike), so that a first `ruckus --local venues list`
/// shows what a real account would.
const DEMO_SEED: &str = r#"{"objects": {"sim-tenant": {"/venues": [
  {"id": "venue-lobby", "name": "Lobby", "description": "Head office lobby",
   "addressLine": "1120 Enterprise Way", "city": "Sunnyvale", "country": "United States",
   "countryCode": "US", "latitude": "37.4116", "longitude": "-122.0235",
   "timeZone": "America/Los_Angeles", "status": "ONLINE",
   "address": {"addressLine": "1120 Enterprise Way", "city": "Sunnyvale",
     "country": "United States", "countryCode": "US", "latitude": 37.4116,
     "longitude": -122.0235, "timezone": "America/Los_Angeles"}},
  {"id": "venue-warehouse", "name": "Warehouse", "description": "Distribution centre",
   "addressLine": "12 Rue de la Logistique", "city": "Lyon", "country": "France",
   "countryCode": "FR", "latitude": "45.7485", "longitude": "4.8467",
   "timeZone": "Europe/Paris", "status": "ONLINE",
   "address": {"addressLine": "12 Rue de la Logistique", "city": "Lyon",
     "country": "France", "countryCode": "FR", "latitude": 45.7485, "longitude": 4.8467,
     "timezone": "Europe/Paris"}}
]}}}"#;

/// The client and, with `--local`, the simulator it talks to (kept running while the client
/// is used).
pub(crate) struct Connection {
    pub client: Client,
    /// Kept so that the simulator serves until the connection is dropped.
    pub _sim: Option<Simulator>,
    /// The tenant that owns the token.
    pub token_tenant: String,
}

pub(crate) async fn connect(opts: &Opts) -> Result<Connection, Failure> {
    let auth = crate::ops::auth_settings()?;
    if opts.local {
        let seed_text = match &opts.seed {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| Failure::usage(format!("--seed {path}: {e}")))?,
            None => DEMO_SEED.to_owned(),
        };
        let seed = Seed::parse(&seed_text).map_err(Failure::usage)?;
        let config = SimConfig::default()
            .activity_duration(Duration::from_millis(300))
            .seed(seed);
        let sim = Simulator::start_with(config)
            .await
            .map_err(Failure::other)?;
        let (id, secret) = sim.credentials();
        let config = Config::new(Credentials::new(id, secret))
            .token_tenant_id(sim.tenant_id())
            .base_url(sim.base_url());
        let client = Client::new(config, auth)?;
        return Ok(Connection {
            client: with_tenant(client, opts)?,
            token_tenant: sim.tenant_id().to_owned(),
            _sim: Some(sim),
        });
    }
    let resolved = resolve(
        &Store::from_env(),
        &opts.profile,
        &overrides(opts),
        |name| std::env::var(name).ok(),
    )
    .map_err(|e| match e {
        ProfileError::Config(e) => Failure::new(
            Exit::Auth,
            format!("{e} (set it, pass a flag, or run `ruckus auth login`; `--local` needs none)"),
        ),
        other => other.into(),
    })?;
    let client = Client::new(resolved.config, auth)?;
    let mut opts = opts.clone();
    if opts.tenant.is_none() {
        opts.tenant = resolved.tenant;
    }
    Ok(Connection {
        client: with_tenant(client, &opts)?,
        _sim: None,
        token_tenant: resolved.token_tenant,
    })
}

/// The settings given as flags, which win over the environment and the profile.
pub(crate) fn overrides(opts: &Opts) -> Overrides {
    let mut overrides = Overrides::default();
    overrides.client_id = opts.client_id.clone();
    overrides.token_tenant = opts.token_tenant.clone();
    overrides.region = opts.region.clone();
    overrides.base_url = opts.base_url.clone();
    overrides
}

fn with_tenant(client: Client, opts: &Opts) -> Result<Client, Failure> {
    match &opts.tenant {
        Some(t) => Ok(client.with_tenant(t)?),
        None => Ok(client),
    }
}
