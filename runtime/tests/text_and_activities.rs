//! Text answers, and asynchronous writes waited for as the tenant they were
//! made for.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::*;
use ruckus_one_runtime::internal::{
    ErrorFamily, MediaTypes, Operation, Request, wait_for_activity, wait_for_activity_as,
};
use ruckus_one_runtime::{Client, Error, Method, WaitOptions};
use serde_json::{Value, json};
use wiremock::matchers::{header as has_header, method, path};
use wiremock::{Mock, MockServer, Respond, ResponseTemplate};

pub static GET_ACTIVITY: Operation = Operation {
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

const TENANT: &str = "x-rks-tenantid";

fn quick() -> WaitOptions {
    WaitOptions::default()
        .initial_interval(Duration::from_millis(5))
        .max_interval(Duration::from_millis(10))
        .timeout(Duration::from_millis(500))
}

#[tokio::test]
async fn send_text_returns_the_body_as_text() {
    let server = server().await;
    let csv = "name,mac\nap-1,00:11:22:33:44:55\n";
    Mock::given(method("GET"))
        .and(path("/api/things"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(csv, "text/csv"))
        .mount(&server)
        .await;
    let text = Request::new(&client(&server), &GET_THINGS, &[])
        .send_text()
        .await
        .unwrap();
    assert_eq!(text, csv);
}

#[tokio::test]
async fn send_text_refuses_invalid_utf8_keeping_the_answer() {
    let server = server().await;
    let bytes: &[u8] = b"name\n\xff\xfe broken";
    Mock::given(method("GET"))
        .and(path("/api/things"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("x-request-id", "req-csv")
                .set_body_raw(bytes, "text/csv"),
        )
        .mount(&server)
        .await;
    let err = Request::new(&client(&server), &GET_THINGS, &[])
        .send_text()
        .await
        .unwrap_err();
    let Error::Decode(decode) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(decode.status(), 200);
    assert_eq!(decode.request_id(), Some("req-csv"));
    assert_eq!(decode.raw_body(), bytes);
    assert!(decode.message().contains("UTF-8"), "{}", decode.message());
}

/// Answers the polls of one activity with `statuses` in turn (the last one
/// repeated), counting them.
struct Polls {
    answers: Vec<Value>,
    count: Arc<AtomicUsize>,
}

impl Respond for Polls {
    fn respond(&self, _: &wiremock::Request) -> ResponseTemplate {
        let n = self.count.fetch_add(1, Ordering::SeqCst);
        let answer = &self.answers[n.min(self.answers.len() - 1)];
        ResponseTemplate::new(200).set_body_json(answer)
    }
}

/// A server where `POST /api/things` answers `202 {"requestId": "req-1"}`
/// and the activity `req-1` answers `answers` only to polls for
/// `tenant`; polls for any other tenant get `404` (not yet) forever.
async fn async_server(tenant: &str, answers: Vec<Value>) -> (MockServer, Arc<AtomicUsize>) {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/things"))
        .respond_with(
            ResponseTemplate::new(202).set_body_json(json!({"requestId": "req-1", "response": {}})),
        )
        .mount(&server)
        .await;
    let count = Arc::new(AtomicUsize::new(0));
    Mock::given(method("GET"))
        .and(path("/api/activities/req-1"))
        .and(has_header(TENANT, tenant))
        .respond_with(Polls {
            answers,
            count: count.clone(),
        })
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-1"))
        .respond_with(ResponseTemplate::new(404))
        .with_priority(2)
        .mount(&server)
        .await;
    (server, count)
}

async fn poll_tenants(server: &MockServer) -> Vec<Option<String>> {
    received(server, "/api/activities")
        .await
        .iter()
        .map(|r| header(r, TENANT).map(str::to_owned))
        .collect()
}

fn delegated(server: &MockServer, tenant: &str) -> Client {
    Client::new(config(server).delegated_tenant(tenant), &AUTH).unwrap()
}

#[tokio::test]
async fn send_and_wait_polls_for_the_per_call_tenant() {
    let (server, polls) = async_server(
        "tenant-b",
        vec![
            json!({"requestId": "req-1", "status": "INPROGRESS"}),
            json!({"requestId": "req-1", "status": "SUCCESS", "useCase": "ADD_THING"}),
        ],
    )
    .await;
    let client = delegated(&server, "tenant-a");
    let mut request = Request::new(&client, &POST_THING, &[]);
    request.json(&json!({"name": "t"}));
    request.tenant("tenant-b");
    let done = request
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &quick())
        .await
        .unwrap();
    assert_eq!(done.accepted()["requestId"], "req-1");
    assert_eq!(done.activity()["useCase"], "ADD_THING");
    assert_eq!(polls.load(Ordering::SeqCst), 2);
    let writes = received(&server, "/api/things").await;
    assert_eq!(header(&writes[0], TENANT), Some("tenant-b"));
    assert_eq!(
        poll_tenants(&server).await,
        [Some("tenant-b".to_owned()), Some("tenant-b".to_owned())]
    );
}

#[tokio::test]
async fn send_and_wait_returns_the_accepted_answer_with_the_activity() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/things"))
        .respond_with(
            ResponseTemplate::new(202)
                .set_body_json(json!({"requestId": "req-7", "response": {"id": "thing-42"}})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-7"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"requestId": "req-7", "status": "SUCCESS"})),
        )
        .mount(&server)
        .await;
    #[derive(serde::Deserialize, Debug, PartialEq, Clone)]
    struct Created {
        id: String,
    }
    #[derive(serde::Deserialize, Debug, PartialEq, Clone)]
    struct Answer {
        #[serde(rename = "requestId")]
        request_id: String,
        response: Created,
    }
    let done = Request::new(&client(&server), &POST_THING, &[])
        .send_and_wait::<Answer, Value>(&GET_ACTIVITY, &quick())
        .await
        .unwrap();
    assert_eq!(done.accepted().response.id, "thing-42");
    assert_eq!(done.activity()["status"], "SUCCESS");
    let (answer, activity) = done.into_parts();
    assert_eq!(answer.request_id, "req-7");
    assert_eq!(activity["requestId"], "req-7");
    assert_eq!(received(&server, "/api/activities/req-7").await.len(), 1);
}

#[tokio::test]
async fn an_accepted_write_is_waited_for_as_the_tenant_it_was_sent_as() {
    let (server, polls) = async_server(
        "tenant-b",
        vec![
            json!({"requestId": "req-1", "status": "INPROGRESS"}),
            json!({"requestId": "req-1", "status": "SUCCESS"}),
        ],
    )
    .await;
    let client = delegated(&server, "tenant-a");
    let mut request = Request::new(&client, &POST_THING, &[]);
    request.tenant("tenant-b");
    let accepted = request
        .send_accepted::<Value, Value>(&GET_ACTIVITY)
        .await
        .unwrap();
    assert_eq!(accepted.request_id(), Some("req-1"));
    assert_eq!(accepted.tenant(), Some("tenant-b"));
    assert_eq!(accepted["response"], json!({}));
    assert!(received(&server, "/api/activities").await.is_empty());
    fn assert_send<T: Send>(_: &T) {}
    assert_send(&accepted.wait(&quick()));
    let activity = accepted.wait(&quick()).await.unwrap();
    assert_eq!(activity["status"], "SUCCESS");
    assert_eq!(polls.load(Ordering::SeqCst), 2);
    assert_eq!(
        poll_tenants(&server).await,
        [Some("tenant-b".to_owned()), Some("tenant-b".to_owned())]
    );
    assert_eq!(accepted.into_inner()["requestId"], "req-1");

    // Without a per-call tenant, the client's delegated tenant is remembered.
    let accepted = Request::new(&client, &POST_THING, &[])
        .send_accepted::<Value, Value>(&GET_ACTIVITY)
        .await
        .unwrap();
    assert_eq!(accepted.tenant(), Some("tenant-a"));
    let without = Request::new(&client.without_tenant(), &POST_THING, &[])
        .send_accepted::<Value, Value>(&GET_ACTIVITY)
        .await
        .unwrap();
    assert_eq!(without.tenant(), None);
}

#[tokio::test]
async fn send_and_wait_polls_for_the_clients_tenant_without_a_per_call_one() {
    let (server, _) = async_server(
        "tenant-a",
        vec![json!({"requestId": "req-1", "status": "SUCCESS"})],
    )
    .await;
    let client = delegated(&server, "tenant-a");
    let (_, done) = Request::new(&client, &POST_THING, &[])
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &quick())
        .await
        .unwrap()
        .into_parts();
    assert_eq!(done["status"], "SUCCESS");
    assert_eq!(poll_tenants(&server).await, [Some("tenant-a".to_owned())]);
}

#[tokio::test]
async fn send_and_wait_reports_a_failed_activity_with_its_parsed_errors() {
    let error = json!({"requestId": "req-1", "errors": [
        {"code": "WIFI-10123", "message": "VLAN in use", "reason": "assigned to a network", "suggestion": "free it first"}
    ]})
    .to_string();
    let (server, _) = async_server(
        "tenant-b",
        vec![
            json!({"requestId": "req-1", "status": "PENDING"}),
            json!({"requestId": "req-1", "status": "FAIL", "error": error}),
        ],
    )
    .await;
    let client = delegated(&server, "tenant-a");
    let mut request = Request::new(&client, &POST_THING, &[]);
    request.tenant("tenant-b");
    let err = request
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &quick())
        .await
        .unwrap_err();
    let Error::Activity(activity) = &err else {
        panic!("{err:?}")
    };
    assert!(!activity.is_timeout());
    assert_eq!(activity.request_id(), "req-1");
    assert_eq!(activity.error_text(), Some(error.as_str()));
    let details = activity.errors();
    assert_eq!(details.len(), 1);
    assert_eq!(details[0].code.as_deref(), Some("WIFI-10123"));
    assert_eq!(details[0].message.as_deref(), Some("VLAN in use"));
    assert_eq!(details[0].suggestion.as_deref(), Some("free it first"));
    assert_eq!(err.code(), Some("WIFI-10123"));
    assert_eq!(err.message(), Some("VLAN in use"));
    assert_eq!(
        err.to_string(),
        "activity req-1 failed: WIFI-10123: VLAN in use"
    );
    let source: &dyn std::error::Error = &**activity;
    assert_eq!(source.to_string(), err.to_string());
    assert!(
        poll_tenants(&server)
            .await
            .iter()
            .all(|t| t.as_deref() == Some("tenant-b"))
    );
}

