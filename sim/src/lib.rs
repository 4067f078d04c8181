//! `ruckus-one-sim`: a stateful local simulator of the RUCKUS One APIs for tests.
//!
//! Its routes, media types, statuses, schemas and paging shapes come from the spec (the tables
//! `cargo xtask generate` writes to `generated/catalog/`, read through `ruckus-one-catalog`);
//! its engine is written here: OAuth 2.0 client-credentials tokens, delegated tenants (`x-rks-tenantid`), objects kept per
//! tenant and resource family, queries with paging, sorting, search and filters, asynchronous
//! writes with activities on a simulator clock, request checks (bodies against the spec's
//! types, media types, parameters), per-tenant rate limits and injectable faults.
//!
//! ```no_run
//! # async fn run() -> Result<(), String> {
//! use ruckus_one_sim::{SimConfig, Simulator};
//! let sim = Simulator::start_with(SimConfig::default().customer("sim-tenant", "customer-1")).await?;
//! let base_url = sim.base_url(); // http://127.0.0.1:PORT: the client's base URL
//! let (client_id, client_secret) = sim.credentials();
//! sim.advance(std::time::Duration::from_secs(5)); // activities move on
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs, unreachable_pub)]
mod auth;
mod checks;
pub mod config;
pub mod conform;
mod errors;
mod handler;
pub mod limits;
pub mod model;
mod negotiate;
pub mod query;
mod roles;
mod router;
mod server;
mod shared;
mod sim;
mod sim_seed;
pub mod state;

pub use config::{Credential, Seed, SimConfig};
pub use sim::Simulator;
pub use state::{Fault, Logged};
