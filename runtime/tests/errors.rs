//! Error answers decoded per family, raw bodies kept, success bodies that
//! do not decode.

mod common;

use common::*;
use ruckus_one_runtime::internal::{Operation, Request};
use ruckus_one_runtime::{Client, Error, ErrorBody};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn answer(server: &MockServer, url_path: &str, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(url_path))
        .respond_with(response)
        .mount(server)
        .await;
}

async fn fail(client: &Client, op: &'static Operation, params: &[&str]) -> Error {
    Request::new(client, op, params)
        .send_json::<Value>()
        .await
        .expect_err("the call should fail")
}

#[tokio::test]
async fn errors_array_body() {
    let server = server().await;
    let body = json!({
        "requestId": "req-17",
        "errors": [
            {"code": "WIFI-10001", "message": "Venue not found", "reason": "unknown id", "suggestion": "check the id", "object": "venue"},
            {"message": "second"}
        ]
    });
    answer(
        &server,
        "/api/things/9",
        ResponseTemplate::new(404).set_body_json(&body),
    )
    .await;

    let err = fail(&client(&server), &GET_THING, &["9"]).await;
    assert_eq!(err.status(), Some(404));
    assert_eq!(err.request_id(), Some("req-17"));
    let api = err.api_error().unwrap();
    let ErrorBody::ErrorsArray(decoded) = api.body() else {
        panic!("{:?}", api.body())
    };
    assert_eq!(decoded.request_id.as_deref(), Some("req-17"));
    assert_eq!(decoded.errors.len(), 2);
    assert_eq!(decoded.errors[0].code.as_deref(), Some("WIFI-10001"));
    assert_eq!(
        decoded.errors[0].message.as_deref(),
        Some("Venue not found")
    );
    assert_eq!(decoded.errors[0].reason.as_deref(), Some("unknown id"));
    assert_eq!(
        decoded.errors[0].suggestion.as_deref(),
        Some("check the id")
    );
    assert_eq!(decoded.errors[1].code, None);
    assert_eq!(
        serde_json::from_slice::<Value>(api.raw_body()).unwrap(),
        body
    );
    let text = err.to_string();
    assert!(
        text.contains("404") && text.contains("req-17") && text.contains("Venue not found"),
        "{text}"
    );
}

#[tokio::test]
async fn request_id_header_wins_over_body() {
    let server = server().await;
    answer(
        &server,
        "/api/things/9",
        ResponseTemplate::new(400)
            .insert_header("x-request-id", "from-header")
            .set_body_json(json!({"requestId": "from-body", "errors": []})),
    )
    .await;
    let err = fail(&client(&server), &GET_THING, &["9"]).await;
    assert_eq!(err.request_id(), Some("from-header"));
}

#[tokio::test]
async fn error_object_body() {
    let server = server().await;
    answer(
        &server,
        "/api/entitlements",
        ResponseTemplate::new(417).set_body_json(json!({
            "error": {"code": "ENT-1", "message": "missing entitlement", "reason": "no id", "suggestion": "activate a subscription"},
            "requestId": "req-e"
        })),
    )
    .await;
    let err = fail(&client(&server), &GET_ENTITLEMENT, &[]).await;
    assert_eq!(err.status(), Some(417));
    assert_eq!(err.request_id(), Some("req-e"));
    let ErrorBody::ErrorObject(decoded) = err.api_error().unwrap().body() else {
        panic!("{err:?}")
    };
    assert_eq!(decoded.error.code.as_deref(), Some("ENT-1"));
    assert_eq!(decoded.error.reason.as_deref(), Some("no id"));
    assert_eq!(
        decoded.error.suggestion.as_deref(),
        Some("activate a subscription")
    );
}

#[tokio::test]
async fn status_message_body() {
    let server = server().await;
    answer(
        &server,
        "/api/identities/5",
        ResponseTemplate::new(422).set_body_json(json!({
            "status": "UNPROCESSABLE_ENTITY",
            "timestamp": "2024-01-01T00:00:00Z",
            "message": "Validation error",
            "debugMessage": "name: must not be blank",
            "subErrors": [{"field": "name", "rejectedValue": ""}, "plain"],
            "unexpected": {"nested": true}
        })),
    )
    .await;
    let err = fail(&client(&server), &GET_IDENTITY, &["5"]).await;
    assert_eq!(err.status(), Some(422));
    assert_eq!(err.request_id(), None);
    let api = err.api_error().unwrap();
    let ErrorBody::StatusMessage(decoded) = api.body() else {
        panic!("{err:?}")
    };
    assert_eq!(decoded.status.as_deref(), Some("UNPROCESSABLE_ENTITY"));
    assert_eq!(decoded.timestamp.as_deref(), Some("2024-01-01T00:00:00Z"));
    assert_eq!(
        decoded.debug_message.as_deref(),
        Some("name: must not be blank")
    );
    assert_eq!(decoded.sub_errors[0]["field"], "name");
    assert_eq!(decoded.sub_errors[1], "plain");
    assert_eq!(api.message(), Some("Validation error"));
}

