//! Buckets in a Redis server shared by several processes (cargo feature `redis`).
//!
//! Each bucket is a hash (`tokens`, `ts`, `held`, `started`) under
//! `<prefix>:{<host> <tenant>}:<scope>`: the regional host the client calls, and the tenant the
//! call counts against (the delegated tenant, else the token's tenant, else `client <client id>`
//! for credentials whose tenant is not configured), in braces: a Redis cluster keeps a tenant's
//! buckets on one node, which a script touching both needs. Values read from the server are
//! checked (tokens within the bucket's size and its queue's bound, times within [`BOUND`] of the
//! server's clock): an invalid bucket is replaced by this process's own view of it, with one
//! WARN, and so is a missing one (the server restarted empty) without a WARN (`view.rs`). One Lua script takes a call from all the buckets of a call at once on
//! the server, by the server's clock (`TIME`), so processes on machines whose clocks differ
//! still share one budget exactly. When the server does not answer, the client paces locally at
//! a share of each budget ([`RedisStore::fallback_share`]), says so once (WARN) and asks the
//! server again after [`RedisStore::retry_interval`]; a call never fails for it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redis::aio::MultiplexedConnection;
use tokio::time::Instant;

use super::pacer::{Op, Plan, START_WINDOW, Spec, Taken};
use super::view::Views;
use crate::error::Error;

/// The atomic operation on a call's buckets (`buckets.lua`: the memory buckets' rules on the
/// server, each bucket's values checked before they are used).
const SCRIPT: &str = include_str!("buckets.lua");

/// How far from the server's clock a bucket's times may be, and how deep its queue of promised
/// calls (this long of its refill): values beyond it are not obeyed but replaced (one WARN).
/// Holds (`Retry-After`) are kept to it as well.
pub(crate) const BOUND: Duration = Duration::from_secs(3600);

/// What the script answered: the wait in microseconds, whether the call was taken while its
/// buckets start, the mask of the buckets replaced, each bucket's tokens in thousandths.
type Answer = (i64, i64, i64, i64, i64);

/// A Redis server holding the pacing buckets of every process that uses it
/// ([`PacingStore::redis`](crate::PacingStore::redis)).
///
/// ```no_run
/// # use ruckus_one_runtime as ruckus_one;
/// use ruckus_one::{Config, Credentials, Pacing, PacingStore, RedisStore};
/// # fn main() -> Result<(), ruckus_one::Error> {
/// let store = RedisStore::open("redis://127.0.0.1:6379/")?.fallback_share(0.25);
/// let config = Config::new(Credentials::new("id", "secret"))
///     .pacing(Pacing::default().store(PacingStore::redis(store)));
/// # let _ = config; Ok(()) }
/// ```
pub struct RedisStore {
    client: redis::Client,
    script: redis::Script,
    prefix: String,
    fallback_share: f64,
    retry_interval: Duration,
    timeout: Duration,
    /// The open connection (multiplexed: clones share it).
    connection: tokio::sync::Mutex<Option<MultiplexedConnection>>,
    /// Not asked before then: it did not answer.
    down_until: Mutex<Option<Instant>>,
    /// Whether this outage was said (WARN) already.
    warned: AtomicBool,
    /// This process's view of the buckets, for those the server lost or spoilt.
    views: Views,
}

