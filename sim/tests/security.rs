//! What a caller must not be able to do to the simulator or learn from it: take over another
//! tenant, guess tokens, slip past the tenant header, read secrets from its log or settings.

use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::{Value, json};
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
    let v: Value = serde_json::from_slice(&answer.bytes().await.expect("body")).expect("json");
    v["access_token"].as_str().expect("token").to_owned()
}

async fn send(req: reqwest::RequestBuilder) -> (u16, Value) {
    let answer = req.send().await.expect("answer");
    let status = answer.status().as_u16();
    let bytes = answer.bytes().await.expect("body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn start() -> (Simulator, reqwest::Client, String, String) {
    let config = SimConfig::default()
        .activity_duration(Duration::ZERO)
        .other_credential("victim-id", "victim-secret", "victim-tenant");
    let sim = Simulator::start_with(config).await.expect("simulator");
    let http = reqwest::Client::new();
    let base = sim.base_url();
    let t = token(&http, &base).await;
    (sim, http, base, t)
}

#[tokio::test]
async fn a_create_naming_an_existing_tenant_is_refused_and_ids_are_the_simulators() {
    let (sim, http, base, t) = start().await;
    let read_victim = || {
        http.get(format!("{base}/tenants/self"))
            .bearer_auth(&t)
            .header("x-rks-tenantid", "victim-tenant")
    };
    assert_eq!(send(read_victim()).await.0, 403);
    let create = |body: Value| {
        http.post(format!("{base}/tenants"))
            .bearer_auth(&t)
            .header("content-type", "application/json")
            .body(body.to_string())
    };
    let (status, body) = send(create(
        json!({"data": [{"name": "Evil", "tenantId": "victim-tenant"}]}),
    ))
    .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(
        send(read_victim()).await.0,
        403,
        "still not the victim's MSP"
    );
    // A new tenant gets the simulator's id, not the one asked for.
    let (status, body) = send(create(
        json!({"data": [{"name": "New", "tenantId": "chosen-id"}]}),
    ))
    .await;
    assert!((200..300).contains(&status), "{status} {body}");
    let created = sim.objects("sim-tenant", "/tenants");
    assert_eq!(created.len(), 1, "{created:?}");
    assert_ne!(created[0]["id"], "chosen-id");
    assert_eq!(created[0]["id"], created[0]["tenantId"], "{created:?}");
}

#[tokio::test]
async fn access_tokens_are_random() {
    let (_sim, http, base, first) = start().await;
    let second = token(&http, &base).await;
    assert_ne!(first, second);
    let hex = first.strip_prefix("sim-token-").expect("prefix");
    assert_eq!(hex.len(), 64, "{first}");
    // Not a counter: the two share no long common prefix.
    let shared = first
        .bytes()
        .zip(second.bytes())
        .take_while(|(a, b)| a == b);
    assert!(shared.count() < "sim-token-".len() + 8, "{first} {second}");
}

#[tokio::test]
async fn an_invalid_tenant_header_is_a_bad_request() {
    let (_sim, http, base, t) = start().await;
    let read = |value: &[u8]| {
        http.get(format!("{base}/tenants/self"))
            .bearer_auth(&t)
            .header(
                "x-rks-tenantid",
                reqwest::header::HeaderValue::from_bytes(value).expect("header"),
            )
    };
    for bad in [&b"caf\xc3\xa9"[..], b"   ", b"a b"] {
        let (status, body) = send(read(bad)).await;
        assert_eq!(status, 400, "{:?}: {body}", String::from_utf8_lossy(bad));
    }
    let twice = http
        .get(format!("{base}/tenants/self"))
        .bearer_auth(&t)
        .header("x-rks-tenantid", "sim-tenant")
        .header("x-rks-tenantid", "sim-tenant");
    assert_eq!(send(twice).await.0, 400);
    assert_eq!(send(read(b"sim-tenant")).await.0, 200);
}

#[tokio::test]
async fn the_log_keeps_no_secret() {
    let (sim, http, base, t) = start().await;
    // A resident-portal call: its unit token is its tenant.
    let unit = "unit-token-SECRET-1234";
    let model = ruckus_one_sim::model::Model::get().expect("tables");
    let route = model
        .apis
        .iter()
        .filter(|t| t.api.auth == ruckus_one_sim::model::AuthKind::UnitToken)
        .flat_map(|t| t.routes.iter())
        .find(|r| r.method == ruckus_one_sim::model::Method::Get)
        .expect("a unit token route");
    let prefix = model
        .apis
        .iter()
        .find(|t| t.api.auth == ruckus_one_sim::model::AuthKind::UnitToken)
        .map(|t| t.api.prefix.clone())
        .unwrap_or_default();
    let _ = send(
        http.get(format!("{base}{prefix}{}", fill(&route.path)))
            .bearer_auth(unit),
    )
    .await;
    // A path naming the client secret and the access token.
    let _ = send(
        http.get(format!("{base}/venues/sim-client-secret/{t}"))
            .bearer_auth(&t),
    )
    .await;
    let log = format!("{:?}", sim.requests());
    for secret in [unit, "sim-client-secret", t.as_str()] {
        assert!(!log.contains(secret), "{secret} in {log}");
    }
    assert!(log.contains("unit:***"), "{log}");
}

#[test]
fn the_settings_debug_shows_no_secret() {
    let config = SimConfig::default().other_credential("other", "other-secret-42", "t");
    let shown = format!("{config:?}");
    assert!(!shown.contains("sim-client-secret"), "{shown}");
    assert!(!shown.contains("other-secret-42"), "{shown}");
    assert!(shown.contains("sim-client-id"), "{shown}");
}

#[tokio::test]
async fn negative_page_numbers_are_refused() {
    let (_sim, http, base, t) = start().await;
    let query = |body: Value| {
        http.post(format!("{base}/venues/query"))
            .bearer_auth(&t)
            .header("content-type", "application/json")
            .body(body.to_string())
    };
    assert_eq!(send(query(json!({"page": 1, "pageSize": 10}))).await.0, 200);
    for bad in [json!({"page": -1}), json!({"page": 1, "pageSize": -5})] {
        let (status, body) = send(query(bad.clone())).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

/// A path template with every `{placeholder}` replaced by `x`.
fn fill(template: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' => {
                inside = true;
                out.push('x');
            }
            '}' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}
