//! Asynchronous writes followed by the waiter, and paged streams with their stop conditions,
//! through generated clients against a local HTTP server.

mod common;

use futures_util::StreamExt;
use ruckus_one_runtime::{Error, WaitOptions};
use ruckus_one_tests::fixtures::operations::Client;
use ruckus_one_tests::fixtures::operations::demo::calls::Widget;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Answers the given responses in order, repeating the last one.
struct Sequence {
    answers: Vec<ResponseTemplate>,
    calls: Arc<AtomicUsize>,
}

impl Respond for Sequence {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        self.answers[n.min(self.answers.len() - 1)].clone()
    }
}

async fn sequence(
    server: &MockServer,
    verb: &str,
    at: &str,
    answers: Vec<ResponseTemplate>,
) -> Arc<AtomicUsize> {
    let calls = Arc::new(AtomicUsize::new(0));
    Mock::given(method(verb))
        .and(path(at))
        .respond_with(Sequence {
            answers,
            calls: calls.clone(),
        })
        .mount(server)
        .await;
    calls
}

fn activity(status: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"requestId": "req-1", "status": status}))
}

fn quick() -> WaitOptions {
    WaitOptions::default()
        .initial_interval(Duration::from_millis(5))
        .max_interval(Duration::from_millis(20))
        .timeout(Duration::from_secs(5))
}

async fn fixture() -> (MockServer, Client) {
    let server = common::server().await;
    let config = common::config(&server).retry(ruckus_one_runtime::RetryPolicy::none());
    (server, Client::new(config).expect("valid configuration"))
}

/// `POST /demo/widgets` answers 202 once: activity `req-1`, created widget `w-9`.
async fn accept_widget_write(server: &MockServer) {
    Mock::given(method("POST"))
        .and(path("/demo/widgets"))
        .respond_with(
            ResponseTemplate::new(202)
                .set_body_json(json!({"requestId": "req-1", "response": {"id": "w-9"}})),
        )
        .expect(1)
        .mount(server)
        .await;
}

#[tokio::test]
async fn accepted_write_then_waiter_tolerates_early_404s_until_success() {
    let (server, client) = fixture().await;
    accept_widget_write(&server).await;
    let polls = sequence(
        &server,
        "GET",
        "/demo/activities/req-1",
        vec![
            ResponseTemplate::new(404),
            ResponseTemplate::new(404),
            activity("INPROGRESS"),
            activity("SUCCESS"),
        ],
    )
    .await;
    let accepted = client
        .demo()
        .calls()
        .create_widget(&Widget::new("w".to_owned()))
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.request_id(), Some("req-1"));
    assert_eq!(accepted.tenant(), None);
    assert_eq!(accepted.response, Some(json!({"id": "w-9"})));
    let done = accepted.wait(&quick()).await.unwrap();
    assert_eq!(done.status.as_deref(), Some("SUCCESS"));
    assert_eq!(done.additional_fields["requestId"], json!("req-1"));
    assert_eq!(
        polls.load(Ordering::SeqCst),
        4,
        "two 404s, one in progress, one success"
    );
}

