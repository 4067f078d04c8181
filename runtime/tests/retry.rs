//! Which answers are repeated, how often, and after how long.

mod common;

use std::time::{Duration, Instant, SystemTime};

use common::capture::Capture;
use common::*;
use ruckus_one_runtime::internal::{Operation, Request};
use ruckus_one_runtime::{Client, Error, RetryPolicy};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Mounts `first` for the first `times` calls of `method path`, then 200.
async fn fail_then_succeed(
    server: &MockServer,
    http_method: &str,
    url_path: &str,
    first: ResponseTemplate,
    times: u64,
) {
    Mock::given(method(http_method))
        .and(path(url_path))
        .respond_with(first)
        .up_to_n_times(times)
        .with_priority(1)
        .mount(server)
        .await;
    Mock::given(method(http_method))
        .and(path(url_path))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true})))
        .with_priority(2)
        .mount(server)
        .await;
}

async fn call(client: &Client, op: &'static Operation, params: &[&str]) -> Result<Value, Error> {
    let mut request = Request::new(client, op, params);
    if op.method != ruckus_one_runtime::Method::Get {
        request.json(&json!({"name": "x"}));
    }
    request.send_json().await
}

#[tokio::test]
async fn too_many_requests_honours_retry_after_up_to_the_cap() {
    let server = server().await;
    fail_then_succeed(
        &server,
        "POST",
        "/api/things",
        ResponseTemplate::new(429).insert_header("retry-after", "1"),
        1,
    )
    .await;
    let policy = RetryPolicy::default()
        .initial_backoff(Duration::from_secs(5))
        .max_backoff(Duration::from_secs(5))
        .max_retry_after(Duration::from_secs(2));
    let client = Client::new(config(&server).retry(policy), &AUTH).unwrap();

    let (capture, _guard) = Capture::install();
    let started = Instant::now();
    let value = call(&client, &POST_THING, &[]).await.unwrap();
    let elapsed = started.elapsed();
    assert_eq!(value, json!({"ok": true}));
    assert_eq!(received(&server, "/api/things").await.len(), 2);
    // Waited the 1 s Retry-After, not the 5 s backoff: the wait chosen, and
    // at least that long.
    let retries = capture.events_saying("retrying");
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert_eq!(retries[0].fields["delay_ms"], "1000");
    assert_eq!(retries[0].fields["retry_after_s"], "1");
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
}

/// Issue 9: `Retry-After: 86400` made a call wait for the policy's cap
/// (60 s over two retries); a longer demand than the cap now ends the call
/// at once with the answer's error, which tells how long to wait.
#[tokio::test]
async fn retry_after_beyond_the_cap_fails_fast_with_the_answer() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "86400")
                .insert_header("x-request-id", "slow-1"),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/2"))
        .respond_with(
            ResponseTemplate::new(503)
                .insert_header("retry-after", "Fri, 01 Jan 2100 00:00:00 GMT"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry(RetryPolicy::default()), &AUTH).unwrap();
    let (capture, _guard) = Capture::install();
    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    assert_eq!(err.status(), Some(429));
    assert_eq!(err.request_id(), Some("slow-1"));
    assert_eq!(err.retry_after(), Some(Duration::from_secs(86400)));
    let err = call(&client, &GET_THING, &["2"]).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert!(err.retry_after().unwrap() > Duration::from_secs(365 * 86400));
    // No wait was started (each mock expects exactly one request): both
    // calls gave up at once, saying why.
    assert!(capture.events_saying("retrying").is_empty());
    let refused = capture.events_saying(
        "not retrying: the service asks to wait longer than the retry policy allows",
    );
    assert_eq!(refused.len(), 2, "{:?}", capture.events());
}

