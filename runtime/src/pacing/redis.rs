//! Buckets in a Redis server shared by several processes (cargo feature `redis`).
//!
//! Each bucket is a hash (`tokens`, `ts`, `held`) under `<prefix>:{<tenant>}:<scope>` (the
//! tenant in braces: a Redis cluster keeps a tenant's buckets on one node, which a script
//! touching both needs). One Lua script takes a call from all the buckets of a call at once on
//! the server, by the server's clock (`TIME`), so processes on machines whose clocks differ
//! still share one budget exactly. When the server does not answer, the client paces locally at
//! a share of each budget ([`RedisStore::fallback_share`]), says so once (WARN) and asks the
//! server again after [`RedisStore::retry_interval`]; a call never fails for it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redis::aio::MultiplexedConnection;
use tokio::time::Instant;

use super::pacer::{Op, Plan, START_WINDOW, Taken};
use crate::error::Error;

/// The atomic operation on a call's buckets, the memory buckets' rules (`pacer.rs`) on the
/// server. `KEYS`: the buckets. `ARGV`: the operation (`take`, `give`, `empty` or `answered`),
/// the hold in milliseconds (for `empty`), the start window in milliseconds
/// ([`START_WINDOW`]), then each bucket's size and refill per second. Answers the wait in
/// microseconds before the call may be sent, and 1 when the call was taken while its buckets
/// start (else 0).
const SCRIPT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local op = ARGV[1]
local hold = tonumber(ARGV[2]) * 1000
local window = tonumber(ARGV[3]) * 1000
local wait = 0
local starting = 0
for i, key in ipairs(KEYS) do
  local size = tonumber(ARGV[2 + 2 * i])
  local rate = tonumber(ARGV[3 + 2 * i])
  local v = redis.call('HMGET', key, 'tokens', 'ts', 'held', 'started')
  local tokens = tonumber(v[1]) or size
  local ts = tonumber(v[2]) or now
  local held = tonumber(v[3]) or 0
  local started = tonumber(v[4]) or 0
  if now > ts then tokens = math.min(size, tokens + (now - ts) / 1000000 * rate) end
  if op == 'take' then
    if started > 0 and now - started > window then started = 0 end
    if started == 0 and tokens >= size then started = now end
    if started > 0 then starting = 1 end
    tokens = tokens - 1
    local w = 0
    if tokens < 0 then w = -tokens / rate * 1000000 end
    if held > now then w = math.max(w, held - now) end
    wait = math.max(wait, w)
  elseif op == 'give' then
    tokens = math.min(size, tokens + 1)
  elseif op == 'answered' then
    if started > 0 then
      tokens = tokens - math.min(now - started, window) / 1000000 * rate
      started = 0
    end
  else
    tokens = math.min(tokens, 0)
    if hold > 0 then held = math.max(held, now + hold) end
  end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'ts', tostring(now), 'held', tostring(held),
    'started', tostring(started))
  redis.call('PEXPIRE', key, math.ceil((size - tokens) / rate * 1000) + 60000)
end
return {math.ceil(wait), starting}
";

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

    /// Applies `op` to the buckets of `plan` for `tenant` on the server: what the call taken
    /// got, or `None` when the server did not answer (the caller paces locally).
    pub(crate) async fn apply(&self, plan: &Plan, tenant: &str, op: Op) -> Option<Taken> {
        if self.is_down() {
            return None;
        }
        match self.run(plan, tenant, op).await {
            Ok((micros, starting)) => {
                self.answered();
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

    async fn run(&self, plan: &Plan, tenant: &str, op: Op) -> Result<(i64, i64), &'static str> {
        let mut connection = self.connection().await?;
        let (name, hold) = match op {
            Op::Take => ("take", Duration::ZERO),
            Op::Give => ("give", Duration::ZERO),
            Op::Empty(hold) => ("empty", hold.unwrap_or_default()),
            Op::Answered => ("answered", Duration::ZERO),
        };
        let mut call = self.script.prepare_invoke();
        for spec in plan.specs() {
            call.key(format!("{}:{{{tenant}}}:{}", self.prefix, spec.scope));
        }
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        call.arg(name).arg(millis(hold)).arg(millis(START_WINDOW));
        for spec in plan.specs() {
            call.arg(spec.size).arg(spec.rate);
        }
        let invoke = call.invoke_async::<(i64, i64)>(&mut connection);
        match tokio::time::timeout(self.timeout, invoke).await {
            Ok(Ok(answer)) => Ok(answer),
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
        let connect = self.client.get_multiplexed_async_connection();
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