/// The address may hold a password: not shown.
impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("fallback_share", &self.fallback_share)
            .field("retry_interval", &self.retry_interval)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// A store on the server at `url` (`redis://[:password@]host:port/db`); no connection is
    /// made before the first call. An address that does not parse is an
    /// [`Error::InvalidRequest`].
    pub fn open(url: &str) -> Result<RedisStore, Error> {
        let client = redis::Client::open(url)
            .map_err(|_| Error::invalid("the Redis address of the pacing store does not parse"))?;
        Ok(RedisStore {
            client,
            script: redis::Script::new(SCRIPT),
            prefix: "ruckus-one:pacing".to_owned(),
            fallback_share: 0.25,
            retry_interval: Duration::from_secs(5),
            timeout: Duration::from_millis(500),
            connection: tokio::sync::Mutex::new(None),
            down_until: Mutex::new(None),
            warned: AtomicBool::new(false),
            views: Views::default(),
        })
    }

    /// The prefix of the bucket keys (default `ruckus-one:pacing`): processes that share
    /// budgets use the same one.
    pub fn key_prefix(mut self, prefix: impl Into<String>) -> RedisStore {
        self.prefix = prefix.into();
        self
    }

    /// The share of each budget a process paces by on its own while the server does not
    /// answer, in `(0, 1]` (default 0.25: four processes together stay within the budget).
    /// Values outside the range are clamped; `NaN` keeps the current one.
    pub fn fallback_share(mut self, share: f64) -> RedisStore {
        if !share.is_nan() {
            self.fallback_share = share.clamp(0.01, 1.0);
        }
        self
    }

    /// How long after the server failed to answer it is asked again (default 5 s).
    pub fn retry_interval(mut self, interval: Duration) -> RedisStore {
        self.retry_interval = interval;
        self
    }

    /// How long the server may take to connect or answer before the call is paced locally
    /// (default 500 ms).
    pub fn timeout(mut self, timeout: Duration) -> RedisStore {
        self.timeout = timeout;
        self
    }

    pub(crate) fn share(&self) -> f64 {
        self.fallback_share
    }

    /// Applies `op` to the buckets of `plan` for `tenant` (`<host> <tenant>`, see the module) on
    /// the server: what the call taken got, or `None` when the server did not answer (the
    /// caller paces locally, and tells [`took_locally`](Self::took_locally)).
    pub(crate) async fn apply(&self, plan: &Plan, tenant: &str, op: Op) -> Option<Taken> {
        if self.is_down() {
            return None;
        }
        let keys: Vec<(String, &Spec)> = plan
            .specs()
            .map(|spec| (self.key(tenant, spec), spec))
            .collect();
        let now = Instant::now();
        match self.run(&keys, op, now).await {
            Ok((micros, starting, replaced, first, second)) => {
                self.answered();
                let hold = match op {
                    Op::Empty(hold) => hold,
                    _ => None,
                };
                for (i, ((key, spec), left)) in keys.iter().zip([first, second]).enumerate() {
                    self.views
                        .record(key, spec, left as f64 / 1000.0, now, hold);
                    if replaced & (1 << i) != 0 {
                        tracing::warn!(
                            target: "ruckus_one_runtime",
                            key = key.as_str(),
                            "a Redis pacing bucket held invalid values: replaced by this \
                             process's view of it"
                        );
                    }
                }
                Some(Taken {
                    wait: Duration::from_micros(u64::try_from(micros).unwrap_or(0)),
                    starting: starting != 0,
                })
            }
            Err(reason) => {
                self.failed(reason).await;
                None
            }
        }
    }

    /// A call of `tenant` was paced locally by `plan` (the server did not answer): this
    /// process's view of the shared buckets counts it.
    pub(crate) fn took_locally(&self, plan: &Plan, tenant: &str) {
        let now = Instant::now();
        for spec in plan.specs() {
            self.views.took_locally(&self.key(tenant, spec), spec, now);
        }
    }

    fn key(&self, tenant: &str, spec: &Spec) -> String {
        format!("{}:{{{tenant}}}:{}", self.prefix, spec.scope)
    }

    async fn run(
        &self,
        keys: &[(String, &Spec)],
        op: Op,
        now: Instant,
    ) -> Result<Answer, &'static str> {
        let mut connection = self.connection().await?;
        let (name, hold) = match op {
            Op::Take => ("take", Duration::ZERO),
            Op::Give => ("give", Duration::ZERO),
            Op::Empty(hold) => ("empty", hold.unwrap_or_default()),
            Op::Answered => ("answered", Duration::ZERO),
        };
        let mut call = self.script.prepare_invoke();
        for (key, _) in keys {
            call.key(key);
        }
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        call.arg(name).arg(millis(hold)).arg(millis(START_WINDOW));
        call.arg(BOUND.as_secs());
        for (key, spec) in keys {
            let (tokens, held) = self.views.seed(key, spec, now);
            call.arg(spec.size)
                .arg(spec.rate)
                .arg(tokens)
                .arg(millis(held));
        }
        let invoke = call.invoke_async::<Answer>(&mut connection);
        match tokio::time::timeout(self.timeout, invoke).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) if e.is_timeout() => Err("no answer in time"),
            Ok(Err(e)) if e.is_io_error() || e.is_connection_dropped() => {
                Err("the connection failed")
            }
            Ok(Err(_)) => Err("the server answered with an error"),
            Err(_) => Err("no answer in time"),
        }
    }

    /// The open connection, or a new one.
    async fn connection(&self) -> Result<MultiplexedConnection, &'static str> {
        let mut open = self.connection.lock().await;
        if let Some(connection) = &*open {
            return Ok(connection.clone());
        }
        // redis-rs gives up on its own after 500 ms (1 s to connect): this store's timeout
        // instead.
        let config = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout));
        let connect = self
            .client
            .get_multiplexed_async_connection_with_config(&config);
        let connection = match tokio::time::timeout(self.timeout, connect).await {
            Ok(Ok(connection)) => connection,
            Ok(Err(_)) => return Err("cannot connect"),
            Err(_) => return Err("no connection in time"),
        };
        *open = Some(connection.clone());
        Ok(connection)
    }

    fn is_down(&self) -> bool {
        let mut down = self.down_until.lock().unwrap_or_else(|e| e.into_inner());
        match *down {
            Some(until) if Instant::now() < until => true,
            // Time to ask again: this caller does; the others stay local meanwhile.
            Some(_) => {
                *down = Some(Instant::now() + self.retry_interval);
                false
            }
            None => false,
        }
    }

    fn answered(&self) {
        let mut down = self.down_until.lock().unwrap_or_else(|e| e.into_inner());
        if down.take().is_some() && self.warned.swap(false, Ordering::Relaxed) {
            tracing::info!(
                target: "ruckus_one_runtime",
                "the Redis pacing store answers again: pacing by the shared budgets"
            );
        }
    }

    async fn failed(&self, reason: &'static str) {
        *self.connection.lock().await = None;
        *self.down_until.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(Instant::now() + self.retry_interval);
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                target: "ruckus_one_runtime",
                reason,
                share = self.fallback_share,
                retry_s = self.retry_interval.as_secs_f64(),
                "the Redis pacing store does not answer: pacing locally at a share of each budget"
            );
        }
    }
}
