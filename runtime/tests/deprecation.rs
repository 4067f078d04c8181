//! Issue 33 item 2: an answer carrying deprecation headers is said once per operation and
//! version per process (WARN), however many calls, and is readable from the response.

mod common;

use common::capture::Capture;
use common::*;
use ruckus_one_runtime::Method;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Request};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

/// An operation with two versions (index 0 is v2, index 1 v1).
static GET_OLD: Operation = Operation {
    id: "get_old",
    method: Method::Get,
    path: "/old",
    api: &API,
    versions: &[
        MediaTypes {
            content_type: None,
            accept: "application/vnd.ruckus.v2+json",
        },
        MediaTypes {
            content_type: None,
            accept: "application/vnd.ruckus.v1+json",
        },
    ],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

const MESSAGE: &str = "the service says this operation (in this version) is deprecated";

#[tokio::test]
async fn one_warn_per_operation_and_version_however_many_calls() {
    let (capture, _guard) = Capture::install();
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/old"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("ruckus-deprecated", "true")
                .insert_header("ruckus-current-version", "v3")
                .insert_header("sunset", "Sun, 01 Mar 2026 00:00:00 GMT")
                .set_body_json(json!({"id": "1"})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/7"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "7"})))
        .mount(&server)
        .await;
    let client = client(&server);
    for version in [0, 1, 0, 1, 0] {
        for _ in 0..3 {
            let mut request = Request::new(&client, &GET_OLD, &[]);
            request.version(version);
            let response = request.send_raw().await.expect("answered");
            let found = response.deprecation().expect("deprecation headers");
            assert_eq!(found.deprecated.as_deref(), Some("true"));
            assert_eq!(found.current_version.as_deref(), Some("v3"));
            assert!(found.sunset_time().is_some());
        }
    }
    // An answer without the headers says nothing.
    let response = Request::new(&client, &GET_THING, &["7"])
        .send_raw()
        .await
        .expect("answered");
    assert_eq!(response.deprecation(), None);
    let _: Value = response.json().expect("json");

    let warned = capture.events_saying(MESSAGE);
    let mut said: Vec<(String, String)> = warned
        .iter()
        .map(|e| {
            assert_eq!(e.level, tracing::Level::WARN);
            assert_eq!(
                e.fields.get("current_version").map(String::as_str),
                Some("v3")
            );
            assert!(
                e.fields.get("sunset").is_some_and(|s| s.contains("2026")),
                "{e:?}"
            );
            (e.fields["operation"].clone(), e.fields["version"].clone())
        })
        .collect();
    said.sort();
    assert_eq!(
        said,
        [
            ("get_old".to_owned(), "v1".to_owned()),
            ("get_old".to_owned(), "v2".to_owned())
        ],
        "{warned:?}"
    );
}
