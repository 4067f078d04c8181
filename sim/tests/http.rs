//! The simulator over HTTP: media types, parameters, relationships, seeds and the binary.

use ruckus_one_sim::model::{Model, Role};
use ruckus_one_sim::{Seed, SimConfig, Simulator};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
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
        .expect("token answer")
        .bytes()
        .await
        .expect("token body");
    let v: Value = serde_json::from_slice(&answer).expect("json");
    v["access_token"].as_str().expect("token").to_owned()
}

async fn call(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    token: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = http.request(method, url).bearer_auth(token);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if let Some(b) = body {
        req = req.body(b.to_string());
    }
    let answer = req.send().await.expect("answer");
    let status = answer.status().as_u16();
    let bytes = answer.bytes().await.expect("body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[test]
fn roles_come_from_the_generated_table() {
    let model = Model::get().expect("tables");
    let (_, network) = model.api("network").expect("network");
    let role = |id: &str| {
        network
            .routes
            .iter()
            .find(|r| r.id == id)
            .map(|r| (r.role, r.family.as_str()))
    };
    assert_eq!(role("create_venue"), Some((Role::Create, "/venues")));
    assert_eq!(role("query_venues"), Some((Role::Query, "/venues")));
    assert_eq!(
        role("get_activity"),
        Some((Role::ActivityRead, "/activities"))
    );
    assert_eq!(
        role("activate_wifi_network_on_venue"),
        Some((Role::Upsert, "/venues/{}/wifiNetworks"))
    );
    assert_eq!(
        role("deactivate_wifi_network_on_venue"),
        Some((Role::Delete, "/venues/{}/wifiNetworks"))
    );
}

#[tokio::test]
async fn media_types_parameters_and_relationships() {
    let sim = Simulator::start_with(SimConfig::default().activity_duration(Duration::ZERO))
        .await
        .expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let t = token(&http, &base).await;
    let venue = json!({"name": "Lobby", "address": {"city": "c", "country": "x"}});
    let json_ct = [("content-type", "application/json")];
    let (status, _) = call(
        &http,
        reqwest::Method::POST,
        format!("{base}/venues"),
        &t,
        &[("content-type", "text/plain")],
        Some(venue.clone()),
    )
    .await;
    assert_eq!(status, 415);
    let (status, _) = call(
        &http,
        reqwest::Method::POST,
        format!("{base}/venues"),
        &t,
        &[
            ("content-type", "application/json"),
            ("accept", "image/png"),
        ],
        Some(venue.clone()),
    )
    .await;
    assert_eq!(status, 406);
    let (status, body) = call(
        &http,
        reqwest::Method::POST,
        format!("{base}/venues"),
        &t,
        &json_ct,
        Some(json!([1])),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("expected object")),
        "{body}"
    );
    let (status, _) = call(
        &http,
        reqwest::Method::PATCH,
        format!("{base}/venues"),
        &t,
        &[],
        None,
    )
    .await;
    assert_eq!(status, 405);
    let (status, _) = call(
        &http,
        reqwest::Method::GET,
        format!("{base}/no/such/path/here"),
        &t,
        &[],
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = call(
        &http,
        reqwest::Method::GET,
        format!("{base}/venues/v1"),
        "not-a-token",
        &[],
        None,
    )
    .await;
    assert_eq!(status, 401);

    // A network activated on a venue is a relationship the simulator keeps.
    let url = format!("{base}/venues/v1/wifiNetworks/n1");
    let (status, _) = call(&http, reqwest::Method::PUT, url.clone(), &t, &[], None).await;
    assert_eq!(status, 202);
    let tenant = sim.tenant_id();
    assert_eq!(sim.objects(&tenant, "/venues/v1/wifiNetworks").len(), 1);
    let (status, _) = call(&http, reqwest::Method::DELETE, url.clone(), &t, &[], None).await;
    assert_eq!(status, 202);
    assert!(sim.objects(&tenant, "/venues/v1/wifiNetworks").is_empty());
    let (status, _) = call(&http, reqwest::Method::DELETE, url, &t, &[], None).await;
    assert_eq!(status, 404);
}

/// `upload_file` takes its body as the vendor's `multipart/vnd.ruckus.v1+form-data` or as plain
/// form data; a multipart version the route lacks is refused.
#[tokio::test]
async fn a_versioned_multipart_upload_is_negotiated() {
    let sim = Simulator::start().await.expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let t = token(&http, &base).await;
    let body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nx\r\n--b--\r\n";
    let send = |content_type: &'static str| {
        http.post(format!("{base}/enrollmentActions/files"))
            .bearer_auth(&t)
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    for (content_type, expected) in [
        ("multipart/vnd.ruckus.v1+form-data; boundary=b", 200),
        ("multipart/form-data; boundary=b", 200),
        ("multipart/vnd.ruckus.v2+form-data; boundary=b", 415),
    ] {
        let answer = send(content_type).await.expect("answered");
        let status = answer.status().as_u16();
        let text = answer.text().await.expect("a body");
        assert_eq!(status, expected, "{content_type}: {text}");
        if expected == 415 {
            assert!(text.contains("multipart/vnd.ruckus.v1+form-data"), "{text}");
        }
    }
}

#[tokio::test]
async fn seeds_put_objects_and_customers_in_place() {
    let seed = Seed::parse(
        "customers: {sim-tenant: [c1]}\nobjects:\n  c1:\n    /venues:\n      - {id: v9, name: Seeded, address: {city: c, country: x}}\n",
    )
    .expect("seed");
    let sim = Simulator::start_with(SimConfig::default().seed(seed))
        .await
        .expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let t = token(&http, &base).await;
    let (status, body) = call(
        &http,
        reqwest::Method::GET,
        format!("{base}/venues/v9"),
        &t,
        &[("x-rks-tenantid", "c1")],
        None,
    )
    .await;
    assert_eq!((status, body["name"].clone()), (200, json!("Seeded")));
    let (status, _) = call(
        &http,
        reqwest::Method::GET,
        format!("{base}/venues/v9"),
        &t,
        &[],
        None,
    )
    .await;
    assert_eq!(
        status, 404,
        "the MSP's own tenant does not see its customer's venue"
    );
    assert!(Seed::parse("objects: [1, 2]").is_err());
}

#[test]
fn the_binary_prints_where_it_listens_first() {
    let dir = std::env::temp_dir().join(format!("ruckus-one-sim-seed-{}", std::process::id()));
    std::fs::write(
        &dir,
        "{\"objects\": {\"t9\": {\"/venues\": [{\"id\": \"a\", \"name\": \"n\"}]}}}",
    )
    .expect("seed file");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ruckus-one-sim"))
        .args(["--listen", "127.0.0.1:0", "--tenant-id", "t9", "--seed"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("a first line");
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_file(&dir);
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("a port");
    assert_ne!(port, 0);
}