#[tokio::test]
async fn failed_activity_with_an_array_or_plain_error_text() {
    for (error, codes) in [
        (
            json!([{"code": "SW-1", "message": "a"}, {"code": "SW-2", "message": "b"}]).to_string(),
            vec![Some("SW-1".to_owned()), Some("SW-2".to_owned())],
        ),
        ("the switch is offline".to_owned(), vec![]),
    ] {
        let (server, _) =
            async_server("tenant-a", vec![json!({"status": "FAIL", "error": error})]).await;
        let err = Request::new(&delegated(&server, "tenant-a"), &POST_THING, &[])
            .send_and_wait::<Value, Value>(&GET_ACTIVITY, &quick())
            .await
            .unwrap_err();
        let Error::Activity(activity) = &err else {
            panic!("{err:?}")
        };
        let found: Vec<_> = activity.errors().into_iter().map(|d| d.code).collect();
        assert_eq!(found, codes);
        assert_eq!(activity.error_text(), Some(error.as_str()));
    }
}

#[tokio::test]
async fn send_and_wait_needs_a_request_id() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/things"))
        .respond_with(
            ResponseTemplate::new(202)
                .insert_header("x-request-id", "hdr-1")
                .set_body_json(json!({"requestId": 5})),
        )
        .mount(&server)
        .await;
    let accepted = Request::new(&client(&server), &POST_THING, &[])
        .send_accepted::<Value, Value>(&GET_ACTIVITY)
        .await
        .unwrap();
    assert_eq!(accepted.request_id(), None);
    assert_eq!(accepted["requestId"], 5);
    let err = accepted.wait(&quick()).await.unwrap_err();
    let Error::Decode(decode) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(decode.raw_body(), br#"{"requestId":5}"#);
    let err = Request::new(&client(&server), &POST_THING, &[])
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &quick())
        .await
        .unwrap_err();
    let Error::Decode(decode) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(decode.status(), 202);
    assert_eq!(decode.raw_body(), br#"{"requestId":5}"#);
    assert!(
        decode.message().contains("requestId"),
        "{}",
        decode.message()
    );
    assert!(received(&server, "/api/activities").await.is_empty());
}

