//! What goes on the wire: URLs, path and query encoding, headers, tenants,
//! bodies.

mod common;

use std::collections::HashMap;

use common::*;
use ruckus_one_runtime::internal::Request;
use ruckus_one_runtime::{Client, Config, Credentials, Error, Multipart};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn invalid(err: &Error) -> &str {
    match err {
        Error::InvalidRequest { message } => message,
        other => panic!("expected InvalidRequest, got {other:?}"),
    }
}

fn invalid_tenant(err: &Error) -> &str {
    match err {
        Error::InvalidTenantId { message } => message,
        other => panic!("expected InvalidTenantId, got {other:?}"),
    }
}

/// A client whose `config` API is the raw server and whose token endpoint
/// is `server`.
fn raw_client(server: &MockServer, raw: &RawServer) -> Client {
    Client::new(
        config(server).api_base_url("config", format!("{}/api", raw.base)),
        &AUTH,
    )
    .unwrap()
}

#[tokio::test]
async fn path_parameters_are_single_encoded_segments() {
    let server = server().await;
    let raw = RawServer::start();
    let client = raw_client(&server, &raw);
    for value in ["a/../b", "x y?z#%", "...", "é", "~a-b_c.d"] {
        Request::new(&client, &GET_THING, &[value])
            .send_empty()
            .await
            .unwrap();
    }
    assert_eq!(
        raw.request_lines(),
        [
            "GET /api/things/a%2F..%2Fb HTTP/1.1",
            "GET /api/things/x%20y%3Fz%23%25 HTTP/1.1",
            "GET /api/things/... HTTP/1.1",
            "GET /api/things/%C3%A9 HTTP/1.1",
            "GET /api/things/~a-b_c.d HTTP/1.1",
        ]
    );
}