/// Issue 9: `Retry-After` given as an HTTP date was ignored (the backoff
/// was used instead).
#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    let server = server().await;
    let in_three_seconds = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(3));
    fail_then_succeed(
        &server,
        "GET",
        "/api/things/1",
        ResponseTemplate::new(503).insert_header("retry-after", in_three_seconds.as_str()),
        1,
    )
    .await;
    let policy = RetryPolicy::default()
        .initial_backoff(Duration::from_millis(1))
        .max_backoff(Duration::from_millis(1))
        .max_retry_after(Duration::from_secs(5));
    let client = Client::new(config(&server).retry(policy), &AUTH).unwrap();
    let (capture, _guard) = Capture::install();
    let started = Instant::now();
    call(&client, &GET_THING, &["1"]).await.unwrap();
    let elapsed = started.elapsed();
    // The date has a one-second resolution: the wait chosen is between 2
    // and 3 s (far above the 1 ms backoff the policy would use without the
    // header), and the call waited at least that long.
    let retries = capture.events_saying("retrying");
    assert_eq!(retries.len(), 1, "{retries:?}");
    let delay_ms: u64 = retries[0].fields["delay_ms"].parse().unwrap();
    assert!((1500..=3000).contains(&delay_ms), "{delay_ms}");
    assert!(elapsed >= Duration::from_millis(delay_ms), "{elapsed:?}");
    assert_eq!(received(&server, "/api/things/1").await.len(), 2);
}

/// Issue 9: a server that accepts and never answers held a call for
/// 3 × 60 s. The call timeout bounds the whole call, retries included.
///
/// On tokio's paused clock (started once the token is cached, so that no
/// answer from a real server is awaited with time paused): the API server
/// never answers, so time jumps from timer to timer, and the call's
/// virtual duration is exactly its deadline.
#[tokio::test]
async fn the_call_timeout_bounds_all_attempts() {
    let server = server().await;
    let (base, _count) = silent_server();
    let client = Client::new(
        config(&server)
            .api_base_url("config", base)
            .request_timeout(Duration::from_millis(400))
            .call_timeout(Duration::from_millis(700))
            .retry(fast_retry().max_attempts(5)),
        &AUTH,
    )
    .unwrap();
    warm_token(&client, &server).await;
    let (capture, _guard) = Capture::install();
    tokio::time::pause();
    let started = tokio::time::Instant::now();
    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(err, Error::Timeout), "{err:?}");
    // Two attempts: the first timed out after 400 ms, the second was cut
    // short by the deadline at 700 ms (5 attempts of 400 ms without it).
    let spans = capture.spans("ruckus_one.call");
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert_eq!(spans[0].1.fields["attempts"], "2");
    assert_eq!(spans[0].1.fields["error"], "timeout");
    // Virtual time: the deadline, rounded up to tokio's 1 ms timer tick.
    assert!((700..=701).contains(&elapsed.as_millis()), "{elapsed:?}");
}

/// Obtains and caches `client`'s token from `server` (its token endpoint),
/// with a call of the `ai` API, which `server` answers.
async fn warm_token(client: &Client, server: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/ai/warm"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(server)
        .await;
    ruckus_one_runtime::RawRequest::new(client, &AI, ruckus_one_runtime::Method::Get, "/warm")
        .send_empty()
        .await
        .unwrap();
}

/// The attempt timeout covers the body too: an answer whose body stops coming is a timeout.
/// Real time (a paused clock would jump to the timeout before the server's answer arrives); the
/// outer bound only stops a call that never ends.
#[tokio::test]
async fn a_body_that_stops_coming_is_a_timeout() {
    let server = server().await;
    let client = Client::new(
        config(&server)
            .api_base_url("config", stalling_body_server())
            .request_timeout(Duration::from_millis(300))
            .retry(RetryPolicy::none()),
        &AUTH,
    )
    .unwrap();
    warm_token(&client, &server).await;
    let result = tokio::time::timeout(Duration::from_secs(60), call(&client, &GET_THING, &["1"]))
        .await
        .expect("the call never ended: the body was read without the attempt's timeout");
    let err = result.unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");
}

/// The token request is bounded by the call timeout too.
#[tokio::test]
async fn the_call_timeout_bounds_the_token_request() {
    let (base, _count) = silent_server();
    let client = Client::new(
        ruckus_one_runtime::Config::new(ruckus_one_runtime::Credentials::new(CLIENT_ID, SECRET))
            .base_url(base)
            .call_timeout(Duration::from_millis(300)),
        &AUTH,
    )
    .unwrap();
    // Paused clock: the silent token endpoint never answers, so time jumps
    // to the first timer; the call ends at its deadline (not at the 30 s
    // request timeout), in virtual time.
    tokio::time::pause();
    let started = tokio::time::Instant::now();
    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");
    let elapsed = started.elapsed();
    assert!((300..=301).contains(&elapsed.as_millis()), "{elapsed:?}");
}

