//! Tracing to standard error under `RUST_LOG` (`warn` when unset): the server's tool calls
//! with their timings, the runtime's requests. Never a value that may be secret: tool calls
//! are logged by argument names (and the operation id), the SDK's and HTTP stack's message
//! dumps are held at `info` whatever `RUST_LOG` asks, and every line goes through the
//! runtime's redaction (the client secret, access tokens) before it is written.

use std::io::Write;
use std::sync::OnceLock;

use rmcp::ErrorData as McpError;
use rmcp::model::CallToolResponse;
use ruckus_one_runtime::Client;
use serde_json::{Map, Value};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::fmt::MakeWriter;

/// Crates whose debug and trace events dump whole messages (tool arguments, headers).
const CAPPED: &[&str] = &[
    "rmcp",
    "hyper",
    "hyper_util",
    "h2",
    "reqwest",
    "rustls",
    "axum",
    // The runtime's HTTP exchanges with their bodies, which hold tool arguments' values.
    "ruckus_one_runtime::wire",
];

/// The client whose secrets are taken out of every line, once there is one.
static REDACTOR: OnceLock<Client> = OnceLock::new();

/// Starts logging to standard error, as `RUST_LOG` says (once per process).
pub fn init() {
    let asked = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let mut filter = asked
        .and_then(|v| EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| EnvFilter::new("warn"));
    if filter
        .max_level_hint()
        .is_none_or(|h| h > LevelFilter::INFO)
    {
        for name in CAPPED {
            if let Ok(directive) = format!("{name}=info").parse() {
                filter = filter.add_directive(directive);
            }
        }
    }
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Redacting)
        .with_ansi(false)
        .try_init();
}

/// From now on, lines are redacted by `client` (the one holding the credentials).
pub(crate) fn redact_with(client: &Client) {
    let _ = REDACTOR.set(client.clone());
}

/// The names of a tool call's arguments, and its operation id: `operation=get_venue
/// args=operation,params`.
pub(crate) fn names(args: &Map<String, Value>) -> String {
    let names: Vec<&str> = args.keys().map(String::as_str).collect();
    match args.get("operation").and_then(Value::as_str) {
        Some(op) => format!("operation={op} args={}", names.join(",")),
        None => format!("args={}", names.join(",")),
    }
}

/// How a tool call ended, in a word.
pub(crate) fn outcome(response: &Result<CallToolResponse, McpError>) -> &'static str {
    match response {
        Err(_) => "protocol error",
        Ok(CallToolResponse::Complete(r)) if r.is_error == Some(true) => "tool error",
        Ok(CallToolResponse::Complete(_)) => "ok",
        Ok(CallToolResponse::Task(_)) => "task",
        Ok(CallToolResponse::InputRequired(_)) => "input required",
        Ok(_) => "other",
    }
}

/// Standard error, each line redacted.
struct Redacting;

/// One event's text, written to standard error redacted.
struct Line;

impl<'a> MakeWriter<'a> for Redacting {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        Line
    }
}

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        let text = match REDACTOR.get() {
            Some(client) => client.redact(&text),
            None => text.into_owned(),
        };
        std::io::stderr().write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
