//! How a simulator is set up: the credentials it accepts, the tenants it knows, its clock,
//! activities and limits, and the objects it starts with.

use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::time::Duration;

/// The client id accepted by default.
pub const DEFAULT_CLIENT_ID: &str = "sim-client-id";
/// The client secret accepted by default.
pub const DEFAULT_CLIENT_SECRET: &str = "sim-client-secret";
/// The tenant that owns the default credential.
pub const DEFAULT_TENANT_ID: &str = "sim-tenant";

/// One application credential (client id and secret) and the tenant that owns it. Its `Debug`
/// (and so the settings') does not show the secret.
#[derive(Clone, PartialEq, Eq, Deserialize)]
pub struct Credential {
    /// The OAuth 2.0 client id a token request names.
    pub client_id: String,
    /// Its secret, compared exactly; masked as `***` in the request log.
    pub client_secret: String,
    /// The tenant the issued tokens act as (and the one a tenant-qualified token URL must
    /// name).
    pub tenant_id: String,
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credential")
            .field("client_id", &self.client_id)
            .field("client_secret", &"***")
            .field("tenant_id", &self.tenant_id)
            .finish()
    }
}

/// Initial objects and tenants (`--seed FILE`, JSON or YAML).
///
/// ```yaml
/// customers:                 # MSP tenant -> the customer tenants it may act for
///   sim-tenant: [customer-a, customer-b]
/// credentials:               # more accepted credentials (each tenant its own)
///   - {client_id: other, client_secret: other-secret, tenant_id: other-tenant}
/// objects:                   # tenant -> collection path -> objects
///   sim-tenant:
///     /venues:
///       - {id: venue-1, name: Lobby, address: {city: Sunnyvale, country: United States}}
///     /venues/venue-1/aps:
///       - {serialNumber: "123456789012", name: ap-1}
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    /// MSP tenant id → the customer tenants it may act for through `x-rks-tenantid` (and
    /// that its customer queries list).
    #[serde(default)]
    pub customers: BTreeMap<String, Vec<String>>,
    /// More accepted credentials, besides [`SimConfig::credential`].
    #[serde(default)]
    pub credentials: Vec<Credential>,
    /// Tenant id → collection path with its parent ids (`/venues/venue-1/aps`) → objects, each
    /// stored under its id field (the family's id parameter, else `id`, else a new id).
    #[serde(default)]
    pub objects: BTreeMap<String, BTreeMap<String, Vec<Value>>>,
}

impl Seed {
    /// Reads a seed from JSON or YAML text.
    pub fn parse(text: &str) -> Result<Seed, String> {
        serde_yaml::from_str(text).map_err(|e| format!("invalid seed: {e}"))
    }
}

/// A simulator's settings; [`SimConfig::default`] is what the binary runs with when given no
/// option.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Where to listen (default `127.0.0.1:0`: a free port on loopback).
    pub listen: SocketAddr,
    /// The credential accepted (default [`DEFAULT_CLIENT_ID`], [`DEFAULT_CLIENT_SECRET`],
    /// [`DEFAULT_TENANT_ID`]).
    pub credential: Credential,
    /// Lifetime of issued tokens on the simulator clock (default 7199 s, as the service says).
    pub token_lifetime: Duration,
    /// How long an activity takes on the simulator clock: PENDING for the first half,
    /// INPROGRESS for the second, then SUCCESS or FAIL (default 2 s).
    pub activity_duration: Duration,
    /// How long a new activity answers 404 (the service creates it asynchronously; default 0).
    pub activity_hidden_for: Duration,
    /// The clock moves only when a test advances it (default: it also follows real time).
    pub manual_clock: bool,
    /// Answer 429 past the per-tenant, per-service budgets and the tenant-wide one (default on).
    pub rate_limits: bool,
    /// Tenant-wide limits other than the published one: tenant id → (`max`, per minute).
    pub tenant_limits: HashMap<String, (u32, u32)>,
    /// Tenants, credentials and objects to start with.
    pub seed: Seed,
    /// How long a request may take to arrive, its head and then its body (default 5 s): a
    /// connection whose head is incomplete by then is closed, a body is answered 408.
    pub read_timeout: Duration,
    /// Connections served at once (default 256); more wait to be accepted.
    pub max_connections: usize,
    /// How long a connection may be kept (default 60 s): then it ends after the request in
    /// progress (that request's body and answer have their own bounds), so clients holding
    /// every connection with slow keep-alive requests cannot keep fresh ones waiting.
    pub max_connection_age: Duration,
    /// How long writing an answer may make no progress (default 5 s) before its connection
    /// is closed: a client that sends requests but never reads the answers.
    pub write_timeout: Duration,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            credential: Credential {
                client_id: DEFAULT_CLIENT_ID.to_owned(),
                client_secret: DEFAULT_CLIENT_SECRET.to_owned(),
                tenant_id: DEFAULT_TENANT_ID.to_owned(),
            },
            token_lifetime: Duration::from_secs(7199),
            activity_duration: Duration::from_secs(2),
            activity_hidden_for: Duration::ZERO,
            manual_clock: false,
            rate_limits: true,
            tenant_limits: HashMap::new(),
            seed: Seed::default(),
            read_timeout: Duration::from_secs(5),
            max_connections: 256,
            max_connection_age: Duration::from_secs(60),
            write_timeout: Duration::from_secs(5),
        }
    }
}

