//! Issue 33 item 1: every call of a tenant counts against the tenant's own bucket on top of its
//! service's, on tokio's paused clock against a loopback server enforcing both.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::loopback::{Answer, Hit, Loopback, ServerBucket};
use futures_util::future::join_all;
use ruckus_one_runtime::internal::{
    Api, ApiAuth, ErrorFamily, MediaTypes, Operation, Request, Service,
};
use ruckus_one_runtime::{
    Client, Config, Credentials, Error, Method, Pacing, RateLimit, RetryPolicy, TenantLimit,
    TenantPacing,
};
use tokio::time::Instant;

/// The tenant limit: 20 calls at once, 600 a minute (10 a second).
static API: Api = Api {
    name: "network",
    title: "Network",
    prefix: "",
    hosts: common::EXAMPLE_HOSTS,
    auth: ApiAuth::ClientCredentials,
    tenant_limit: Some(TenantLimit::new(20, 600)),
};

use common::AUTH;

/// Each service alone: 15 at once, 8 a second (three of them together allow more than the
/// tenant).
const SERVICE_LIMIT: RateLimit = RateLimit::per_tenant(15, 8);

static A: Service = Service {
    name: "a",
    rate_limit: Some(SERVICE_LIMIT),
};
static B: Service = Service {
    name: "b",
    rate_limit: Some(SERVICE_LIMIT),
};
static C: Service = Service {
    name: "c",
    rate_limit: Some(SERVICE_LIMIT),
};
/// The activity service publishes no limit of its own: only the tenant's paces its polls.
static ACTIVITIES: Service = Service {
    name: "activities",
    rate_limit: None,
};

const JSON: &[MediaTypes] = &[MediaTypes {
    content_type: None,
    accept: "application/json",
}];

const fn get(id: &'static str, path: &'static str, service: &'static Service) -> Operation {
    Operation {
        id,
        method: Method::Get,
        path,
        api: &API,
        versions: JSON,
        error_family: ErrorFamily::ErrorsArray,
        service,
        reads: true,
    }
}

static GET_A: Operation = get("get_a", "/a", &A);
static GET_B: Operation = get("get_b", "/b", &B);
static GET_C: Operation = get("get_c", "/c", &C);
static POLL: Operation = get("get_activity", "/activities", &ACTIVITIES);
static THREE: [&Operation; 3] = [&GET_A, &GET_B, &GET_C];
static ONE: [&Operation; 1] = [&GET_A];
static POLLS: [&Operation; 3] = [&POLL, &POLL, &GET_A];

type Buckets = Arc<Mutex<HashMap<String, Arc<ServerBucket>>>>;

fn bucket(buckets: &Buckets, key: String, max: u32, per_second: u32) -> Arc<ServerBucket> {
    let mut buckets = buckets.lock().expect("buckets");
    buckets
        .entry(key)
        .or_insert_with(|| Arc::new(ServerBucket::new(max, per_second)))
        .clone()
}

/// A server enforcing the tenant's bucket (20, 10 a second; the tenant `big` 60 and 30) and
/// each service's (15, 8) per tenant: 429 when either is empty.
async fn limited_server() -> Loopback {
    let buckets: Buckets = Arc::default();
    Loopback::start(move |hit: &Hit| {
        let tenant = hit.tenant.clone().unwrap_or_default();
        let service = hit.path.trim_start_matches('/').to_owned();
        let (max, per_second) = if tenant == "big" { (60, 30) } else { (20, 10) };
        let own = bucket(&buckets, tenant.clone(), max, per_second);
        let allowed = if service == "activities" {
            own.take()
        } else {
            bucket(&buckets, format!("{tenant}/{service}"), 15, 8).take() && own.take()
        };
        if allowed {
            Answer::json(200, "{}")
        } else {
            Answer::json(
                429,
                r#"{"errors":[{"code":"TOO_MANY","message":"slow down"}]}"#,
            )
        }
    })
    .await
}

fn client(url: &str, pacing: Pacing) -> Client {
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(url)
        .token_tenant_id("owner")
        .retry(RetryPolicy::none())
        .call_timeout(Duration::from_secs(120))
        .pacing(pacing);
    Client::new(config, &AUTH).expect("client")
}

