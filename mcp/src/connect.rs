//! The runtime client the server calls through: against the in-process simulator
//! (`--local`), or with the credentials of the environment or of a saved profile (shared with
//! the command line: `ruckus-one-profiles`). Credentials stay inside the client: nothing here
//! shows them.

use ruckus_one_profiles::{Overrides, Store, resolve};
use ruckus_one_runtime::{Client, Config, Credentials};
use ruckus_one_sim::{Seed, SimConfig, Simulator};

use crate::ops;

/// The server's user agent.
const USER_AGENT: &str = concat!("ruckus-mcp/", env!("CARGO_PKG_VERSION"));

/// A client, with the simulator it calls when local (it stops when this is dropped).
pub struct Connection {
    /// The runtime client every tool call goes through; it holds the credentials.
    pub client: Client,
    /// The in-process simulator the client calls (`--local`); `None` against RUCKUS One.
    pub local: Option<Simulator>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("local", &self.local.is_some())
            .finish_non_exhaustive()
    }
}

/// Starts the simulator on loopback (with `seed`'s objects) and a client of it, with the
/// simulator's own credential.
pub async fn local(seed: Option<Seed>) -> Result<Connection, String> {
    let config = match seed {
        Some(seed) => SimConfig::default().seed(seed),
        None => SimConfig::default(),
    };
    of_simulator(Simulator::start_with(config).await?)
}

/// The most bytes a seed file may hold.
const MAX_SEED: u64 = 64 * 1024 * 1024;

/// The simulator seed in the file at `path` (JSON or YAML, as `ruckus-sim --seed` reads it).
pub fn seed_file(path: &std::path::Path) -> Result<Seed, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("seed {shown}: {e}"))?;
    if !meta.is_file() || meta.len() > MAX_SEED {
        return Err(format!(
            "seed {shown}: a regular file of at most {MAX_SEED} bytes"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("seed {shown}: {e}"))?;
    Seed::parse(&text).map_err(|e| format!("seed {shown}: {e}"))
}

/// A client of `sim`, with its credential.
pub fn of_simulator(sim: Simulator) -> Result<Connection, String> {
    let (id, secret) = sim.credentials();
    let config = Config::new(Credentials::new(id, secret))
        .base_url(sim.base_url())
        .token_tenant_id(sim.tenant_id())
        .user_agent(USER_AGENT);
    let client = Client::new(config, ops::auth()?).map_err(|e| e.to_string())?;
    Ok(Connection {
        client,
        local: Some(sim),
    })
}

/// A client with the credentials the command line would use: each setting from the
/// environment (`RUCKUS_CLIENT_ID`, `RUCKUS_CLIENT_SECRET`, `RUCKUS_TENANT_ID`, `RUCKUS_REGION`,
/// `RUCKUS_BASE_URL`, as the runtime reads them), else from the profile `profile` saved by
/// `ruckus auth login` (its secret in the OS keychain or the 0600 secrets file). Returns the
/// client and the tenant that owns the token. The profile's default tenant is not used: a
/// call acts for the token's tenant unless it names a customer (checked against the
/// allow-list).
pub fn from_profile(store: &Store, profile: &str) -> Result<(Connection, String), String> {
    let resolved = resolve(store, profile, &Overrides::default(), |name| {
        std::env::var(name).ok()
    })
    .map_err(|e| {
        format!("{e} (set the variable, or save profile `{profile}` with `ruckus auth login`); or run with --local")
    })?;
    let config = resolved.config.user_agent(USER_AGENT);
    let client = Client::new(config, ops::auth()?).map_err(|e| e.to_string())?;
    let connection = Connection {
        client,
        local: None,
    };
    Ok((connection, resolved.token_tenant))
}
