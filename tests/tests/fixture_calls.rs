//! The client generated from the `operations` fixture spec against a local HTTP server:
//! versioned media types, binary download and upload, multipart and form bodies, the
//! asynchronous-result envelope, query and header parameters, the error body families,
//! and the lifecycle gates (experimental feature, deprecation).

mod common;

use bytes::Bytes;
use common::{BEARER, call, expect_once, ok};
use ruckus_one_runtime::{ErrorBody, Multipart};
use ruckus_one_tests::fixtures::operations::Client;
use ruckus_one_tests::fixtures::operations::demo::calls::{
    Credentials as FormCredentials, QueryWidgetsRequest, Sort, Widget,
};
use ruckus_one_tests::fixtures::operations::demo::versions::V1OrV1_1OrV2;
use serde_json::json;
use wiremock::matchers::{
    body_bytes, body_json, body_string, header, header_regex, method, path, query_param,
    query_param_is_missing,
};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn fixture() -> (MockServer, Client) {
    let server = common::server().await;
    let client = Client::new(common::config(&server)).expect("valid configuration");
    (server, client)
}

fn widget(id: &str, name: &str) -> Widget {
    let mut widget = Widget::new(name.to_owned());
    widget.id = Some(id.to_owned());
    widget
}

async fn expect_update_widget(server: &MockServer, media_type: &str, name: &str) {
    let mock = Mock::given(method("PUT"))
        .and(path("/demo/widgets/w-1"))
        .and(header("authorization", BEARER))
        .and(header("content-type", media_type))
        .and(header("accept", media_type))
        .and(body_json(json!({"id": "w-1", "name": name})));
    let answer = ResponseTemplate::new(200)
        .set_body_raw(json!({"id": "w-1", "name": name}).to_string(), media_type);
    expect_once(server, mock, answer).await;
}

#[tokio::test]
async fn update_widget_sends_the_default_vendor_media_type() {
    let (server, client) = fixture().await;
    expect_update_widget(&server, "application/vnd.ruckus.v1+json", "v1").await;
    let body = widget("w-1", "v1");
    let updated = client
        .demo()
        .calls()
        .update_widget("w-1", &body)
        .send()
        .await
        .unwrap();
    assert_eq!(updated, body);
}

#[tokio::test]
async fn update_widget_sends_the_selected_version_media_type() {
    let (server, client) = fixture().await;
    expect_update_widget(&server, "application/vnd.ruckus.v1.1+json", "v1.1").await;
    let body = widget("w-1", "v1.1");
    let updated = client
        .demo()
        .calls()
        .update_widget("w-1", &body)
        .version(V1OrV1_1OrV2::V1_1)
        .send()
        .await
        .unwrap();
    assert_eq!(updated.id.as_deref(), Some("w-1"));
    assert_eq!(updated.name, "v1.1");
}

#[tokio::test]
async fn download_widget_key_returns_the_exact_bytes() {
    let (server, client) = fixture().await;
    // Not UTF-8, with NUL and CR/LF bytes: must come back untouched.
    let key: &[u8] = &[0x30, 0x82, 0x0a, 0x00, 0xff, 0xfe, 0x0d, 0x0a, 0x80, 0x01];
    let mock = Mock::given(method("POST"))
        .and(path("/demo/widgets/w%2F1/key"))
        .and(header("authorization", BEARER))
        .and(header("accept", "application/x-pkcs12"))
        .and(common::no_body);
    let answer = ResponseTemplate::new(200).set_body_raw(key, "application/x-pkcs12");
    expect_once(&server, mock, answer).await;
    let bytes = client
        .demo()
        .calls()
        .download_widget_key("w/1")
        .send()
        .await
        .unwrap();
    assert_eq!(bytes, Bytes::from_static(key));
}

