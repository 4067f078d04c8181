//! Fan-out and bulk waits when one tenant goes wrong: its failure, panic, hang or failed
//! activity query is its own outcome, the others keep theirs, every timeout is a bound; and
//! both futures can be spawned (loopback server, tokio's paused clock).

mod common;

use std::time::Duration;

use common::loopback::{Answer, Loopback};
use common::msp::{AUTH, GET_VENUES, QUERY_ACTIVITIES};
use ruckus_one_runtime::internal::{Request, wait_all};
use ruckus_one_runtime::{
    Client, Config, Credentials, Error, PendingActivity, RetryPolicy, TenantOutcome, WaitOptions,
    for_each_tenant, for_each_tenant_within,
};
use serde_json::{Value, json};
use tokio::time::Instant;

fn client(url: &str) -> Client {
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(url)
        .token_tenant_id("msp-owner");
    Client::new(config, &AUTH).expect("client")
}

/// Every activity the query asks for has succeeded.
fn all_done(hit: &common::loopback::Hit) -> Vec<Value> {
    let body: Value = serde_json::from_slice(&hit.body).unwrap_or_default();
    body["filters"]["id"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|id| json!({"requestId": id, "status": "SUCCESS"}))
        .collect()
}

fn done_answer(hit: &common::loopback::Hit) -> Answer {
    Answer::json(200, json!({"data": all_done(hit)}).to_string())
}

async fn venues(customer: Client) -> Result<String, Error> {
    let _: Value = Request::new(&customer, &GET_VENUES, &[])
        .send_json()
        .await?;
    Ok("ok".to_owned())
}

#[tokio::test(start_paused = true)]
async fn both_futures_can_be_spawned_with_borrowed_or_owned_ids() {
    let server = Loopback::start(|hit| {
        if hit.path == "/activities/query" {
            done_answer(hit)
        } else {
            Answer::json(200, "{}")
        }
    })
    .await;
    let client = client(&server.url);
    // `&str` ids, as users write them.
    let c = client.clone();
    let borrowed = tokio::spawn(async move {
        for_each_tenant(&c, ["customer-1", "customer-2"], 2, |customer| async move {
            venues(customer).await
        })
        .await
    });
    // Owned ids.
    let c = client.clone();
    let owned: Vec<String> = vec!["customer-3".into(), "customer-4".into()];
    let owned = tokio::spawn(async move { for_each_tenant(&c, owned, 2, venues).await });
    let c = client.clone();
    let pending = vec![
        PendingActivity::new("r-1", Some("customer-1")).expect("id"),
        PendingActivity::new("r-2", None).expect("id"),
    ];
    let waited = tokio::spawn(async move {
        wait_all::<Value>(&c, &QUERY_ACTIVITIES, pending, &WaitOptions::default()).await
    });
    let ok = |outcomes: Vec<TenantOutcome<String>>| outcomes.iter().all(|o| o.result.is_ok());
    assert!(ok(borrowed.await.expect("joined")));
    assert!(ok(owned.await.expect("joined")));
    let waited = waited.await.expect("joined").expect("waited");
    assert!(waited.iter().all(Result::is_ok), "{waited:?}");
}

#[tokio::test(start_paused = true)]
async fn a_panicking_tenant_is_its_own_outcome() {
    let server = Loopback::start(|_| Answer::json(200, "{}")).await;
    let client = client(&server.url);
    let tenants = ["customer-1", "customer-2", "customer-3"];
    let outcomes = for_each_tenant(&client, tenants, 2, |customer| async move {
        let tenant = customer.delegated_tenant().unwrap_or_default().to_owned();
        let done = venues(customer).await;
        assert_ne!(tenant, "customer-2", "this tenant's work panics");
        done
    })
    .await;
    let results: Vec<_> = outcomes.iter().map(|o| o.result.is_ok()).collect();
    assert_eq!(results, [true, false, true]);
    assert!(matches!(outcomes[1].result, Err(Error::Panicked)));
}

