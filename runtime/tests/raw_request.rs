//! `RawRequest` goes through the same executor as generated operations:
//! authentication, tenant header, retries, typed errors.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use common::*;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation};
use ruckus_one_runtime::{Client, Error, ErrorBody, Method, RawRequest, WaitOptions};
use serde_json::{Value, json};
use wiremock::matchers::{body_bytes, header as has_header, method, path, path_regex};
use wiremock::{Mock, MockServer, Respond, ResponseTemplate};

const TENANT: &str = "x-rks-tenantid";

/// Answers with `statuses` in turn (the last one repeated), counting calls.
struct Statuses(Vec<u16>, Arc<AtomicUsize>);

impl Respond for Statuses {
    fn respond(&self, _: &wiremock::Request) -> ResponseTemplate {
        let n = self.1.fetch_add(1, Ordering::SeqCst);
        let status = self.0[n.min(self.0.len() - 1)];
        ResponseTemplate::new(status).set_body_json(json!({"attempt": n + 1}))
    }
}

#[tokio::test]
async fn sends_auth_tenant_query_and_accept_under_the_api_prefix() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/venues/v-1/aps"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"data": [1, 2]})))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).delegated_tenant("tenant-a"), &AUTH).unwrap();
    let answer: Value = RawRequest::new(&client, &API, Method::Get, "/venues/v-1/aps")
        .query("filter", "a b&c")
        .query("page", 2)
        .header("x-trace", "t-1")
        .tenant("tenant-b")
        .send_json()
        .await
        .unwrap();
    assert_eq!(answer["data"], json!([1, 2]));
    let sent = received(&server, "/api/venues").await;
    assert_eq!(sent.len(), 1);
    let request = &sent[0];
    assert_eq!(
        header(request, "authorization"),
        Some(&*format!("Bearer {TOKEN}"))
    );
    assert_eq!(header(request, TENANT), Some("tenant-b"));
    assert_eq!(header(request, "accept"), Some("application/json"));
    assert_eq!(header(request, "x-trace"), Some("t-1"));
    assert_eq!(header(request, "content-type"), None);
    assert_eq!(request.url.query(), Some("filter=a%20b%26c&page=2"));

    // Without a per-call tenant, the client's.
    RawRequest::new(&client, &API, Method::Get, "/venues/v-1/aps")
        .send_empty()
        .await
        .unwrap();
    let sent = received(&server, "/api/venues").await;
    assert_eq!(header(&sent[1], TENANT), Some("tenant-a"));
}

#[tokio::test]
async fn retries_a_503_on_get_but_not_on_post() {
    let server = server().await;
    let gets = Arc::new(AtomicUsize::new(0));
    Mock::given(method("GET"))
        .and(path("/api/flaky"))
        .respond_with(Statuses(vec![503, 503, 200], gets.clone()))
        .mount(&server)
        .await;
    let posts = Arc::new(AtomicUsize::new(0));
    Mock::given(method("POST"))
        .and(path("/api/flaky"))
        .respond_with(Statuses(vec![503, 200], posts.clone()))
        .mount(&server)
        .await;
    let client = client(&server);
    let answer: Value = RawRequest::new(&client, &API, Method::Get, "/flaky")
        .send_json()
        .await
        .unwrap();
    assert_eq!(answer["attempt"], 3);
    assert_eq!(gets.load(Ordering::SeqCst), 3);

    let err = RawRequest::new(&client, &API, Method::Post, "/flaky")
        .json(&json!({}))
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(posts.load(Ordering::SeqCst), 1, "POST is not idempotent");
}

