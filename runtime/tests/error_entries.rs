//! `Error::entries`: every entry of an error answer, in order, with its code,
//! field and message, whatever shape the service used. Each body goes through a
//! loopback server and the client.

mod common;

use common::*;
use ruckus_one_runtime::internal::{ErrorFamily, Operation, Request};
use ruckus_one_runtime::{ErrorBody, ErrorDetail};
use serde_json::{Value, json};
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, ResponseTemplate};

/// An entry as `(code, field, message)`, for comparing.
type Triple = (Option<String>, Option<String>, Option<String>);

fn triple(code: Option<&str>, field: Option<&str>, message: Option<&str>) -> Triple {
    let own = |s: Option<&str>| s.map(str::to_owned);
    (own(code), own(field), own(message))
}

fn triples(entries: &[ErrorDetail]) -> Vec<Triple> {
    entries
        .iter()
        .map(|e| (e.code.clone(), e.field.clone(), e.message.clone()))
        .collect()
}

/// An operation whose error family is `Portal`.
static GET_UNIT: Operation = Operation {
    id: "get_unit",
    path: "/units/{id}",
    error_family: ErrorFamily::Portal,
    ..GET_IDENTITY
};

/// Answers `body` with `status` on `GET /api/things/{case}` (an operation whose error family
/// is `ErrorsArray`); returns the call's error.
async fn error_for(case: &str, status: u16, body: Value) -> ruckus_one_runtime::Error {
    error_of(&GET_THING, case, status, body).await
}

/// Answers `body` with `status` to `op` called with `case`; returns the call's error.
async fn error_of(
    op: &'static Operation,
    case: &str,
    status: u16,
    body: Value,
) -> ruckus_one_runtime::Error {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path_regex(format!("^/api/[a-z]+/{case}$")))
        .respond_with(ResponseTemplate::new(status).set_body_json(body))
        .mount(&server)
        .await;
    let client = client(&server);
    Request::new(&client, op, &[case])
        .send_empty()
        .await
        .unwrap_err()
}

#[tokio::test]
async fn guest_root_causes_are_entries_with_code_and_message() {
    // The shape of the guest service's answers in the vendor's UI fixtures.
    let err = error_for(
        "guest",
        400,
        json!({
            "requestId": "30c7aaf4",
            "error": {
                "rootCauseErrors": [
                    {"code": "GUEST-409001", "message": "Invalid guest name"},
                    {"code": "GUEST-422027", "message": "Passwords must be unique"}
                ],
                "request": {},
                "status": 400
            },
            "request": {"url": "/wifiNetworks/n-1/guestUsers", "method": "POST"},
            "errorCode": 1002
        }),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [
            triple(Some("GUEST-409001"), None, Some("Invalid guest name")),
            triple(Some("GUEST-422027"), None, Some("Passwords must be unique")),
        ]
    );
    assert_eq!(err.code(), Some("GUEST-409001"));
    assert_eq!(err.message(), Some("Invalid guest name"));
    assert_eq!(
        err.to_string(),
        "HTTP 400 Bad Request: GUEST-409001: Invalid guest name (request id 30c7aaf4)"
    );
    let api = err.api_error().expect("an API error");
    let Some(ErrorBody::ErrorObject(body)) = Some(api.body()) else {
        panic!("{api:?}")
    };
    assert_eq!(body.root_causes.len(), 2);
    assert_eq!(api.entries(), api.body().entries());
    assert_eq!(api.entries(), err.entries());
}

#[tokio::test]
async fn an_msp_errors_map_keeps_each_field_name() {
    let err = error_for(
        "msp",
        400,
        json!({"errors": {
            "pageSize": "must be less than or equal to 1000",
            "page": {"message": "must be at least 1"},
            "ignored": null
        }}),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [
            triple(None, Some("page"), Some("must be at least 1")),
            triple(
                None,
                Some("pageSize"),
                Some("must be less than or equal to 1000")
            ),
        ]
    );
    assert_eq!(err.code(), None);
}

