//! The client every call goes through: credentials from the flags, then the environment
//! (`RUCKUS_*`, read as the client reads them), then the keychain, then the config file; or,
//! with `--local`, the simulator started in process with its own credentials.

use crate::exit::{Exit, Failure};
use crate::opts::Opts;
use crate::store;
use ruckus_one_runtime::{Client, Config, Credentials, env};
use ruckus_one_sim::{Seed, SimConfig, Simulator};
use std::time::Duration;

/// What `--local` starts with when no `--seed` is given: two venues, so that a first
/// `ruckus --local venues list` shows something.
const DEMO_SEED: &str = r#"{"objects": {"sim-tenant": {"/venues": [
  {"id": "venue-lobby", "name": "Lobby", "address": {"city": "Sunnyvale", "country": "United States"}},
  {"id": "venue-warehouse", "name": "Warehouse", "address": {"city": "Lyon", "country": "France"}}
]}}}"#;

/// The client and, with `--local`, the simulator it talks to (kept running while the client
/// is used).
pub struct Connection {
    pub client: Client,
    /// Kept so that the simulator serves until the connection is dropped.
    pub _sim: Option<Simulator>,
}

pub async fn connect(opts: &Opts) -> Result<Connection, Failure> {
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
            _sim: Some(sim),
        });
    }
    let profile = store::profile(&opts.profile)?.unwrap_or_default();
    let stored_secret = match std::env::var(env::CLIENT_SECRET) {
        Ok(_) => None,
        Err(_) => store::secret(&opts.profile)?.map(|(s, _)| s),
    };
    let base_url = opts
        .base_url
        .clone()
        .or_else(|| std::env::var(env::BASE_URL).ok())
        .or(profile.base_url.clone());
    let var = |name: &str| -> Option<String> {
        let from_env = || std::env::var(name).ok();
        match name {
            n if n == env::CLIENT_ID => opts
                .client_id
                .clone()
                .or_else(from_env)
                .or(profile.client_id.clone()),
            n if n == env::CLIENT_SECRET => from_env().or(stored_secret.clone()),
            n if n == env::TENANT_ID => opts
                .token_tenant
                .clone()
                .or_else(from_env)
                .or(profile.token_tenant.clone()),
            n if n == env::REGION => opts
                .region
                .clone()
                .or_else(from_env)
                .or(profile.region.clone()),
            n if n == env::BASE_URL => base_url.clone(),
            _ => from_env(),
        }
    };
    let config = Config::from_vars(var).map_err(|e| {
        Failure::new(
            Exit::Auth,
            format!("{e} (set it, pass a flag, or run `ruckus auth login`; `--local` needs none)"),
        )
    })?;
    let client = Client::new(config, auth)?;
    let mut opts = opts.clone();
    if opts.tenant.is_none() {
        opts.tenant = profile.tenant.clone();
    }
    Ok(Connection {
        client: with_tenant(client, &opts)?,
        _sim: None,
    })
}

fn with_tenant(client: Client, opts: &Opts) -> Result<Client, Failure> {
    match &opts.tenant {
        Some(t) => Ok(client.with_tenant(t)?),
        None => Ok(client),
    }
}