#[tokio::test]
async fn upload_widgets_sends_a_multipart_form() {
    let (server, client) = fixture().await;
    let csv = "id,name\nw-1,first\nw-2,second\n";
    let mock = Mock::given(method("POST"))
        .and(path("/demo/widgets/csvFile"))
        .and(header("authorization", BEARER))
        .and(header("accept", "application/json"))
        .and(header_regex(
            "content-type",
            "^multipart/form-data; boundary=[^ ;]+$",
        ));
    expect_once(&server, mock, ResponseTemplate::new(204)).await;
    let form = Multipart::new().file("file", "widgets.csv", "text/csv", csv.as_bytes().to_vec());
    client
        .demo()
        .calls()
        .upload_widgets(form)
        .send()
        .await
        .unwrap();

    let requests = common::api_requests(&server).await;
    assert_eq!(requests.len(), 1);
    let content_type = requests[0].headers["content-type"].to_str().unwrap();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .expect("multipart content type");
    let body = String::from_utf8(requests[0].body.clone()).expect("text body");
    assert!(body.starts_with(&format!("--{boundary}\r\n")), "{body}");
    assert!(body.ends_with(&format!("\r\n--{boundary}--\r\n")), "{body}");
    assert!(
        body.contains(
            "Content-Disposition: form-data; name=\"file\"; filename=\"widgets.csv\"\r\n"
        ),
        "{body}"
    );
    assert!(body.contains("Content-Type: text/csv\r\n"), "{body}");
    assert!(
        body.contains(&format!("\r\n\r\n{csv}\r\n--{boundary}--")),
        "{body}"
    );
}

#[tokio::test]
async fn get_token_sends_a_form_body() {
    let (server, client) = fixture().await;
    let mock = Mock::given(method("POST"))
        .and(path("/demo/token"))
        .and(header("authorization", BEARER))
        .and(header("accept", "application/json"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .and(body_string(
            "grant_type=client_credentials&client_id=my+app%26co",
        ));
    expect_once(
        &server,
        mock,
        ok(json!({"access_token": "inner", "expires_in": 60})),
    )
    .await;
    let body = FormCredentials::new("client_credentials".to_owned(), "my app&co".to_owned());
    let answer = client.demo().calls().get_token(&body).send().await.unwrap();
    assert_eq!(answer, json!({"access_token": "inner", "expires_in": 60}));
}

#[tokio::test]
async fn create_widget_decodes_the_asynchronous_result_envelope() {
    let (server, client) = fixture().await;
    let mock = call("POST", "/demo/widgets", Some(json!({"name": "New"})));
    let answer = ResponseTemplate::new(202)
        .set_body_json(json!({"requestId": "req-123", "response": {"id": "w-9"}}));
    expect_once(&server, mock, answer).await;
    let body = Widget::new("New".to_owned());
    let accepted = client
        .demo()
        .calls()
        .create_widget(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.request_id, "req-123");
    assert_eq!(accepted.response, Some(json!({"id": "w-9"})));
}

#[tokio::test]
async fn create_widget_decodes_an_identity_family_error() {
    let (server, client) = fixture().await;
    let raw = r#"{"status":"BAD_REQUEST","message":"m","debugMessage":"d","subErrors":[]}"#;
    let mock = call("POST", "/demo/widgets", Some(json!({"name": "New"})));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(400).set_body_raw(raw, "application/json"),
    )
    .await;
    let body = Widget::new("New".to_owned());
    let err = client
        .demo()
        .calls()
        .create_widget(&body)
        .send()
        .await
        .unwrap_err();
    let api = err
        .api_error()
        .unwrap_or_else(|| panic!("expected an API error, got {err:?}"));
    assert_eq!(api.status(), 400);
    assert_eq!(api.message(), Some("m"));
    assert_eq!(api.raw_body(), raw.as_bytes());
    let ErrorBody::StatusMessage(decoded) = api.body() else {
        panic!("expected the status-message shape, got {:?}", api.body());
    };
    assert_eq!(decoded.status.as_deref(), Some("BAD_REQUEST"));
    assert_eq!(decoded.message.as_deref(), Some("m"));
    assert_eq!(decoded.debug_message.as_deref(), Some("d"));
    assert!(decoded.sub_errors.is_empty());
}

#[tokio::test]
async fn query_widgets_sends_query_parameters_header_and_body() {
    let (server, client) = fixture().await;
    let request = json!({"page": 2, "searchString": "blue"});
    let full = call("POST", "/demo/widgets/query", Some(request.clone()))
        .and(query_param("pageSize", "25"))
        .and(query_param("sortOrder", "DESC"))
        .and(header("x-trace", "trace-1"));
    let answer = json!({"totalCount": 41, "page": 2, "data": [{"id": "w-21", "name": "blue 21"}]});
    expect_once(&server, full, ok(answer)).await;
    let minimal = call("POST", "/demo/widgets/query", Some(request))
        .and(query_param("pageSize", "20"))
        .and(query_param_is_missing("sortOrder"))
        .and(|req: &wiremock::Request| !req.headers.contains_key("x-trace"));
    expect_once(&server, minimal, ok(json!({"totalCount": 0, "data": []}))).await;

    let mut body = QueryWidgetsRequest::new();
    body.page = Some(2);
    body.search_string = Some("blue".to_owned());
    let page = client
        .demo()
        .calls()
        .query_widgets(25, &body)
        .sort_order(Sort::Desc)
        .x_trace("trace-1")
        .send()
        .await
        .unwrap();
    assert_eq!(page.total_count, Some(41));
    assert_eq!(page.page, Some(2));
    assert_eq!(page.data, Some(vec![widget("w-21", "blue 21")]));
    let empty = client
        .demo()
        .calls()
        .query_widgets(20, &body)
        .send()
        .await
        .unwrap();
    assert_eq!(empty.total_count, Some(0));
    assert_eq!(empty.page, None);
    assert_eq!(empty.data, Some(vec![]));

    let requests = common::api_requests(&server).await;
    assert_eq!(requests[0].url.query(), Some("pageSize=25&sortOrder=DESC"));
    assert_eq!(requests[1].url.query(), Some("pageSize=20"));
}

#[tokio::test]
async fn query_widgets_decodes_an_entitlement_family_error() {
    let (server, client) = fixture().await;
    let raw = r#"{"error":{"code":"ENT-403","message":"not entitled","reason":"no license","suggestion":"buy one"},"requestId":"r-9"}"#;
    let mock =
        call("POST", "/demo/widgets/query", Some(json!({}))).and(query_param("pageSize", "20"));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(403).set_body_raw(raw, "application/json"),
    )
    .await;
    let err = client
        .demo()
        .calls()
        .query_widgets(20, &QueryWidgetsRequest::new())
        .send()
        .await
        .unwrap_err();
    let api = err
        .api_error()
        .unwrap_or_else(|| panic!("expected an API error, got {err:?}"));
    assert_eq!(api.status(), 403);
    assert_eq!(api.request_id(), Some("r-9"));
    assert_eq!(api.message(), Some("not entitled"));
    assert_eq!(api.raw_body(), raw.as_bytes());
    let ErrorBody::ErrorObject(decoded) = api.body() else {
        panic!("expected the error-object shape, got {:?}", api.body());
    };
    assert_eq!(decoded.request_id.as_deref(), Some("r-9"));
    assert_eq!(decoded.error.code.as_deref(), Some("ENT-403"));
    assert_eq!(decoded.error.reason.as_deref(), Some("no license"));
    assert_eq!(decoded.error.suggestion.as_deref(), Some("buy one"));
}