impl SimConfig {
    /// Accepts this credential instead of the default one ([`DEFAULT_CLIENT_ID`] ...).
    pub fn credential(mut self, client_id: &str, client_secret: &str, tenant_id: &str) -> Self {
        self.credential = Credential {
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            tenant_id: tenant_id.to_owned(),
        };
        self
    }

    /// Lets the MSP tenant `msp` act for `customer` (`x-rks-tenantid`).
    pub fn customer(mut self, msp: &str, customer: &str) -> Self {
        self.seed
            .customers
            .entry(msp.to_owned())
            .or_default()
            .push(customer.to_owned());
        self
    }

    /// Accepts another credential, owned by its own tenant.
    pub fn other_credential(
        mut self,
        client_id: &str,
        client_secret: &str,
        tenant_id: &str,
    ) -> Self {
        self.seed.credentials.push(Credential {
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            tenant_id: tenant_id.to_owned(),
        });
        self
    }

    /// Stops the clock following real time: it moves only by
    /// [`Simulator::advance`](crate::Simulator::advance).
    pub fn manual_clock(mut self) -> Self {
        self.manual_clock = true;
        self
    }

    /// How long an activity takes on the simulator clock before SUCCESS or FAIL (default 2 s).
    pub fn activity_duration(mut self, d: Duration) -> Self {
        self.activity_duration = d;
        self
    }

    /// How long a new activity answers 404 before it shows (default 0).
    pub fn activity_hidden_for(mut self, d: Duration) -> Self {
        self.activity_hidden_for = d;
        self
    }

    /// Lifetime of issued tokens on the simulator clock (default 7199 s), the `expires_in`
    /// answered.
    pub fn token_lifetime(mut self, d: Duration) -> Self {
        self.token_lifetime = d;
        self
    }

    /// Gives `tenant` a tenant-wide limit of `max` calls at once and `per_minute` back each
    /// minute instead of the published one (the vendor sets it per tenant).
    pub fn tenant_limit(mut self, tenant: &str, max: u32, per_minute: u32) -> Self {
        self.tenant_limits
            .insert(tenant.to_owned(), (max, per_minute));
        self
    }

    /// `false`: never answers 429 for a rate limit (default `true`); an injected 429 still is.
    pub fn rate_limits(mut self, on: bool) -> Self {
        self.rate_limits = on;
        self
    }

    /// How long a request's head, then its body, may take to arrive (default 5 s).
    pub fn read_timeout(mut self, d: Duration) -> Self {
        self.read_timeout = d;
        self
    }

    /// At least one.
    pub fn max_connections(mut self, n: usize) -> Self {
        self.max_connections = n.max(1);
        self
    }

    /// How long a connection may be kept before it ends after its current request (default
    /// 60 s).
    pub fn max_connection_age(mut self, d: Duration) -> Self {
        self.max_connection_age = d;
        self
    }

    /// How long writing an answer may stall before the connection is closed (default 5 s).
    pub fn write_timeout(mut self, d: Duration) -> Self {
        self.write_timeout = d;
        self
    }

    /// Starts with `seed`'s tenants, credentials and objects, replacing any customers and
    /// credentials added before.
    pub fn seed(mut self, seed: Seed) -> Self {
        self.seed = seed;
        self
    }

    /// Every accepted credential.
    pub fn credentials(&self) -> impl Iterator<Item = &Credential> {
        std::iter::once(&self.credential).chain(&self.seed.credentials)
    }
}
