//! Error bodies of every family decode whatever family the operation
//! declares; `Error::code`, `Error::message` and the one-line `Display`.

mod common;

use common::*;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Request};
use ruckus_one_runtime::{Error, ErrorBody, Method};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, ResponseTemplate};

const JSON_ONLY: &[MediaTypes] = &[MediaTypes {
    content_type: None,
    accept: "application/json",
}];

macro_rules! op {
    ($name:ident, $family:ident, $path:literal) => {
        static $name: Operation = Operation {
            id: stringify!($name),
            method: Method::Get,
            path: $path,
            api: &API,
            versions: JSON_ONLY,
            error_family: ErrorFamily::$family,
            service: &ruckus_one_runtime::internal::Service {
                name: "test",
                rate_limit: None,
            },
            reads: true,
        };
    };
}

op!(
    DECLARES_ERRORS_ARRAY,
    ErrorsArray,
    "/err/errors-array/{case}"
);
op!(
    DECLARES_ERROR_OBJECT,
    ErrorObject,
    "/err/error-object/{case}"
);
op!(
    DECLARES_STATUS_MESSAGE,
    StatusMessage,
    "/err/status-message/{case}"
);
op!(DECLARES_FLAT_OBJECT, FlatObject, "/err/flat-object/{case}");
op!(DECLARES_ERRORS_MAP, ErrorsMap, "/err/errors-map/{case}");
op!(DECLARES_PORTAL, Portal, "/err/portal/{case}");

static DECLARING: [&Operation; 6] = [
    &DECLARES_ERRORS_ARRAY,
    &DECLARES_ERROR_OBJECT,
    &DECLARES_STATUS_MESSAGE,
    &DECLARES_FLAT_OBJECT,
    &DECLARES_ERRORS_MAP,
    &DECLARES_PORTAL,
];

/// One body per family, shaped after the vendor's descriptions, with the
/// code and message it must yield.
struct Case {
    name: &'static str,
    family: ErrorFamily,
    body: Value,
    code: Option<&'static str>,
    message: &'static str,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "errors-array",
            family: ErrorFamily::ErrorsArray,
            body: json!({"requestId": "r-1", "errors": [
                {"code": "WIFI-10001", "message": "Venue not found", "reason": "unknown id", "suggestion": "check it"}
            ]}),
            code: Some("WIFI-10001"),
            message: "Venue not found",
        },
        Case {
            name: "error-object",
            family: ErrorFamily::ErrorObject,
            body: json!({"requestId": "r-2", "error": {"code": "EVT-400", "message": "bad filter"}}),
            code: Some("EVT-400"),
            message: "bad filter",
        },
        Case {
            name: "status-message",
            family: ErrorFamily::StatusMessage,
            body: json!({"status": "400 BAD_REQUEST", "timestamp": "2025-12-01T00:00:00Z",
                "message": "Invalid identity group", "debugMessage": "name is blank", "subErrors": []}),
            code: None,
            message: "Invalid identity group",
        },
        Case {
            name: "flat-object",
            family: ErrorFamily::FlatObject,
            body: json!({"code": "ENT-404", "message": "This tenant does not exist",
                "reason": "unknown tenant", "suggestion": "check the tenant id"}),
            code: Some("ENT-404"),
            message: "This tenant does not exist",
        },
        Case {
            name: "errors-map",
            family: ErrorFamily::ErrorsMap,
            body: json!({"errors": {"mspEcTenantId": "must not be blank"}}),
            code: None,
            message: "must not be blank",
        },
        Case {
            name: "portal",
            family: ErrorFamily::Portal,
            body: json!({"status": "422 UNPROCESSABLE_ENTITY", "timestamp": "2025-12-01T00:00:00Z",
                "message": "Invalid unit", "detailedMessage": "the unit has no name",
                "validationErrors": ["name: must not be empty"]}),
            code: None,
            message: "Invalid unit",
        },
    ]
}

fn family_of(body: &ErrorBody) -> Option<ErrorFamily> {
    Some(match body {
        ErrorBody::ErrorsArray(_) => ErrorFamily::ErrorsArray,
        ErrorBody::ErrorObject(_) => ErrorFamily::ErrorObject,
        ErrorBody::StatusMessage(_) => ErrorFamily::StatusMessage,
        ErrorBody::FlatObject(_) => ErrorFamily::FlatObject,
        ErrorBody::ErrorsMap(_) => ErrorFamily::ErrorsMap,
        ErrorBody::Portal(_) => ErrorFamily::Portal,
        _ => return None,
    })
}

