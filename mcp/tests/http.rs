//! `ruckus-mcp --http PORT` serves MCP over streamable HTTP on loopback, as guarded as stdio:
//! a foreign `Origin` is refused before anything runs, a bearer token can be required, and a
//! session's `DELETE` answers 204.

use std::process::Stdio;

use reqwest::{RequestBuilder, StatusCode};
use ruckus_one_sim::Simulator;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST_VENUES: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"invoke_read","arguments":{"operation":"query_venues","limit":5}}}"#;

/// A running `ruckus-mcp --http 0` with `args` and `env`, and its `/mcp` URL.
struct Served {
    child: Child,
    url: String,
    http: reqwest::Client,
}

async fn serve(args: &[&str], env: &[(&str, &str)]) -> Served {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ruckus-mcp"));
    command.args(["--http", "0"]).args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server says where it listens");
        if let Some(url) = line.strip_prefix("ruckus-mcp: serving MCP at ") {
            break url.to_owned();
        }
    };
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    // The server logs on standard error: keep reading it, so that no write meets a closed pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Served {
        child,
        url,
        http: reqwest::Client::new(),
    }
}

/// The server against `sim`, with its credential in the environment.
async fn serve_sim(sim: &Simulator, args: &[&str], dir: &std::path::Path) -> Served {
    let (id, secret) = sim.credentials();
    let (tenant, base) = (sim.tenant_id(), sim.base_url());
    let config_dir = dir.to_str().expect("utf-8 path");
    let env = [
        ("RUCKUS_CLIENT_ID", id.as_str()),
        ("RUCKUS_CLIENT_SECRET", secret.as_str()),
        ("RUCKUS_TENANT_ID", tenant.as_str()),
        ("RUCKUS_BASE_URL", base.as_str()),
        ("RUCKUS_CONFIG_DIR", config_dir),
        ("RUCKUS_KEYCHAIN", "off"),
    ];
    serve(args, &env).await
}

impl Served {
    fn post(&self, body: &'static str) -> RequestBuilder {
        self.http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body)
    }

    /// A session initialised with `origin` (none: no header); its id.
    async fn session(&self, origin: Option<&str>) -> String {
        let mut init = self.post(INITIALIZE);
        if let Some(origin) = origin {
            init = init.header("origin", origin);
        }
        let answer = init.send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        let id = answer.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let done = self.in_session(&id, INITIALIZED).send().await.unwrap();
        assert!(done.status().is_success(), "{}", done.status());
        id
    }

    fn in_session(&self, id: &str, body: &'static str) -> RequestBuilder {
        self.post(body)
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-11-25")
    }

    /// Whether the server's own origin is `http://127.0.0.1:PORT`.
    fn own_origin(&self) -> String {
        self.url.trim_end_matches("/mcp").to_owned()
    }
}

fn venue_queries(sim: &Simulator) -> usize {
    let requests = sim.requests();
    let queries = requests
        .iter()
        .filter(|r| r.operation.as_deref() == Some("query_venues"));
    queries.count()
}

#[tokio::test]
async fn streamable_http_answers_initialize_on_loopback() {
    let mut served = serve(&["--local"], &[]).await;
    let answer = served.post(INITIALIZE).send().await.unwrap();
    assert!(answer.status().is_success(), "{}", answer.status());
    let body = answer.text().await.unwrap();
    assert!(body.contains("\"name\":\"ruckus-mcp\""), "{body}");
    served.child.kill().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_foreign_or_null_origin_is_refused_and_its_call_never_runs() {
    let sim = Simulator::start().await.expect("simulator");
    let dir = tempfile::tempdir().expect("temp dir");
    let args = ["--allow-origin", "https://app.example"];
    let mut served = serve_sim(&sim, &args, dir.path()).await;
    for origin in ["https://evil.example", "null", "http://127.0.0.1:1"] {
        let init = served.post(INITIALIZE).header("origin", origin);
        let answer = init.send().await.unwrap();
        assert_eq!(
            answer.status(),
            StatusCode::FORBIDDEN,
            "initialize from {origin}"
        );
    }
    let id = served.session(None).await;
    for origin in ["https://evil.example", "null"] {
        let call = served.in_session(&id, LIST_VENUES).header("origin", origin);
        let answer = call.send().await.unwrap();
        assert_eq!(
            answer.status(),
            StatusCode::FORBIDDEN,
            "tools/call from {origin}"
        );
    }
    assert_eq!(venue_queries(&sim), 0, "a refused call reached the service");
    // The server's own origin and the added one are served.
    for origin in [served.own_origin(), "https://app.example".to_owned()] {
        let call = served
            .in_session(&id, LIST_VENUES)
            .header("origin", &origin);
        let answer = call.send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "{origin}");
        let body = answer.text().await.unwrap();
        assert!(body.contains("rows"), "{body}");
    }
    assert_eq!(venue_queries(&sim), 2);
    let own = served.own_origin().replace("127.0.0.1", "localhost");
    let id = served.session(Some(&own)).await;
    assert!(!id.is_empty());
    served.child.kill().await.unwrap();
}

#[tokio::test]
async fn an_origin_flag_that_is_not_an_origin_stops_the_server() {
    let out = Command::new(env!("CARGO_BIN_EXE_ruckus-mcp"))
        .args(["--local", "--http", "0", "--allow-origin", "app.example/x"])
        .output()
        .await
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not an origin"), "{stderr}");
}

#[tokio::test]
async fn a_token_is_required_when_one_is_set() {
    let token = "t0ken-for-the-http-test";
    let args = ["--local", "--http-token-env", "MCP_TEST_TOKEN"];
    let mut served = serve(&args, &[("MCP_TEST_TOKEN", token)]).await;
    let bare = served.post(INITIALIZE).send().await.unwrap();
    assert_eq!(bare.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(bare.headers()["www-authenticate"], "Bearer");
    let body = bare.text().await.unwrap();
    assert!(!body.contains(token), "{body}");
    for wrong in [
        "Bearer t0ken-for-the-http-tes",
        "Basic t0ken-for-the-http-test",
    ] {
        let answer = served.post(INITIALIZE).header("authorization", wrong);
        let answer = answer.send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED, "{wrong}");
    }
    let good = served.post(INITIALIZE).bearer_auth(token);
    let answer = good.send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    served.child.kill().await.unwrap();
}

#[tokio::test]
async fn a_token_variable_that_is_unset_stops_the_server() {
    let out = Command::new(env!("CARGO_BIN_EXE_ruckus-mcp"))
        .args([
            "--local",
            "--http",
            "0",
            "--http-token-env",
            "MCP_TEST_UNSET",
        ])
        .env_remove("MCP_TEST_UNSET")
        .output()
        .await
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("MCP_TEST_UNSET is not set"), "{stderr}");
}

#[tokio::test]
async fn deleting_a_session_answers_success() {
    let mut served = serve(&["--local"], &[]).await;
    let id = served.session(None).await;
    let delete = served
        .http
        .delete(&served.url)
        .header("mcp-session-id", &id);
    let answer = delete.send().await.unwrap();
    let status = answer.status();
    assert!(
        status == StatusCode::OK || status == StatusCode::NO_CONTENT,
        "{status}"
    );
    // The session is gone.
    let after = served.in_session(&id, LIST_VENUES).send().await.unwrap();
    assert_eq!(after.status(), StatusCode::NOT_FOUND);
    served.child.kill().await.unwrap();
}
