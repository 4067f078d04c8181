//! Pacing: staying inside the services' published rate limits instead of provoking `429`s.
//!
//! The client keeps one token bucket per (service, tenant), shared by every clone of a
//! [`Client`](crate::Client). Each attempt of a call to a paced service takes one call from its
//! bucket, waiting first when the bucket is empty; a `429` empties the bucket (and a
//! `Retry-After` holds it for that long, at most the retry policy's
//! [`max_retry_after`](crate::RetryPolicy::max_retry_after): a longer one is returned to the
//! caller in the error), so the calls queued behind it wait too instead of provoking more. Retries stay the retry policy's: pacing only delays attempts, it never adds
//! or repeats one.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::operation::{LimitScope, RateLimit, Service};

/// How a client paces its calls ([`Config::pacing`](crate::Config::pacing)).
///
/// On by default: calls to a service that publishes a per-tenant limit (for example the Wi-Fi
/// service, 200 calls at once and 100 more per second; the switch service, 20 and 10) are spaced
/// so that each tenant stays within `headroom` (95 %) of it, less a reserve for calls that reach
/// the service bunched ([`jitter`](Pacing::jitter)). Limits counted per property or workflow are
/// not paced.
///
/// ```
/// # use ruckus_one_runtime as ruckus_one;
/// use ruckus_one::{Config, Credentials, Pacing, RateLimit};
/// let config = Config::new(Credentials::new("id", "secret")).pacing(
///     Pacing::default()
///         .headroom(0.8)
///         // A limit agreed with the vendor, instead of the published one.
///         .limit("switch", RateLimit::per_tenant(40, 20)),
/// );
/// let unpaced = Config::new(Credentials::new("id", "secret")).pacing(Pacing::off());
/// # let _ = (config, unpaced);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Pacing {
    enabled: bool,
    headroom: f64,
    jitter: Duration,
    limits: BTreeMap<String, Option<RateLimit>>,
}

/// Default [`Pacing::headroom`].
const DEFAULT_HEADROOM: f64 = 0.95;

/// Default [`Pacing::jitter`].
const DEFAULT_JITTER: Duration = Duration::from_millis(200);

impl Default for Pacing {
    fn default() -> Self {
        Pacing {
            enabled: true,
            headroom: DEFAULT_HEADROOM,
            jitter: DEFAULT_JITTER,
            limits: BTreeMap::new(),
        }
    }
}

impl Pacing {
    /// No pacing: calls are sent at once, and `429` answers are retried by the retry policy.
    pub fn off() -> Pacing {
        Pacing {
            enabled: false,
            ..Pacing::default()
        }
    }

    /// Whether calls are paced.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// The share of each limit used, in `(0, 1]` (default 0.95): both the bucket's size and its
    /// refill are scaled by it, leaving room for other clients of the same tenant and for
    /// network jitter. Values outside the range are clamped; `NaN` keeps the default.
    pub fn headroom(mut self, fraction: f64) -> Pacing {
        if !fraction.is_nan() {
            self.headroom = fraction.clamp(0.01, 1.0);
        }
        self
    }

    /// How much later than they were sent, or how much closer together, calls may reach the
    /// service (default 200 ms): calls sent inside the budget but queued on the way (a busy
    /// connection pool, a loaded machine) arrive bunched, and the service counts arrivals. The
    /// bucket keeps in reserve what the limit refills in that time: 2 of the switch service's 20
    /// calls at once, 19 of the Wi-Fi service's 200 (after the headroom); never below one call.
    pub fn jitter(mut self, jitter: Duration) -> Pacing {
        self.jitter = jitter;
        self
    }

    /// Paces calls to `service` (a [`Service::name`], such as `"switch"`) by `limit` instead of
    /// the published one.
    pub fn limit(mut self, service: impl Into<String>, limit: RateLimit) -> Pacing {
        self.limits.insert(service.into(), Some(limit));
        self
    }

    /// Does not pace calls to `service`.
    pub fn unlimited(mut self, service: impl Into<String>) -> Pacing {
        self.limits.insert(service.into(), None);
        self
    }

    /// The limit calls to `service` are paced by, scaled by the headroom: `(size, per second)`.
    fn effective(&self, service: &Service) -> Option<(f64, f64)> {
        if !self.enabled {
            return None;
        }
        let limit = match self.limits.get(service.name) {
            Some(chosen) => (*chosen)?,
            None => service.rate_limit?,
        };
        if limit.scope != LimitScope::Tenant || limit.per_second == 0 {
            return None;
        }
        let rate = (f64::from(limit.per_second) * self.headroom).max(0.01);
        let reserve = rate * self.jitter.as_secs_f64();
        let size = (f64::from(limit.max) * self.headroom - reserve).max(1.0);
        Some((size, rate))
    }
}

