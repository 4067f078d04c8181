//! Every tool result and error leaves through here: redacted by the runtime (every echo of the
//! client secret or an access token, in every encoding it knows, becomes `***`) and bounded in
//! size.

use rmcp::model::{CallToolResult, ContentBlock};
use ruckus_one_runtime::Client;
use serde_json::Value;

/// The largest text a tool returns (characters); longer answers are cut with a note.
pub(crate) const MAX_TEXT: usize = 40_000;

/// A successful result showing `value`.
pub(crate) fn ok(client: &Client, value: &Value) -> CallToolResult {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    CallToolResult::success(vec![ContentBlock::text(clean(client, &text))])
}

/// A successful result of plain text.
pub(crate) fn text(client: &Client, text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(clean(client, text))])
}

/// A tool error the model reads (not a protocol error).
pub(crate) fn error(client: &Client, message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(clean(client, message))])
}

/// The result of an outcome.
pub(crate) fn outcome(client: &Client, outcome: Result<Value, String>) -> CallToolResult {
    match outcome {
        Ok(value) => ok(client, &value),
        Err(message) => error(client, &message),
    }
}

/// `text` redacted, then cut to [`MAX_TEXT`] characters.
fn clean(client: &Client, text: &str) -> String {
    let text = client.redact(text);
    if text.chars().count() <= MAX_TEXT {
        return text;
    }
    let cut: String = text.chars().take(MAX_TEXT).collect();
    format!("{cut}\n[cut at {MAX_TEXT} characters: ask for fewer rows (`limit`) or fields]")
}
