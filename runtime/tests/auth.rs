//! Token requests, caching, single-flight renewal and 401 handling.

mod common;

use std::time::Duration;

use common::*;
use ruckus_one_runtime::internal::Request;
use ruckus_one_runtime::{Client, Config, Credentials, Error, RetryPolicy};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn ok_thing() -> Mock {
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "1"})))
}

async fn get_thing(client: &Client) -> Result<Value, Error> {
    Request::new(client, &GET_THING, &["1"]).send_json().await
}

#[tokio::test]
async fn token_request_has_the_client_credentials_form() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(TOKEN, 3600)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "1"})))
        .expect(1)
        .mount(&server)
        .await;

    let value = get_thing(&client(&server)).await.unwrap();
    assert_eq!(value, json!({"id": "1"}));

    let token_request = &received(&server, "/oauth2/token").await[0];
    let mut form: Vec<(String, String)> =
        serde_urlencoded::from_bytes(&token_request.body).unwrap();
    form.sort();
    assert_eq!(
        form,
        vec![
            ("client_id".to_owned(), CLIENT_ID.to_owned()),
            ("client_secret".to_owned(), SECRET.to_owned()),
            ("grant_type".to_owned(), "client_credentials".to_owned()),
        ]
    );
    // The token request is not delegated.
    assert!(token_request.headers.get("x-rks-tenantid").is_none());
}

#[tokio::test]
async fn token_url_without_tenant_and_exact_override() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(TOKEN, 3600)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/custom/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(TOKEN, 3600)))
        .expect(1)
        .mount(&server)
        .await;
    ok_thing().expect(2).mount(&server).await;

    let config = Config::new(Credentials::new(CLIENT_ID, SECRET)).base_url(server.uri());
    get_thing(&Client::new(config.clone(), &AUTH).unwrap())
        .await
        .unwrap();
    let config = config
        .token_tenant_id("ignored")
        .token_url(format!("{}/custom/token", server.uri()));
    get_thing(&Client::new(config, &AUTH).unwrap())
        .await
        .unwrap();
}

#[tokio::test]
async fn token_is_cached_and_shared_by_clones() {
    let server = MockServer::start().await;
    token_mock().expect(1).mount(&server).await;
    ok_thing().expect(4).mount(&server).await;

    let client = client(&server);
    get_thing(&client).await.unwrap();
    get_thing(&client).await.unwrap();
    get_thing(&client.clone()).await.unwrap();
    get_thing(&client.with_tenant("other").unwrap())
        .await
        .unwrap();
}

#[tokio::test]
async fn token_inside_refresh_margin_is_fetched_again() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(SequentialTokens::new(1))
        .expect(2)
        .mount(&server)
        .await;
    ok_thing().expect(3).mount(&server).await;

    // Margin 60 s, lifetime 1 s: the margin used is 0.1 s, so the token is
    // reused for 0.9 s and replaced after.
    let client = Client::new(
        config(&server).token_refresh_margin(Duration::from_secs(60)),
        &AUTH,
    )
    .unwrap();
    get_thing(&client).await.unwrap();
    get_thing(&client).await.unwrap();
    tokio::time::sleep(Duration::from_millis(950)).await;
    get_thing(&client).await.unwrap();
    let auths: Vec<String> = received(&server, "/api")
        .await
        .iter()
        .map(|r| common::header(r, "authorization").unwrap().to_owned())
        .collect();
    assert_eq!(auths, ["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"]);
}

/// Issue 9: with a fixed 60 s margin a token living 60 s or less was never
/// reused, so 100 concurrent calls made 100 serialized token requests.
#[tokio::test]
async fn short_lived_token_is_shared_by_concurrent_calls() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(SequentialTokens::new(30))
        .mount(&server)
        .await;
    ok_thing().mount(&server).await;

    let client = client(&server);
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { get_thing(&client).await })
        })
        .collect();
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(token_requests(&server).await, 1);
    let auths: std::collections::HashSet<String> = received(&server, "/api")
        .await
        .iter()
        .map(|r| common::header(r, "authorization").unwrap().to_owned())
        .collect();
    assert_eq!(auths.len(), 1);
}

/// `expires_in: 0` is a token that must be renewed at once: it serves the
/// call that obtained it, and the next call obtains another (it used to be
/// taken for a one-hour token).
#[tokio::test]
async fn zero_expires_in_is_a_token_renewed_at_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(SequentialTokens::new(0))
        .mount(&server)
        .await;
    ok_thing().mount(&server).await;
    let client = client(&server);
    for _ in 0..3 {
        get_thing(&client).await.unwrap();
    }
    let auths: Vec<String> = received(&server, "/api")
        .await
        .iter()
        .map(|r| common::header(r, "authorization").unwrap().to_owned())
        .collect();
    assert_eq!(auths, ["Bearer tok-1", "Bearer tok-2", "Bearer tok-3"]);
    assert_eq!(token_requests(&server).await, 3);
}

#[tokio::test]
async fn token_is_fetched_again_after_expiry() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(SequentialTokens::new(1))
        .expect(2)
        .mount(&server)
        .await;
    ok_thing().expect(3).mount(&server).await;

    let client = Client::new(config(&server).token_refresh_margin(Duration::ZERO), &AUTH).unwrap();
    get_thing(&client).await.unwrap();
    get_thing(&client).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    get_thing(&client).await.unwrap();
    assert_eq!(token_requests(&server).await, 2);
}