#[tokio::test(start_paused = true)]
async fn a_hanging_tenant_is_timed_out_and_the_others_return() {
    let server = Loopback::start(|_| Answer::json(200, "{}")).await;
    let client = client(&server.url);
    let started = Instant::now();
    let tenants = ["customer-1", "stuck", "customer-3"];
    let outcomes = for_each_tenant_within(
        &client,
        tenants,
        3,
        Duration::from_secs(5),
        |customer| async move {
            if customer.delegated_tenant() == Some("stuck") {
                std::future::pending::<()>().await;
            }
            venues(customer).await
        },
    )
    .await;
    assert_eq!(started.elapsed(), Duration::from_secs(5));
    let results: Vec<_> = outcomes.iter().map(|o| o.result.is_ok()).collect();
    assert_eq!(results, [true, false, true]);
    assert!(matches!(outcomes[1].result, Err(Error::Timeout)));
}

#[tokio::test(start_paused = true)]
async fn one_tenants_failed_query_is_its_outcome_and_the_others_keep_theirs() {
    let server = Loopback::start(|hit| {
        if hit.tenant.as_deref() == Some("broken") {
            Answer::json(500, r#"{"errors":[{"code":"BOOM"}]}"#)
        } else {
            done_answer(hit)
        }
    })
    .await;
    let client = client(&server.url);
    let pending = vec![
        PendingActivity::new("a-1", Some("customer-a")).expect("id"),
        PendingActivity::new("b-1", Some("broken")).expect("id"),
        PendingActivity::new("b-2", Some("broken")).expect("id"),
        PendingActivity::new("c-1", Some("customer-c")).expect("id"),
    ];
    let results = wait_all::<Value>(&client, &QUERY_ACTIVITIES, pending, &WaitOptions::default())
        .await
        .expect("the wait itself ends well");
    let statuses: Vec<_> = results
        .iter()
        .map(|r| r.as_ref().err().and_then(Error::status))
        .collect();
    assert_eq!(statuses, [None, Some(500), Some(500), None]);
    assert_eq!(results[0].as_ref().expect("a")["requestId"], "a-1");
    assert_eq!(results[3].as_ref().expect("c")["requestId"], "c-1");
}

#[tokio::test(start_paused = true)]
async fn the_activity_query_is_retried_as_a_read() {
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let server = Loopback::start(move |hit| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Answer::json(503, r#"{"errors":[{"code":"BUSY"}]}"#)
        } else {
            done_answer(hit)
        }
    })
    .await;
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(&server.url)
        .token_tenant_id("msp-owner")
        .retry(RetryPolicy::default().max_attempts(2));
    let client = Client::new(config, &AUTH).expect("client");
    let pending = vec![PendingActivity::new("a-1", None).expect("id")];
    let results = wait_all::<Value>(&client, &QUERY_ACTIVITIES, pending, &WaitOptions::default())
        .await
        .expect("waited");
    assert!(results[0].is_ok(), "{results:?}");
    assert_eq!(server.calls().len(), 2, "the 503 was retried");
}

#[tokio::test(start_paused = true)]
async fn the_wait_all_timeout_bounds_a_silent_query() {
    let server = Loopback::start(|hit| done_answer(hit).after(Duration::from_secs(3600))).await;
    let client = client(&server.url);
    let pending = vec![PendingActivity::new("a-1", None).expect("id")];
    let options = WaitOptions::default().timeout(Duration::from_secs(3));
    let started = Instant::now();
    let results = wait_all::<Value>(&client, &QUERY_ACTIVITIES, pending, &options)
        .await
        .expect("waited");
    assert_eq!(started.elapsed(), Duration::from_secs(3));
    assert!(
        matches!(&results[0], Err(Error::Activity(a)) if a.is_timeout()),
        "{results:?}"
    );
}