#[tokio::test]
async fn decodes_typed_errors_of_any_family() {
    let server = server().await;
    Mock::given(method("DELETE"))
        .and(path("/api/venues/v-404"))
        .respond_with(
            ResponseTemplate::new(404)
                .insert_header("x-request-id", "req-raw")
                .set_body_json(
                    json!({"errors": [{"code": "WIFI-10001", "message": "Venue not found"}]}),
                ),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/entitlements"))
        .respond_with(
            ResponseTemplate::new(417)
                .set_body_json(json!({"code": "ENT-417", "message": "Entitlement ID is missing"})),
        )
        .mount(&server)
        .await;
    let client = client(&server);
    let err = RawRequest::new(&client, &API, Method::Delete, "/venues/v-404")
        .send_empty()
        .await
        .unwrap_err();
    assert!(matches!(
        err.api_error().map(|e| e.body()),
        Some(ErrorBody::ErrorsArray(_))
    ));
    assert_eq!(err.code(), Some("WIFI-10001"));
    assert_eq!(
        err.to_string(),
        "HTTP 404 Not Found: WIFI-10001: Venue not found (request id req-raw)"
    );
    let err = RawRequest::new(&client, &API, Method::Get, "/entitlements")
        .send_bytes()
        .await
        .unwrap_err();
    assert!(matches!(
        err.api_error().map(|e| e.body()),
        Some(ErrorBody::FlatObject(_))
    ));
    assert_eq!(err.code(), Some("ENT-417"));
}

#[tokio::test]
async fn bodies_and_media_types() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/json"))
        .and(has_header("content-type", "application/json"))
        .and(body_bytes(br#"{"name":"x"}"#.to_vec()))
        .respond_with(ResponseTemplate::new(200).set_body_raw("a,b\n", "text/csv"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path("/api/vendor"))
        .and(has_header("content-type", "application/vnd.ruckus.v1+json"))
        .and(has_header("accept", "application/vnd.ruckus.v1+json"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path("/api/blob"))
        .and(has_header("content-type", "image/png"))
        .and(has_header("accept", "*/*"))
        .and(body_bytes(b"\x89PNG".to_vec()))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(&b"\x00\xff"[..], "application/octet-stream"),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .and(path("/api/overridden"))
        .and(has_header("content-type", "text/plain"))
        .respond_with(ResponseTemplate::new(200))
        .expect(1)
        .mount(&server)
        .await;
    let client = client(&server);
    let csv = RawRequest::new(&client, &API, Method::Post, "/json")
        .json(&json!({"name": "x"}))
        .accept("text/csv")
        .send_text()
        .await
        .unwrap();
    assert_eq!(csv, "a,b\n");
    RawRequest::new(&client, &API, Method::Put, "/vendor")
        .content_type("application/vnd.ruckus.v1+json")
        .accept("application/vnd.ruckus.v1+json")
        .json(&json!({}))
        .send_empty()
        .await
        .unwrap();
    let bytes = RawRequest::new(&client, &API, Method::Put, "/blob")
        .bytes(Bytes::from_static(b"\x89PNG"), "image/png")
        .accept("*/*")
        .send_bytes()
        .await
        .unwrap();
    assert_eq!(&bytes[..], b"\x00\xff");
    RawRequest::new(&client, &API, Method::Patch, "/overridden")
        .bytes(Bytes::from_static(b"x"), "image/png")
        .content_type("text/plain")
        .send_empty()
        .await
        .unwrap();
}

#[tokio::test]
async fn invalid_headers_and_media_types_are_typed_errors_before_sending() {
    let server = MockServer::start().await;
    let client = client(&server);
    let attempts = [
        RawRequest::new(&client, &API, Method::Get, "/x").header("bad name", "v"),
        RawRequest::new(&client, &API, Method::Get, "/x").header("x-ok", "line\r\nbreak"),
        RawRequest::new(&client, &API, Method::Get, "/x").tenant("t\n1"),
        RawRequest::new(&client, &API, Method::Get, "/x").accept("text/\n"),
        RawRequest::new(&client, &API, Method::Post, "/x").bytes(Bytes::new(), "bad\u{7f}type"),
    ];
    for (index, request) in attempts.into_iter().enumerate() {
        let err = request.send_empty().await.unwrap_err();
        if index == 2 {
            assert!(matches!(err, Error::InvalidTenantId { .. }), "{err:?}");
        } else {
            assert!(matches!(err, Error::InvalidRequest { .. }), "{err:?}");
        }
    }
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}

#[tokio::test]
async fn unit_token_apis_use_the_unit_token() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path_regex("^/oauth2/token"))
        .respond_with(ResponseTemplate::new(500))
        .expect(0)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/units/u-1"))
        .and(has_header("authorization", "Bearer unit-secret-9"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"unit": "u-1"})))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).unit_token("unit-secret-9"), &AUTH).unwrap();
    let unit: Value = RawRequest::new(&client, &UNIT, Method::Get, "/units/u-1")
        .send_json()
        .await
        .unwrap();
    assert_eq!(unit["unit"], "u-1");
}

static GET_ACTIVITY: Operation = Operation {
    id: "get_activity",
    method: Method::Get,
    path: "/activities/{requestId}",
    api: &API,
    versions: &[MediaTypes {
        content_type: None,
        accept: "application/json",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

#[tokio::test]
async fn send_and_wait_polls_for_the_raw_requests_tenant() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/venues"))
        .respond_with(ResponseTemplate::new(202).set_body_json(json!({"requestId": "req-9"})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-9"))
        .and(has_header(TENANT, "tenant-raw"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"requestId": "req-9", "status": "SUCCESS"})),
        )
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-9"))
        .respond_with(ResponseTemplate::new(404))
        .with_priority(2)
        .mount(&server)
        .await;
    let options = WaitOptions::default()
        .initial_interval(Duration::from_millis(5))
        .timeout(Duration::from_millis(300));
    let done = RawRequest::new(&client(&server), &API, Method::Post, "/venues")
        .json(&json!({"name": "v"}))
        .tenant("tenant-raw")
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &options)
        .await
        .unwrap();
    assert_eq!(done.accepted()["requestId"], "req-9");
    assert_eq!(done.activity()["status"], "SUCCESS");
    let polls = received(&server, "/api/activities").await;
    assert_eq!(polls.len(), 1);
    assert_eq!(header(&polls[0], TENANT), Some("tenant-raw"));
}

#[test]
fn raw_request_futures_are_send() {
    fn assert_send<T: Send>(_: &T) {}
    let client = Client::new(
        ruckus_one_runtime::Config::new(ruckus_one_runtime::Credentials::new("a", "b")),
        &AUTH,
    )
    .unwrap();
    let request = || RawRequest::new(&client, &API, Method::Get, "/x");
    assert_send(&request().send_json::<Value>());
    assert_send(&request().send_text());
    assert_send(&request().send_and_wait::<Value, Value>(&GET_ACTIVITY, &WaitOptions::default()));
    assert_send(&request().send_accepted::<Value, Value>(&GET_ACTIVITY));
}

#[tokio::test]
async fn the_path_is_used_as_given() {
    let server = server().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let client = client(&server);
    RawRequest::new(&client, &API, Method::Get, "/venues/v%201/aps?fields=name")
        .query("page", 1)
        .send_empty()
        .await
        .unwrap();
    RawRequest::new(&client, &AI, Method::Get, "users")
        .send_empty()
        .await
        .unwrap();
    let sent = received(&server, "/").await;
    let sent: Vec<_> = sent
        .iter()
        .filter(|r| !r.url.path().starts_with("/oauth2"))
        .map(|r| match r.url.query() {
            Some(query) => format!("{}?{query}", r.url.path()),
            None => r.url.path().to_owned(),
        })
        .collect();
    assert_eq!(
        sent,
        ["/api/venues/v%201/aps?fields=name&page=1", "/ai/users"]
    );
}
