//! A multipart body of an operation that declares a versioned multipart media type
//! (`multipart/vnd.ruckus.v1+form-data`): the `Content-Type` names that type with the boundary
//! the bytes use, through a loopback server and the client.

mod common;

use common::*;
use ruckus_one_runtime::internal::{MediaTypes, Operation, Request, Service};
use ruckus_one_runtime::{Method, Multipart};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

/// An upload offering the vendor's `v1` multipart type (the default) and plain form data.
static VERSIONED_UPLOAD: Operation = Operation {
    id: "versioned_upload",
    method: Method::Post,
    path: "/files",
    api: &API,
    versions: &[
        MediaTypes {
            content_type: Some("multipart/vnd.ruckus.v1+form-data"),
            accept: "application/json",
        },
        MediaTypes {
            content_type: Some("multipart/form-data"),
            accept: "application/json",
        },
    ],
    error_family: ruckus_one_runtime::internal::ErrorFamily::ErrorsArray,
    service: &Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

/// Sends one upload in representation `version` and returns its `Content-Type` and body.
async fn upload(version: usize) -> (String, Vec<u8>) {
    let server = server().await;
    Mock::given(method("POST"))
        .and(path("/api/files"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let client = client(&server);
    let mut call = Request::new(&client, &VERSIONED_UPLOAD, &[]);
    call.version(version);
    call.multipart(Multipart::new().file("file", "a.csv", "text/csv", b"a,b\n1,2\n".to_vec()));
    call.send_empty().await.unwrap();
    let requests = received(&server, "/api/files").await;
    assert_eq!(requests.len(), 1);
    let content_type = header(&requests[0], "content-type")
        .expect("a Content-Type")
        .to_owned();
    (content_type, requests[0].body.clone())
}

/// The boundary of `content_type` after `essence; boundary=`, checked against the body's first
/// and closing delimiters.
fn boundary_agrees(content_type: &str, essence: &str, body: &[u8]) {
    let boundary = content_type
        .strip_prefix(&format!("{essence}; boundary="))
        .unwrap_or_else(|| panic!("{content_type}"));
    assert!(!boundary.is_empty(), "{content_type}");
    assert!(
        body.starts_with(format!("--{boundary}\r\n").as_bytes()),
        "{content_type}: {}",
        String::from_utf8_lossy(body)
    );
    assert!(
        body.ends_with(format!("\r\n--{boundary}--\r\n").as_bytes()),
        "{content_type}: {}",
        String::from_utf8_lossy(body)
    );
}

#[tokio::test]
async fn the_default_version_sends_the_versioned_multipart_type_with_the_body_boundary() {
    let (content_type, body) = upload(0).await;
    boundary_agrees(&content_type, "multipart/vnd.ruckus.v1+form-data", &body);
    let text = String::from_utf8_lossy(&body);
    assert!(
        text.contains(
            "name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n"
        ),
        "{text}"
    );
}

#[tokio::test]
async fn the_plain_version_sends_multipart_form_data() {
    let (content_type, body) = upload(1).await;
    boundary_agrees(&content_type, "multipart/form-data", &body);
}