#[tokio::test]
async fn wait_for_activity_as_polls_for_the_given_tenant() {
    let (server, _) = async_server(
        "tenant-c",
        vec![json!({"requestId": "req-1", "status": "SUCCESS"})],
    )
    .await;
    let client = delegated(&server, "tenant-a");
    let done: Value =
        wait_for_activity_as(&client, &GET_ACTIVITY, "req-1", Some("tenant-c"), &quick())
            .await
            .unwrap();
    assert_eq!(done["status"], "SUCCESS");
    assert_eq!(poll_tenants(&server).await, [Some("tenant-c".to_owned())]);

    // Polling as the client (tenant-a) never finds it: the old behaviour of
    // `wait_for_activity` after a per-call tenant, now avoidable.
    let short = quick().timeout(Duration::from_millis(60));
    let err = wait_for_activity::<Value>(&client, &GET_ACTIVITY, "req-1", &short)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Activity(a) if a.is_timeout()),
        "{err:?}"
    );
    let err = wait_for_activity_as::<Value>(&client, &GET_ACTIVITY, "req-1", None, &short)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Activity(a) if a.is_timeout()),
        "{err:?}"
    );
    let err = wait_for_activity_as::<Value>(&client, &GET_ACTIVITY, "req-1", Some("a\nb"), &short)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidTenantId { .. }), "{err:?}");
}