/// A wait that would end after the deadline is not made: the last error is
/// returned at once.
#[tokio::test]
async fn a_retry_that_cannot_finish_in_time_is_not_attempted() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(503).insert_header("retry-after", "2"))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(
        config(&server)
            .call_timeout(Duration::from_secs(1))
            .retry(RetryPolicy::default().max_retry_after(Duration::from_secs(5))),
        &AUTH,
    )
    .unwrap();
    let (capture, _guard) = Capture::install();
    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    // The answer's error, not a timeout after waiting (one request, see
    // the mock), and why there was no retry.
    assert_eq!(err.status(), Some(503));
    assert_eq!(err.retry_after(), Some(Duration::from_secs(2)));
    assert!(capture.events_saying("retrying").is_empty());
    let gave_up =
        capture.events_saying("not retrying: the wait would end after the call's deadline");
    assert_eq!(gave_up.len(), 1, "{:?}", capture.events());
}

#[test]
fn default_timeouts_fit_three_attempts_in_the_call_timeout() {
    let config =
        ruckus_one_runtime::Config::new(ruckus_one_runtime::Credentials::new(CLIENT_ID, SECRET));
    let text = format!("{config:?}");
    assert!(text.contains("request_timeout: 30s"), "{text}");
    assert!(text.contains("call_timeout: 120s"), "{text}");
}

/// Accepts connections, reads the request and never answers; counts them.
fn silent_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    holding_server(b"")
}

/// Answers each request with its status line, headers and the first 10 of 100 announced bytes,
/// then sends nothing more.
fn stalling_body_server() -> String {
    let answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"id\": \"12";
    holding_server(answer).0
}

/// Accepts connections, reads the request, writes `answer` (perhaps nothing) and keeps the
/// connection open without another byte, for at most the test's duration; counts them.
fn holding_server(
    answer: &'static [u8],
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = count.clone();
    std::thread::spawn(move || {
        let mut open = Vec::new();
        for mut stream in listener.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let _ = std::io::Write::write_all(&mut stream, answer);
            open.push(stream);
            if open.len() > 50 {
                break;
            }
        }
    });
    (base, count)
}

#[tokio::test]
async fn too_many_requests_without_retry_after_backs_off() {
    let server = server().await;
    fail_then_succeed(
        &server,
        "POST",
        "/api/things",
        ResponseTemplate::new(429),
        2,
    )
    .await;
    let policy = RetryPolicy::default()
        .initial_backoff(Duration::from_millis(40))
        .max_backoff(Duration::from_millis(80));
    let client = Client::new(config(&server).retry(policy), &AUTH).unwrap();

    let started = Instant::now();
    call(&client, &POST_THING, &[]).await.unwrap();
    assert_eq!(received(&server, "/api/things").await.len(), 3);
    // At least initial_backoff before each of the two retries.
    assert!(started.elapsed() >= Duration::from_millis(80));
}

#[tokio::test]
async fn gives_up_after_max_attempts_with_the_last_answer() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("x-request-id", "rate-1")
                .set_body_json(json!({"errors": [{"message": "slow down"}]})),
        )
        .expect(4)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry(fast_retry().max_attempts(4)), &AUTH).unwrap();

    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    assert_eq!(err.status(), Some(429));
    assert_eq!(err.request_id(), Some("rate-1"));
    assert!(err.is_retryable());
    assert_eq!(err.api_error().unwrap().message(), Some("slow down"));
}

#[tokio::test]
async fn retry_policy_none_sends_once() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(503))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry(RetryPolicy::none()), &AUTH).unwrap();
    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
}

#[tokio::test]
async fn locked_is_retried_even_for_post() {
    let server = server().await;
    fail_then_succeed(
        &server,
        "POST",
        "/api/things",
        ResponseTemplate::new(423),
        1,
    )
    .await;
    call(&client(&server), &POST_THING, &[]).await.unwrap();
    assert_eq!(received(&server, "/api/things").await.len(), 2);
}

