//! The buckets on tokio's paused clock.

use super::*;
use crate::pacing::pacer::START_WINDOW;

static WIFI: Service = Service {
    name: "wifi",
    rate_limit: Some(RateLimit::per_tenant(10, 5)),
};
static SWITCH: Service = Service {
    name: "switch",
    rate_limit: Some(RateLimit::per_tenant(10, 5)),
};
static VENUE: Service = Service {
    name: "venue",
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

/// A tenant-wide limit of 12 at once and 120 a minute (2 a second).
const TENANT: Option<TenantLimit> = Some(TenantLimit::new(12, 120));

fn exact() -> Pacing {
    Pacing::default().headroom(1.0).jitter(Duration::ZERO)
}

fn take(
    pacer: &Pacer,
    limit: Option<TenantLimit>,
    service: &'static Service,
    tenant: &str,
) -> Duration {
    let plan = pacer.pacing().plan(limit, Some(service), tenant);
    plan.map_or(Duration::MAX, |plan| {
        pacer.reserve_local(&plan, tenant).taken.wait
    })
}

fn waits(pacer: &Pacer, tenant: &str, n: usize) -> Vec<Duration> {
    (0..n).map(|_| take(pacer, None, &WIFI, tenant)).collect()
}

#[tokio::test(start_paused = true)]
async fn a_burst_waits_for_refills_per_tenant() {
    let pacer = Pacer::new(exact());
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
    let pacing = Pacing::default();
    assert!(pacing.plan(None, Some(&VIEWS), "").is_none());
    assert!(pacing.plan(None, Some(&PORTAL), "").is_none());
    assert!(pacing.plan(None, None, "").is_none());
    assert!(Pacing::off().plan(TENANT, Some(&WIFI), "").is_none());
    assert!(
        Pacing::default()
            .unlimited("wifi")
            .plan(None, Some(&WIFI), "")
            .is_none()
    );
    assert!(
        Pacing::default()
            .no_tenant_limit()
            .plan(TENANT, None, "")
            .is_none()
    );
    let custom = Pacer::new(exact().limit("views", RateLimit::per_tenant(1, 1)));
    assert_eq!(take(&custom, None, &VIEWS, ""), Duration::ZERO);
    assert_eq!(take(&custom, None, &VIEWS, ""), Duration::from_secs(1));
    let plan = custom.pacing().plan(None, Some(&VIEWS), "").expect("paced");
    custom.release(&plan, "", Source::Local);
    assert_eq!(take(&custom, None, &VIEWS, ""), Duration::from_secs(1));
}

#[tokio::test(start_paused = true)]
async fn a_429_empties_and_holds_the_bucket() {
    let pacer = Pacer::new(Pacing::default().headroom(1.0));
    let plan = pacer.pacing().plan(None, Some(&WIFI), "a").expect("paced");
    pacer.throttled(&plan, "a", Some(Duration::from_secs(3)));
    assert_eq!(waits(&pacer, "a", 1)[0], Duration::from_secs(3));
    assert!(waits(&pacer, "b", 1)[0].is_zero());
    assert_eq!(Pacing::default().headroom(f64::NAN), Pacing::default());
}

#[tokio::test(start_paused = true)]
async fn a_call_dropped_while_it_waits_gives_its_budget_back() {
    let pacer = Pacer::new(exact());
    let plan = pacer.pacing().plan(None, Some(&WIFI), "a").expect("paced");
    assert!(waits(&pacer, "a", 10).iter().all(Duration::is_zero));
    for _ in 0..200 {
        let wait = pacer.reserve_local(&plan, "a").taken.wait;
        assert!(!wait.is_zero());
        drop(Unsent::new(&pacer, plan, "a", Source::Local));
    }
    let kept = pacer.reserve_local(&plan, "a").taken.wait;
    Unsent::new(&pacer, plan, "a", Source::Local).sent();
    assert_eq!(kept, Duration::from_millis(200));
    assert_eq!(waits(&pacer, "a", 1)[0], Duration::from_millis(400));
}

#[tokio::test(start_paused = true)]
async fn one_tenant_across_three_services_shares_its_tenant_bucket() {
    let pacer = Pacer::new(exact());
    // 4 calls to each of three services (10 at once each): the tenant's 12 at once allow all
    // twelve, the thirteenth (any service) waits for the tenant's refill of 2 a second.
    for service in [&WIFI, &SWITCH, &VENUE] {
        for _ in 0..4 {
            assert_eq!(take(&pacer, TENANT, service, "a"), Duration::ZERO);
        }
    }
    assert_eq!(
        take(&pacer, TENANT, &VENUE, "a"),
        Duration::from_millis(500)
    );
    // A call with no service limit (a raw request) counts against the tenant too.
    let plan = pacer
        .pacing()
        .plan(TENANT, None, "a")
        .expect("the tenant's bucket");
    assert_eq!(
        pacer.reserve_local(&plan, "a").taken.wait,
        Duration::from_secs(1)
    );
    // Another tenant does not share it.
    assert_eq!(take(&pacer, TENANT, &WIFI, "b"), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn a_tenant_override_applies_to_that_tenant_only() {
    let pacing = exact().tenant(
        "big",
        TenantPacing::new()
            .tenant_limit(TenantLimit::new(100, 6000))
            .limit("wifi", RateLimit::per_tenant(50, 25)),
    );
    let pacer = Pacer::new(pacing);
    let big: Vec<_> = (0..30)
        .map(|_| take(&pacer, TENANT, &WIFI, "big"))
        .collect();
    assert!(big.iter().all(Duration::is_zero), "{big:?}");
    let small: Vec<_> = (0..11)
        .map(|_| take(&pacer, TENANT, &WIFI, "small"))
        .collect();
    assert!(small[..10].iter().all(Duration::is_zero));
    assert_eq!(small[10], Duration::from_millis(200));
    // Every tenant's limit replaced, the published one aside.
    let pacer = Pacer::new(exact().tenant_limit(TenantLimit::new(1, 60)));
    assert_eq!(take(&pacer, TENANT, &WIFI, "a"), Duration::ZERO);
    assert_eq!(take(&pacer, TENANT, &WIFI, "a"), Duration::from_secs(1));
}

#[tokio::test(start_paused = true)]
async fn a_fallback_bucket_starts_after_the_calls_the_shared_one_promised() {
    let pacer = Pacer::new(exact());
    let plan = pacer.pacing().plan(None, Some(&WIFI), "a").expect("paced");
    // The shared bucket let the last call go 2 s from now: the local one gives nothing before.
    pacer.mirror(&plan, "a", Duration::from_secs(2));
    assert_eq!(
        pacer.reserve_local(&plan, "a").taken.wait,
        Duration::from_millis(2200)
    );
    tokio::time::advance(Duration::from_secs(3)).await;
    // 1 s of refill (5 calls) after the promised ones, one of them taken already.
    let later: Vec<_> = (0..5)
        .map(|_| pacer.reserve_local(&plan, "a").taken.wait)
        .collect();
    assert!(later[..4].iter().all(Duration::is_zero), "{later:?}");
    assert!(!later[4].is_zero());
}

#[tokio::test(start_paused = true)]
async fn a_full_bucket_refills_from_the_first_answer() {
    let pacer = Pacer::new(exact());
    let plan = pacer.pacing().plan(None, Some(&WIFI), "a").expect("paced");
    // The 10 at once found the bucket starting; their answers come 400 ms later (connections
    // opened, the service loaded): the service's bucket ran from their arrival.
    let first: Vec<_> = (0..10)
        .map(|_| pacer.reserve_local(&plan, "a").taken)
        .collect();
    assert!(
        first.iter().all(|t| t.starting && t.wait.is_zero()),
        "{first:?}"
    );
    tokio::time::advance(Duration::from_millis(400)).await;
    pacer.answered(&plan, "a", Source::Local);
    // The 400 ms of refill (2 calls) before the answer do not count: the next call waits.
    let next = pacer.reserve_local(&plan, "a").taken;
    assert_eq!(next.wait, Duration::from_millis(200));
    assert!(!next.starting);
    // Only the first answer counts.
    pacer.answered(&plan, "a", Source::Local);
    assert_eq!(waits(&pacer, "a", 1)[0], Duration::from_millis(400));
    // Without an answer in the window, the refill counts from the first call.
    let pacer = Pacer::new(exact());
    assert!(waits(&pacer, "a", 10).iter().all(Duration::is_zero));
    tokio::time::advance(START_WINDOW + Duration::from_millis(200)).await;
    let late = pacer.reserve_local(&plan, "a").taken;
    assert!(late.wait.is_zero() && !late.starting, "{late:?}");
}

#[tokio::test(start_paused = true)]
async fn a_fallback_bucket_assumes_the_shared_queue_reaches_as_far_from_now() {
    let pacer = Pacer::new(exact());
    let plan = pacer.pacing().plan(None, Some(&WIFI), "a").expect("paced");
    // The last shared take let its call go 2 s later; the store stops answering 1.5 s after
    // it, while the other processes kept taking: their calls may reach 2 s past that.
    pacer.mirror(&plan, "a", Duration::from_secs(2));
    tokio::time::advance(Duration::from_millis(1500)).await;
    assert_eq!(
        pacer.reserve_local(&plan, "a").taken.wait,
        Duration::from_millis(2200)
    );
    // Once: the next local call follows the local refill.
    assert_eq!(waits(&pacer, "a", 1)[0], Duration::from_millis(2400));
}
