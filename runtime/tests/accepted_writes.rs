//! A write the service took (201 or 202 to any method, any success to PUT, PATCH or DELETE) whose
//! answer does not decode: the error keeps the status, the request id and the raw body, says the
//! write was accepted, is not retryable, and the client sends the write once. A POST answered 200
//! (a query, perhaps) and a GET say nothing of a write.

mod common;

use common::*;
use ruckus_one_runtime::Error;
use ruckus_one_runtime::internal::{Operation, Request};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Created {
    id: u32,
}

async fn decode_error(
    op: &'static Operation,
    verb: &str,
    url_path: &str,
    status: u16,
) -> (Error, usize) {
    let server = server().await;
    Mock::given(method(verb))
        .and(path(url_path))
        .respond_with(
            ResponseTemplate::new(status)
                .insert_header("x-request-id", "req-w")
                .set_body_json(json!({"requestId": "req-w", "id": "not a number"})),
        )
        .mount(&server)
        .await;
    let params: &[&str] = if url_path.ends_with("/1") {
        &["1"]
    } else {
        &[]
    };
    let client = client(&server);
    let mut request = Request::new(&client, op, params);
    if verb != "GET" {
        request.json(&json!({"name": "x"}));
    }
    let err = request.send_json::<Created>().await.unwrap_err();
    let sent = received(&server, url_path).await.len();
    (err, sent)
}

#[tokio::test]
async fn an_accepted_write_whose_answer_does_not_decode_says_so_and_is_sent_once() {
    for (op, verb, url_path, status) in [
        (&POST_THING, "POST", "/api/things", 202),
        (&POST_THING, "POST", "/api/things", 201),
        (&PUT_THING, "PUT", "/api/things/1", 200),
        (&PATCH_THING, "PATCH", "/api/things/1", 200),
        (&DELETE_THING, "DELETE", "/api/things/1", 200),
    ] {
        let (err, sent) = decode_error(op, verb, url_path, status).await;
        let Error::Decode(decode) = &err else {
            panic!("{verb} {status}: {err:?}")
        };
        assert_eq!(decode.status(), status);
        assert_eq!(decode.request_id(), Some("req-w"));
        assert!(
            std::str::from_utf8(decode.raw_body())
                .unwrap()
                .contains("not a number"),
            "the raw body is kept"
        );
        assert!(
            decode.message().contains("accepted the write"),
            "{verb} {status}: {}",
            decode.message()
        );
        assert!(err.to_string().contains("accepted the write"), "{err}");
        assert!(!err.is_retryable());
        assert_eq!(sent, 1, "{verb} {status} was sent again");
    }
}

#[tokio::test]
async fn a_post_answered_200_or_a_get_is_not_called_a_write() {
    let (err, _) = decode_error(&POST_THING, "POST", "/api/things", 200).await;
    assert!(!err.to_string().contains("accepted the write"), "{err}");
    let (err, _) = decode_error(&GET_THING, "GET", "/api/things/1", 200).await;
    assert!(!err.to_string().contains("accepted the write"), "{err}");
}
