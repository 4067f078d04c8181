//! Rate limits: per tenant and service, the token buckets the spec's services publish (`services`
//! of `spec/ruckus-one.yaml`, from the official descriptions: most services 200 calls at once
//! and 100 back each second, switch 20 and 10, policy 40 and 20, ...), and on top of them one
//! bucket per tenant that every call of the tenant shares (`tenant_limit`: 2000 calls a minute),
//! carried into the generated tables. Services that publish no limit are paced by the tenant's
//! bucket only; limits the descriptions count per property or per workflow are not enforced
//! (the simulator does not know which property or workflow a call counts against, and the
//! client does not pace them either).
//!
//! The tenant's bucket has a restoration period, the simulator's model of the vendor's
//! "restoration rate" (how access comes back after the limit was exceeded, whose figure the
//! vendor does not publish): the call that finds the bucket empty starts it, and every call of
//! the tenant is refused until it ends (`Retry-After`: the seconds left), whatever is in the
//! bucket meanwhile; then the bucket, refilled all that time, serves again. A fixed lock-out
//! rather than a slower refill: it is the harsher reading, so a client that stays within the
//! limit here does against either, and it makes an overrun plain in a benchmark (a burst of
//! 429s, not a few). Refused calls take nothing from any bucket.

use crate::model::{LimitScope, Route, Table};
use crate::state::{Bucket, State};

/// A token bucket's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget<'t> {
    /// The service's name (the bucket is per tenant and service), or [`TENANT`].
    pub service: &'t str,
    /// Calls at once: the bucket's size, and what a new bucket starts with.
    pub burst: f64,
    /// Calls back each second (a tenant limit's `per_minute / 60`).
    pub per_second: f64,
    /// After the bucket was found empty, how long every call is refused (milliseconds).
    pub restoration_ms: u64,
}

/// The scope of the tenant's own bucket (service names are snake_case, so never this).
pub const TENANT: &str = "(tenant)";

/// The budget of `route`'s service, when it publishes a per-tenant limit.
pub fn budget<'t>(table: &'t Table, route: &Route) -> Option<Budget<'t>> {
    let limit = table
        .api
        .rate_limits
        .iter()
        .find(|l| l.service == route.service && l.scope == LimitScope::Tenant)?;
    Some(Budget {
        service: &limit.service,
        burst: f64::from(limit.max),
        per_second: f64::from(limit.per_second),
        restoration_ms: 0,
    })
}

/// The tenant-wide budget of `table`'s API, when it publishes one; `custom` (`max`, per
/// minute) replaces its size for one tenant.
pub fn tenant_budget(table: &Table, custom: Option<(u32, u32)>) -> Option<Budget<'static>> {
    let limit = table.api.tenant_limit.as_ref()?;
    let (max, per_minute) = custom.unwrap_or((limit.max, limit.per_minute));
    Some(Budget {
        service: TENANT,
        burst: f64::from(max),
        per_second: f64::from(per_minute) / 60.0,
        restoration_ms: u64::from(limit.restoration_seconds) * 1000,
    })
}

/// Which limit refused a call, and the whole seconds until the next call is allowed (the
/// `Retry-After`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused<'t> {
    /// The refusing budget's [`Budget::service`]: a service name or [`TENANT`].
    pub limit: &'t str,
    /// Seconds until the next call is allowed, rounded up, at least 1 (the `Retry-After`).
    pub retry_after: u64,
}

/// Takes one call from each of `budgets` for `tenant`, all or none.
pub fn take<'t>(
    state: &mut State,
    tenant: &str,
    budgets: &[Budget<'t>],
) -> Result<(), Refused<'t>> {
    let now = state.clock.now_ms();
    for b in budgets {
        let bucket = bucket(state, tenant, b, now);
        if now < bucket.refused_until_ms {
            return Err(refused(b, (bucket.refused_until_ms - now) as f64 / 1000.0));
        }
        if bucket.tokens < 1.0 {
            let mut wait = (1.0 - bucket.tokens) / b.per_second;
            if b.restoration_ms > 0 {
                bucket.refused_until_ms = now + b.restoration_ms;
                wait = wait.max(b.restoration_ms as f64 / 1000.0);
            }
            return Err(refused(b, wait));
        }
    }
    for b in budgets {
        bucket(state, tenant, b, now).tokens -= 1.0;
    }
    Ok(())
}

fn refused<'t>(b: &Budget<'t>, seconds: f64) -> Refused<'t> {
    Refused {
        limit: b.service,
        retry_after: (seconds.ceil() as u64).max(1),
    }
}

/// `tenant`'s bucket of `b`, refilled up to `now`.
fn bucket<'s>(state: &'s mut State, tenant: &str, b: &Budget<'_>, now: u64) -> &'s mut Bucket {
    let bucket = state
        .buckets
        .entry((tenant.to_owned(), b.service.to_owned()))
        .or_insert(Bucket {
            tokens: b.burst,
            at_ms: now,
            refused_until_ms: 0,
        });
    let refill = now.saturating_sub(bucket.at_ms) as f64 / 1000.0 * b.per_second;
    bucket.tokens = (bucket.tokens + refill).min(b.burst);
    bucket.at_ms = now;
    bucket
}
