//! The generated network management and resident portal clients against a local HTTP server:
//! each error-body family, a versioned media type, a binary download, a multipart upload and
//! the resident portal's unit token.

mod common;

use common::{BEARER, expect_once};
use ruckus_one::network::QueryRequest;
use ruckus_one::network::versions::JsonOrV1_1;
use ruckus_one_runtime::{ErrorBody, Multipart};
use serde_json::json;
use wiremock::matchers::{header, header_regex, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn network() -> (MockServer, ruckus_one::Client) {
    let server = common::server().await;
    let config = common::config(&server).retry(ruckus_one::RetryPolicy::none());
    (
        server,
        ruckus_one::Client::new(config).expect("valid configuration"),
    )
}

#[tokio::test]
async fn configuration_errors_decode_as_an_errors_array() {
    let (server, client) = network().await;
    let body = json!({"requestId": "r-7", "errors": [{"code": "SWITCH-10434", "message": "m", "reason": "busy", "suggestion": "retry later"}]});
    expect_once(
        &server,
        Mock::given(method("GET")).and(path("/venues/v-1/switches")),
        ResponseTemplate::new(400).set_body_json(body),
    )
    .await;
    let err = client
        .network()
        .switches()
        .list_venue_switches("v-1")
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400));
    assert_eq!(err.request_id(), Some("r-7"));
    let Some(ErrorBody::ErrorsArray(errors)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(errors.errors[0].code.as_deref(), Some("SWITCH-10434"));
    assert_eq!(errors.errors[0].suggestion.as_deref(), Some("retry later"));
}

#[tokio::test]
async fn identity_errors_decode_as_status_and_message() {
    let (server, client) = network().await;
    let body = json!({"status": "NOT_FOUND", "timestamp": "2026-01-01T00:00:00Z", "message": "no group", "debugMessage": "id g-1", "subErrors": [{"field": "id"}]});
    expect_once(
        &server,
        Mock::given(method("PATCH")).and(path("/identityGroups/g-1")),
        ResponseTemplate::new(404).set_body_json(body),
    )
    .await;
    let err = client
        .network()
        .identity()
        .patch_identity_group("g-1")
        .send()
        .await
        .unwrap_err();
    let Some(ErrorBody::StatusMessage(e)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(e.status.as_deref(), Some("NOT_FOUND"));
    assert_eq!(e.debug_message.as_deref(), Some("id g-1"));
    assert_eq!(e.sub_errors.len(), 1);
}

#[tokio::test]
async fn entitlement_errors_decode_flat_and_versions_select_the_content_type() {
    let (server, client) = network().await;
    // The official description shows entitlement errors as one flat object.
    let body = json!({"code": "ENT-417", "message": "no subscription", "reason": "no active subscription", "suggestion": "activate one"});
    let mock = Mock::given(method("POST"))
        .and(path("/entitlements/utilizations/query"))
        .and(header("content-type", "application/vnd.ruckus.v1.1+json"))
        .and(header("accept", "application/json"));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(417).set_body_json(body),
    )
    .await;
    let err = client
        .network()
        .entitlements()
        .query_entitlement_utilizations()
        .body(&QueryRequest::new())
        .version(JsonOrV1_1::V1_1)
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(417));
    assert_eq!(err.code(), Some("ENT-417"));
    assert_eq!(err.message(), Some("no subscription"));
    let Some(ErrorBody::FlatObject(e)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(e.error.reason.as_deref(), Some("no active subscription"));
    assert_eq!(e.error.suggestion.as_deref(), Some("activate one"));
    let shown = err.to_string();
    assert!(
        shown.contains("417") && shown.contains("ENT-417"),
        "{shown}"
    );
}

#[tokio::test]
async fn msp_errors_decode_as_a_map_of_messages() {
    let (server, client) = network().await;
    let body = json!({"errors": {"name": "must not be blank", "tenantId": "unknown"}});
    expect_once(
        &server,
        Mock::given(method("POST")).and(path("/mspecs/query")),
        ResponseTemplate::new(400).set_body_json(body),
    )
    .await;
    let err = client
        .network()
        .msp()
        .query_msp_ecs(&QueryRequest::new())
        .send()
        .await
        .unwrap_err();
    let Some(ErrorBody::ErrorsMap(e)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(
        e.errors.get("name").map(String::as_str),
        Some("must not be blank")
    );
    assert_eq!(e.errors.len(), 2);
}

#[tokio::test]
async fn identity_status_names_with_codes_decode_and_other_shapes_still_decode() {
    let (server, client) = network().await;
    // The MAC registration service answers its own shape ...
    let body = json!({"status": "404 NOT_FOUND", "timestamp": "2026-01-01T00:00:00Z", "message": "no pool", "debugMessage": "id p-1", "subErrors": []});
    expect_once(
        &server,
        Mock::given(method("GET")).and(path("/macRegistrationPools/p-1")),
        ResponseTemplate::new(404).set_body_json(body),
    )
    .await;
    let err = client
        .network()
        .mac_registrations()
        .get_mac_registration_pool("p-1")
        .send()
        .await
        .unwrap_err();
    let Some(ErrorBody::StatusMessage(e)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(e.status.as_deref(), Some("404 NOT_FOUND"));
    assert_eq!(err.message(), Some("no pool"));
    // ... and an answer in another family's shape than the operation declares still decodes.
    let other = json!({"requestId": "r-1", "errors": [{"code": "WIFI-1", "message": "gateway"}]});
    expect_once(
        &server,
        Mock::given(method("GET")).and(path("/macRegistrationPools/p-2")),
        ResponseTemplate::new(400).set_body_json(other),
    )
    .await;
    let err = client
        .network()
        .mac_registrations()
        .get_mac_registration_pool("p-2")
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.api_error().map(|e| e.body()),
            Some(ErrorBody::ErrorsArray(_))
        ),
        "{err:?}"
    );
    assert_eq!(err.code(), Some("WIFI-1"));
}

