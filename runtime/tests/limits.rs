//! Issue 9: response bodies are read incrementally up to a limit; a larger
//! success body is a typed error, a larger error body is kept cut.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::*;
use ruckus_one_runtime::internal::Request;
use ruckus_one_runtime::{
    Client, DEFAULT_MAX_BODY_SIZE, Error, MAX_ERROR_BODY_SIZE, Method, RawRequest,
};
use serde_json::Value;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

#[test]
fn defaults() {
    assert_eq!(DEFAULT_MAX_BODY_SIZE, 64 * 1024 * 1024);
    assert_eq!(MAX_ERROR_BODY_SIZE, 1024 * 1024);
}

#[tokio::test]
async fn a_success_body_over_the_limit_is_a_typed_error() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/big"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(vec![b'x'; 10_001]))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/fits"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(vec![b'y'; 10_000]))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).max_body_size(10_000), &AUTH).unwrap();

    for send in ["json", "bytes", "text", "empty"] {
        let request = Request::new(&client, &GET_THING, &["big"]);
        let err = match send {
            "json" => request.send_json::<Value>().await.map(drop),
            "bytes" => request.send_bytes().await.map(drop),
            "text" => request.send_text().await.map(drop),
            _ => request.send_empty().await,
        }
        .unwrap_err();
        let Error::BodyTooLarge { limit, status } = err else {
            panic!("{send}: {err:?}")
        };
        assert_eq!((limit, status), (10_000, 200));
        assert!(!err.is_retryable());
        assert_eq!(err.status(), Some(200));
        assert_eq!(
            err.to_string(),
            "the HTTP 200 response body is larger than the limit of 10000 bytes"
        );
    }
    // Not retried: one request per call.
    assert_eq!(received(&server, "/api/things/big").await.len(), 4);
    let body = Request::new(&client, &GET_THING, &["fits"])
        .send_bytes()
        .await
        .unwrap();
    assert_eq!(body.len(), 10_000);

    // A download may take its own limit, per call.
    let mut request = Request::new(&client, &GET_THING, &["big"]);
    request.max_body_size(20_000);
    assert_eq!(request.send_bytes().await.unwrap().len(), 10_001);
    let body = RawRequest::new(&client, &API, Method::Get, "/things/big")
        .max_body_size(20_000)
        .send_bytes()
        .await
        .unwrap();
    assert_eq!(body.len(), 10_001);
    let err = RawRequest::new(&client, &API, Method::Get, "/things/big")
        .send_bytes()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::BodyTooLarge { .. }), "{err:?}");
}

/// A server answering `status` with a chunked body of `total` bytes (no
/// `Content-Length`), in 16 KiB chunks; counts the bytes it managed to
/// write before the client hung up.
fn chunked_server(status: u16, total: usize) -> (String, Arc<AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let written = Arc::new(AtomicUsize::new(0));
    let counter = written.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(8) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
            }
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n"
            );
            if stream.write_all(head.as_bytes()).is_err() {
                continue;
            }
            let chunk = vec![b'z'; 16 * 1024];
            let mut sent = 0;
            while sent < total {
                let framed =
                    [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
                if stream.write_all(&framed).is_err() {
                    break;
                }
                sent += chunk.len();
                counter.fetch_add(chunk.len(), Ordering::SeqCst);
            }
            let _ = stream.write_all(b"0\r\n\r\n");
        }
    });
    (base, written)
}

#[tokio::test]
async fn a_chunked_body_is_read_only_up_to_the_limit() {
    let server = server().await;
    // 256 MiB announced by nothing: the client stops after 64 KiB.
    let (base, written) = chunked_server(200, 256 * 1024 * 1024);
    let client = Client::new(
        config(&server)
            .api_base_url("config", base)
            .max_body_size(64 * 1024),
        &AUTH,
    )
    .unwrap();
    let err = Request::new(&client, &GET_THING, &["1"])
        .send_bytes()
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::BodyTooLarge {
                limit: 65536,
                status: 200
            }
        ),
        "{err:?}"
    );
    // The client stopped reading: the server, which would write 256 MiB,
    // wrote far less. (Give it a moment to notice the hang-up.)
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sent = written.load(Ordering::SeqCst);
    assert!(sent < 32 * 1024 * 1024, "the server wrote {sent} bytes");
}

/// Issue 9: a 1 GB error page added 1 GB of memory and stayed inside the
/// error. Of an error answer the first MiB is kept; the status still drives
/// the retries.
#[tokio::test]
async fn a_large_error_body_is_cut_and_still_retried() {
    let server = server().await;
    let (base, _written) = chunked_server(503, 64 * 1024 * 1024);
    let client = Client::new(config(&server).api_base_url("config", base), &AUTH).unwrap();
    let err = Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503));
    let api = err.api_error().unwrap();
    assert!(api.is_body_truncated());
    assert_eq!(api.raw_body().len(), MAX_ERROR_BODY_SIZE);
    assert!(err.to_string().len() < 400, "{err}");

    // With a smaller body limit, that limit.
    let server2 = server_with_error_page(503, 50_000).await;
    let client = Client::new(config(&server2).max_body_size(1000), &AUTH).unwrap();
    let err = Request::new(&client, &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    let api = err.api_error().unwrap();
    assert_eq!(api.raw_body().len(), 1000);
    assert!(api.is_body_truncated());
    // GET 503 is retried: three attempts.
    assert_eq!(received(&server2, "/api/things/1").await.len(), 3);

    // A small error body is whole.
    let server3 = server_with_error_page(404, 10).await;
    let err = Request::new(&common::client(&server3), &GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert!(!err.api_error().unwrap().is_body_truncated());
    assert_eq!(err.raw_body().unwrap().len(), 10);
}

async fn server_with_error_page(status: u16, size: usize) -> wiremock::MockServer {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(status).set_body_bytes(vec![b'e'; size]))
        .mount(&server)
        .await;
    server
}
