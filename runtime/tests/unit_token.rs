//! APIs that authenticate with a caller-supplied token (the resident portal's unit token)
//! send it as the bearer token and never ask the token service.

mod common;

use common::*;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Request};
use ruckus_one_runtime::{Client, Error, Method};
use wiremock::matchers::{header, method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

static GET_UNIT: Operation = Operation {
    id: "get_unit",
    method: Method::Get,
    path: "/units",
    api: &UNIT,
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
async fn unit_token_is_the_bearer_and_no_oauth_token_is_requested() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path_regex("^/oauth2/token"))
        .respond_with(ResponseTemplate::new(500))
        .expect(0)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/units"))
        .and(header("authorization", "Bearer unit-secret-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"unit": "12B"})))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).unit_token("unit-secret-1"), &AUTH).unwrap();
    let unit: serde_json::Value = Request::new(&client, &GET_UNIT, &[])
        .send_json()
        .await
        .unwrap();
    assert_eq!(unit["unit"], "12B");
    assert!(
        !format!("{client:?}").contains("unit-secret-1"),
        "the unit token must not be in Debug output"
    );
}

#[tokio::test]
async fn missing_unit_token_is_an_auth_error_before_sending() {
    let server = MockServer::start().await;
    let client = Client::new(config(&server), &AUTH).unwrap();
    let err = Request::new(&client, &GET_UNIT, &[])
        .send_empty()
        .await
        .unwrap_err();
    match &err {
        Error::Auth {
            status: None,
            message,
        } => assert!(message.contains("unit_token"), "{message}"),
        other => panic!("expected an auth error, got {other:?}"),
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
async fn a_unit_token_that_cannot_be_a_header_is_refused_when_the_client_is_built() {
    let server = MockServer::start().await;
    let err = Client::new(config(&server).unit_token("unit-secret\n2"), &AUTH).unwrap_err();
    match &err {
        Error::InvalidRequest { message } => {
            assert!(message.contains("unit token"), "{message}");
            assert!(!message.contains("unit-secret"), "{message}");
        }
        other => panic!("expected an invalid request, got {other:?}"),
    }
}
