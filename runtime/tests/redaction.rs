//! One redaction step for everything that leaves the client: the client
//! secret, the current access token and the previous one never show, in
//! any encoding a server may echo them in, in any place an error or a trace
//! carries text from the service.
//!
//! One table: echo shapes (encodings) × secrets (client secret, current
//! token, previous token) × places (error `Display`, `Debug`, `message()`,
//! raw body, `request_id()`, a failed or unfinished activity's error, an
//! activity that does not decode, tracing fields, `Debug` of a success
//! answer raw or decoded).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::capture::Capture;
use common::{AUTH, CLIENT_ID};
use ruckus_one_runtime::internal::{
    ErrorFamily, MediaTypes, Operation, Request, wait_for_activity,
};
use ruckus_one_runtime::{Client, Config, Credentials, Error, Method, RetryPolicy, WaitOptions};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Respond, ResponseTemplate};

/// Secrets with characters every encoding changes.
const SECRET: &str = "s3c/r+t v&l\"u=e<X>'Yz-0123";
const PREVIOUS_TOKEN: &str = "prev/TOK+en==qrs-555";
const TOKEN: &str = "tok/ABC+def==xyz-987~";

static GET_ACTIVITY: Operation = Operation {
    id: "get_activity",
    method: Method::Get,
    path: "/activities/{requestId}",
    api: &common::API,
    versions: &[MediaTypes {
        content_type: None,
        accept: "application/json",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

// ---------------------------------------------------------------- shapes

fn base64(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= n {
                out.push(alphabet[((v >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `value` base64-encoded after `before` and before `!?`, with the part of
/// the encoding that only depends on `value`.
fn embedded_base64(value: &str, before: &str, alphabet: &[u8; 64]) -> (String, String) {
    let whole = format!("{before}{value}!?");
    let encoded = base64(whole.as_bytes(), alphabet, true);
    let start = (before.len() * 8).div_ceil(6);
    let end = (before.len() + value.len()) * 8 / 6;
    let core = encoded[start..end].to_owned();
    (encoded, core)
}

fn json_escaped(value: &str) -> String {
    let quoted = serde_json::to_string(value).unwrap();
    quoted[1..quoted.len() - 1].replace('/', "\\/")
}

fn per_char(value: &str, f: impl Fn(char) -> String) -> String {
    value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                f(c)
            }
        })
        .collect()
}

/// The echo shapes of `value`: (name, text the server sends, the part of
/// that text that carries the value).
fn shapes(value: &str) -> Vec<(&'static str, String, String)> {
    let mut list: Vec<(&'static str, String)> = vec![
        ("raw", value.to_owned()),
        ("upper case", value.to_uppercase()),
        ("lower case", value.to_lowercase()),
        ("json", json_escaped(value)),
        (
            "json \\u, every char",
            value
                .chars()
                .map(|c| format!("\\u{:04x}", c as u32))
                .collect(),
        ),
        (
            "json \\u upper hex",
            per_char(value, |c| format!("\\u{:04X}", c as u32)),
        ),
        ("json nested twice", json_escaped(&json_escaped(value))),
        ("percent", per_char(value, |c| format!("%{:02X}", c as u32))),
        (
            "percent lower",
            per_char(value, |c| format!("%{:02x}", c as u32)),
        ),
        (
            "percent twice",
            per_char(value, |c| format!("%25{:02X}", c as u32)),
        ),
        (
            "form",
            serde_urlencoded::to_string([("", value)]).unwrap()[1..].to_owned(),
        ),
        (
            "html decimal",
            per_char(value, |c| format!("&#{};", c as u32)),
        ),
        (
            "html hex",
            per_char(value, |c| format!("&#X{:x};", c as u32)),
        ),
        (
            "html named",
            value
                .replace('&', "&amp;")
                .replace('"', "&quot;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('\'', "&apos;"),
        ),
        ("base64", base64(value.as_bytes(), STD, true)),
        ("base64 unpadded", base64(value.as_bytes(), STD, false)),
        ("base64url", base64(value.as_bytes(), URL, true)),
        ("base64url unpadded", base64(value.as_bytes(), URL, false)),
        ("hex", value.bytes().map(|b| format!("{b:02x}")).collect()),
        (
            "hex upper",
            value.bytes().map(|b| format!("{b:02X}")).collect(),
        ),
    ];
    let mut out: Vec<(&'static str, String, String)> = list
        .drain(..)
        .map(|(name, echo)| (name, echo.clone(), echo))
        .collect();
    for (name, before, alphabet) in [
        ("base64 in base64, alignment 0", "Basic ", STD),
        ("base64 in base64, alignment 1", "user:", STD),
        ("base64 in base64, alignment 2", "id:", STD),
        ("base64url in base64url, alignment 0", "abc", URL),
        ("base64url in base64url, alignment 1", "a", URL),
        ("base64url in base64url, alignment 2", "ab", URL),
    ] {
        let (echo, core) = embedded_base64(value, before, alphabet);
        out.push((name, echo, core));
    }
    out
}

// ---------------------------------------------------------------- places

/// What is wrong when `text` shows 8 consecutive characters (in any case)
/// of `core` or of the secret `value`, or does not show a mask.
fn leak(what: &str, text: &str, core: &str, value: &str) -> Option<String> {
    let lower = text.to_lowercase();
    for carrier in [core, value] {
        let chars: Vec<char> = carrier.to_lowercase().chars().collect();
        for window in chars.windows(8) {
            let window: String = window.iter().collect();
            if lower.contains(&window) {
                return Some(format!("{what} shows `{window}`: {text}"));
            }
        }
    }
    (!text.contains("***")).then(|| format!("{what} shows no mask: {text}"))
}

/// Answers [`PREVIOUS_TOKEN`] to the first token request, [`TOKEN`] after.
struct Tokens(AtomicUsize);

impl Respond for Tokens {
    fn respond(&self, _: &wiremock::Request) -> ResponseTemplate {
        let token = match self.0.fetch_add(1, Ordering::SeqCst) {
            0 => PREVIOUS_TOKEN,
            _ => TOKEN,
        };
        ResponseTemplate::new(200).set_body_json(json!({"access_token": token, "expires_in": 3600}))
    }
}

/// A server whose answers all echo `echo`, and a client whose token was
/// renewed once (so that [`PREVIOUS_TOKEN`] is the previous token).
async fn echoing_server(echo: &str) -> (MockServer, Client) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token"))
        .respond_with(Tokens(AtomicUsize::new(0)))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/warm"))
        .respond_with(ResponseTemplate::new(401))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/warm"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let error_doc =
        json!({"errors": [{"code": format!("E-{echo}"), "message": format!("echo {echo}")}]});
    Mock::given(method("GET"))
        .and(path("/api/things/1"))
        .respond_with(
            ResponseTemplate::new(400)
                .insert_header("x-request-id", format!("rid {echo}").as_str())
                .set_body_json(&error_doc),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/things/2"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("x-request-id", format!("rid {echo}").as_str())
                .set_body_string(format!("echo {echo}")),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/things"))
        .respond_with(
            ResponseTemplate::new(202).set_body_json(json!({"requestId": format!("act {echo}")})),
        )
        .mount(&server)
        .await;
    for (id, activity) in [
        (
            "nested",
            json!({"requestId": "nested", "status": "FAIL", "error": error_doc.to_string()}),
        ),
        (
            "text",
            json!({"requestId": "text", "status": "FAIL", "error": format!("failed for {echo}")}),
        ),
        (
            "undecodable",
            json!({"requestId": "undecodable", "status": "SUCCESS", "count": echo}),
        ),
    ] {
        Mock::given(method("GET"))
            .and(path(format!("/api/activities/{id}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(activity))
            .mount(&server)
            .await;
    }
    let config = Config::new(Credentials::new(CLIENT_ID, SECRET))
        .base_url(server.uri())
        .retry(RetryPolicy::none());
    let client = Client::new(config, &AUTH).unwrap();
    Request::new(&client, &common::GET_THING, &["warm"])
        .send_empty()
        .await
        .unwrap();
    (server, client)
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
struct Counted {
    count: u32,
}

/// Every text of the places, by name.
async fn texts_of_every_place(client: &Client) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let add_error = |place: &str, err: &Error, out: &mut Vec<(String, String)>| {
        out.push((format!("{place} Display"), err.to_string()));
        out.push((format!("{place} Debug"), format!("{err:?}")));
        out.push((
            format!("{place} message()"),
            err.message().unwrap_or_default().to_owned(),
        ));
    };
    let api = Request::new(client, &common::GET_THING, &["1"])
        .send_empty()
        .await
        .unwrap_err();
    assert!(matches!(api, Error::Api(_)), "{api:?}");
    add_error("API error", &api, &mut out);
    out.push((
        "API error raw body".into(),
        String::from_utf8_lossy(api.raw_body().unwrap()).into_owned(),
    ));
    out.push((
        "API error request_id()".into(),
        api.request_id().unwrap_or_default().to_owned(),
    ));
    let raw = Request::new(client, &common::GET_THING, &["2"])
        .send_raw()
        .await
        .unwrap();
    out.push(("success RawResponse Debug".into(), format!("{raw:?}")));
    let text = Request::new(client, &common::GET_THING, &["2"])
        .send_text()
        .with_response()
        .await
        .unwrap();
    out.push(("success Response Debug".into(), format!("{text:?}")));
    let options = WaitOptions::default()
        .initial_interval(Duration::ZERO)
        .timeout(Duration::from_secs(5));
    for id in ["nested", "text"] {
        let err = wait_for_activity::<Value>(client, &GET_ACTIVITY, id, &options)
            .await
            .unwrap_err();
        let Error::Activity(activity) = &err else {
            panic!("{err:?}")
        };
        add_error(&format!("FAIL activity ({id})"), &err, &mut out);
        out.push((
            format!("FAIL activity ({id}) error_text()"),
            activity.error_text().unwrap_or_default().to_owned(),
        ));
        out.push((
            format!("FAIL activity ({id}) activity()"),
            activity
                .activity()
                .map(Value::to_string)
                .unwrap_or_default(),
        ));
    }
    // An asynchronous request whose request id (from the service) echoes the
    // secret, and whose activity never appears.
    let never = WaitOptions::default()
        .initial_interval(Duration::from_millis(5))
        .timeout(Duration::from_millis(30));
    let err = Request::new(client, &common::POST_THING, &[])
        .send_and_wait::<Value, Value>(&GET_ACTIVITY, &never)
        .await
        .unwrap_err();
    let Error::Activity(activity) = &err else {
        panic!("{err:?}")
    };
    assert!(activity.is_timeout(), "{err:?}");
    out.push(("unfinished activity Display".into(), err.to_string()));
    out.push(("unfinished activity Debug".into(), format!("{err:?}")));
    out.push((
        "unfinished activity request_id()".into(),
        activity.request_id().to_owned(),
    ));
    let err = wait_for_activity::<Counted>(client, &GET_ACTIVITY, "undecodable", &options)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Decode(_)), "{err:?}");
    out.push(("activity decode error Display".into(), err.to_string()));
    out.push(("activity decode error Debug".into(), format!("{err:?}")));
    out.push((
        "activity decode error raw body".into(),
        String::from_utf8_lossy(err.raw_body().unwrap()).into_owned(),
    ));
    out
}

#[tokio::test]
async fn no_secret_or_live_token_leaves_the_client_in_any_encoding() {
    let mut leaks = Vec::new();
    let mut checked = 0;
    for (kind, value) in [
        ("client secret", SECRET),
        ("access token", TOKEN),
        ("previous access token", PREVIOUS_TOKEN),
    ] {
        for (shape, echo, core) in shapes(value) {
            let (capture, guard) = Capture::install();
            let (_server, client) = echoing_server(&echo).await;
            let texts = texts_of_every_place(&client).await;
            drop(guard);
            let traced = capture.all_text();
            for (place, text) in texts.into_iter().chain([("tracing".to_owned(), traced)]) {
                checked += 1;
                leaks.extend(leak(
                    &format!("{kind}, {shape}, {place}"),
                    &text,
                    &core,
                    value,
                ));
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    assert!(
        leaks.is_empty(),
        "{} of {checked} places leak:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}
