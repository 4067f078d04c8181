//! `ruckus-mcp --http PORT` serves MCP over streamable HTTP on loopback.

use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

#[tokio::test]
async fn streamable_http_answers_initialize_on_loopback() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ruckus-mcp"))
        .args(["--local", "--http", "0"])
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
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#;
    let answer = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(initialize)
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success(), "{}", answer.status());
    let body = answer.text().await.unwrap();
    assert!(body.contains("\"name\":\"ruckus-mcp\""), "{body}");
    child.kill().await.unwrap();
}