/// One bucket: calls available (negative: calls already promised to waiting callers).
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    updated: Instant,
    /// Held until then by a `Retry-After`.
    held_until: Option<Instant>,
}

impl Bucket {
    fn refill(&mut self, now: Instant, size: f64, rate: f64) {
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate).min(size);
        self.updated = now;
    }
}

/// The buckets of one client and its clones: service name → tenant id (`""` for the token's own
/// tenant; tenant ids are never empty) → bucket.
#[derive(Debug)]
pub(crate) struct Pacer {
    pacing: Pacing,
    buckets: Mutex<HashMap<&'static str, HashMap<Box<str>, Bucket>>>,
}

/// A call taken from a bucket: how long to wait before sending it.
pub(crate) struct Reservation {
    pub(crate) wait: Duration,
}

/// A call taken from a bucket that waits before it is sent: given back when dropped before
/// [`sent`](Unsent::sent), so that a cancelled call (its future dropped while it waits) does
/// not keep the budget it reserved from the calls after it.
pub(crate) struct Unsent<'a> {
    pacer: &'a Pacer,
    service: &'static Service,
    tenant: &'a str,
}

impl<'a> Unsent<'a> {
    pub(crate) fn new(pacer: &'a Pacer, service: &'static Service, tenant: &'a str) -> Self {
        Unsent {
            pacer,
            service,
            tenant,
        }
    }

    /// The wait is over and the call goes out: it keeps its call.
    pub(crate) fn sent(self) {
        std::mem::forget(self);
    }
}

impl Drop for Unsent<'_> {
    fn drop(&mut self) {
        self.pacer.release(self.service, self.tenant);
    }
}