#[tokio::test]
async fn put_widget_picture_sends_raw_png_bytes() {
    let (server, client) = fixture().await;
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff";
    let mock = Mock::given(method("PUT"))
        .and(path("/demo/widgets/w-1/picture"))
        .and(header("authorization", BEARER))
        .and(header("accept", "application/json"))
        .and(header("content-type", "image/png"))
        .and(body_bytes(png));
    expect_once(&server, mock, ResponseTemplate::new(200)).await;
    client
        .demo()
        .calls()
        .put_widget_picture("w-1", Bytes::from_static(png))
        .send()
        .await
        .unwrap();
    let requests = common::api_requests(&server).await;
    assert_eq!(requests[0].body, png);
}

#[cfg(feature = "experimental")]
#[tokio::test]
async fn preview_widget_is_available_with_the_experimental_feature() {
    let (server, client) = fixture().await;
    let mock = call(
        "POST",
        "/demo/widgets/preview",
        Some(json!({"name": "draft"})),
    );
    expect_once(
        &server,
        mock,
        ok(json!({"id": "preview-1", "name": "draft"})),
    )
    .await;
    let body = Widget::new("draft".to_owned());
    let preview = client
        .demo()
        .calls()
        .preview_widget()
        .body(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(preview, widget("preview-1", "draft"));
}

/// Calling a deprecated operation only compiles warning-free where deprecation is allowed.
#[allow(deprecated)]
async fn list_legacy_widgets(client: &Client) -> Vec<Widget> {
    client
        .demo()
        .calls()
        .list_widgets_legacy()
        .include(true)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn deprecated_list_widgets_legacy_still_works() {
    let (server, client) = fixture().await;
    let mock = call("GET", "/demo/legacy/widgets", None).and(query_param("include", "true"));
    expect_once(&server, mock, ok(json!([{"id": "w-1", "name": "old"}]))).await;
    let widgets = list_legacy_widgets(&client).await;
    assert_eq!(widgets, vec![widget("w-1", "old")]);
}

#[tokio::test]
async fn query_widgets_version_changes_only_the_content_type() {
    let (server, client) = fixture().await;
    let mock = Mock::given(method("POST"))
        .and(path("/demo/widgets/query"))
        .and(header("content-type", "application/vnd.ruckus.v1.1+json"))
        .and(header("accept", "application/json"))
        .and(query_param("pageSize", "20"));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(200).set_body_json(json!({"data": []})),
    )
    .await;
    let page = client
        .demo()
        .calls()
        .query_widgets(20, &QueryWidgetsRequest::new())
        .version(ruckus_one_tests::fixtures::operations::demo::versions::JsonOrV1_1::V1_1)
        .send()
        .await
        .unwrap();
    assert_eq!(page.data, Some(vec![]));
}

#[tokio::test]
async fn unit_token_api_sends_the_configured_token_and_no_oauth_request() {
    let server = MockServer::start().await;
    let mock = Mock::given(method("GET"))
        .and(path("/units"))
        .and(header("authorization", "Bearer unit-7"));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(200).set_body_json(json!({"unit": "7"})),
    )
    .await;
    let config =
        ruckus_one_runtime::Config::new(ruckus_one_runtime::Credentials::new("id", "secret"))
            .api_base_url("portal", server.uri())
            .base_url(server.uri())
            .unit_token("unit-7");
    let client = Client::new(config).expect("valid configuration");
    let unit = client.portal().units().get_unit().send().await.unwrap();
    assert_eq!(unit, json!({"unit": "7"}));
    let requests = server.received_requests().await.unwrap_or_default();
    assert!(
        requests.iter().all(|r| !r.url.path().contains("oauth2")),
        "no token request"
    );
}

