//! Rate limits: per tenant and service, the token buckets the spec's services publish (`services`
//! of `spec/ruckus-one.yaml`, from the official descriptions: most services 200 calls at once
//! and 100 back each second, switch 20 and 10, policy 40 and 20, ...), carried into the
//! generated tables. Services that publish no limit are not limited; limits the descriptions
//! count per property or per workflow are not enforced (the simulator does not know which
//! property or workflow a call counts against, and the client does not pace them either).

use crate::model::{LimitScope, Route, Table};
use crate::state::{Bucket, State};

/// A token bucket's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget<'t> {
    /// The service's name (the bucket is per tenant and service).
    pub service: &'t str,
    pub burst: f64,
    pub per_second: f64,
}

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
    })
}

/// Takes one call from `tenant`'s bucket of `b`; `Err` holds the whole seconds until the next
/// call is allowed (the `Retry-After`).
pub fn take(state: &mut State, tenant: &str, b: Budget<'_>) -> Result<(), u64> {
    let now = state.clock.now_ms();
    let bucket = state
        .buckets
        .entry((tenant.to_owned(), b.service.to_owned()))
        .or_insert(Bucket {
            tokens: b.burst,
            at_ms: now,
        });
    let refill = now.saturating_sub(bucket.at_ms) as f64 / 1000.0 * b.per_second;
    bucket.tokens = (bucket.tokens + refill).min(b.burst);
    bucket.at_ms = now;
    if bucket.tokens >= 1.0 {
        bucket.tokens -= 1.0;
        Ok(())
    } else {
        let wait = (1.0 - bucket.tokens) / b.per_second;
        Err((wait.ceil() as u64).max(1))
    }
}
