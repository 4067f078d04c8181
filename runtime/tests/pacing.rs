//! Pacing by the services' published limits, on tokio's paused clock against a loopback server
//! that enforces the same token bucket (and counts every request).

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::loopback::{Answer, Loopback, ServerBucket};
use futures_util::future::join_all;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Request, Service};
use ruckus_one_runtime::{Client, Config, Credentials, Method, Pacing, RateLimit, RetryPolicy};
use tokio::time::Instant;

use common::{AUTH, NETWORK as API};

/// A small published limit: 10 calls at once, 5 back per second.
static SMALL: Service = Service {
    name: "small",
    rate_limit: Some(RateLimit::per_tenant(10, 5)),
};

static GET_THING: Operation = Operation {
    id: "get_thing",
    method: Method::Get,
    path: "/things/{id}",
    api: &API,
    versions: &[MediaTypes {
        content_type: None,
        accept: "application/json",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &SMALL,
    reads: true,
};

/// A server enforcing the small limit per tenant: 429 when over.
async fn limited_server() -> Loopback {
    let buckets: Arc<std::sync::Mutex<std::collections::HashMap<String, Arc<ServerBucket>>>> =
        Arc::default();
    Loopback::start(move |hit| {
        let tenant = hit.tenant.clone().unwrap_or_default();
        let bucket = buckets
            .lock()
            .expect("buckets")
            .entry(tenant)
            .or_insert_with(|| Arc::new(ServerBucket::new(10, 5)))
            .clone();
        if bucket.take() {
            Answer::json(200, r#"{"id":"x"}"#)
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
        .pacing(pacing);
    Client::new(config, &AUTH).expect("client")
}

async fn get(
    client: &Client,
    n: usize,
) -> Vec<Result<serde_json::Value, ruckus_one_runtime::Error>> {
    join_all((0..n).map(|i| {
        let id = i.to_string();
        async move { Request::new(client, &GET_THING, &[&id]).send_json().await }
    }))
    .await
}

#[tokio::test(start_paused = true)]
async fn a_burst_stays_inside_a_small_budget() {
    let server = limited_server().await;
    let client = client(&server.url, Pacing::default());
    let started = Instant::now();
    let results = get(&client, 40).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let calls = server.calls();
    assert_eq!(calls.len(), 40, "one request per call");
    assert!(calls.iter().all(|h| h.status == 200), "no 429");
    // 40 calls through a bucket of 9.5 refilled at 4.75 per second (95 % of 10 / 5), on the
    // paused clock: the time of the last call the server saw, from the start.
    let took = calls
        .iter()
        .map(|h| h.at - started)
        .max()
        .unwrap_or_default();
    assert!(took >= Duration::from_secs(6), "{took:?}");
    assert!(took <= Duration::from_secs(8), "{took:?}");
    assert_eq!(server.token_requests(), 1);
}

#[tokio::test(start_paused = true)]
async fn without_pacing_the_same_burst_is_refused() {
    let server = limited_server().await;
    let client = client(&server.url, Pacing::off());
    let results = get(&client, 40).await;
    let refused = results.iter().filter(|r| r.is_err()).count();
    assert!(refused >= 25, "{refused} refused");
    assert_eq!(server.calls().len(), 40);
}

#[tokio::test(start_paused = true)]
async fn clones_share_one_bucket_and_tenants_have_their_own() {
    let server = limited_server().await;
    let first = client(&server.url, Pacing::default());
    let second = first.clone();
    let other = first.with_tenant("customer-b").expect("tenant");
    let (a, b, c) = tokio::join!(get(&first, 15), get(&second, 15), get(&other, 15));
    assert!(a.iter().chain(&b).chain(&c).all(Result::is_ok));
    let calls = server.calls();
    assert_eq!(calls.len(), 45);
    assert!(calls.iter().all(|h| h.status == 200), "no 429");
    // The clones' 30 calls went through one bucket: the last left after about 4.3 s; the
    // other tenant's 15 through its own, in about 1.2 s.
    let start = calls.iter().map(|h| h.at).min().expect("calls");
    let last = |tenant: Option<&str>| {
        calls
            .iter()
            .filter(|h| h.tenant.as_deref() == tenant)
            .map(|h| h.at - start)
            .max()
            .unwrap_or_default()
    };
    assert!(last(None) >= Duration::from_secs(4), "{:?}", last(None));
    assert!(last(Some("customer-b")) < Duration::from_secs(2));
}

#[tokio::test(start_paused = true)]
async fn retries_do_not_multiply() {
    // Every call is refused with Retry-After: each is sent exactly max_attempts times.
    let server = Loopback::start(|_| {
        Answer::json(429, r#"{"errors":[{"code":"TOO_MANY"}]}"#).header("retry-after", "1")
    })
    .await;
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(&server.url)
        .token_tenant_id("owner")
        .retry(RetryPolicy::default().max_attempts(3));
    let client = Client::new(config, &AUTH).expect("client");
    let results = get(&client, 12).await;
    assert!(
        results
            .iter()
            .all(|r| r.as_ref().err().and_then(|e| e.status()) == Some(429))
    );
    assert_eq!(server.calls().len(), 36, "3 attempts per call, no more");
    assert_eq!(server.token_requests(), 1);
    // The first 429 held the bucket for a second: no call was sent again before that.
    let first = server.calls()[0].at;
    let resent: Vec<_> = server
        .calls()
        .iter()
        .skip(12)
        .map(|h| h.at - first)
        .collect();
    assert!(
        resent.iter().all(|d| *d >= Duration::from_secs(1)),
        "{resent:?}"
    );
    // And no retry waited longer than the Retry-After and the policy's backoff allow (paused
    // clock: the server's times of the last attempts).
    assert!(
        resent.iter().all(|d| *d <= Duration::from_secs(10)),
        "{resent:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_429_then_success_is_two_requests_and_a_pacing_wait_is_no_retry() {
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let server = Loopback::start(move |_| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Answer::json(429, "{}").header("retry-after", "2")
        } else {
            Answer::json(200, "{}")
        }
    })
    .await;
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(&server.url)
        .token_tenant_id("owner")
        .retry(RetryPolicy::default().max_attempts(2));
    let client = Client::new(config, &AUTH).expect("client");
    // More calls than the bucket holds: the ones that wait for budget are not retries.
    let results = get(&client, 20).await;
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 20);
    assert_eq!(server.calls().len(), 21);
}

#[tokio::test(start_paused = true)]
async fn a_wait_past_the_deadline_fails_at_once() {
    let server = limited_server().await;
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(&server.url)
        .token_tenant_id("owner")
        .call_timeout(Duration::from_secs(1))
        .pacing(Pacing::default().headroom(1.0).jitter(Duration::ZERO));
    let client = Client::new(config, &AUTH).expect("client");
    let results = get(&client, 20).await;
    let timeouts = results
        .iter()
        .filter(|r| matches!(r, Err(ruckus_one_runtime::Error::Timeout)))
        .count();
    // 10 at once, about 5 more within the second; the rest would wait past the deadline.
    assert!((4..=6).contains(&timeouts), "{timeouts}");
    assert_eq!(server.calls().len(), 20 - timeouts);
}

#[tokio::test(start_paused = true)]
async fn a_long_retry_after_is_the_callers_and_holds_the_bucket_at_most_the_cap() {
    // The first call is refused for two hours; the service has recovered for the next ones.
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let server = Loopback::start(move |_| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Answer::json(429, r#"{"errors":[{"code":"TOO_MANY"}]}"#).header("retry-after", "7200")
        } else {
            Answer::json(200, r#"{"id":"x"}"#)
        }
    })
    .await;
    let policy = RetryPolicy::default();
    let cap = policy.max_retry_after;
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(&server.url)
        .token_tenant_id("owner")
        .retry(policy);
    let client = Client::new(config, &AUTH).expect("client");
    let refused = get(&client, 1).await.remove(0).expect_err("refused");
    assert_eq!(refused.status(), Some(429));
    assert_eq!(refused.retry_after(), Some(Duration::from_secs(7200)));
    assert_eq!(server.calls().len(), 1, "not retried");
    // The calls after it wait the policy's cap at most (of the paused clock, not the two hours),
    // then all go out.
    let results = tokio::time::timeout(cap + Duration::from_secs(1), get(&client, 10))
        .await
        .expect("the bucket is held no longer than the cap");
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(server.calls().len(), 11);
}

#[tokio::test(start_paused = true)]
async fn calls_cancelled_while_they_wait_give_their_budget_back() {
    let server = Loopback::start(|_| Answer::json(200, r#"{"id":"x"}"#)).await;
    let client = client(&server.url, Pacing::default());
    // 200 calls, most of them waiting for budget, cancelled after 100 ms.
    let cancelled = tokio::time::timeout(Duration::from_millis(100), get(&client, 200)).await;
    assert!(cancelled.is_err(), "the calls were still waiting");
    assert!(server.calls().len() < 20, "{}", server.calls().len());
    // The bucket refills (9.5 at 4.75 a second) in 2 s; the next call goes out at once.
    tokio::time::sleep(Duration::from_secs(3)).await;
    // On the paused clock a call that had to wait for budget sleeps about 19 s of it; one
    // that gets its token at once needs none of the clock.
    let next = tokio::time::timeout(Duration::from_secs(1), get(&client, 1))
        .await
        .expect("the call went out without waiting for rate budget");
    assert!(next[0].is_ok(), "{next:?}");
}