// ---- Shapes of the real service: text bodies, Spring paging, 201 and 204 answers, vendor-only
// media types, send_and_wait with a per-call tenant and the raw request.

#[tokio::test]
async fn export_widgets_returns_the_csv_text() {
    let (server, client) = fixture().await;
    let csv = "id,name\r\nw-1,Ünïcode\r\n";
    let mock = Mock::given(method("GET"))
        .and(path("/demo/widgets/csv"))
        .and(header("accept", "text/csv"));
    expect_once(
        &server,
        mock,
        ResponseTemplate::new(200).set_body_raw(csv, "text/csv"),
    )
    .await;
    let text = client.demo().calls().export_widgets().send().await.unwrap();
    assert_eq!(text, csv);
}

#[tokio::test]
async fn spring_paging_reads_three_pages_and_stops_on_the_last() {
    use futures_util::StreamExt;
    let (server, client) = fixture().await;
    for page in 0..3u32 {
        let items: Vec<_> = (0..2)
            .map(|i| json!({"id": format!("w-{page}-{i}"), "name": "n"}))
            .collect();
        let mock = Mock::given(method("GET"))
            .and(path("/demo/widgets/registrations"))
            .and(query_param("page", page.to_string()))
            .and(query_param("size", "2"));
        let answer = ok(json!({"content": items, "totalElements": 6, "last": page == 2}));
        expect_once(&server, mock, answer).await;
    }
    let mut pages = client
        .demo()
        .calls()
        .list_widget_registrations()
        .size(2)
        .pages();
    let mut ids = Vec::new();
    while let Some(page) = pages.next().await {
        let page = page.unwrap();
        ids.extend(
            page.content
                .unwrap_or_default()
                .into_iter()
                .filter_map(|w| w.id),
        );
    }
    assert_eq!(ids.len(), 6, "{ids:?}");
    assert_eq!(ids[5], "w-2-1");
    // expect_once on each page, and no mock for page 3: a fourth request would fail the test.
    assert_eq!(common::api_requests(&server).await.len(), 3);
}

