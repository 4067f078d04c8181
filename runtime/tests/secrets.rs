//! The client secret and the access token never show up in Debug or
//! Display output.

mod common;

use std::time::Duration;

use common::*;
use ruckus_one_runtime::{Client, Config, Credentials, Error, Request, RetryPolicy, Secret};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn assert_clean(what: &str, text: &str) {
    assert!(!text.contains(SECRET), "{what} shows the secret: {text}");
    assert!(!text.contains(TOKEN), "{what} shows the token: {text}");
}

#[tokio::test]
async fn configuration_and_client_output_is_redacted() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let credentials = Credentials::new(CLIENT_ID, SECRET);
    let config = config(&server).delegated_tenant("t1");
    let client = Client::new(config.clone(), &AUTH).unwrap();
    // Make sure a token is cached when the client is printed.
    let raw = Request::new(&client, &GET_THING, &["1"])
        .send_raw()
        .await
        .unwrap();

    let secret = Secret::new(SECRET);
    assert_eq!(format!("{secret:?}"), "Secret(***)");
    assert_eq!(format!("{secret}"), "Secret(***)");
    assert_eq!(credentials.client_secret().expose(), SECRET);
    for (what, text) in [
        ("credentials", format!("{credentials:?}")),
        ("config", format!("{config:?}")),
        ("config (pretty)", format!("{config:#?}")),
        ("client", format!("{client:?}")),
        (
            "client clone",
            format!("{:?}", client.with_tenant("t2").unwrap()),
        ),
        (
            "request",
            format!("{:?}", Request::new(&client, &GET_THING, &["1"])),
        ),
        ("raw response", format!("{raw:?}")),
    ] {
        assert_clean(what, &text);
    }
    assert!(format!("{client:?}").contains(CLIENT_ID));
}

#[tokio::test]
async fn errors_are_redacted() {
    let mut errors: Vec<Error> = Vec::new();

    // Token endpoint refusal that echoes the secret (plain and form-encoded).
    let refusing = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_string(format!(
            "bad client_secret={SECRET} ({})",
            serde_urlencoded::to_string([("s", SECRET)]).unwrap()
        )))
        .mount(&refusing)
        .await;
    errors.push(
        Request::new(&client(&refusing), &GET_THING, &["1"])
            .send_empty()
            .await
            .unwrap_err(),
    );

    // API errors, a decode error, a timeout, an invalid request.
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(403).set_body_json(json!({"errors": [{"message": "no"}]})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/2"))
        .respond_with(ResponseTemplate::new(200).set_body_string("{"))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/3"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_millis(500)))
        .mount(&server)
        .await;
    let client = Client::new(
        config(&server)
            .request_timeout(Duration::from_millis(100))
            .retry(RetryPolicy::none()),
        &AUTH,
    )
    .unwrap();
    for id in ["1", "2", "3", ""] {
        errors.push(
            Request::new(&client, &GET_THING, &[id])
                .send_json::<Value>()
                .await
                .unwrap_err(),
        );
    }

    // Transport error.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let client = Client::new(
        Config::new(Credentials::new(CLIENT_ID, SECRET))
            .base_url(dead)
            .retry(RetryPolicy::none()),
        &AUTH,
    )
    .unwrap();
    errors.push(
        Request::new(&client, &GET_THING, &["1"])
            .send_empty()
            .await
            .unwrap_err(),
    );

    let kinds: Vec<&str> = errors
        .iter()
        .map(|e| match e {
            Error::Auth { .. } => "auth",
            Error::Api(_) => "api",
            Error::Decode(_) => "decode",
            Error::Timeout => "timeout",
            Error::InvalidRequest { .. } => "invalid",
            Error::Transport(_) => "transport",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["auth", "api", "decode", "timeout", "invalid", "transport"]
    );
    for err in &errors {
        assert_clean("error Display", &err.to_string());
        assert_clean("error Debug", &format!("{err:?}"));
        let mut source = std::error::Error::source(err);
        while let Some(inner) = source {
            assert_clean("error source", &format!("{inner} {inner:?}"));
            source = inner.source();
        }
    }
}

#[tokio::test]
async fn echoed_secrets_are_masked_in_api_errors() {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(ResponseTemplate::new(403).set_body_json(json!({
            "errors": [{"code": "AUTH-1", "message": format!("token {TOKEN} refused for secret {SECRET}")}]
        })))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/2"))
        .respond_with(
            ResponseTemplate::new(502)
                .set_body_string(format!("<html>proxy saw Bearer {TOKEN}</html>")),
        )
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry(RetryPolicy::none()), &AUTH).unwrap();
    for (id, masked) in [
        ("1", "token *** refused for secret ***"),
        ("2", "<html>proxy saw Bearer ***</html>"),
    ] {
        let err = Request::new(&client, &GET_THING, &[id])
            .send_empty()
            .await
            .unwrap_err();
        assert_clean("API error Display", &err.to_string());
        assert_clean("API error Debug", &format!("{err:?}"));
        let raw = String::from_utf8_lossy(err.raw_body().unwrap()).into_owned();
        assert_clean("API error raw body", &raw);
        assert!(err.to_string().contains(masked), "{err}");
    }
}
