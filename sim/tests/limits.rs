//! The tenant-wide limit (shared by every service, with its restoration period) and the
//! deprecation headers, on the simulator's manual clock.

use reqwest::header::HeaderMap;
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::Value;
use std::time::Duration;

const FORM: &str =
    "grant_type=client_credentials&client_id=sim-client-id&client_secret=sim-client-secret";

async fn token(http: &reqwest::Client, base: &str) -> String {
    let answer = http
        .post(format!("{base}/oauth2/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(FORM)
        .send()
        .await
        .expect("token answer");
    let bytes = answer.bytes().await.expect("token body");
    let v: Value = serde_json::from_slice(&bytes).expect("json");
    v["access_token"].as_str().expect("token").to_owned()
}

/// `GET path`: the status and the headers.
async fn get(http: &reqwest::Client, base: &str, token: &str, path: &str) -> (u16, HeaderMap) {
    let answer = http
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("answer");
    (answer.status().as_u16(), answer.headers().clone())
}

#[tokio::test]
async fn every_service_counts_against_the_tenant_and_an_overrun_is_refused_for_a_while() {
    let tenant = SimConfig::default()
        .credentials()
        .next()
        .expect("one")
        .tenant_id
        .clone();
    let config = SimConfig::default()
        .manual_clock()
        .tenant_limit(&tenant, 6, 60);
    let sim = Simulator::start_with(config).await.expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let token = token(&http, &base).await;
    // Six calls to three services (each allows far more): the tenant's six at once.
    for path in ["/policySets", "/networks", "/cliTemplates"].repeat(2) {
        assert_eq!(get(&http, &base, &token, path).await.0, 200, "{path}");
    }
    let (status, headers) = get(&http, &base, &token, "/networks").await;
    assert_eq!(status, 429);
    // The restoration period (5 s), longer than the refill of one call (1 s).
    assert_eq!(headers["retry-after"], "5");
    // Refilled meanwhile, but refused until the period ends.
    sim.advance(Duration::from_secs(3));
    let (status, headers) = get(&http, &base, &token, "/policySets").await;
    assert_eq!(
        (status, headers["retry-after"].to_str().ok()),
        (429, Some("2"))
    );
    sim.advance(Duration::from_secs(2));
    assert_eq!(get(&http, &base, &token, "/policySets").await.0, 200);
}

#[tokio::test]
async fn the_published_tenant_limit_lets_a_service_burst_through() {
    let sim = Simulator::start_with(SimConfig::default().manual_clock())
        .await
        .expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let token = token(&http, &base).await;
    // A burst of a service without a limit of its own: the tenant's bucket holds 2000.
    for _ in 0..300 {
        assert_eq!(get(&http, &base, &token, "/policySets").await.0, 200);
    }
}

#[tokio::test]
async fn a_deprecated_operation_answers_with_the_deprecation_headers() {
    let sim = Simulator::start().await.expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let token = token(&http, &base).await;
    let (status, headers) = get(&http, &base, &token, "/banners").await;
    assert_eq!(status, 200);
    assert_eq!(headers["ruckus-deprecated"], "true");
    let (status, headers) = get(&http, &base, &token, "/policySets").await;
    assert_eq!(status, 200);
    assert!(headers.get("ruckus-deprecated").is_none());
}