impl Pacer {
    pub(crate) fn new(pacing: Pacing) -> Pacer {
        Pacer {
            pacing,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn with_bucket<R>(
        &self,
        service: &'static Service,
        tenant: &str,
        size: f64,
        work: impl FnOnce(&mut Bucket, Instant) -> R,
    ) -> R {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let tenants = buckets.entry(service.name).or_default();
        let bucket = match tenants.get_mut(tenant) {
            Some(bucket) => bucket,
            None => tenants.entry(tenant.into()).or_insert(Bucket {
                tokens: size,
                updated: now,
                held_until: None,
            }),
        };
        work(bucket, now)
    }

    /// Takes one call from the bucket of (`service`, `tenant`); `None` when the service is not
    /// paced. The caller waits [`Reservation::wait`] before sending.
    pub(crate) fn reserve(&self, service: &'static Service, tenant: &str) -> Option<Reservation> {
        let (size, rate) = self.pacing.effective(service)?;
        let wait = self.with_bucket(service, tenant, size, |bucket, now| {
            bucket.refill(now, size, rate);
            bucket.tokens -= 1.0;
            let mut wait = if bucket.tokens >= 0.0 {
                Duration::ZERO
            } else {
                Duration::from_secs_f64(-bucket.tokens / rate)
            };
            if let Some(held) = bucket.held_until {
                wait = wait.max(held.saturating_duration_since(now));
            }
            wait
        });
        Some(Reservation { wait })
    }

    /// Gives back a call taken by [`reserve`](Self::reserve) and not sent.
    pub(crate) fn release(&self, service: &'static Service, tenant: &str) {
        if let Some((size, rate)) = self.pacing.effective(service) {
            self.with_bucket(service, tenant, size, |bucket, now| {
                bucket.refill(now, size, rate);
                bucket.tokens = (bucket.tokens + 1.0).min(size);
            });
        }
    }

    /// The service answered `429` to a call for `tenant`: nothing is left in the bucket, and
    /// with a `Retry-After` nothing is sent before it passes.
    pub(crate) fn throttled(
        &self,
        service: &'static Service,
        tenant: &str,
        retry_after: Option<Duration>,
    ) {
        if let Some((size, rate)) = self.pacing.effective(service) {
            self.with_bucket(service, tenant, size, |bucket, now| {
                bucket.refill(now, size, rate);
                bucket.tokens = bucket.tokens.min(0.0);
                if let Some(until) = retry_after.and_then(|wait| now.checked_add(wait)) {
                    bucket.held_until = Some(bucket.held_until.map_or(until, |h| h.max(until)));
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static WIFI: Service = Service {
        name: "wifi",
        rate_limit: Some(RateLimit::per_tenant(10, 5)),
    };
    static PORTAL: Service = Service {
        name: "portal",
        rate_limit: Some(RateLimit {
            max: 10,
            per_second: 5,
            scope: LimitScope::Property,
        }),
    };
    static VIEWS: Service = Service {
        name: "views",
        rate_limit: None,
    };

    fn waits(pacer: &Pacer, tenant: &str, n: usize) -> Vec<Duration> {
        (0..n)
            .map(|_| {
                pacer
                    .reserve(&WIFI, tenant)
                    .map_or(Duration::MAX, |r| r.wait)
            })
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_waits_for_refills_per_tenant() {
        let pacer = Pacer::new(Pacing::default().headroom(1.0).jitter(Duration::ZERO));
        let first = waits(&pacer, "a", 12);
        assert!(first[..10].iter().all(Duration::is_zero));
        assert_eq!(first[10], Duration::from_millis(200));
        assert_eq!(first[11], Duration::from_millis(400));
        // Another tenant has its own bucket.
        assert!(waits(&pacer, "b", 10).iter().all(Duration::is_zero));
        tokio::time::advance(Duration::from_secs(1)).await;
        // 12 taken of 10, 5 back: 3 left, the fourth caller waits.
        let later = waits(&pacer, "a", 4);
        assert!(later[..3].iter().all(Duration::is_zero));
        assert_eq!(later[3], Duration::from_millis(200));
    }

    #[tokio::test(start_paused = true)]
    async fn the_bucket_keeps_a_reserve_for_jitter() {
        // 95 % of 10 at once and 5 per second, less 200 ms of refill (0.95 calls): 8 at once.
        let pacer = Pacer::new(Pacing::default());
        let first = waits(&pacer, "a", 9);
        assert!(first[..8].iter().all(Duration::is_zero), "{first:?}");
        assert!(!first[8].is_zero());
        // A reserve larger than the bucket still lets one call through.
        let pacer = Pacer::new(Pacing::default().jitter(Duration::from_secs(60)));
        let first = waits(&pacer, "a", 2);
        assert!(first[0].is_zero() && !first[1].is_zero(), "{first:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn unpaced_services_and_settings() {
        let pacer = Pacer::new(Pacing::default());
        assert!(pacer.reserve(&VIEWS, "").is_none());
        assert!(pacer.reserve(&PORTAL, "").is_none());
        assert!(Pacer::new(Pacing::off()).reserve(&WIFI, "").is_none());
        let custom = Pacer::new(Pacing::default().unlimited("wifi"));
        assert!(custom.reserve(&WIFI, "").is_none());
        let custom = Pacer::new(
            Pacing::default()
                .headroom(1.0)
                .limit("views", RateLimit::per_tenant(1, 1)),
        );
        assert_eq!(
            custom.reserve(&VIEWS, "").map(|r| r.wait),
            Some(Duration::ZERO)
        );
        assert_eq!(
            custom.reserve(&VIEWS, "").map(|r| r.wait),
            Some(Duration::from_secs(1))
        );
        custom.release(&VIEWS, "");
        assert_eq!(
            custom.reserve(&VIEWS, "").map(|r| r.wait),
            Some(Duration::from_secs(1))
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_429_empties_and_holds_the_bucket() {
        let pacer = Pacer::new(Pacing::default().headroom(1.0));
        pacer.throttled(&WIFI, "a", Some(Duration::from_secs(3)));
        assert_eq!(waits(&pacer, "a", 1)[0], Duration::from_secs(3));
        assert!(waits(&pacer, "b", 1)[0].is_zero());
        assert_eq!(Pacing::default().headroom(f64::NAN), Pacing::default());
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_dropped_while_it_waits_gives_its_budget_back() {
        let pacer = Pacer::new(Pacing::default().headroom(1.0).jitter(Duration::ZERO));
        assert!(waits(&pacer, "a", 10).iter().all(Duration::is_zero));
        for _ in 0..200 {
            let wait = pacer.reserve(&WIFI, "a").map(|r| r.wait);
            assert!(wait.is_some_and(|w| !w.is_zero()));
            drop(Unsent::new(&pacer, &WIFI, "a"));
        }
        let kept = pacer.reserve(&WIFI, "a").map(|r| r.wait);
        Unsent::new(&pacer, &WIFI, "a").sent();
        assert_eq!(kept, Some(Duration::from_millis(200)));
        assert_eq!(waits(&pacer, "a", 1)[0], Duration::from_millis(400));
    }
}
