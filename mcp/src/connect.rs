//! The runtime client the server calls through: against the in-process simulator
//! (`--local`), or with the credentials of the environment or the keychain. Credentials stay
//! inside the client: nothing here shows them.

use ruckus_one_runtime::{Client, Config, Credentials};
use ruckus_one_sim::{SimConfig, Simulator};

use crate::ops;

/// The server's user agent.
const USER_AGENT: &str = concat!("ruckus-mcp/", env!("CARGO_PKG_VERSION"));

/// A client, with the simulator it calls when local (it stops when this is dropped).
pub struct Connection {
    pub client: Client,
    pub local: Option<Simulator>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("local", &self.local.is_some())
            .finish_non_exhaustive()
    }
}

/// Starts the simulator on loopback and a client of it, with the simulator's own credential.
pub async fn local() -> Result<Connection, String> {
    of_simulator(Simulator::start_with(SimConfig::default()).await?)
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

/// A client with the settings of the environment (`RUCKUS_CLIENT_ID`, `RUCKUS_CLIENT_SECRET`,
/// `RUCKUS_TENANT_ID`, `RUCKUS_REGION`, `RUCKUS_BASE_URL`, as the runtime reads them), else of
/// the keychain.
pub fn from_environment() -> Result<Connection, String> {
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(env_error) => keychain_config()?.ok_or_else(|| {
            format!("{env_error} (and no credential in the keychain); or run with --local")
        })?,
    };
    let client =
        Client::new(config.user_agent(USER_AGENT), ops::auth()?).map_err(|e| e.to_string())?;
    Ok(Connection {
        client,
        local: None,
    })
}

/// The seam for the command line's profile and keychain store: the settings of the default
/// profile when one is stored. Not connected yet: always `None`.
pub fn keychain_config() -> Result<Option<Config>, String> {
    Ok(None)
}