#[tokio::test]
async fn concurrent_first_calls_share_one_token_request() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(token_body(TOKEN, 3600))
                .set_delay(Duration::from_millis(200)),
        )
        .expect(1)
        .mount(&server)
        .await;
    ok_thing().expect(50).mount(&server).await;

    let client = client(&server);
    let tasks: Vec<_> = (0..50)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { get_thing(&client).await })
        })
        .collect();
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(token_requests(&server).await, 1);
}

#[tokio::test]
async fn unauthorized_renews_the_token_and_retries_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(SequentialTokens::new(3600))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .and(header("authorization", "Bearer tok-1"))
        .respond_with(ResponseTemplate::new(401))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .and(header("authorization", "Bearer tok-2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "1"})))
        .expect(2)
        .mount(&server)
        .await;

    // Retries disabled: the renewal is not counted as a retry.
    let client = Client::new(config(&server).retry(RetryPolicy::none()), &AUTH).unwrap();
    assert_eq!(get_thing(&client).await.unwrap(), json!({"id": "1"}));
    // The renewed token is cached.
    get_thing(&client).await.unwrap();
}

#[tokio::test]
async fn second_unauthorized_is_returned() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(SequentialTokens::new(3600))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(401).set_body_json(
            json!({"requestId": "r-401", "errors": [{"code": "AUTH-1", "message": "denied"}]}),
        ))
        .expect(2)
        .mount(&server)
        .await;

    let err = get_thing(&client(&server)).await.unwrap_err();
    assert_eq!(err.status(), Some(401));
    assert_eq!(err.request_id(), Some("r-401"));
    assert!(matches!(err, Error::Api(_)), "{err:?}");
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn token_endpoint_redirect_is_an_auth_error_and_not_followed() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(
            ResponseTemplate::new(302).insert_header("location", format!("{}/login", server.uri())),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/login"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(TOKEN, 3600)))
        .expect(0)
        .mount(&server)
        .await;
    ok_thing().expect(0).mount(&server).await;

    let err = get_thing(&client(&server)).await.unwrap_err();
    match &err {
        Error::Auth { status, message } => {
            assert_eq!(*status, Some(302));
            assert!(message.contains("redirect"), "{message}");
        }
        other => panic!("expected an auth error, got {other:?}"),
    }
    assert_eq!(err.status(), Some(302));
}

#[tokio::test]
async fn token_endpoint_refusal_keeps_status_and_text_but_not_the_secret() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(
            ResponseTemplate::new(400)
                .set_body_string(format!("invalid_client: unknown secret {SECRET}")),
        )
        .expect(1)
        .mount(&server)
        .await;

    let err = get_thing(&client(&server)).await.unwrap_err();
    let Error::Auth { status, message } = &err else {
        panic!("expected an auth error, got {err:?}")
    };
    assert_eq!(*status, Some(400));
    assert!(message.contains("invalid_client"), "{message}");
    assert!(!message.contains(SECRET), "{message}");
    assert!(!format!("{err} {err:?}").contains(SECRET));
}

#[tokio::test]
async fn malformed_token_responses_are_auth_errors() {
    for body in [
        ResponseTemplate::new(200).set_body_string("<html>login</html>"),
        ResponseTemplate::new(200).set_body_json(json!({"token_type": "Bearer"})),
        ResponseTemplate::new(200).set_body_json(json!({"access_token": 12})),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/oauth2/token/owner-tenant"))
            .respond_with(body)
            .mount(&server)
            .await;
        ok_thing().expect(0).mount(&server).await;
        let err = get_thing(&client(&server)).await.unwrap_err();
        assert!(
            matches!(
                err,
                Error::Auth {
                    status: Some(200),
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

#[tokio::test]
async fn missing_expires_in_means_one_hour() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token/owner-tenant"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"access_token": TOKEN})))
        .expect(1)
        .mount(&server)
        .await;
    ok_thing().expect(2).mount(&server).await;
    // With a 30 minute margin a one-hour token is still reusable.
    let client = Client::new(
        config(&server).token_refresh_margin(Duration::from_secs(1800)),
        &AUTH,
    )
    .unwrap();
    get_thing(&client).await.unwrap();
    get_thing(&client).await.unwrap();
}

/// A token request that fails for good (here every connection to the token endpoint is closed
/// unanswered) ends the call with its error: the token request was already repeated as the
/// retry policy allows, and the call's own loop does not start it over as a failed attempt.
#[tokio::test]
async fn a_failed_token_request_ends_the_call_without_another_round() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let token_url = format!(
        "http://{}/oauth2/token",
        listener.local_addr().expect("addr")
    );
    let connections = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = connections.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            drop(stream);
        }
    });
    let server = MockServer::start().await;
    let config = config(&server)
        .token_url(token_url)
        .retry(fast_retry().max_attempts(2));
    let client = Client::new(config, &AUTH).expect("valid test configuration");

    let err = get_thing(&client).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 2);
    assert!(received(&server, "/").await.is_empty());
}