#[tokio::test]
async fn errors_arrays_keep_every_entry_in_order() {
    let err = error_for(
        "array",
        400,
        json!({"requestId": "r", "errors": [
            {"code": "WIFI-10001", "message": "Venue not found", "reason": "unknown id"},
            {"code": "WIFI-xxxx"},
            {},
            "a plain text entry",
            {"code": "SW-1", "message": "bad VLAN", "object": "vlan", "field": "vlanId"}
        ]}),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [
            triple(Some("WIFI-10001"), None, Some("Venue not found")),
            triple(Some("WIFI-xxxx"), None, None),
            triple(None, None, Some("a plain text entry")),
            triple(Some("SW-1"), Some("vlanId"), Some("bad VLAN")),
        ]
    );
    assert_eq!(err.entries()[0].reason.as_deref(), Some("unknown id"));
}

#[tokio::test]
async fn error_objects_and_flat_objects_are_one_entry() {
    let err = error_for(
        "object",
        400,
        json!({"requestId": "r", "error": {"code": "EVT-400", "message": "bad filter"}}),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [triple(Some("EVT-400"), None, Some("bad filter"))]
    );
    let err = error_for(
        "flat",
        404,
        json!({"code": "ENT-404", "message": "no such tenant", "suggestion": "check it"}),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [triple(Some("ENT-404"), None, Some("no such tenant"))]
    );
    assert_eq!(err.entries()[0].suggestion.as_deref(), Some("check it"));
}

#[tokio::test]
async fn status_message_bodies_list_their_sub_and_nested_errors() {
    // Declared as the identity services declare their errors.
    let err = error_of(
        &GET_IDENTITY,
        "status",
        400,
        json!({
            "status": "400 BAD_REQUEST",
            "message": "Validation failed",
            "errors": [{"code": "IDM-1", "message": "group is locked"}],
            "subErrors": [{"object": "identity", "field": "name", "rejectedValue": "", "message": "must not be blank"}],
            "nestedErrors": [{"field": "tags", "message": "too many"}]
        }),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [
            triple(Some("IDM-1"), None, Some("group is locked")),
            triple(None, Some("name"), Some("must not be blank")),
            triple(None, Some("tags"), Some("too many")),
        ]
    );
    // A framework's own error (the vendor's fixture of a 406): its message is the one entry.
    let err = error_for(
        "spring",
        406,
        json!({"error": "Not Acceptable", "message": "An error occurred", "path": "", "status": 406}),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [triple(None, None, Some("An error occurred"))]
    );
}

#[tokio::test]
async fn portal_bodies_list_errors_then_validation_errors() {
    let err = error_of(
        &GET_UNIT,
        "portal",
        422,
        json!({
            "status": "422 UNPROCESSABLE_ENTITY",
            "message": "Invalid unit",
            "errors": [{"code": "PM-1", "message": "unit exists"}],
            "validationErrors": ["name: must not be empty"]
        }),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [
            triple(Some("PM-1"), None, Some("unit exists")),
            triple(None, None, Some("name: must not be empty")),
        ]
    );
    let err = error_for(
        "portal-plain",
        422,
        json!({"status": "422", "message": "Invalid unit", "detailedMessage": "no name", "validationErrors": []}),
    )
    .await;
    assert_eq!(
        triples(&err.entries()),
        [triple(None, None, Some("Invalid unit"))]
    );
}

#[tokio::test]
async fn bodies_without_a_known_shape_have_no_entries() {
    for (case, body) in [("empty", json!({})), ("list", json!([1, 2]))] {
        let err = error_for(case, 500, body).await;
        assert_eq!(err.api_error().map(|e| e.body()), Some(&ErrorBody::Raw));
        assert!(err.entries().is_empty(), "{case}: {:?}", err.entries());
    }
}