#[tokio::test]
async fn gateway_errors_are_retried_for_idempotent_methods_only() {
    for (op, http_method) in [
        (&GET_THING, "GET"),
        (&PUT_THING, "PUT"),
        (&DELETE_THING, "DELETE"),
    ] {
        for status in [502, 503, 504] {
            let server = server().await;
            fail_then_succeed(
                &server,
                http_method,
                "/api/things/1",
                ResponseTemplate::new(status),
                1,
            )
            .await;
            call(&client(&server), op, &["1"])
                .await
                .unwrap_or_else(|e| panic!("{http_method} {status}: {e}"));
            assert_eq!(received(&server, "/api/things").await.len(), 2);
        }
    }
    for (op, http_method, params) in [
        (&POST_THING, "POST", &[][..]),
        (&PATCH_THING, "PATCH", &["1"][..]),
    ] {
        let server = server().await;
        let url_path = if params.is_empty() {
            "/api/things"
        } else {
            "/api/things/1"
        };
        fail_then_succeed(
            &server,
            http_method,
            url_path,
            ResponseTemplate::new(503),
            1,
        )
        .await;
        let err = call(&client(&server), op, params).await.unwrap_err();
        assert_eq!(err.status(), Some(503), "{http_method}");
        assert!(err.is_retryable());
        assert_eq!(
            received(&server, "/api/things").await.len(),
            1,
            "{http_method}"
        );
    }
}

#[tokio::test]
async fn other_errors_are_not_retried() {
    for status in [400, 404, 409, 500] {
        let server = server().await;
        Mock::given(method("GET"))
            .and(path("/api/things/1"))
            .respond_with(ResponseTemplate::new(status))
            .expect(1)
            .mount(&server)
            .await;
        let err = call(&client(&server), &GET_THING, &["1"])
            .await
            .unwrap_err();
        assert_eq!(err.status(), Some(status));
        assert!(!err.is_retryable());
    }
}

#[tokio::test]
async fn slow_answer_is_a_timeout_retried_only_when_idempotent() {
    let server = server().await;
    for http_method in ["GET", "POST"] {
        Mock::given(method(http_method))
            .and(path("/api/things/1"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!({}))
                    .set_delay(Duration::from_millis(600)),
            )
            .mount(&server)
            .await;
    }
    let client = Client::new(
        config(&server)
            .request_timeout(Duration::from_millis(150))
            .retry(fast_retry().max_attempts(2)),
        &AUTH,
    )
    .unwrap();

    let started = Instant::now();
    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    // A timeout (the answer, a success, comes after 600 ms), after two
    // attempts of at least 150 ms each.
    assert!(matches!(err, Error::Timeout), "{err:?}");
    assert!(err.is_retryable());
    assert!(started.elapsed() >= Duration::from_millis(300));
    let gets = received(&server, "/api/things/1").await;
    assert_eq!(gets.len(), 2);

    static POST_ONE: Operation = Operation {
        id: "post_one",
        method: ruckus_one_runtime::Method::Post,
        path: "/things/{id}",
        api: &API,
        versions: GET_THING.versions,
        error_family: ruckus_one_runtime::internal::ErrorFamily::ErrorsArray,
        service: &ruckus_one_runtime::internal::Service {
            name: "test",
            rate_limit: None,
        },
        reads: false,
    };
    let err = call(&client, &POST_ONE, &["1"]).await.unwrap_err();
    assert!(matches!(err, Error::Timeout), "{err:?}");
    assert_eq!(received(&server, "/api/things/1").await.len(), 3);
}

#[tokio::test]
async fn connection_failure_is_a_transport_error() {
    let server = server().await;
    // A port with nothing listening.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let client = Client::new(config(&server).api_base_url("config", dead), &AUTH).unwrap();

    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert!(err.is_retryable());
    assert!(std::error::Error::source(&err).is_some());
}

/// Accepts connections and closes them at once; counts them.
fn hang_up_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut &stream, &mut buf);
            drop(stream);
        }
    });
    (base, count)
}

#[tokio::test]
async fn broken_connections_are_retried_only_when_idempotent() {
    use std::sync::atomic::Ordering;
    let server = server().await;
    let (base, count) = hang_up_server();
    let client = Client::new(config(&server).api_base_url("config", base), &AUTH).unwrap();

    let err = call(&client, &GET_THING, &["1"]).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert_eq!(count.load(Ordering::SeqCst), 3);

    let err = call(&client, &POST_THING, &[]).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert_eq!(count.load(Ordering::SeqCst), 4);
}