#[tokio::test]
async fn send_and_wait_returns_the_created_id_with_the_activity() {
    let (server, client) = fixture().await;
    accept_widget_write(&server).await;
    let polls = sequence(
        &server,
        "GET",
        "/demo/activities/req-1",
        vec![activity("INPROGRESS"), activity("SUCCESS")],
    )
    .await;
    let done = client
        .demo()
        .calls()
        .create_widget(&Widget::new("w".to_owned()))
        .send_and_wait(&quick())
        .await
        .unwrap();
    assert_eq!(done.accepted().request_id, "req-1");
    assert_eq!(done.accepted().response, Some(json!({"id": "w-9"})));
    assert_eq!(done.activity().status.as_deref(), Some("SUCCESS"));
    let (accepted, activity) = done.into_parts();
    assert_eq!(accepted.response.unwrap()["id"], "w-9");
    assert_eq!(activity.additional_fields["requestId"], json!("req-1"));
    assert_eq!(polls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn an_accepted_write_for_a_customer_is_waited_for_as_that_customer() {
    let (server, client) = fixture().await;
    Mock::given(method("POST"))
        .and(path("/demo/widgets"))
        .and(header(TENANT, "customer"))
        .respond_with(
            ResponseTemplate::new(202)
                .set_body_json(json!({"requestId": "req-6", "response": {"id": "w-6"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    // The activity belongs to the customer: polled as anyone else, it is not found.
    Mock::given(method("GET"))
        .and(path("/demo/activities/req-6"))
        .and(header(TENANT, "customer"))
        .respond_with(activity("SUCCESS"))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/demo/activities/req-6"))
        .respond_with(ResponseTemplate::new(404))
        .with_priority(2)
        .mount(&server)
        .await;
    let accepted = client
        .demo()
        .calls()
        .create_widget(&Widget::new("w".to_owned()))
        .tenant("customer")
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.tenant(), Some("customer"));
    assert_eq!(accepted.request_id(), Some("req-6"));
    let done = accepted.wait(&quick()).await.unwrap();
    assert_eq!(done.status.as_deref(), Some("SUCCESS"));
    let polls = activity_polls(&server, "/demo/activities/req-6").await;
    assert_eq!(polls, [Some("customer".to_owned())]);

    // Waiting by id alone polls as the client acts (no tenant header): never found.
    let err = client
        .demo()
        .wait_for_activity("req-6", &quick().timeout(Duration::from_millis(30)))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Activity(a) if a.is_timeout()),
        "{err:?}"
    );
    let polls = activity_polls(&server, "/demo/activities/req-6").await;
    assert_eq!(polls[0], Some("customer".to_owned()));
    assert!(
        polls.len() > 1 && polls[1..].iter().all(Option::is_none),
        "{polls:?}"
    );
}

const TENANT: &str = "x-rks-tenantid";

/// The tenant header of every request the server received at `at`, in order.
async fn activity_polls(server: &MockServer, at: &str) -> Vec<Option<String>> {
    let received = server.received_requests().await.unwrap_or_default();
    received
        .iter()
        .filter(|r| r.url.path() == at)
        .map(|r| {
            r.headers
                .get(TENANT)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        })
        .collect()
}

#[tokio::test]
async fn waiter_reports_a_failed_activity_with_its_error_text() {
    let (server, client) = fixture().await;
    let failed = ResponseTemplate::new(200).set_body_json(
        json!({"status": "FAIL", "error": "{\"code\":\"WIFI-10123\",\"message\":\"VLAN in use\"}"}),
    );
    sequence(
        &server,
        "GET",
        "/demo/activities/req-2",
        vec![activity("PENDING"), failed],
    )
    .await;
    let err = client
        .demo()
        .wait_for_activity("req-2", &quick())
        .await
        .unwrap_err();
    let Error::Activity(activity) = &err else {
        panic!("expected an activity error, got {err:?}")
    };
    assert!(!activity.is_timeout());
    assert_eq!(activity.request_id(), "req-2");
    assert_eq!(
        activity.error_text(),
        Some("{\"code\":\"WIFI-10123\",\"message\":\"VLAN in use\"}")
    );
    assert!(err.to_string().contains("VLAN in use"), "{err}");
}

#[tokio::test]
async fn waiter_times_out_with_the_last_status() {
    let (server, client) = fixture().await;
    sequence(
        &server,
        "GET",
        "/demo/activities/req-3",
        vec![activity("INPROGRESS")],
    )
    .await;
    let options = quick().timeout(Duration::from_millis(80));
    let err = client
        .demo()
        .wait_for_activity("req-3", &options)
        .await
        .unwrap_err();
    let Error::Activity(activity) = &err else {
        panic!("expected an activity error, got {err:?}")
    };
    assert!(activity.is_timeout());
    assert_eq!(activity.last_status(), Some("INPROGRESS"));

    // Never found at all: the timeout says so.
    let err = client
        .demo()
        .wait_for_activity("req-missing", &options)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not found yet"), "{err}");
}

#[tokio::test]
async fn waiter_stops_on_other_errors() {
    let (server, client) = fixture().await;
    let polls = sequence(
        &server,
        "GET",
        "/demo/activities/req-4",
        vec![ResponseTemplate::new(403)],
    )
    .await;
    let err = client
        .demo()
        .wait_for_activity("req-4", &quick())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(403));
    assert_eq!(polls.load(Ordering::SeqCst), 1);
}

fn widget_page(ids: &[&str], page: u64) -> ResponseTemplate {
    let content: Vec<Value> = ids.iter().map(|id| json!({"id": id, "name": id})).collect();
    ResponseTemplate::new(200)
        .set_body_json(json!({"content": content, "paging": {"page": page, "pageSize": 2}}))
}

async fn pages_of(client: &Client) -> Vec<Result<Vec<String>, Error>> {
    client
        .demo()
        .calls()
        .list_widgets_paged()
        .page_size(2)
        .pages()
        .map(|page| {
            page.map(|p| {
                p.content
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|w| w.id)
                    .collect()
            })
        })
        .collect()
        .await
}

fn page_numbers(requests: &[Request]) -> Vec<String> {
    requests
        .iter()
        .filter(|r| r.url.path() == "/demo/widgets")
        .map(|r| {
            r.url
                .query_pairs()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("&")
        })
        .collect()
}

#[tokio::test]
async fn page_stream_follows_page_numbers_until_a_short_page() {
    let (server, client) = fixture().await;
    sequence(
        &server,
        "GET",
        "/demo/widgets",
        vec![
            widget_page(&["a", "b"], 0),
            widget_page(&["c", "d"], 1),
            widget_page(&["e"], 2),
        ],
    )
    .await;
    let pages: Vec<Vec<String>> = pages_of(&client)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(pages, vec![vec!["a", "b"], vec!["c", "d"], vec!["e"]]);
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(
        page_numbers(&requests),
        [
            "pageSize=2&page=0",
            "pageSize=2&page=1",
            "pageSize=2&page=2"
        ]
    );
}

#[tokio::test]
async fn page_stream_stops_after_an_empty_page() {
    let (server, client) = fixture().await;
    let calls = sequence(
        &server,
        "GET",
        "/demo/widgets",
        vec![widget_page(&["a", "b"], 0), widget_page(&[], 1)],
    )
    .await;
    let pages: Vec<Vec<String>> = pages_of(&client)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(pages, vec![vec!["a".to_owned(), "b".to_owned()], vec![]]);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn page_stream_stops_when_the_server_repeats_a_page() {
    let (server, client) = fixture().await;
    // A server that ignores the page number: the second answer equals the first.
    let calls = sequence(
        &server,
        "GET",
        "/demo/widgets",
        vec![widget_page(&["a", "b"], 0)],
    )
    .await;
    let pages: Vec<Vec<String>> = pages_of(&client)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(pages, vec![vec!["a".to_owned(), "b".to_owned()]]);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "one more request detects the repeat, then it stops"
    );
}

#[tokio::test]
async fn page_stream_ends_with_an_error() {
    let (server, client) = fixture().await;
    sequence(
        &server,
        "GET",
        "/demo/widgets",
        vec![widget_page(&["a", "b"], 0), ResponseTemplate::new(500)],
    )
    .await;
    let pages = pages_of(&client).await;
    assert_eq!(pages.len(), 2);
    assert!(pages[0].is_ok());
    assert_eq!(pages[1].as_ref().unwrap_err().status(), Some(500));
}

#[tokio::test]
async fn query_body_pages_put_the_page_number_in_the_body() {
    let (server, client) = fixture().await;
    let page = |ids: &[&str]| {
        let data: Vec<Value> = ids.iter().map(|id| json!({"id": id, "name": id})).collect();
        ResponseTemplate::new(200).set_body_json(json!({"data": data, "totalCount": 3}))
    };
    sequence(
        &server,
        "POST",
        "/demo/widgets/query",
        vec![page(&["a", "b"]), page(&["c"])],
    )
    .await;
    let mut body = ruckus_one_tests::fixtures::operations::demo::calls::QueryWidgetsRequest::new();
    body.search_string = Some("wid".to_owned());
    let pages: Vec<_> = client
        .demo()
        .calls()
        .query_widgets(2, &body)
        .pages()
        .collect()
        .await;
    assert_eq!(pages.len(), 2);
    let sent: Vec<Value> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.url.path() == "/demo/widgets/query")
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(
        sent,
        [
            json!({"searchString": "wid", "page": 1}),
            json!({"searchString": "wid", "page": 2})
        ]
    );
}