#[tokio::test]
async fn every_family_decodes_through_every_declared_family() {
    let server = server().await;
    for case in cases() {
        Mock::given(method("GET"))
            .and(path_regex(format!("^/api/err/[a-z-]+/{}$", case.name)))
            .respond_with(ResponseTemplate::new(400).set_body_json(&case.body))
            .mount(&server)
            .await;
    }
    let client = client(&server);
    let mut through_other = 0;
    for case in cases() {
        for op in DECLARING {
            let err = Request::new(&client, op, &[case.name])
                .send_json::<Value>()
                .await
                .unwrap_err();
            let api = err
                .api_error()
                .unwrap_or_else(|| panic!("{} via {}: {err:?}", case.name, op.id));
            assert_eq!(
                family_of(api.body()),
                Some(case.family),
                "{} via {}: {:?}",
                case.name,
                op.id,
                api.body()
            );
            assert_eq!(err.code(), case.code, "{} via {}", case.name, op.id);
            assert_eq!(api.code(), case.code);
            assert_eq!(
                err.message(),
                Some(case.message),
                "{} via {}",
                case.name,
                op.id
            );
            assert_eq!(
                serde_json::from_slice::<Value>(api.raw_body()).unwrap(),
                case.body
            );
            if op.error_family != case.family {
                through_other += 1;
            }
        }
    }
    assert_eq!(through_other, 30);
}

#[tokio::test]
async fn decoded_fields_of_the_new_families() {
    let server = server().await;
    for case in cases() {
        Mock::given(method("GET"))
            .and(path(format!("/api/err/errors-array/{}", case.name)))
            .respond_with(ResponseTemplate::new(400).set_body_json(&case.body))
            .mount(&server)
            .await;
    }
    let client = client(&server);
    let fail = |name: &'static str| {
        let client = client.clone();
        async move {
            Request::new(&client, &DECLARES_ERRORS_ARRAY, &[name])
                .send_empty()
                .await
                .unwrap_err()
        }
    };

    let err = fail("flat-object").await;
    let Some(ErrorBody::FlatObject(flat)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(flat.error.reason.as_deref(), Some("unknown tenant"));
    assert_eq!(
        flat.error.suggestion.as_deref(),
        Some("check the tenant id")
    );

    let err = fail("errors-map").await;
    let Some(ErrorBody::ErrorsMap(map)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(map.errors["mspEcTenantId"], "must not be blank");

    let err = fail("portal").await;
    let Some(ErrorBody::Portal(portal)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(portal.status.as_deref(), Some("422 UNPROCESSABLE_ENTITY"));
    assert_eq!(
        portal.detailed_message.as_deref(),
        Some("the unit has no name")
    );
    assert_eq!(portal.validation_errors, ["name: must not be empty"]);

    let err = fail("status-message").await;
    let Some(ErrorBody::StatusMessage(status)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(status.status.as_deref(), Some("400 BAD_REQUEST"));
    assert_eq!(status.debug_message.as_deref(), Some("name is blank"));
}

#[tokio::test]
async fn undecodable_bodies_stay_raw_whatever_the_declared_family() {
    let server = server().await;
    let html = "<html>\n<body>502 Bad Gateway</body>\n</html>";
    Mock::given(method("GET"))
        .and(path_regex("^/api/err/[a-z-]+/html$"))
        .respond_with(ResponseTemplate::new(502).set_body_string(html))
        .mount(&server)
        .await;
    let client = client(&server);
    for op in DECLARING {
        let err = Request::new(&client, op, &["html"])
            .send_json::<Value>()
            .await
            .unwrap_err();
        let api = err.api_error().expect("an API error");
        assert_eq!(api.body(), &ErrorBody::Raw, "via {}", op.id);
        assert_eq!(api.raw_body(), html.as_bytes());
        assert_eq!(err.code(), None);
        assert_eq!(err.message(), None);
        assert_eq!(
            err.to_string(),
            "HTTP 502 Bad Gateway: <html> <body>502 Bad Gateway</body> </html>"
        );
    }
}

#[tokio::test]
async fn display_is_one_line_with_status_code_message_and_request_id() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/v-9"))
        .respond_with(
            ResponseTemplate::new(400)
                .insert_header("x-request-id", "abc")
                .set_body_json(json!({"requestId": "ignored-body-id", "errors": [
                    {"code": "WIFI-10001", "message": "Venue not found"}
                ]})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/identities/g-1"))
        .respond_with(ResponseTemplate::new(404).set_body_json(json!({
            "status": "404 NOT_FOUND",
            "message": "Identity group\nnot found",
            "debugMessage": "id g-1"
        })))
        .mount(&server)
        .await;
    let client = client(&server);
    let err = Request::new(&client, &GET_THING, &["v-9"])
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "HTTP 400 Bad Request: WIFI-10001: Venue not found (request id abc)"
    );
    assert_eq!(err.code(), Some("WIFI-10001"));
    assert_eq!(err.message(), Some("Venue not found"));

    let err = Request::new(&client, &GET_IDENTITY, &["g-1"])
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "HTTP 404 Not Found: Identity group not found"
    );
    assert_eq!(err.code(), None);
    assert_eq!(err.message(), Some("Identity group\nnot found"));
}

#[tokio::test]
async fn code_and_message_are_none_without_an_api_error_body() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_string("{"))
        .mount(&server)
        .await;
    let client = client(&server);
    let decode = Request::new(&client, &GET_THING, &["1"])
        .send_json::<Value>()
        .await
        .unwrap_err();
    assert!(matches!(decode, Error::Decode(_)), "{decode:?}");
    let invalid = Request::new(&client, &GET_THING, &[""])
        .send_empty()
        .await
        .unwrap_err();
    for err in [decode, invalid, Error::Timeout] {
        assert_eq!(err.code(), None, "{err:?}");
        assert_eq!(err.message(), None, "{err:?}");
    }
}
