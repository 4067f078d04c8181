//! The handle tests hold: start, configure, inspect, advance the clock.

use crate::config::SimConfig;
use crate::model::Model;
use crate::router::Router;
use crate::server::serve;
use crate::shared::Inner;
use crate::state::{Fault, Logged, State};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A running simulator; it stops when dropped.
#[derive(Debug)]
pub struct Simulator {
    inner: Arc<Inner>,
    addr: SocketAddr,
    task: JoinHandle<()>,
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inner").finish_non_exhaustive()
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Simulator {
    /// Starts a simulator with the default settings on a free loopback port.
    pub async fn start() -> Result<Simulator, String> {
        Simulator::start_with(SimConfig::default()).await
    }

    /// Starts a simulator with `config` (on the current tokio runtime).
    pub async fn start_with(config: SimConfig) -> Result<Simulator, String> {
        let model = Model::get().map_err(|e| e.to_string())?;
        let router = Router::get(model);
        let listener = TcpListener::bind(config.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        let mut state = State::new(config.manual_clock);
        crate::sim_seed::load(model, router, &config.seed, &mut state)?;
        let inner = Arc::new(Inner {
            config,
            model,
            router,
            state: Mutex::new(state),
        });
        let task = tokio::spawn(serve(listener, inner.clone()));
        Ok(Simulator { inner, addr, task })
    }

    /// `http://127.0.0.1:PORT`: the base URL of every API (the analytics API under `/ai`).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The loopback address and port it listens on ([`SimConfig::listen`](crate::SimConfig)
    /// with the port chosen).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The accepted client id and secret.
    pub fn credentials(&self) -> (String, String) {
        let c = &self.inner.config.credential;
        (c.client_id.clone(), c.client_secret.clone())
    }

    /// The tenant that owns the credential.
    pub fn tenant_id(&self) -> String {
        self.inner.config.credential.tenant_id.clone()
    }

    /// Moves the simulator clock forward (activities, token expiry, rate-limit refills).
    pub fn advance(&self, by: Duration) {
        self.inner.lock().clock.advance(by);
    }

    /// The simulator clock, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> u64 {
        self.inner.lock().clock.now_ms()
    }

    /// Injects `fault` into the operation `operation_id` (`*`: every operation).
    pub fn inject(&self, operation_id: &str, fault: Fault) {
        self.inner
            .lock()
            .faults
            .insert(operation_id.to_owned(), fault);
    }

    /// Removes every injected fault, whatever it was injected into.
    pub fn clear_faults(&self) {
        self.inner.lock().faults.clear();
    }

    /// The requests answered so far (the last [`LOG_SIZE`](crate::state::LOG_SIZE)), oldest
    /// first.
    pub fn requests(&self) -> Vec<Logged> {
        self.inner.lock().log.iter().cloned().collect()
    }

    /// The objects `tenant` has in the collection at `path` (`/venues`, `/venues/v1/aps`).
    pub fn objects(&self, tenant: &str, path: &str) -> Vec<Value> {
        let Some(key) = crate::sim_seed::collection_key(self.inner.model, self.inner.router, path)
        else {
            return Vec::new();
        };
        let state = self.inner.lock();
        state
            .tenants
            .get(tenant)
            .and_then(|t| t.collections.get(&key))
            .map(|c| c.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Adds an object to `tenant`'s collection at `path`, as a seed file does.
    pub fn insert(&self, tenant: &str, path: &str, object: Value) -> Result<(), String> {
        let mut state = self.inner.lock();
        crate::sim_seed::insert(
            self.inner.model,
            self.inner.router,
            &mut state,
            tenant,
            path,
            object,
        )
    }

    /// The status of `tenant`'s activity `request_id` now.
    pub fn activity_status(&self, tenant: &str, request_id: &str) -> Option<&'static str> {
        let state = self.inner.lock();
        let now = state.clock.now_ms();
        state
            .tenants
            .get(tenant)
            .and_then(|t| t.activities.get(request_id))
            .map(|a| a.status(now))
    }
}
