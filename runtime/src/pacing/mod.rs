//! Pacing: staying inside the published rate limits instead of provoking `429`s.
//!
//! Every attempt of a call takes one call from up to two token buckets: its tenant's (the limit
//! all the calls of one tenant share, whatever the service: [`TenantLimit`]) and its service's
//! for that tenant ([`RateLimit`]), waiting first until both allow it. A `429` empties the
//! buckets of the call (and a `Retry-After` holds them for that long, at most the retry
//! policy's [`max_retry_after`](crate::RetryPolicy::max_retry_after): a longer one is returned
//! to the caller in the error), so the calls queued behind it wait too instead of provoking
//! more. Retries stay the retry policy's: pacing only delays attempts, it never adds or repeats
//! one. A bucket that was full counts its refill from the first answer to a call it let go
//! (within a second), not from the call: the service's bucket stays full until the calls
//! arrive, and calls sent at once on fresh connections may arrive late, bunched with the ones
//! paced after them. The buckets live in the client's memory (shared by its clones) or in a
//! [`PacingStore`] that several processes share.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::operation::{LimitScope, RateLimit, Service, TenantLimit};

mod pacer;
#[cfg(feature = "redis")]
mod redis;
mod store;
#[cfg(feature = "redis")]
mod view;

pub(crate) use pacer::{Pacer, Plan, Source, Unsent};
#[cfg(feature = "redis")]
pub use redis::RedisStore;
pub use store::PacingStore;

/// How a client paces its calls ([`Config::pacing`](crate::Config::pacing)).
///
/// On by default. Each tenant's calls stay within `headroom` (95 %) of two limits, less a
/// reserve for calls that reach the service bunched ([`jitter`](Pacing::jitter)):
///
/// - the limit of the whole tenant that the API publishes ([`TenantLimit`]: every call of the
///   tenant counts, whatever its service, raw requests and activity polls included);
/// - the limit of the call's service, per tenant ([`RateLimit`]: for example the Wi-Fi service,
///   200 calls at once and 100 more per second; the switch service, 20 and 10). Limits counted
///   per property or workflow are not paced.
///
/// Both can be replaced, for every tenant or for one ([`tenant`](Pacing::tenant)): an MSP whose
/// customers were granted other limits sets them.
///
/// ```
/// # use ruckus_one_runtime as ruckus_one;
/// use ruckus_one::{Config, Credentials, Pacing, RateLimit, TenantLimit, TenantPacing};
/// let config = Config::new(Credentials::new("id", "secret")).pacing(
///     Pacing::default()
///         .headroom(0.8)
///         // A limit agreed with the vendor, instead of the published one.
///         .limit("switch", RateLimit::per_tenant(40, 20))
///         // One customer with a larger tenant budget.
///         .tenant(
///             "customer-7",
///             TenantPacing::new().tenant_limit(TenantLimit::new(6000, 6000)),
///         ),
/// );
/// let unpaced = Config::new(Credentials::new("id", "secret")).pacing(Pacing::off());
/// # let _ = (config, unpaced);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Pacing {
    enabled: bool,
    headroom: f64,
    jitter: Duration,
    /// Every tenant's limits, instead of the published ones.
    limits: Limits,
    /// One tenant's limits, instead of `limits` and the published ones (tenant id → limits).
    tenants: BTreeMap<String, Limits>,
    store: PacingStore,
}

/// Limits chosen instead of the published ones: for the tenant (`Some(None)`: not paced), and
/// per service name (`None`: not paced).
#[derive(Clone, Debug, Default, PartialEq)]
struct Limits {
    tenant: Option<Option<TenantLimit>>,
    services: BTreeMap<String, Option<RateLimit>>,
}

/// The limits of one tenant, instead of the published ones ([`Pacing::tenant`]). What it does
/// not set is the [`Pacing`]'s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TenantPacing {
    limits: Limits,
}

impl TenantPacing {
    /// Nothing replaced yet.
    pub fn new() -> TenantPacing {
        TenantPacing::default()
    }

    /// The tenant's calls share `limit` instead of the published tenant limit.
    pub fn tenant_limit(mut self, limit: TenantLimit) -> TenantPacing {
        self.limits.tenant = Some(Some(limit));
        self
    }

    /// The tenant's calls are paced by their services' limits only.
    pub fn no_tenant_limit(mut self) -> TenantPacing {
        self.limits.tenant = Some(None);
        self
    }

    /// The tenant's calls to `service` are paced by `limit`.
    pub fn limit(mut self, service: impl Into<String>, limit: RateLimit) -> TenantPacing {
        self.limits.services.insert(service.into(), Some(limit));
        self
    }

