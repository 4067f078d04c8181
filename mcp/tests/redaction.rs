//! No tool result holds the client secret or an access token, in any of the encodings of the
//! runtime's redaction matrix (`runtime/tests/redaction.rs`): a local service answers the
//! token request with a known token and echoes both in every encoding, in a success body and
//! in an error body; `ruckus-mcp` reads its credentials from the environment.

mod common;

use axum::http::StatusCode;
use axum::response::IntoResponse;
use common::{Agent, call, command, start, text};
use serde_json::{Value, json};

/// Secrets with characters every encoding changes (those of the runtime's matrix).
const SECRET: &str = "s3c/r+t v&l\"u=e<X>'Yz-0123";
const TOKEN: &str = "tok/ABC+def==xyz-987~";

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn per_char(value: &str, f: impl Fn(char) -> String) -> String {
    value.chars().map(f).collect()
}

fn form(value: &str) -> String {
    per_char(value, |c| match c {
        'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '.' | '_' | '*' => c.to_string(),
        ' ' => "+".to_owned(),
        other => format!("%{:02X}", other as u32),
    })
}

/// The encodings of the matrix: (name, echo).
fn shapes(value: &str) -> Vec<(&'static str, String)> {
    let json_escaped = |v: &str| {
        serde_json::to_string(v)
            .unwrap()
            .trim_matches('"')
            .to_owned()
    };
    vec![
        ("raw", value.to_owned()),
        ("upper case", value.to_uppercase()),
        ("lower case", value.to_lowercase()),
        ("json", json_escaped(value)),
        (
            "json \\u",
            per_char(value, |c| format!("\\u{:04x}", c as u32)),
        ),
        (
            "json \\u upper",
            per_char(value, |c| format!("\\u{:04X}", c as u32)),
        ),
        ("json twice", json_escaped(&json_escaped(value))),
        ("percent", per_char(value, |c| format!("%{:02X}", c as u32))),
        (
            "percent lower",
            per_char(value, |c| format!("%{:02x}", c as u32)),
        ),
        (
            "percent twice",
            per_char(value, |c| format!("%25{:02X}", c as u32)),
        ),
        ("form", form(value)),
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
                .replace('>', "&gt;"),
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
    ]
}

/// Every echo of both secrets, by name.
fn echoes() -> Value {
    let mut map = serde_json::Map::new();
    for (secret, value) in [("secret", SECRET), ("token", TOKEN)] {
        for (name, echo) in shapes(value) {
            map.insert(format!("{secret} {name}"), Value::String(echo));
        }
    }
    Value::Object(map)
}

/// The service: the token endpoint answers [`TOKEN`]; any other path echoes the secrets (an
/// error body under `/venues/fail`).
async fn answer(uri: axum::http::Uri) -> axum::response::Response {
    let path = uri.path();
    if path.starts_with("/oauth2/token") {
        return json_answer(
            StatusCode::OK,
            json!({"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600}),
        );
    }
    let echo = echoes();
    if path.contains("/fail") {
        let message = echo.to_string();
        let body = json!({"requestId": "r-1", "errors": [{"code": "E1", "message": message, "reason": message}]});
        return json_answer(StatusCode::BAD_REQUEST, body);
    }
    json_answer(
        StatusCode::OK,
        json!({"id": "v-1", "name": "echo", "echo": echo}),
    )
}

fn json_answer(status: StatusCode, body: Value) -> axum::response::Response {
    let headers = [(axum::http::header::CONTENT_TYPE, "application/json")];
    (status, headers, body.to_string()).into_response()
}

/// What is wrong when `text` shows 8 consecutive characters (in any case) of an echo.
fn leak(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    for (secret, value) in [("secret", SECRET), ("token", TOKEN)] {
        for (name, echo) in shapes(value) {
            let chars: Vec<char> = echo.to_lowercase().chars().collect();
            for window in chars.windows(8) {
                let window: String = window.iter().collect();
                if lower.contains(&window) {
                    return Some(format!(
                        "the {secret} shows as {name} (`{window}`) in: {text}"
                    ));
                }
            }
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread")]
async fn no_tool_result_contains_the_client_secret_or_an_access_token() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(answer);
    tokio::spawn(async move { axum::serve(listener, app).await });
    let env = [
        ("RUCKUS_CLIENT_ID", "client-1"),
        ("RUCKUS_CLIENT_SECRET", SECRET),
        ("RUCKUS_TENANT_ID", "tenant1"),
        ("RUCKUS_BASE_URL", base.as_str()),
    ];
    let session = start(Agent::capable(), command(&[], &env)).await;
    let mut results = Vec::new();
    for venue in ["v-1", "fail"] {
        let result = call(
            &session,
            "invoke_read",
            json!({"operation": "get_venue", "params": {"venueId": venue}}),
        )
        .await;
        results.push(text(&result));
    }
    // The answers did carry the echoes (masked), and the error was reported as one.
    assert!(
        results[0].contains("\"name\":\"echo\"") && results[0].contains("***"),
        "{}",
        results[0]
    );
    assert!(results[1].contains("***"), "{}", results[1]);
    for text in &results {
        assert_eq!(leak(text), None);
    }
    session.cancel().await.unwrap();
}

#[test]
fn the_leak_check_finds_every_encoding() {
    for (name, echo) in shapes(SECRET).into_iter().chain(shapes(TOKEN)) {
        assert!(leak(&format!("x {echo} y")).is_some(), "{name}");
    }
}
