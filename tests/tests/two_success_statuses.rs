//! Operations whose vendor description gives two success statuses (issue 48): a delete that
//! answers `200` with a body or `204` without one, and an asynchronous write that answers `202`
//! with its envelope or `204` when it was done at once. Each answer is a success through the
//! generated client (a loopback server answers).

mod common;

use common::expect_once;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

async fn client_and_server() -> (wiremock::MockServer, ruckus_one::Client) {
    let server = common::server().await;
    let config = common::config(&server).retry(ruckus_one::RetryPolicy::none());
    let client = ruckus_one::Client::new(config).expect("valid configuration");
    (server, client)
}

#[tokio::test]
async fn a_delete_answered_200_or_204_is_a_success() {
    for (answer, expected) in [
        (
            ResponseTemplate::new(200).set_body_json(json!({"id": "ps-1"})),
            json!({"id": "ps-1"}),
        ),
        (ResponseTemplate::new(204), Value::Null),
    ] {
        let (server, client) = client_and_server().await;
        expect_once(
            &server,
            Mock::given(method("DELETE")).and(path("/policySets/ps-1")),
            answer,
        )
        .await;
        let body = client
            .network()
            .adaptive_policies()
            .delete_policy_set("ps-1")
            .send()
            .await
            .expect("either status is a success");
        assert_eq!(body, expected);
    }
}

#[tokio::test]
async fn an_asynchronous_delete_answered_202_or_204_is_a_success() {
    let (server, client) = client_and_server().await;
    expect_once(
        &server,
        Mock::given(method("DELETE")).and(path("/enrollmentActions/a-1")),
        ResponseTemplate::new(202).set_body_json(json!({"requestId": "req-1", "id": "a-1"})),
    )
    .await;
    let accepted = client
        .network()
        .workflows()
        .delete_enrollment_actions("a-1")
        .send()
        .await
        .expect("202 is a success");
    assert_eq!(accepted.request_id(), Some("req-1"));
    assert_eq!(accepted.id.as_deref(), Some("a-1"));

    let (server, client) = client_and_server().await;
    expect_once(
        &server,
        Mock::given(method("DELETE")).and(path("/enrollmentActions/a-2")),
        ResponseTemplate::new(204),
    )
    .await;
    let done = client
        .network()
        .workflows()
        .delete_enrollment_actions("a-2")
        .send()
        .await
        .expect("204 is a success, not an undecodable answer");
    // Done at once: no activity to wait for, nothing created.
    assert_eq!(done.request_id(), None);
    assert_eq!(done.created_id(), None);
    assert_eq!(done.id, None);
}