/// `n` calls of each operation, all at once.
async fn burst(client: &Client, ops: &[&'static Operation], n: usize) -> Vec<Result<(), Error>> {
    let calls = ops.iter().flat_map(|op| (0..n).map(move |_| *op));
    join_all(
        calls.map(|op| async move { Request::new(client, op, &[]).send_raw().await.map(drop) }),
    )
    .await
}

/// When the last call of `tenant` reached the server, from the first call's arrival.
fn last(server: &Loopback, tenant: Option<&str>) -> Duration {
    let calls = server.calls();
    let start = calls
        .iter()
        .map(|h| h.at)
        .min()
        .unwrap_or_else(Instant::now);
    calls
        .iter()
        .filter(|h| h.tenant.as_deref() == tenant)
        .map(|h| h.at - start)
        .max()
        .unwrap_or_default()
}

fn refused(server: &Loopback) -> usize {
    server.calls().iter().filter(|h| h.status == 429).count()
}

#[tokio::test(start_paused = true)]
async fn a_burst_across_three_services_stays_inside_the_tenant_bucket() {
    let server = limited_server().await;
    let client = client(&server.url, Pacing::default());
    let results = burst(&client, &THREE, 20).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(server.calls().len(), 60, "one request per call");
    assert_eq!(refused(&server), 0);
    // Paced by the tenant's bucket (17.1 at once, 9.5 a second after the headroom and the
    // jitter's reserve): about 4.5 s; by the services' alone it would take about 1 s.
    let took = last(&server, None);
    assert!(took >= Duration::from_secs(4), "{took:?}");
    assert!(took <= Duration::from_secs(6), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn without_the_tenant_limit_the_same_burst_is_refused() {
    let server = limited_server().await;
    let client = client(&server.url, Pacing::default().no_tenant_limit());
    let results = burst(&client, &THREE, 20).await;
    assert!(results.iter().filter(|r| r.is_err()).count() >= 10);
    assert!(refused(&server) >= 10);
}

#[tokio::test(start_paused = true)]
async fn activity_polls_count_against_the_tenant() {
    let server = limited_server().await;
    let client = client(&server.url, Pacing::default());
    // 30 polls of a service without a limit of its own and 15 writes: 45 calls of one tenant.
    let results = burst(&client, &POLLS, 15).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(refused(&server), 0);
    let took = last(&server, None);
    assert!(took >= Duration::from_secs(2), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn two_tenants_do_not_share_their_buckets() {
    let server = limited_server().await;
    let first = client(&server.url, Pacing::default());
    let second = first.with_tenant("customer-b").expect("tenant");
    let (a, b) = tokio::join!(burst(&first, &THREE, 10), burst(&second, &ONE, 12));
    assert!(a.iter().chain(&b).all(Result::is_ok));
    assert_eq!(refused(&server), 0);
    // The second tenant's 12 calls fit its own buckets: sent at once, whatever the first's 30.
    assert!(last(&server, Some("customer-b")) < Duration::from_millis(500));
    assert!(last(&server, None) >= Duration::from_secs(1));
}

#[tokio::test(start_paused = true)]
async fn a_per_tenant_override_applies() {
    let server = limited_server().await;
    let pacing = Pacing::default().tenant(
        "big",
        TenantPacing::new().tenant_limit(TenantLimit::new(60, 1800)),
    );
    let owner = client(&server.url, pacing);
    let big = owner.with_tenant("big").expect("tenant");
    let small = owner.with_tenant("small").expect("tenant");
    let (a, b) = tokio::join!(burst(&big, &THREE, 12), burst(&small, &THREE, 12));
    assert!(a.iter().chain(&b).all(Result::is_ok), "{a:?} {b:?}");
    assert_eq!(refused(&server), 0);
    // `big`'s 36 calls fit its larger bucket (about 55 at once): no wait for the tenant; each
    // service's 12 fit its 12.7. `small`'s wait for its tenant's refill.
    assert!(last(&server, Some("big")) < Duration::from_millis(500));
    assert!(last(&server, Some("small")) >= Duration::from_secs(1));
}
