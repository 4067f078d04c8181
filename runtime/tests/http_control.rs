//! Issue 10: a caller-built HTTP client, per-call timeout and retry policy,
//! token requests retried, and the status, headers and request id of
//! success answers.

mod common;

use std::time::{Duration, Instant};

use bytes::Bytes;
use common::capture::Capture;
use common::*;
use ruckus_one_runtime::internal::Request;
use ruckus_one_runtime::reqwest;
use ruckus_one_runtime::{Client, Config, Error, Method, RawRequest, RawResponse, RetryPolicy};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

fn caller_headers() -> reqwest::header::HeaderMap {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("x-from-caller", "yes".parse().unwrap());
    headers
}

#[tokio::test]
async fn a_caller_built_client_is_used_for_token_and_api_requests() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let http = Config::http_client_builder()
        .default_headers(caller_headers())
        .build()
        .unwrap();
    let client = Client::new(config(&server).http_client(http), &AUTH).unwrap();
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(header(request, "x-from-caller"), Some("yes"), "{request:?}");
        assert!(
            header(request, "user-agent")
                .unwrap()
                .starts_with("ruckus-one-rust/")
        );
    }
    // The configuration's Debug does not show the client's settings.
    let text = format!(
        "{:?}",
        config(&server).http_client(Config::http_client_builder().build().unwrap())
    );
    assert!(text.contains("reqwest::Client { .. }"), "{text}");
}

#[tokio::test]
async fn the_user_agent_is_the_callers_unless_configured() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let http = || {
        Config::http_client_builder()
            .user_agent("caller/1")
            .build()
            .unwrap()
    };
    let client = Client::new(config(&server).http_client(http()), &AUTH).unwrap();
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    let client = Client::new(
        config(&server)
            .http_client(http())
            .user_agent("configured/2"),
        &AUTH,
    )
    .unwrap();
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    let agents: Vec<String> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| header(r, "user-agent").unwrap().to_owned())
        .collect();
    assert_eq!(
        agents,
        ["caller/1", "caller/1", "configured/2", "configured/2"]
    );
}

#[tokio::test]
async fn per_call_timeouts_override_the_configuration() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({}))
                .set_delay(Duration::from_millis(400)),
        )
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry(RetryPolicy::none()), &AUTH).unwrap();
    // Warm the token cache.
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();

    // The answer (a success) comes after 400 ms: a timeout means the
    // call's 100 ms applied instead of the configured 5 s.
    let started = Instant::now();
    let mut request = Request::new(&client, &GET_THING, &["1"]);
    request.timeout(Duration::from_millis(100));
    let err = request.send_empty().await.unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");
    assert!(started.elapsed() >= Duration::from_millis(100));

    let started = Instant::now();
    let mut request = Request::new(&client, &GET_THING, &["1"]);
    request.attempt_timeout(Duration::from_millis(100));
    let err = request.send_empty().await.unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");
    assert!(started.elapsed() >= Duration::from_millis(100));

    let err = RawRequest::new(&client, &API, Method::Get, "/things/1")
        .timeout(Duration::from_millis(100))
        .send_empty()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");
    let err = RawRequest::new(&client, &API, Method::Get, "/things/1")
        .attempt_timeout(Duration::from_millis(100))
        .send_empty()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");

    // Longer than the configuration's 5 s attempt timeout is fine too.
    let mut request = Request::new(&client, &GET_THING, &["1"]);
    request.timeout(Duration::from_secs(30));
    request.send_empty().await.unwrap();
}

#[tokio::test]
async fn per_call_retry_policy_overrides_the_configuration() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .with_priority(2)
        .mount(&server)
        .await;
    // The configuration retries (3 attempts); this call does not.
    let client = client(&server);
    let mut request = Request::new(&client, &GET_THING, &["1"]);
    request.retry(RetryPolicy::none());
    assert_eq!(request.send_empty().await.unwrap_err().status(), Some(503));
    assert_eq!(received(&server, "/api/things/1").await.len(), 1);

    // The configuration does not retry; this call does.
    let client = Client::new(config(&server).retry(RetryPolicy::none()), &AUTH).unwrap();
    RawRequest::new(&client, &API, Method::Get, "/things/1")
        .retry(fast_retry().max_attempts(3))
        .send_empty()
        .await
        .unwrap();
    assert_eq!(received(&server, "/api/things/1").await.len(), 3);
}

/// Issue 10: a 503 or 429 from the token endpoint failed the call at once.
#[tokio::test]
async fn token_requests_are_retried_on_429_and_5xx() {
    for (status, retry_after) in [(503, None), (429, Some("0")), (502, None), (500, None)] {
        let server = wiremock::MockServer::start().await;
        let mut refusal = ResponseTemplate::new(status);
        if let Some(value) = retry_after {
            refusal = refusal.insert_header("retry-after", value);
        }
        Mock::given(method("POST"))
            .and(path("/oauth2/token/owner-tenant"))
            .respond_with(refusal)
            .up_to_n_times(1)
            .with_priority(1)
            .mount(&server)
            .await;
        token_mock().with_priority(2).mount(&server).await;
        Mock::given(method("POST"))
            .and(path("/api/things"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true})))
            .expect(1)
            .mount(&server)
            .await;
        // A POST: the token request is repeated although the call is not
        // idempotent, since nothing reached the API.
        let client = client(&server);
        let mut request = Request::new(&client, &POST_THING, &[]);
        request.json(&json!({}));
        let value: Value = request
            .send_json()
            .await
            .unwrap_or_else(|e| panic!("{status}: {e}"));
        assert_eq!(value, json!({"ok": true}));
        assert_eq!(token_requests(&server).await, 2, "{status}");
    }
}

