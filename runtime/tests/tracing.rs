//! Issue 10: a `tracing` span per call with its operation, method, path
//! template, API, attempts, final status, request id and duration; events
//! for retries, token requests and activity polls; never a secret.
//!
//! The capturing subscriber is `common::capture`.

mod common;

use std::time::{Duration, Instant};

use common::capture::{Capture, EventRec, SpanRec};
use common::*;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Request};
use ruckus_one_runtime::{Client, Method, RawRequest, RetryPolicy, WaitOptions};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn field<'a>(span: &'a SpanRec, name: &str) -> &'a str {
    span.fields
        .get(name)
        .map_or_else(|| panic!("no field {name} in {span:?}"), String::as_str)
}

#[tokio::test]
async fn one_span_per_call_with_its_fields() {
    let (capture, _guard) = Capture::install();
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/7"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("x-request-id", "rid-7")
                .set_body_json(json!({"id": "7"})),
        )
        .mount(&server)
        .await;
    let client = client(&server);
    let started = Instant::now();
    Request::new(&client, &GET_THING, &["7"])
        .send_json::<Value>()
        .await
        .unwrap();
    let measured = started.elapsed();

    let spans = capture.spans("ruckus_one.call");
    assert_eq!(spans.len(), 1, "{spans:?}");
    let (id, span) = &spans[0];
    assert_eq!(field(span, "operation"), "get_thing");
    assert_eq!(field(span, "method"), "GET");
    assert_eq!(field(span, "path"), "/things/{thingId}");
    assert_eq!(field(span, "api"), "config");
    assert_eq!(field(span, "attempts"), "1");
    assert_eq!(field(span, "status"), "200");
    assert_eq!(field(span, "request_id"), "rid-7");
    // The call's own duration: within the time measured around it.
    let duration: u128 = field(span, "duration_ms").parse().unwrap();
    assert!(duration <= measured.as_millis(), "{duration} {measured:?}");
    assert!(!span.fields.contains_key("error"));

    // The token request happened inside the call.
    let events = capture.events();
    let token_events: Vec<_> = events
        .iter()
        .filter(|e| e.message().contains("access token"))
        .collect();
    assert_eq!(token_events.len(), 2, "{events:?}");
    assert!(token_events.iter().all(|e| e.parent == Some(*id)));
    assert_eq!(
        token_events[1].fields.get("lifetime_s").map(String::as_str),
        Some("3600")
    );
    assert!(
        events
            .iter()
            .any(|e| e.message() == "call succeeded" && e.parent == Some(*id))
    );

    // A second call: a second span, no token request.
    Request::new(&client, &GET_THING, &["7"])
        .send_empty()
        .await
        .unwrap();
    assert_eq!(capture.spans("ruckus_one.call").len(), 2);
    let token_requests = capture
        .events()
        .iter()
        .filter(|e| e.message() == "requesting an access token")
        .count();
    assert_eq!(token_requests, 1);
}

#[tokio::test]
async fn a_retried_call_shows_its_retries() {
    let (capture, _guard) = Capture::install();
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(503).insert_header("retry-after", "0"))
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
    Request::new(&client(&server), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();

    let spans = capture.spans("ruckus_one.call");
    assert_eq!(spans.len(), 1);
    let (id, span) = &spans[0];
    assert_eq!(field(span, "attempts"), "3");
    assert_eq!(field(span, "status"), "200");
    let retries: Vec<_> = capture
        .events()
        .into_iter()
        .filter(|e| e.message() == "retrying")
        .collect();
    assert_eq!(retries.len(), 2, "{retries:?}");
    for (n, retry) in retries.iter().enumerate() {
        assert_eq!(retry.parent, Some(*id));
        assert_eq!(retry.level, tracing::Level::INFO);
        assert_eq!(retry.fields["reason"], "HTTP 503");
        assert_eq!(retry.fields["delay_ms"], "0");
        assert_eq!(retry.fields["retry_after_s"], "0");
        assert_eq!(retry.fields["attempt"], (n + 1).to_string());
    }
}