#[tokio::test]
async fn a_201_create_decodes_the_created_object() {
    let (server, client) = fixture().await;
    let mock = call("POST", "/demo/widgets/now", Some(json!({"name": "New"})));
    let answer = ResponseTemplate::new(201).set_body_json(json!({"id": "w-7", "name": "New"}));
    expect_once(&server, mock, answer).await;
    let created = client
        .demo()
        .calls()
        .create_widget_now(&Widget::new("New".to_owned()))
        .send()
        .await
        .unwrap();
    assert_eq!(created, widget("w-7", "New"));
}

#[tokio::test]
async fn a_bulk_delete_sends_its_body_and_a_204_returns_unit() {
    let (server, client) = fixture().await;
    let mock = call("DELETE", "/demo/widgets", Some(json!(["w-1", "w-2"])));
    expect_once(&server, mock, ResponseTemplate::new(204)).await;
    let ids = vec!["w-1".to_owned(), "w-2".to_owned()];
    let () = client
        .demo()
        .calls()
        .delete_widgets(&ids)
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn a_vendor_only_operation_sends_the_vendor_type_and_a_204_decodes_as_null() {
    let (server, client) = fixture().await;
    let vendor = "application/vnd.ruckus.v1.1+json";
    let mock = Mock::given(method("PATCH"))
        .and(path("/demo/widgets/w-1"))
        .and(header("content-type", vendor))
        .and(header("accept", vendor))
        .and(body_json(json!({"name": "x"})));
    expect_once(&server, mock, ResponseTemplate::new(204)).await;
    let answer = client
        .demo()
        .calls()
        .patch_widget_vendor_only("w-1", &json!({"name": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer, serde_json::Value::Null);
}

#[tokio::test]
async fn selecting_a_version_changes_both_media_type_headers() {
    let (server, client) = fixture().await;
    expect_update_widget(&server, "application/vnd.ruckus.v2+json", "v2").await;
    let body = widget("w-1", "v2");
    let updated = client
        .demo()
        .calls()
        .update_widget("w-1", &body)
        .version(V1OrV1_1OrV2::V2)
        .send()
        .await
        .unwrap();
    assert_eq!(updated, body);
}

#[tokio::test]
async fn send_and_wait_polls_the_activity_as_the_tenant_of_the_call() {
    let (server, client) = fixture().await;
    let mock = call("POST", "/demo/widgets", Some(json!({"name": "New"})))
        .and(header("x-rks-tenantid", "tenant-9"));
    let answer = ResponseTemplate::new(202).set_body_json(json!({"requestId": "req-5"}));
    expect_once(&server, mock, answer).await;
    let poll = Mock::given(method("GET"))
        .and(path("/demo/activities/req-5"))
        .and(header("x-rks-tenantid", "tenant-9"));
    expect_once(
        &server,
        poll,
        ok(json!({"status": "SUCCESS", "requestId": "req-5"})),
    )
    .await;
    let options = ruckus_one_runtime::WaitOptions::default()
        .initial_interval(std::time::Duration::from_millis(1));
    let done = client
        .demo()
        .calls()
        .create_widget(&Widget::new("New".to_owned()))
        .tenant("tenant-9")
        .send_and_wait(&options)
        .await
        .unwrap();
    assert_eq!(done.accepted().request_id, "req-5");
    assert_eq!(done.activity().status.as_deref(), Some("SUCCESS"));
}

#[tokio::test]
async fn the_raw_request_uses_auth_tenant_retries_and_typed_errors() {
    let (server, _) = fixture().await;
    let config = common::config(&server).retry(
        ruckus_one_runtime::RetryPolicy::default()
            .initial_backoff(std::time::Duration::from_millis(1)),
    );
    let client = Client::new(config).unwrap();
    let route = || {
        Mock::given(method("GET"))
            .and(path("/demo/things/a%2Fb"))
            .and(query_param("q", "1"))
            .and(header("authorization", BEARER))
            .and(header("x-rks-tenantid", "t-1"))
    };
    route()
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .expect(1)
        .mount(&server)
        .await;
    route()
        .respond_with(ok(json!({"id": "a/b", "name": "thing"})))
        .expect(1)
        .mount(&server)
        .await;
    let thing: Widget = client
        .demo()
        .raw(ruckus_one_runtime::Method::Get, "/things/a%2Fb")
        .query("q", 1)
        .tenant("t-1")
        .send_json()
        .await
        .unwrap();
    assert_eq!(thing, widget("a/b", "thing"));

    let bad = r#"{"requestId":"r-1","errors":[{"code":"DEMO-1","message":"nope"}]}"#;
    expect_once(
        &server,
        Mock::given(method("DELETE")).and(path("/demo/things/x")),
        ResponseTemplate::new(400).set_body_raw(bad, "application/json"),
    )
    .await;
    let err = client
        .demo()
        .raw(ruckus_one_runtime::Method::Delete, "/things/x")
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400));
    assert_eq!(err.code(), Some("DEMO-1"));
    assert_eq!(err.message(), Some("nope"));
}

#[tokio::test]
async fn with_response_keeps_status_headers_and_request_id() {
    let (server, client) = fixture().await;
    let mock = call("POST", "/demo/widgets/now", Some(json!({"name": "New"})));
    let answer = ResponseTemplate::new(201)
        .insert_header("x-request-id", "req-77")
        .insert_header("location", "/widgets/w-7")
        .set_body_json(json!({"id": "w-7", "name": "New"}));
    expect_once(&server, mock, answer).await;
    let response = client
        .demo()
        .calls()
        .create_widget_now(&Widget::new("New".to_owned()))
        .send()
        .with_response()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    assert_eq!(response.request_id(), Some("req-77"));
    assert_eq!(response.header("location"), Some("/widgets/w-7"));
    assert_eq!(response.into_body(), widget("w-7", "New"));
}

#[tokio::test]
async fn per_call_timeout_and_retry_override_the_client() {
    let (server, client) = fixture().await;
    // The client retries 503 by default; this call asks for no retry: one request, one error.
    let route = || Mock::given(method("GET")).and(path("/demo/widgets/csv"));
    route()
        .respond_with(ResponseTemplate::new(503))
        .expect(1)
        .mount(&server)
        .await;
    let err = client
        .demo()
        .calls()
        .export_widgets()
        .retry(ruckus_one_runtime::RetryPolicy::none())
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503));
    server.reset().await;
    // A slow answer beyond this call's own deadline is a timeout (the token is cached).
    route()
        .respond_with(ResponseTemplate::new(200).set_delay(std::time::Duration::from_secs(5)))
        .mount(&server)
        .await;
    // Without the deadline the answer would come (and the call succeed) after 5 s: a timeout
    // error is the proof, no clock is read.
    let err = client
        .demo()
        .calls()
        .export_widgets()
        .timeout(std::time::Duration::from_millis(200))
        .retry(ruckus_one_runtime::RetryPolicy::none())
        .send()
        .await
        .unwrap_err();
    assert!(matches!(err, ruckus_one_runtime::Error::Timeout), "{err:?}");
    assert!(err.status().is_none(), "{err:?}");
}

