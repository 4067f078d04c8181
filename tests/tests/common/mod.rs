//! Shared setup of the HTTP integration tests: a wiremock server on 127.0.0.1 with the OAuth
//! token endpoint, the client configuration pointing at it, and mocks that pin down one API
//! call (method, exact encoded path, bearer token, media types, exact body).
#![allow(dead_code)] // each test file uses a different subset

use ruckus_one_runtime::{Config, Credentials};
use serde_json::{Value, json};
use wiremock::matchers::{body_json, body_string, header, method, path};
use wiremock::{Mock, MockBuilder, MockServer, Request, ResponseTemplate};

pub const CLIENT_ID: &str = "client-id-1";
pub const CLIENT_SECRET: &str = "client-secret-s3cr3t";
pub const ACCESS_TOKEN: &str = "tok-1";
pub const BEARER: &str = "Bearer tok-1";

/// A mock server whose token endpoint must be asked exactly once.
pub async fn server() -> MockServer {
    server_expecting_tokens(1).await
}

/// A mock server whose token endpoint must be asked exactly `times` times.
///
/// Without a token tenant id the runtime asks `{base_url}/oauth2/token` (no API prefix) with
/// a form-encoded client-credentials request; anything else does not match.
pub async fn server_expecting_tokens(times: u64) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth2/token"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .and(body_string(format!(
            "grant_type=client_credentials&client_id={CLIENT_ID}&client_secret={CLIENT_SECRET}"
        )))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": ACCESS_TOKEN,
            "token_type": "Bearer",
            "expires_in": 3600
        })))
        .named("token endpoint")
        .expect(times)
        .mount(&server)
        .await;
    server
}

/// Client settings that send everything to `server`.
pub fn config(server: &MockServer) -> Config {
    Config::new(Credentials::new(CLIENT_ID, CLIENT_SECRET)).base_url(server.uri())
}

/// A server (token endpoint mounted) and the analytics client configured for it.
pub async fn analytics() -> (MockServer, ruckus_one::Client) {
    let server = server().await;
    let client = ruckus_one::Client::new(config(&server)).expect("valid configuration");
    (server, client)
}

/// Matches one JSON API call: `verb` on exactly `path` (as sent, percent-encoding
/// included), `authorization: Bearer tok-1`, `accept: application/json`, and either
/// `content-type: application/json` with exactly the JSON `body`, or no body and no
/// content type at all.
pub fn call(verb: &str, path_: &str, body: Option<Value>) -> MockBuilder {
    let mock = Mock::given(method(verb))
        .and(path(path_))
        .and(header("authorization", BEARER))
        .and(header("accept", "application/json"));
    match body {
        Some(body) => mock
            .and(header("content-type", "application/json"))
            .and(body_json(body)),
        None => mock.and(no_body),
    }
}

/// The request has no body and no `content-type`.
pub fn no_body(req: &Request) -> bool {
    req.body.is_empty() && !req.headers.contains_key("content-type")
}

/// The request has no delegated tenant header.
pub fn no_tenant(req: &Request) -> bool {
    !req.headers.contains_key("x-rks-tenantid")
}

/// A 200 answer with a JSON body.
pub fn ok(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

/// Mounts `mock` answering `response`, required to match exactly once.
pub async fn expect_once(server: &MockServer, mock: MockBuilder, response: ResponseTemplate) {
    mock.respond_with(response).expect(1).mount(server).await;
}

/// The requests the server received, except those to the token endpoint.
pub async fn api_requests(server: &MockServer) -> Vec<Request> {
    server
        .received_requests()
        .await
        .expect("request recording is on")
        .into_iter()
        .filter(|r| r.url.path() != "/oauth2/token")
        .collect()
}

/// Percent-decodes `text` (UTF-8).
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ASCII");
            out.push(u8::from_str_radix(hex, 16).expect("valid percent escape"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

/// The generated client signed in to the simulator `sim` as its tenant.
pub fn sim_client(sim: &ruckus_one_sim::Simulator) -> ruckus_one::Client {
    let (id, secret) = sim.credentials();
    let config = ruckus_one::Config::new(ruckus_one::Credentials::new(id, secret))
        .base_url(sim.base_url())
        .token_tenant_id(sim.tenant_id());
    ruckus_one::Client::new(config).expect("client")
}