#[tokio::test]
async fn dot_segments_and_empty_parameters_are_refused_before_sending() {
    let server = server().await;
    let client = client(&server);
    for value in ["..", ".", ""] {
        let err = Request::new(&client, &GET_THING, &[value])
            .send_empty()
            .await
            .unwrap_err();
        assert!(invalid(&err).contains("thingId"), "{err}");
    }
    let err = Request::new(&client, &GET_THING, &[])
        .send_empty()
        .await
        .unwrap_err();
    invalid(&err);
    let err = Request::new(&client, &GET_THING, &["a", "b"])
        .send_empty()
        .await
        .unwrap_err();
    invalid(&err);
    // Nothing was sent, not even a token request.
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// Why `.` and `..` are refused rather than sent as `%2E` / `%2E%2E`: the
/// URL parser under the HTTP stack treats those spellings as dot segments and
/// removes them. If this test starts failing, the parser changed and the
/// encoded forms could be allowed.
#[tokio::test]
async fn encoded_dot_segments_would_be_normalised_by_the_http_stack() {
    let raw = RawServer::start();
    let http = reqwest::Client::new();
    http.get(format!("{}/api/things/%2E%2E", raw.base))
        .send()
        .await
        .unwrap();
    http.get(format!("{}/api/things/%2E", raw.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        raw.request_lines(),
        ["GET /api/ HTTP/1.1", "GET /api/things/ HTTP/1.1"]
    );
}

#[tokio::test]
async fn query_parameters_are_encoded_and_repeatable() {
    let server = server().await;
    let raw = RawServer::start();
    let client = raw_client(&server, &raw);
    let mut request = Request::new(&client, &GET_THINGS, &[]);
    request.query("page", &1);
    request.query("search", &"a b&c=d/é");
    request.query("id", &"x");
    request.query("id", &"y");
    request.send_empty().await.unwrap();
    assert_eq!(
        raw.request_lines(),
        ["GET /api/things?page=1&search=a%20b%26c%3Dd%2F%C3%A9&id=x&id=y HTTP/1.1"]
    );
}

#[tokio::test]
async fn base_url_and_prefix_composition() {
    let server = server().await;
    for url_path in [
        "/api/things",
        "/ai/users",
        "/analytics/users",
        "/elsewhere/v9/users",
    ] {
        Mock::given(method("GET"))
            .and(path(url_path))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .expect(1)
            .mount(&server)
            .await;
    }
    // Host override keeps each API's prefix.
    let client = client(&server);
    assert_eq!(client.base_url(&AI), format!("{}/ai", server.uri()));
    Request::new(&client, &GET_THINGS, &[])
        .send_empty()
        .await
        .unwrap();
    Request::new(&client, &GET_USERS, &[])
        .send_empty()
        .await
        .unwrap();
    // Prefix override.
    let client = Client::new(config(&server).api_prefix("ai", "/analytics"), &AUTH).unwrap();
    Request::new(&client, &GET_USERS, &[])
        .send_empty()
        .await
        .unwrap();
    // Complete base URL for one API.
    let client = Client::new(
        config(&server).api_base_url("ai", format!("{}/elsewhere/v9/", server.uri())),
        &AUTH,
    )
    .unwrap();
    Request::new(&client, &GET_USERS, &[])
        .send_empty()
        .await
        .unwrap();
}

#[tokio::test]
async fn default_base_urls_are_the_regional_hosts() {
    let config = Config::new(Credentials::new("id", "secret"));
    let client = Client::new(config.clone(), &AUTH).unwrap();
    assert_eq!(client.base_url(&API), "https://api.ruckus.cloud/api");
    let client = Client::new(config.region(ruckus_one_runtime::Region::Asia), &AUTH).unwrap();
    assert_eq!(client.base_url(&AI), "https://api.asia.ruckus.cloud/ai");
}

#[tokio::test]
async fn invalid_urls_are_refused_by_the_constructor() {
    let base = Config::new(Credentials::new("id", "secret"));
    for config in [
        base.clone().base_url("not a url"),
        base.clone().api_base_url("ai", "ftp://x"),
        base.clone().token_url("/relative"),
        base.clone().user_agent("bad\nagent"),
    ] {
        invalid(&Client::new(config, &AUTH).unwrap_err());
    }
}

#[tokio::test]
async fn tenant_header_per_client_and_per_call() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let plain = client(&server);
    let delegated = Client::new(config(&server).delegated_tenant("tenant-a"), &AUTH).unwrap();
    let other = plain.with_tenant("tenant-b").unwrap();
    assert_eq!(other.delegated_tenant(), Some("tenant-b"));
    assert_eq!(delegated.without_tenant().delegated_tenant(), None);

    Request::new(&plain, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    Request::new(&delegated, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    Request::new(&other, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap();
    let mut call = Request::new(&delegated, &GET_THING, &["1"]);
    call.tenant("tenant-c");
    call.send_empty().await.unwrap();
    let mut call = Request::new(&plain, &GET_THING, &["1"]);
    call.tenant("tenant-d");
    call.send_empty().await.unwrap();

    let seen: Vec<Option<String>> = received(&server, "/api/things/1")
        .await
        .iter()
        .map(|r| header(r, "x-rks-tenantid").map(str::to_owned))
        .collect();
    assert_eq!(
        seen,
        [
            None,
            Some("tenant-a".into()),
            Some("tenant-b".into()),
            Some("tenant-c".into()),
            Some("tenant-d".into()),
        ]
    );
    // `plain` and its `with_tenant` clone share a token; `delegated` was
    // built separately and has its own cache.
    assert_eq!(token_requests(&server).await, 2);
}

#[tokio::test]
async fn line_breaks_in_tenants_and_headers_are_refused() {
    let server = server().await;
    let err = Client::new(config(&server).delegated_tenant("a\r\nx-evil: 1"), &AUTH).unwrap_err();
    invalid_tenant(&err);
    let client = client(&server);
    invalid_tenant(&client.with_tenant("a\nb").unwrap_err());
    invalid_tenant(&client.with_tenant("").unwrap_err());
    // A dot segment would name another path in the token URL (`/oauth2/token/..`).
    for dots in [".", ".."] {
        let err = Client::new(config(&server).token_tenant_id(dots), &AUTH).unwrap_err();
        assert!(invalid_tenant(&err).contains("dot segment"), "{err}");
        invalid_tenant(&client.with_tenant(dots).unwrap_err());
    }
    // Three dots are a name like any other.
    Client::new(config(&server).token_tenant_id("..."), &AUTH).unwrap();

    let mut call = Request::new(&client, &GET_THING, &["1"]);
    call.tenant("t\r\n");
    invalid_tenant(&call.send_empty().await.unwrap_err());

    let mut call = Request::new(&client, &GET_THING, &["1"]);
    call.header("x-note", &"one\r\nx-evil: 1");
    let err = call.send_empty().await.unwrap_err();
    assert!(invalid(&err).contains("x-note"));
    assert!(!err.to_string().contains("evil"), "the value is not echoed");

    let mut call = Request::new(&client, &GET_THING, &["1"]);
    call.header("bad header", &"v");
    invalid(&call.send_empty().await.unwrap_err());

    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn media_types_follow_the_selected_version() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/venues"))
        .respond_with(ResponseTemplate::new(202).set_body_json(json!({"requestId": "r"})))
        .mount(&server)
        .await;
    let client = client(&server);
    let mut call = Request::new(&client, &CREATE_VENUE, &[]);
    call.json(&json!({"name": "v1"}));
    call.send_empty().await.unwrap();
    let mut call = Request::new(&client, &CREATE_VENUE, &[]);
    call.version(1);
    call.json(&json!({"name": "v1.1"}));
    call.send_empty().await.unwrap();
    let mut call = Request::new(&client, &CREATE_VENUE, &[]);
    call.version(2);
    assert!(invalid(&call.send_empty().await.unwrap_err()).contains("out of range"));

    let requests = received(&server, "/api/venues").await;
    assert_eq!(requests.len(), 2);
    let (v1, v11) = (&requests[0], &requests[1]);
    assert_eq!(header(v1, "accept"), Some("application/vnd.ruckus.v1+json"));
    assert_eq!(
        header(v1, "content-type"),
        Some("application/vnd.ruckus.v1+json")
    );
    assert_eq!(v1.body_json::<Value>().unwrap(), json!({"name": "v1"}));
    assert_eq!(
        header(v11, "accept"),
        Some("application/vnd.ruckus.v1.1+json")
    );
    assert_eq!(
        header(v11, "content-type"),
        Some("application/vnd.ruckus.v1.1+json")
    );
    assert_eq!(
        header(v1, "authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    assert!(
        header(v1, "user-agent")
            .unwrap()
            .starts_with("ruckus-one-rust/")
    );
}

#[tokio::test]
async fn get_without_body_has_no_content_type_and_custom_headers_pass() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).user_agent("my-app/1.0"), &AUTH).unwrap();
    let mut call = Request::new(&client, &GET_THING, &["1"]);
    call.header("X-Trace", &42);
    call.header("authorization", &"Bearer forged");
    call.send_empty().await.unwrap();
    let request = &received(&server, "/api/things/1").await[0];
    assert_eq!(header(request, "content-type"), None);
    assert_eq!(header(request, "accept"), Some("application/json"));
    assert_eq!(header(request, "x-trace"), Some("42"));
    assert_eq!(header(request, "user-agent"), Some("my-app/1.0"));
    let auth: Vec<_> = request.headers.get_all("authorization").iter().collect();
    assert_eq!(auth, [format!("Bearer {TOKEN}").as_str()]);
}

#[tokio::test]
async fn form_body() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/forms"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let client = client(&server);
    let mut call = Request::new(&client, &POST_FORM, &[]);
    call.form(&[("name", "a b"), ("kind", "x&y")]);
    call.send_empty().await.unwrap();
    let request = &received(&server, "/api/forms").await[0];
    assert_eq!(
        header(request, "content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let form: Vec<(String, String)> = serde_urlencoded::from_bytes(&request.body).unwrap();
    assert_eq!(
        form,
        [
            ("name".to_owned(), "a b".to_owned()),
            ("kind".to_owned(), "x&y".to_owned())
        ]
    );
}

#[tokio::test]
async fn multipart_body_contains_its_parts_and_survives_a_retry() {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/uploads"))
        .respond_with(ResponseTemplate::new(429))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/uploads"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .with_priority(2)
        .mount(&server)
        .await;
    let client = client(&server);
    let png = vec![0x89, b'P', b'N', b'G', 0, 255, b'\r', b'\n'];
    let mut call = Request::new(&client, &UPLOAD, &[]);
    call.multipart(Multipart::new().text("description", "floor \"1\"").file(
        "file",
        "plan.png",
        "image/png",
        png.clone(),
    ));
    call.send_empty().await.unwrap();

    let requests = received(&server, "/api/uploads").await;
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].body, requests[1].body);
    let content_type = header(&requests[1], "content-type").unwrap();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap_or_else(|| panic!("{content_type}"));
    let parts = split_multipart(&requests[1].body, boundary);
    assert_eq!(parts.len(), 2);
    assert_eq!(
        parts[0].0,
        "Content-Disposition: form-data; name=\"description\""
    );
    assert_eq!(parts[0].1, b"floor \"1\"");
    assert_eq!(
        parts[1].0,
        "Content-Disposition: form-data; name=\"file\"; filename=\"plan.png\"\r\nContent-Type: image/png"
    );
    assert_eq!(parts[1].1, png);
}

/// Splits a multipart body into (headers, content) pairs.
fn split_multipart(body: &[u8], boundary: &str) -> Vec<(String, Vec<u8>)> {
    let delimiter = format!("--{boundary}");
    let text = body.to_vec();
    let mut parts = Vec::new();
    let mut rest: &[u8] = &text;
    assert!(rest.starts_with(delimiter.as_bytes()));
    loop {
        rest = &rest[delimiter.len()..];
        if rest.starts_with(b"--") {
            assert_eq!(rest, b"--\r\n");
            break;
        }
        rest = rest.strip_prefix(b"\r\n").expect("CRLF after delimiter");
        let next = format!("\r\n{delimiter}");
        let end = rest
            .windows(next.len())
            .position(|w| w == next.as_bytes())
            .expect("closing delimiter");
        let part = &rest[..end];
        let split = part
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("blank line");
        parts.push((
            String::from_utf8(part[..split].to_vec()).unwrap(),
            part[split + 4..].to_vec(),
        ));
        rest = &rest[end + 2..];
    }
    parts
}

#[tokio::test]
async fn binary_body_defaults_to_octet_stream() {
    let server = server().await;
    Mock::given(method("PUT"))
        .and(path("/api/blobs/b1"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let client = client(&server);
    let mut call = Request::new(&client, &PUT_BLOB, &["b1"]);
    call.binary(bytes::Bytes::from_static(b"\x00\x01binary"));
    call.send_empty().await.unwrap();
    let request = &received(&server, "/api/blobs/b1").await[0];
    assert_eq!(
        header(request, "content-type"),
        Some("application/octet-stream")
    );
    assert_eq!(header(request, "accept"), Some("*/*"));
    assert_eq!(request.body, b"\x00\x01binary");
}

#[tokio::test]
async fn unserializable_body_is_an_invalid_request() {
    let server = server().await;
    let client = client(&server);
    let mut map = HashMap::new();
    map.insert((1, 2), "tuple keys are not JSON object keys");
    let mut call = Request::new(&client, &POST_THING, &[]);
    call.json(&map);
    assert!(invalid(&call.send_empty().await.unwrap_err()).contains("JSON"));
    let mut call = Request::new(&client, &POST_FORM, &[]);
    call.form(&json!({"nested": {"not": "flat"}}));
    assert!(invalid(&call.send_empty().await.unwrap_err()).contains("form"));
    let mut call = Request::new(&client, &UPLOAD, &[]);
    call.multipart(Multipart::new().file("f", "x", "text/plain\r\nx: y", vec![]));
    invalid(&call.send_empty().await.unwrap_err());
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[test]
fn send_futures_are_send() {
    fn assert_send<T: Send>(_: &T) {}
    let client = Client::new(Config::new(Credentials::new("id", "secret")), &AUTH).unwrap();
    let call = Request::new(&client, &GET_THING, &["1"]);
    assert_send(&call);
    assert_send(&call.send_json::<Value>());
    assert_send(&Request::new(&client, &GET_THING, &["1"]).send_raw());
}

/// Issue 9: a leading space was accepted and the server read the id
/// trimmed (another tenant than configured); non-ASCII ids went out as raw
/// bytes; a 100 KB id was accepted. Every way of giving a tenant id refuses
/// them before anything is sent.
#[tokio::test]
async fn tenant_ids_are_checked_before_anything_is_sent() {
    let server = MockServer::start().await;
    let client = client(&server);
    let long = "t".repeat(129);
    let huge = "t".repeat(100_000);
    let bad = [
        (" tenant-a", "white space"),
        ("tenant-a ", "white space"),
        ("\ttenant-a", "white space"),
        ("tenant a", "visible ASCII"),
        ("ténant", "visible ASCII"),
        ("tenant\u{7f}", "visible ASCII"),
        ("tenant\u{a0}", "white space"),
        (long.as_str(), "longer than 128"),
        (huge.as_str(), "longer than 128"),
        ("", "empty"),
    ];
    for (id, problem) in bad {
        let mut errors = vec![
            Client::new(config(&server).delegated_tenant(id), &AUTH).unwrap_err(),
            Client::new(config(&server).token_tenant_id(id), &AUTH).unwrap_err(),
            client.with_tenant(id).unwrap_err(),
            ruckus_one_runtime::RawRequest::new(
                &client,
                &API,
                ruckus_one_runtime::Method::Get,
                "/x",
            )
            .tenant(id)
            .send_empty()
            .await
            .unwrap_err(),
            ruckus_one_runtime::internal::wait_for_activity_as::<Value>(
                &client,
                &GET_THING,
                "r",
                Some(id),
                &ruckus_one_runtime::WaitOptions::default(),
            )
            .await
            .unwrap_err(),
        ];
        let mut call = Request::new(&client, &GET_THING, &["1"]);
        call.tenant(id);
        errors.push(call.send_empty().await.unwrap_err());
        for err in &errors {
            let message = invalid_tenant(err);
            assert!(message.contains(problem), "{id:?}: {message}");
            assert!(message.contains("tenant id"), "{message}");
            assert!(message.len() < 200, "the id is shortened: {message}");
            assert!(err.to_string().starts_with("invalid tenant id: "), "{err}");
        }
    }
    // 128 visible ASCII characters are fine.
    let longest = "t".repeat(128);
    client.with_tenant(&longest).unwrap();
    client.with_tenant("0123abcd-_.~!").unwrap();
    Client::new(config(&server).token_tenant_id(&longest), &AUTH).unwrap();
    assert!(server.received_requests().await.unwrap().is_empty());
}