#[tokio::test]
async fn items_stream_every_widget_even_when_the_server_caps_the_page_size() {
    use futures_util::StreamExt;
    let (server, client) = fixture().await;
    // Asked for 10 per page; the server gives at most 5 and states the total of 12.
    for page in 0..3u32 {
        let items: Vec<_> = (page * 5..(page * 5 + 5).min(12))
            .map(|i| json!({"id": format!("w-{i}"), "name": "n"}))
            .collect();
        let mock = Mock::given(method("GET"))
            .and(path("/demo/widgets"))
            .and(query_param("page", page.to_string()))
            .and(query_param("pageSize", "10"));
        let answer = ok(json!({
            "content": items,
            "paging": {"page": page, "pageSize": 5},
            "totalCount": 12,
        }));
        expect_once(&server, mock, answer).await;
    }
    let widgets: Vec<Widget> = client
        .demo()
        .calls()
        .list_widgets_paged()
        .page_size(10)
        .items()
        .map(Result::unwrap)
        .collect()
        .await;
    let ids: Vec<_> = widgets.iter().filter_map(|w| w.id.as_deref()).collect();
    assert_eq!(ids.len(), 12, "{ids:?}");
    assert_eq!(ids[11], "w-11");
    assert_eq!(widgets[0].name, "n");
    // expect_once on each page, and no mock for page 3: a fourth request would fail the test.
    assert_eq!(common::api_requests(&server).await.len(), 3);
}