#[tokio::test]
async fn token_request_retries_end_with_the_last_refusal() {
    let server = wiremock::MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(ResponseTemplate::new(503).set_body_string("maintenance"))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200))
        .expect(0)
        .mount(&server)
        .await;
    let err = Request::new(&client(&server), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Auth {
                status: Some(503),
                ..
            }
        ),
        "{err:?}"
    );
    // Three attempts (the policy's), not three times three.
    assert_eq!(token_requests(&server).await, 3);

    // Refusals of the credentials are not repeated.
    let server = wiremock::MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"error": "invalid_client"})))
        .mount(&server)
        .await;
    let err = Request::new(&client(&server), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400));
    assert_eq!(token_requests(&server).await, 1);

    // A Retry-After above the policy's cap is not waited for.
    let server = wiremock::MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "3600"))
        .mount(&server)
        .await;
    let (capture, _guard) = Capture::install();
    let err = Request::new(&client(&server), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(429));
    assert_eq!(token_requests(&server).await, 1);
    // Given up at once: no wait started.
    assert!(
        capture
            .events_saying("retrying the access token request")
            .is_empty()
    );
    assert_eq!(
        capture
            .events_saying("no access token could be obtained")
            .len(),
        1
    );
}

#[tokio::test]
async fn success_answers_with_status_headers_and_request_id() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(203)
                .insert_header("x-request-id", "rid-1")
                .insert_header("x-custom", "c")
                .set_body_json(json!({"id": "1"})),
        )
        .mount(&server)
        .await;
    let client = client(&server);

    let response = Request::new(&client, &GET_THING, &["1"])
        .send_json::<Value>()
        .with_response()
        .await
        .unwrap();
    assert_eq!(response.status(), 203);
    assert_eq!(response.request_id(), Some("rid-1"));
    assert_eq!(response.header("X-Custom"), Some("c"));
    assert!(
        response
            .headers()
            .any(|(name, value)| name == "x-custom" && value == b"c")
    );
    assert_eq!(response.body(), &json!({"id": "1"}));
    assert_eq!(
        response.clone().map(|v| v["id"].clone()).into_body(),
        json!("1")
    );
    assert_eq!(response.into_body(), json!({"id": "1"}));

    let text = Request::new(&client, &GET_THING, &["1"])
        .send_text()
        .with_response()
        .await
        .unwrap();
    assert_eq!(text.body(), r#"{"id":"1"}"#);
    let bytes = Request::new(&client, &GET_THING, &["1"])
        .send_bytes()
        .with_response()
        .await
        .unwrap();
    assert_eq!(bytes.body(), &Bytes::from_static(br#"{"id":"1"}"#));
    let empty = Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .with_response()
        .await
        .unwrap();
    assert_eq!((empty.status(), empty.request_id()), (203, Some("rid-1")));
    let length = Request::new(&client, &GET_THING, &["1"])
        .send_with_meta(|raw: &RawResponse| Ok(raw.body().len()))
        .await
        .unwrap();
    assert_eq!(*length.body(), 10);

    // The same on raw requests.
    let raw = RawRequest::new(&client, &API, Method::Get, "/things/1")
        .send_json::<Value>()
        .with_response()
        .await
        .unwrap();
    assert_eq!((raw.status(), raw.request_id()), (203, Some("rid-1")));
    for response in [
        RawRequest::new(&client, &API, Method::Get, "/things/1")
            .send_text()
            .with_response()
            .await
            .unwrap()
            .map(drop),
        RawRequest::new(&client, &API, Method::Get, "/things/1")
            .send_bytes()
            .with_response()
            .await
            .unwrap()
            .map(drop),
        RawRequest::new(&client, &API, Method::Get, "/things/1")
            .send_empty()
            .with_response()
            .await
            .unwrap(),
        RawRequest::new(&client, &API, Method::Get, "/things/1")
            .send_with_meta(|_| Ok(()))
            .await
            .unwrap(),
    ] {
        assert_eq!(response.request_id(), Some("rid-1"));
    }

    // A body that does not decode is the usual decode error.
    let err = Request::new(&client, &GET_THING, &["1"])
        .send_json::<Vec<u8>>()
        .with_response()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Decode(_)), "{err:?}");
    assert_eq!(err.request_id(), Some("rid-1"));
}

#[test]
fn with_response_futures_are_send() {
    fn is_send<T: Send>(_: &T) {}
    let client = Client::new(
        Config::new(ruckus_one_runtime::Credentials::new("id", "secret")),
        &AUTH,
    )
    .unwrap();
    is_send(
        &Request::new(&client, &GET_THING, &["1"])
            .send_json::<Value>()
            .with_response(),
    );
    is_send(&Request::new(&client, &GET_THING, &["1"]).send_with_meta(|raw| raw.text()));
    is_send(
        &RawRequest::new(&client, &API, Method::Get, "/x")
            .send_bytes()
            .with_response(),
    );
}

/// The crate is built with a TLS backend (either feature): an `https` URL
/// is attempted (and fails to connect here), not refused as unsupported.
#[tokio::test]
async fn https_is_supported() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://{}", closed.local_addr().unwrap());
    drop(closed);
    let client = Client::new(
        Config::new(ruckus_one_runtime::Credentials::new("id", "secret"))
            .base_url(url)
            .retry(RetryPolicy::none()),
        &AUTH,
    )
    .unwrap();
    let err = Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    // Not "invalid URL, scheme is not http", as without a TLS backend.
    assert!(format!("{err:?}").contains("Connection refused"), "{err:?}");
}