#[tokio::test]
async fn a_failed_call_records_its_error_and_retries_of_the_token_request() {
    let (capture, _guard) = Capture::install();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    token_mock().with_priority(2).mount(&server).await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(404)
                .insert_header("x-request-id", "rid-404")
                .set_body_json(json!({"errors": [{"code": "WIFI-1", "message": "gone"}]})),
        )
        .mount(&server)
        .await;
    Request::new(&client(&server), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    let spans = capture.spans("ruckus_one.call");
    let (id, span) = &spans[0];
    assert_eq!(field(span, "status"), "404");
    assert_eq!(field(span, "error"), "api");
    assert_eq!(field(span, "code"), "WIFI-1");
    assert_eq!(field(span, "request_id"), "rid-404");
    assert_eq!(field(span, "attempts"), "1");
    let events = capture.events();
    let token_retry = events
        .iter()
        .find(|e| e.message() == "retrying the access token request")
        .unwrap_or_else(|| panic!("{events:?}"));
    assert_eq!(token_retry.parent, Some(*id));
    assert_eq!(token_retry.fields["reason"], "HTTP 503");
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
async fn activity_polls_are_traced() {
    let (capture, _guard) = Capture::install();
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/things"))
        .respond_with(ResponseTemplate::new(202).set_body_json(json!({"requestId": "req-9"})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-9"))
        .respond_with(ResponseTemplate::new(404))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-9"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"status": "SUCCESS"})))
        .with_priority(2)
        .mount(&server)
        .await;
    let client = client(&server);
    let mut request = Request::new(&client, &POST_THING, &[]);
    request.json(&json!({"name": "x"}));
    let options = WaitOptions::default()
        .initial_interval(Duration::from_millis(1))
        .max_interval(Duration::from_millis(1));
    request
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &options)
        .await
        .unwrap();

    let waits = capture.spans("ruckus_one.wait_for_activity");
    assert_eq!(waits.len(), 1);
    let (wait_id, wait) = &waits[0];
    assert_eq!(field(wait, "request_id"), "req-9");
    assert_eq!(field(wait, "operation"), "get_activity");
    assert_eq!(field(wait, "polls"), "2");
    let calls = capture.spans("ruckus_one.call");
    assert_eq!(calls.len(), 3, "the write and two polls");
    assert_eq!(field(&calls[0].1, "operation"), "post_thing");
    for (_, poll) in &calls[1..] {
        assert_eq!(poll.parent, Some(*wait_id));
        assert_eq!(field(poll, "operation"), "get_activity");
    }
    let polled: Vec<String> = capture
        .events()
        .iter()
        .filter(|e| e.message() == "activity polled")
        .map(|e| e.fields["status"].clone())
        .collect();
    assert_eq!(polled, ["not found yet", "SUCCESS"]);
}

#[tokio::test]
async fn no_secret_token_or_body_in_any_trace() {
    let (capture, _guard) = Capture::install();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(TOKEN, 3600)))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0")
                .set_body_string(format!("BODY-MARKER you sent Bearer {TOKEN} and {SECRET}")),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/2"))
        .respond_with(ResponseTemplate::new(200).set_body_string("BODY-MARKER ok"))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry(RetryPolicy::default()), &AUTH).unwrap();
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    RawRequest::new(&client, &API, Method::Get, "/things/2")
        .send_text()
        .await
        .unwrap();
    // A refused token request too.
    let refusing = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(401).set_body_string(format!("BODY-MARKER bad {SECRET}")),
        )
        .mount(&refusing)
        .await;
    Request::new(&common::client(&refusing), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();

    let text = capture.all_text();
    assert!(text.contains("retrying"), "{text}");
    assert!(
        text.contains("/things/2"),
        "raw requests are traced: {text}"
    );
    for forbidden in [SECRET, TOKEN] {
        assert!(!text.contains(forbidden), "{forbidden} in traces: {text}");
    }
    // Bodies and headers are in the exchange's own events only (`TRACE`, a target of their
    // own, asked for by `ruckus --debug`), masked there.
    let outside = capture.text_outside(WIRE);
    for forbidden in ["BODY-MARKER", "Bearer"] {
        assert!(
            !outside.contains(forbidden),
            "{forbidden} in traces: {outside}"
        );
    }
    let wire: Vec<EventRec> = capture
        .events()
        .into_iter()
        .filter(|e| e.target == WIRE)
        .collect();
    let shown = |field: &str| {
        wire.iter().filter_map(|e| e.fields.get(field)).any(|v| {
            v.contains("BODY-MARKER you sent Bearer ***") || v.contains("authorization: ***")
        })
    };
    assert!(shown("body") && shown("headers"), "{wire:?}");
}

/// The target of the exchange's headers and bodies.
const WIRE: &str = "ruckus_one_runtime::wire";

/// Without a subscriber nothing is recorded and calls work as usual.
#[tokio::test]
async fn calls_work_without_a_subscriber() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    Request::new(&client(&server), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
}