#[tokio::test]
async fn unknown_shapes_keep_the_raw_body() {
    // None of these has the shape of any family, whichever is declared.
    let cases: [(&'static Operation, &str, &str, &[&str]); 4] = [
        (
            &GET_THING,
            "/api/things/1",
            "<html><body>Bad Gateway</body></html>",
            &["1"],
        ),
        (
            &GET_THING,
            "/api/things/1",
            r#"{"errors":"neither an array nor an object","status":true}"#,
            &["1"],
        ),
        (
            &GET_ENTITLEMENT,
            "/api/entitlements",
            r#"[{"message":"an array, not an object"}]"#,
            &[],
        ),
        (
            &GET_IDENTITY,
            "/api/identities/1",
            r#"{"error":"other"}"#,
            &["1"],
        ),
    ];
    for (op, url_path, body, params) in cases {
        let server = server().await;
        answer(
            &server,
            url_path,
            ResponseTemplate::new(500).set_body_string(body),
        )
        .await;
        let err = fail(&client(&server), op, params).await;
        let api = err.api_error().unwrap();
        assert_eq!(api.body(), &ErrorBody::Raw, "{body}");
        assert_eq!(api.raw_body(), body.as_bytes());
        assert_eq!(err.raw_body(), Some(body.as_bytes()));
    }
}

#[tokio::test]
async fn malformed_success_body_is_a_decode_error() {
    let server = server().await;
    answer(
        &server,
        "/api/things/1",
        ResponseTemplate::new(200)
            .insert_header("x-request-id", "req-d")
            .set_body_string(r#"{"id": "1", "#),
    )
    .await;
    let err = fail(&client(&server), &GET_THING, &["1"]).await;
    let Error::Decode(decode) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(decode.status(), 200);
    assert_eq!(decode.request_id(), Some("req-d"));
    assert_eq!(decode.raw_body(), br#"{"id": "1", "#);
    assert!(!decode.message().is_empty());
    assert_eq!(err.status(), Some(200));
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn wrong_success_shape_is_a_decode_error_with_body_request_id() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Thing {
        id: u32,
    }
    let server = server().await;
    answer(
        &server,
        "/api/things/1",
        ResponseTemplate::new(202)
            .set_body_json(json!({"requestId": "req-202", "id": "not a number"})),
    )
    .await;
    let err = Request::new(&client(&server), &GET_THING, &["1"])
        .send_json::<Thing>()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Decode(_)), "{err:?}");
    assert_eq!(err.status(), Some(202));
    assert_eq!(err.request_id(), Some("req-202"));
}

#[tokio::test]
async fn empty_success_bodies() {
    let server = server().await;
    answer(&server, "/api/things/1", ResponseTemplate::new(204)).await;
    let client = client(&server);
    Request::new(&client, &GET_THING, &["1"])
        .send_json::<()>()
        .await
        .unwrap();
    let none: Option<Value> = Request::new(&client, &GET_THING, &["1"])
        .send_json()
        .await
        .unwrap();
    assert_eq!(none, None);
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    let err = Request::new(&client, &GET_THING, &["1"])
        .send_json::<Vec<u8>>()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Decode(_)), "{err:?}");
}

#[tokio::test]
async fn raw_and_bytes_answers() {
    let server = server().await;
    answer(
        &server,
        "/api/things/1",
        ResponseTemplate::new(201)
            .insert_header("x-request-id", "req-raw")
            .insert_header("x-custom", "yes")
            .set_body_string("not json at all"),
    )
    .await;
    let client = client(&server);
    let raw = Request::new(&client, &GET_THING, &["1"])
        .send_raw()
        .await
        .unwrap();
    assert_eq!(raw.status(), 201);
    assert_eq!(raw.request_id(), Some("req-raw"));
    assert_eq!(raw.header("X-Custom"), Some("yes"));
    assert!(raw.headers().any(|(k, v)| k == "x-custom" && v == b"yes"));
    assert_eq!(&raw.body()[..], b"not json at all");
    let bytes = Request::new(&client, &GET_THING, &["1"])
        .send_bytes()
        .await
        .unwrap();
    assert_eq!(&bytes[..], b"not json at all");
    Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
}

#[tokio::test]
async fn redirect_from_the_api_is_an_error_not_followed() {
    let server = server().await;
    answer(
        &server,
        "/api/things/1",
        ResponseTemplate::new(301).insert_header("location", "/api/things/2"),
    )
    .await;
    Mock::given(path("/api/things/2"))
        .respond_with(ResponseTemplate::new(200))
        .expect(0)
        .mount(&server)
        .await;
    let err = fail(&client(&server), &GET_THING, &["1"]).await;
    assert_eq!(err.status(), Some(301));
}