    /// The tenant's calls to `service` are not paced by a service limit.
    pub fn unlimited(mut self, service: impl Into<String>) -> TenantPacing {
        self.limits.services.insert(service.into(), None);
        self
    }
}

/// Default [`Pacing::headroom`].
const DEFAULT_HEADROOM: f64 = 0.95;

/// Default [`Pacing::jitter`].
const DEFAULT_JITTER: Duration = Duration::from_millis(200);

/// The scope of a tenant's own bucket (service names are snake_case, so never this).
pub(crate) const TENANT_SCOPE: &str = "(tenant)";

impl Default for Pacing {
    fn default() -> Self {
        Pacing {
            enabled: true,
            headroom: DEFAULT_HEADROOM,
            jitter: DEFAULT_JITTER,
            limits: Limits::default(),
            tenants: BTreeMap::new(),
            store: PacingStore::default(),
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

    /// Paces calls to `service` (a service's name, such as `"switch"`) by `limit` instead of
    /// the published one.
    pub fn limit(mut self, service: impl Into<String>, limit: RateLimit) -> Pacing {
        self.limits.services.insert(service.into(), Some(limit));
        self
    }

    /// Does not pace calls to `service` by a service limit (the tenant limit still counts them).
    pub fn unlimited(mut self, service: impl Into<String>) -> Pacing {
        self.limits.services.insert(service.into(), None);
        self
    }

    /// Every tenant's calls share `limit` instead of the tenant limit the API publishes.
    pub fn tenant_limit(mut self, limit: TenantLimit) -> Pacing {
        self.limits.tenant = Some(Some(limit));
        self
    }

    /// Calls are paced by their services' limits only, not by a tenant-wide one.
    pub fn no_tenant_limit(mut self) -> Pacing {
        self.limits.tenant = Some(None);
        self
    }

    /// The calls for `tenant_id` (a delegated tenant) are paced by `limits` where they set one;
    /// by this pacing's otherwise. A later call for the same tenant replaces the earlier one.
    pub fn tenant(mut self, tenant_id: impl Into<String>, limits: TenantPacing) -> Pacing {
        self.tenants.insert(tenant_id.into(), limits.limits);
        self
    }

    /// Where the buckets live (default [`PacingStore::memory`]: in the client, shared by its
    /// clones); a shared store lets several processes pace one budget.
    pub fn store(mut self, store: PacingStore) -> Pacing {
        self.store = store;
        self
    }

    /// The store of the buckets.
    pub(crate) fn store_ref(&self) -> &PacingStore {
        &self.store
    }

    /// The buckets a call of `tenant` to `service` (`None`: a raw request) of an API that
    /// publishes `tenant_limit` takes from; `None` when it is not paced at all.
    pub(crate) fn plan(
        &self,
        tenant_limit: Option<TenantLimit>,
        service: Option<&'static Service>,
        tenant: &str,
    ) -> Option<Plan> {
        if !self.enabled {
            return None;
        }
        let own = self.tenants.get(tenant);
        let tenant_limit = match own.and_then(|o| o.tenant).or(self.limits.tenant) {
            Some(chosen) => chosen,
            None => tenant_limit,
        };
        let tenant_bucket = tenant_limit
            .filter(|l| l.per_minute > 0)
            .map(|l| self.bucket(TENANT_SCOPE, l.max, f64::from(l.per_minute) / 60.0));
        let service_bucket = service.and_then(|service| {
            let chosen = own
                .and_then(|o| o.services.get(service.name))
                .or_else(|| self.limits.services.get(service.name));
            let limit = match chosen {
                Some(chosen) => (*chosen)?,
                None => service.rate_limit?,
            };
            if limit.scope != LimitScope::Tenant || limit.per_second == 0 {
                return None;
            }
            Some(self.bucket(service.name, limit.max, f64::from(limit.per_second)))
        });
        Plan::of([tenant_bucket, service_bucket])
    }

    /// A bucket of `max` calls and `per_second` back, scaled by the headroom, less the jitter's
    /// reserve.
    fn bucket(&self, scope: &'static str, max: u32, per_second: f64) -> pacer::Spec {
        let rate = (per_second * self.headroom).max(0.01);
        let reserve = rate * self.jitter.as_secs_f64();
        let size = (f64::from(max) * self.headroom - reserve).max(1.0);
        pacer::Spec { scope, size, rate }
    }
}

#[cfg(all(test, feature = "redis"))]
mod redis_tests;
#[cfg(test)]
mod tests;
