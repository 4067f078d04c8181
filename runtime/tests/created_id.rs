//! `created_id()` of `Accepted` and `Completed`: the id of what a write created, read from each
//! answer shape the vendor's descriptions show, through a loopback server and the client.

mod common;

use std::time::Duration;

use common::*;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Request};
use ruckus_one_runtime::{Method, WaitOptions};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

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

/// A server answering `POST /api/things` with `answer` (202) and its activity as finished.
async fn serving(answer: Value) -> MockServer {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/things"))
        .respond_with(ResponseTemplate::new(202).set_body_json(answer))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/activities/req-1"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"requestId": "req-1", "status": "SUCCESS"})),
        )
        .mount(&server)
        .await;
    server
}

/// What `send` and `send_and_wait` read as the created id from `answer`.
async fn created_ids(answer: Value) -> (Option<String>, Option<String>) {
    let server = serving(answer).await;
    let client = client(&server);
    let accepted = Request::new(&client, &POST_THING, &[])
        .send_accepted::<Value, Value>(&GET_ACTIVITY)
        .await
        .expect("accepted");
    let wait = WaitOptions::default().initial_interval(Duration::from_millis(10));
    let done = Request::new(&client, &POST_THING, &[])
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &wait)
        .await
        .expect("done");
    (
        accepted.created_id().map(str::to_owned),
        done.created_id().map(str::to_owned),
    )
}

#[tokio::test]
async fn the_venue_services_described_answer_gives_the_id_in_response() {
    // `OperationResponseVenueView`: the request id and the created venue, with no top-level id.
    let answer = json!({"requestId": "req-1", "response": {
        "id": "venue-1", "name": "Lobby", "address": {"city": "Sunnyvale", "country": "United States"}
    }});
    let expected = Some("venue-1".to_owned());
    assert_eq!(created_ids(answer).await, (expected.clone(), expected));
}

#[tokio::test]
async fn an_entity_id_answer_gives_the_id_in_response() {
    let answer = json!({"requestId": "req-1", "response": {"id": "profile-1"}});
    let expected = Some("profile-1".to_owned());
    assert_eq!(created_ids(answer).await, (expected.clone(), expected));
}

#[tokio::test]
async fn a_top_level_id_answer_gives_that_id() {
    // `OperationResponse` (identity, MAC registration) and `AsycRequestResponse` (workflows).
    let answer = json!({"requestId": "req-1", "id": "workflow-1"});
    let expected = Some("workflow-1".to_owned());
    assert_eq!(created_ids(answer).await, (expected.clone(), expected));
}

#[tokio::test]
async fn the_created_object_as_the_answer_gives_its_id() {
    let answer = json!({"requestId": "req-1", "id": "radius-1", "name": "corp"});
    let expected = Some("radius-1".to_owned());
    assert_eq!(created_ids(answer).await, (expected.clone(), expected));
}

#[tokio::test]
async fn a_request_id_alone_gives_no_id() {
    assert_eq!(
        created_ids(json!({"requestId": "req-1"})).await,
        (None, None)
    );
}