#[tokio::test]
async fn resident_portal_errors_decode_their_own_shape() {
    let portal = MockServer::start().await;
    let body = json!({"status": 400, "timestamp": "2026-01-01T00:00:00Z", "message": "invalid", "detailedMessage": "unit is locked", "validationErrors": ["name"]});
    expect_once(
        &portal,
        Mock::given(method("GET")).and(path("/residents/properties/p-1/units")),
        ResponseTemplate::new(400).set_body_json(body),
    )
    .await;
    let config = ruckus_one::Config::new(ruckus_one::Credentials::new("id", "secret"))
        .api_base_url("resident_portal", portal.uri())
        .unit_token("unit-42")
        .retry(ruckus_one::RetryPolicy::none());
    let client = ruckus_one::Client::new(config).unwrap();
    let err = client
        .resident_portal()
        .portal()
        .get_unit("p-1")
        .send()
        .await
        .unwrap_err();
    let Some(ErrorBody::Portal(e)) = err.api_error().map(|e| e.body()) else {
        panic!("{err:?}")
    };
    assert_eq!(e.detailed_message.as_deref(), Some("unit is locked"));
    assert_eq!(e.validation_errors, vec!["name".to_owned()]);
}

#[tokio::test]
async fn certificate_private_key_downloads_as_pkcs12_bytes() {
    let (server, client) = network().await;
    let key: &[u8] = b"\x30\x82\x01\x00pkcs12\x00\xff";
    let mock = Mock::given(method("POST"))
        .and(path("/certificates/c-1"))
        .and(header("accept", "application/x-pkcs12"))
        .and(header("authorization", BEARER));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(200).set_body_raw(key, "application/x-pkcs12"),
    )
    .await;
    let bytes = client
        .network()
        .certificates()
        .download_certificate_private_key(
            "c-1",
            &ruckus_one::network::CertDownloadRequest::new().with_password("p"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(&bytes[..], key);
}

#[tokio::test]
async fn identities_import_as_a_multipart_upload() {
    let (server, client) = network().await;
    let mock = Mock::given(method("POST"))
        .and(path("/identityGroups/g-1/identities/csvFile"))
        .and(header_regex(
            "content-type",
            "^multipart/form-data; boundary=.+$",
        ));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(200).set_body_json(json!({"imported": 2})),
    )
    .await;
    let csv = Multipart::new().file(
        "file",
        "identities.csv",
        "text/csv",
        bytes::Bytes::from_static(b"name\nalice\nbob\n"),
    );
    let answer = client
        .network()
        .identity()
        .import_identities("g-1", csv)
        .send()
        .await
        .unwrap();
    assert_eq!(answer, json!({"imported": 2}));
    let sent = common::api_requests(&server).await;
    let body = String::from_utf8_lossy(&sent[0].body);
    assert!(
        body.contains("filename=\"identities.csv\"") && body.contains("alice\nbob"),
        "{body}"
    );
}

#[tokio::test]
async fn resident_portal_uses_the_unit_token_on_its_own_host() {
    let portal = MockServer::start().await;
    let mock = Mock::given(method("GET"))
        .and(path("/residents/properties/p-1/units"))
        .and(header("authorization", "Bearer unit-42"));
    expect_once(
        &portal,
        mock,
        ResponseTemplate::new(200).set_body_json(json!({"number": "4B", "floor": 4})),
    )
    .await;
    let config = ruckus_one::Config::new(ruckus_one::Credentials::new("id", "secret"))
        .api_base_url("resident_portal", portal.uri())
        .unit_token("unit-42");
    let client = ruckus_one::Client::new(config).unwrap();
    let unit = client
        .resident_portal()
        .portal()
        .get_unit("p-1")
        .send()
        .await
        .unwrap();
    assert_eq!(unit.number, "4B");
    assert_eq!(
        unit.additional_fields["floor"],
        json!(4),
        "unknown fields are kept"
    );
    assert_eq!(
        portal.received_requests().await.unwrap_or_default().len(),
        1,
        "no token request"
    );
}
