//! Logs on standard error under `RUST_LOG`: tool calls with their timings, and never a
//! secret (the client secret, an access token) or an argument's value.

mod common;

use std::process::Stdio;

use common::{Agent, call, command, text};
use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use tokio::io::AsyncReadExt;

const SECRET: &str = "log-test-client-secret-5f1c";
const VALUE: &str = "an-argument-value-not-to-log";

#[tokio::test(flavor = "multi_thread")]
async fn trace_logs_tool_calls_and_no_secret() {
    let sim = common::seeded::simulator(3, 0).await;
    let mut env = common::seeded::env(&sim);
    // The simulator's own secret, and a variable of the same name holding another, shown
    // nowhere.
    let secret = env[1].1.clone();
    env.push(("RUST_LOG".into(), "trace".into()));
    env.push(("UNRELATED_SECRET".into(), SECRET.into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (transport, stderr) = TokioChildProcess::builder(command(&[], &env))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = stderr.expect("stderr is piped");
    let reader = tokio::spawn(async move {
        let mut out = String::new();
        let _ = stderr.read_to_string(&mut out).await;
        out
    });
    let session = Agent::capable().serve(transport).await.unwrap();
    let args = json!({"operation": "query_venues", "body": {"searchString": VALUE}});
    let page = call(&session, "invoke_read", args).await;
    assert_ne!(page.is_error, Some(true), "{}", text(&page));
    session.cancel().await.unwrap();
    let logs = reader.await.unwrap();
    assert!(logs.contains("tool call"), "{logs}");
    assert!(logs.contains("operation=query_venues"), "{logs}");
    assert!(logs.contains("elapsed_ms="), "{logs}");
    for hidden in [secret.as_str(), SECRET, VALUE, "Bearer "] {
        assert!(!logs.contains(hidden), "`{hidden}` in the logs:\n{logs}");
    }
}
