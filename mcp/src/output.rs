//! Every tool result and error leaves through here: redacted by the runtime (every echo of the
//! client secret or an access token, in every encoding it knows, becomes `***`) and bounded in
//! size without ever cutting JSON apart.

use rmcp::model::{CallToolResult, ContentBlock};
use ruckus_one_runtime::Client;
use serde_json::{Map, Value, json};

/// The largest text a tool returns (characters).
pub(crate) const MAX_TEXT: usize = 40_000;

/// A successful result showing `value` as text, and as structured content when the tool
/// declares an output schema (`structured`).
pub(crate) fn ok(client: &Client, value: &Value) -> CallToolResult {
    let value = bounded(redacted(client, value));
    let text = match &value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// A successful result with `value` both as text and as structured content (an object:
/// other values come as `{"value": ...}`), and `extra` content blocks after the text.
pub(crate) fn data(client: &Client, value: &Value, extra: Vec<ContentBlock>) -> CallToolResult {
    let value = match bounded(redacted(client, value)) {
        Value::Object(map) => Value::Object(map),
        other => json!({ "value": other }),
    };
    let mut content = vec![ContentBlock::text(value.to_string())];
    content.extend(extra);
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(value);
    result
}

/// A successful result of plain text.
pub(crate) fn text(client: &Client, text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(cut(&client.redact(text)))])
}

/// A tool error the model reads (not a protocol error).
pub(crate) fn error(client: &Client, message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(cut(&client.redact(message)))])
}

/// The result of an outcome.
pub(crate) fn outcome(client: &Client, outcome: Result<Value, String>) -> CallToolResult {
    match outcome {
        Ok(value) => ok(client, &value),
        Err(message) => error(client, &message),
    }
}

/// The result of a read's outcome, with structured content.
pub(crate) fn read_outcome(client: &Client, outcome: Result<Value, String>) -> CallToolResult {
    match outcome {
        Ok(value) => data(client, &value, Vec::new()),
        Err(message) => error(client, &message),
    }
}

/// `value` with every secret the client knows as `***` (a value whose redacted text no
/// longer parses is shown as that text).
fn redacted(client: &Client, value: &Value) -> Value {
    let text = value.to_string();
    let clean = client.redact(&text);
    if clean == text {
        return value.clone();
    }
    serde_json::from_str(&clean).unwrap_or(Value::String(clean))
}

/// `value` when its text fits [`MAX_TEXT`]; else an object saying so, with the start of the
/// text as a string (still JSON: never a cut inside the value).
fn bounded(value: Value) -> Value {
    let text = match &value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let size = text.chars().count();
    if size <= MAX_TEXT {
        return value;
    }
    let mut out = Map::new();
    out.insert(
        "cut".into(),
        json!(format!(
            "the answer has {size} characters, more than the {MAX_TEXT} shown: ask for fewer rows (`limit`) or `fields`"
        )),
    );
    out.insert(
        "start".into(),
        json!(text.chars().take(MAX_TEXT - 1_000).collect::<String>()),
    );
    Value::Object(out)
}

/// Plain text cut to [`MAX_TEXT`] characters, with a note.
fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_TEXT {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_TEXT).collect();
    format!("{cut}\n[cut at {MAX_TEXT} characters]")
}
