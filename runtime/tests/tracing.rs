//! Issue 10: a `tracing` span per call with its operation, method, path
//! template, API, attempts, final status, request id and duration; events
//! for retries, token requests and activity polls; never a secret.
//!
//! A small capturing subscriber stands in for `tracing-subscriber`. It is
//! installed for the current thread only (the tests use tokio's
//! current-thread runtime), so parallel tests do not see each other.

mod common;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use ruckus_one_runtime::{
    Client, ErrorFamily, MediaTypes, Method, Operation, RawRequest, Request, RetryPolicy,
    WaitOptions,
};
use serde_json::{Value, json};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[derive(Debug, Clone)]
struct SpanRec {
    name: &'static str,
    parent: Option<u64>,
    fields: BTreeMap<String, String>,
}

#[derive(Debug, Clone)]
struct EventRec {
    level: tracing::Level,
    parent: Option<u64>,
    fields: BTreeMap<String, String>,
}

impl EventRec {
    fn message(&self) -> &str {
        self.fields.get("message").map_or("", String::as_str)
    }
}

#[derive(Default)]
struct Captured {
    spans: BTreeMap<u64, SpanRec>,
    events: Vec<EventRec>,
    stack: Vec<u64>,
}

#[derive(Clone, Default)]
struct Capture {
    captured: Arc<Mutex<Captured>>,
    next: Arc<AtomicU64>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("ruckus_one_runtime")
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut captured = self.captured.lock().unwrap();
        let parent = match attrs.parent() {
            Some(parent) => Some(parent.into_u64()),
            None if attrs.is_contextual() => captured.stack.last().copied(),
            None => None,
        };
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        captured.spans.insert(
            id,
            SpanRec {
                name: attrs.metadata().name(),
                parent,
                fields,
            },
        );
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut captured = self.captured.lock().unwrap();
        if let Some(rec) = captured.spans.get_mut(&span.into_u64()) {
            values.record(&mut Fields(&mut rec.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut captured = self.captured.lock().unwrap();
        let parent = match event.parent() {
            Some(parent) => Some(parent.into_u64()),
            None if event.is_contextual() => captured.stack.last().copied(),
            None => None,
        };
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        captured.events.push(EventRec {
            level: *event.metadata().level(),
            parent,
            fields,
        });
    }

    fn enter(&self, span: &Id) {
        self.captured.lock().unwrap().stack.push(span.into_u64());
    }

    fn exit(&self, span: &Id) {
        let mut captured = self.captured.lock().unwrap();
        if let Some(at) = captured.stack.iter().rposition(|id| *id == span.into_u64()) {
            captured.stack.remove(at);
        }
    }
}

impl Capture {
    fn install() -> (Capture, tracing::subscriber::DefaultGuard) {
        let capture = Capture::default();
        let guard = tracing::subscriber::set_default(capture.clone());
        (capture, guard)
    }

    fn spans(&self, name: &str) -> Vec<(u64, SpanRec)> {
        let captured = self.captured.lock().unwrap();
        captured
            .spans
            .iter()
            .filter(|(_, s)| s.name == name)
            .map(|(id, s)| (*id, s.clone()))
            .collect()
    }

    fn events(&self) -> Vec<EventRec> {
        self.captured.lock().unwrap().events.clone()
    }

    /// Every captured text: span names and fields, event fields.
    fn all_text(&self) -> String {
        let captured = self.captured.lock().unwrap();
        let mut out = String::new();
        for span in captured.spans.values() {
            out.push_str(&format!("{span:?}\n"));
        }
        for event in &captured.events {
            out.push_str(&format!("{event:?}\n"));
        }
        out
    }
}

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
    Request::new(&client, &GET_THING, &["7"])
        .send_json::<Value>()
        .await
        .unwrap();

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
    let duration: u64 = field(span, "duration_ms").parse().unwrap();
    assert!(duration < 5000);
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
        .send_and_wait::<Value>(&GET_ACTIVITY, &options)
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
    for forbidden in [SECRET, TOKEN, "BODY-MARKER", "Bearer"] {
        assert!(!text.contains(forbidden), "{forbidden} in traces: {text}");
    }
}

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
