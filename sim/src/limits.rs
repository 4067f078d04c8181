//! Rate limits: per tenant and service, token buckets of the sizes the official descriptions
//! publish (`info.description` of the bundles, in `../shared/reference/public-facts.md`, "Rate
//! limits"): most services 200 calls burst and 100 per second, the switch service 20 and 10.
//!
//! This table is the simulator's own. Which service an operation belongs to is taken from its
//! spec area: the switch areas are the switch service; every other area of an API shares that
//! API's budget (the descriptions do not say how the other services split).

use crate::state::{Bucket, State};

/// A token bucket's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// The service's name (the bucket is per tenant and service).
    pub service: &'static str,
    pub burst: f64,
    pub per_second: f64,
}

/// The switch service: 20 calls burst, 10 per second.
pub const SWITCH: Budget = Budget {
    service: "switch",
    burst: 20.0,
    per_second: 10.0,
};

/// Every other service: 200 calls burst, 100 per second.
pub const DEFAULT: Budget = Budget {
    service: "default",
    burst: 200.0,
    per_second: 100.0,
};

/// The areas of the switch service.
const SWITCH_AREAS: [&str; 8] = [
    "switches",
    "switch_networking",
    "switch_config_backups",
    "switch_firmware",
    "switch_aaa",
    "switch_profiles",
    "switches_legacy",
    "template_switch_profiles",
];

/// The budget of an operation of `api`'s area `area`.
pub fn budget(api: &str, area: &str) -> Budget {
    if api == "network" && SWITCH_AREAS.contains(&area) {
        return SWITCH;
    }
    let service = match api {
        "analytics" => "analytics",
        "resident_portal" => "resident_portal",
        _ => "wifi",
    };
    Budget { service, ..DEFAULT }
}

/// Takes one call from `tenant`'s bucket of `b`; `Err` holds the whole seconds until the next
/// call is allowed (the `Retry-After`).
pub fn take(state: &mut State, tenant: &str, b: Budget) -> Result<(), u64> {
    let now = state.clock.now_ms();
    let bucket = state
        .buckets
        .entry((tenant.to_owned(), b.service))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_empties_and_refills_on_the_simulator_clock() {
        let mut state = State::new(true);
        let b = budget("network", "switches");
        assert_eq!(b, SWITCH);
        for _ in 0..20 {
            assert_eq!(take(&mut state, "t", b), Ok(()));
        }
        assert_eq!(take(&mut state, "t", b), Err(1));
        assert_eq!(take(&mut state, "other", b), Ok(()), "per tenant");
        assert_eq!(
            take(&mut state, "t", budget("network", "wireless_venues")),
            Ok(())
        );
        state.clock.advance(Duration::from_millis(100));
        assert_eq!(take(&mut state, "t", b), Ok(()));
        assert_eq!(take(&mut state, "t", b), Err(1));
    }
}
