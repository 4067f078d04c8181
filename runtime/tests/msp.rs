//! At MSP scale: fan-out over customer tenants with one token, and bulk waiting with one
//! activity query per round for many writes (requests counted on a loopback server).

mod common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::loopback::{Answer, Loopback};
use common::msp::{AUTH, GET_VENUES, QUERY_ACTIVITIES};
use ruckus_one_runtime::internal::{Request, wait_all};
use ruckus_one_runtime::{
    Client, Config, Credentials, Error, PendingActivity, WaitOptions, for_each_tenant,
};
use serde_json::{Value, json};

fn client(url: &str) -> Client {
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(url)
        .token_tenant_id("msp-owner");
    Client::new(config, &AUTH).expect("client")
}

#[tokio::test(start_paused = true)]
async fn fan_out_runs_every_tenant_with_bounded_concurrency_and_one_token() {
    let server =
        Loopback::start(|hit| Answer::json(200, json!({"tenant": hit.tenant}).to_string())).await;
    let client = client(&server.url);
    let mut tenants: Vec<String> = (0..30).map(|i| format!("customer-{i}")).collect();
    tenants.insert(7, " bad id".to_owned());
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let outcomes = for_each_tenant(&client, tenants.clone(), 4, |customer| {
        let (running, most) = (running.clone(), most.clone());
        async move {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            let first: Value = Request::new(&customer, &GET_VENUES, &[])
                .send_json()
                .await?;
            tokio::time::sleep(Duration::from_millis(50)).await;
            let _: Value = Request::new(&customer, &GET_VENUES, &[])
                .send_json()
                .await?;
            running.fetch_sub(1, Ordering::SeqCst);
            Ok(first["tenant"].as_str().unwrap_or_default().to_owned())
        }
    })
    .await;
    assert_eq!(outcomes.len(), 31);
    for (outcome, tenant) in outcomes.iter().zip(&tenants) {
        assert_eq!(&outcome.tenant, tenant, "in the order given");
        match &outcome.result {
            Ok(seen) => assert_eq!(seen, tenant, "each call acts for its tenant"),
            Err(e) => {
                assert_eq!(tenant, " bad id");
                assert!(matches!(e, Error::InvalidTenantId { .. }));
            }
        }
    }
    assert_eq!(most.load(Ordering::SeqCst), 4);
    assert_eq!(server.token_requests(), 1, "one token for every tenant");
    assert_eq!(server.calls().len(), 60);
}

/// A server whose activities succeed on the second query that asks for them, except `fail-3`.
async fn activity_server() -> Loopback {
    let asked: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    Loopback::start(move |hit| {
        let body: Value = serde_json::from_slice(&hit.body).unwrap_or_default();
        let ids = body["filters"]["id"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut asked = asked.lock().expect("asked");
        let rows: Vec<Value> = ids
            .iter()
            .filter_map(Value::as_str)
            .filter_map(|id| {
                let times = asked.entry(id.to_owned()).or_default();
                *times += 1;
                match (*times, id) {
                    // Not created yet at the first query.
                    (1, _) => None,
                    (_, "a-3") => Some(json!({"requestId": id, "status": "FAIL", "error": "no"})),
                    (2, _) => Some(json!({"requestId": id, "status": "INPROGRESS"})),
                    _ => Some(json!({"requestId": id, "status": "SUCCESS", "useCase": "x"})),
                }
            })
            .collect();
        Answer::json(
            200,
            json!({"totalCount": rows.len(), "page": 1, "data": rows}).to_string(),
        )
    })
    .await
}

#[tokio::test(start_paused = true)]
async fn wait_all_follows_many_activities_with_one_query_per_tenant_and_round() {
    let server = activity_server().await;
    let client = client(&server.url);
    let mut pending = Vec::new();
    for i in 0..600 {
        pending.push(PendingActivity::new(format!("a-{i}"), Some("customer-a")).expect("id"));
    }
    for i in 0..50 {
        pending.push(PendingActivity::new(format!("b-{i}"), Some("customer-b")).expect("id"));
    }
    let options = WaitOptions::default().initial_interval(Duration::from_secs(1));
    let results: Vec<Result<Value, Error>> =
        wait_all(&client, &QUERY_ACTIVITIES, pending.clone(), &options)
            .await
            .expect("the queries succeed");
    assert_eq!(results.len(), 650);
    for (result, p) in results.iter().zip(&pending) {
        match result {
            Ok(activity) => assert_eq!(activity["requestId"], p.request_id()),
            Err(e) => {
                assert_eq!(p.request_id(), "a-3");
                assert!(matches!(e, Error::Activity(a) if !a.is_timeout()));
            }
        }
    }
    let calls = server.calls();
    // 3 rounds (not yet, in progress, done) of 3 queries: 2 for customer-a's 600 (at most 500
    // a query), 1 for customer-b's 50.
    assert_eq!(calls.len(), 9, "{} queries", calls.len());
    assert!(calls.iter().all(|h| h.path == "/activities/query"));
    let for_b = calls
        .iter()
        .filter(|h| h.tenant.as_deref() == Some("customer-b"));
    assert_eq!(
        for_b.count(),
        3,
        "queries act for the tenant the writes were sent as"
    );
    assert_eq!(server.token_requests(), 1);
}

#[tokio::test(start_paused = true)]
async fn wait_all_times_out_the_activities_still_open() {
    let server = Loopback::start(|_| Answer::json(200, r#"{"data":[]}"#)).await;
    let client = client(&server.url);
    let pending = vec![PendingActivity::new("x", None).expect("id")];
    let options = WaitOptions::default()
        .timeout(Duration::from_secs(10))
        .initial_interval(Duration::from_secs(2))
        .max_interval(Duration::from_secs(2));
    let results: Vec<Result<Value, Error>> =
        wait_all(&client, &QUERY_ACTIVITIES, pending, &options)
            .await
            .expect("queries");
    assert!(matches!(&results[0], Err(Error::Activity(a)) if a.is_timeout()));
    // The last pause ends at the timeout: no query is sent with no time left.
    assert_eq!(server.calls().len(), 5, "a query every 2 s within 10 s");
}

#[tokio::test(start_paused = true)]
async fn a_failing_query_ends_its_activities_with_its_error() {
    let server = Loopback::start(|_| Answer::json(403, r#"{"errors":[{"code":"NO"}]}"#)).await;
    let client = client(&server.url);
    let pending = vec![PendingActivity::new("x", Some("t")).expect("id")];
    let outcome =
        wait_all::<Value>(&client, &QUERY_ACTIVITIES, pending, &WaitOptions::default()).await;
    let results = outcome.expect("the wait ends with one result per activity");
    assert_eq!(results[0].as_ref().err().and_then(Error::status), Some(403));
    assert_eq!(server.calls().len(), 1);
}
