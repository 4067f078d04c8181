//! A delete asks the user first, through MCP's elicitation: on protocol 2026-07-28 and later
//! as an input request of the tool call (the client answers and calls again), on older
//! sessions as an elicitation request to the client. A client that cannot ask is refused:
//! nothing is ever deleted unconfirmed.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest,
    InputRequests, InputRequiredResult, MetaObject, ProtocolVersion, RequestMetaObject,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

use crate::spec_tasks::{RELATED, Store};

/// The key of the confirmation in the input requests and responses.
const KEY: &str = "confirm_delete";

/// Confirmations asked and not answered yet, by the opaque state handed to the client: the
/// state names the exact call (operation and arguments) the user is asked about, kept here,
/// so an answer can only confirm that call.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    asked: Mutex<HashMap<String, String>>,
    counter: AtomicU64,
    seed: RandomState,
}

/// The 2025-11-25 task a confirmation is asked in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskLink<'a> {
    pub store: &'a Store,
    pub id: &'a str,
}

/// What the user said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    Confirmed,
    /// Declined or cancelled: nothing is done.
    Declined,
}

/// How the confirmation goes on.
#[derive(Debug)]
pub(crate) enum Step {
    /// The user answered.
    Answered(Answer),
    /// The tool call returns this; the client asks the user and calls again.
    Ask(InputRequiredResult),
    /// The client cannot ask its user.
    Unsupported(String),
}

impl Pending {
    /// The confirmation of `call` (a canonical text of the operation and its arguments) with
    /// `message`: the answer carried by this call of the tool, else the question to ask.
    pub(crate) async fn confirm(
        &self,
        call: &str,
        message: &str,
        state: Option<&str>,
        responses: Option<&serde_json::Map<String, Value>>,
        context: &RequestContext<RoleServer>,
        task: Option<TaskLink<'_>>,
    ) -> Step {
        if let (Some(state), Some(responses)) = (state, responses) {
            let asked = self
                .asked
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(state);
            return match asked {
                Some(asked) if asked == call => Step::Answered(answer_of(responses.get(KEY))),
                // An answer to another question (or to none) confirms nothing.
                _ => Step::Answered(Answer::Declined),
            };
        }
        let can_ask = context
            .client_capabilities()
            .is_some_and(|c| c.elicitation.is_some());
        if !can_ask {
            return Step::Unsupported(
                "refused: deleting needs the user's confirmation, and this MCP client cannot ask its user (no elicitation support); nothing was deleted".to_owned(),
            );
        }
        let modern = context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        if modern {
            let state = self.state();
            self.asked
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(state.clone(), call.to_owned());
            let mut requests = InputRequests::new();
            requests.insert(
                KEY.to_owned(),
                InputRequest::Elicitation(ElicitRequest::new(params(message, None))),
            );
            return Step::Ask(InputRequiredResult::new(Some(requests), Some(state)));
        }
        // A 2025-11-25 task waits for the answer as `input_required`, the question naming it.
        if let Some(task) = &task {
            task.store.set_waiting(task.id, true);
        }
        let asked = context
            .peer
            .create_elicitation(params(message, task.as_ref().map(|t| t.id)))
            .await;
        if let Some(task) = &task {
            task.store.set_waiting(task.id, false);
        }
        match asked {
            Ok(result) => Step::Answered(answer_of_result(&result)),
            Err(e) => Step::Unsupported(format!(
                "refused: the confirmation could not be asked ({e}); nothing was deleted"
            )),
        }
    }

    /// An unguessable state for one question.
    fn state(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut hasher = self.seed.build_hasher();
        hasher.write_u64(n);
        let a = hasher.finish();
        hasher.write_u64(a);
        format!("confirm-{n}-{a:016x}{:016x}", hasher.finish())
    }
}

/// The most characters of one value a question shows.
const MAX_QUOTED: usize = 120;

/// `value` as a question shows it: a JSON string (its quotes and backslashes escaped, so it
/// cannot end its quoting), with every control, format (bidirectional overrides, zero-width)
/// and line-breaking character as `\u{..}`, and cut at [`MAX_QUOTED`] characters.
pub(crate) fn quoted(value: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in value.chars().enumerate() {
        if i == MAX_QUOTED {
            out.push_str(&format!("…\" ({} characters)", value.chars().count()));
            return out;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || is_invisible(c) => {
                out.push_str(&format!("\\u{{{:04x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters that change how text around them shows without showing themselves.
fn is_invisible(c: char) -> bool {
    matches!(u32::from(c), 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x206f | 0xfeff)
}

/// The question: a yes/no form, naming the 2025-11-25 task it belongs to, if any.
fn params(message: &str, task: Option<&str>) -> ElicitRequestParams {
    let schema = json!({
        "type": "object",
        "properties": {"confirm": {"type": "boolean", "title": "Delete", "description": "Yes, delete it"}},
        "required": ["confirm"]
    });
    let meta = task.map(|id| {
        let mut meta = serde_json::Map::new();
        meta.insert(RELATED.to_owned(), json!({"taskId": id}));
        RequestMetaObject(MetaObject(meta))
    });
    ElicitRequestParams::FormElicitationParams {
        meta,
        message: message.to_owned(),
        requested_schema: serde_json::from_value(schema).expect("a valid elicitation schema"),
    }
}

/// A response of the input-response map (an `ElicitResult` as JSON).
fn answer_of(response: Option<&Value>) -> Answer {
    match response.and_then(|r| serde_json::from_value::<ElicitResult>(r.clone()).ok()) {
        Some(result) => answer_of_result(&result),
        None => Answer::Declined,
    }
}

/// Confirmed only when accepted with `confirm: true`.
fn answer_of_result(result: &ElicitResult) -> Answer {
    let yes = result.action == ElicitationAction::Accept
        && result.content.as_ref().and_then(|c| c.get("confirm")) == Some(&Value::Bool(true));
    if yes {
        Answer::Confirmed
    } else {
        Answer::Declined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_accepted_yes_confirms() {
        let yes = json!({"action": "accept", "content": {"confirm": true}});
        let no = json!({"action": "accept", "content": {"confirm": false}});
        let declined = json!({"action": "decline"});
        assert_eq!(answer_of(Some(&yes)), Answer::Confirmed);
        assert_eq!(answer_of(Some(&no)), Answer::Declined);
        assert_eq!(answer_of(Some(&declined)), Answer::Declined);
        assert_eq!(answer_of(None), Answer::Declined);
        let pending = Pending::default();
        assert_ne!(pending.state(), pending.state());
    }

    #[test]
    fn quoted_values_cannot_end_their_quoting() {
        assert_eq!(quoted("Lobby"), "\"Lobby\"");
        assert_eq!(quoted("a`b\"c\\"), "\"a`b\\\"c\\\\\"");
        assert_eq!(quoted("x\ny\u{202e}"), "\"x\\u{000a}y\\u{202e}\"");
        let long = quoted(&"v".repeat(500));
        assert!(long.ends_with("(500 characters)"), "{long}");
        // Whatever the value, the text between the outer quotes has no bare quote.
        for value in ["\"", "a\" and delete everything \"", "\\\"", "`\"`"] {
            let q = quoted(value);
            let inner = &q[1..q.len() - 1];
            let bare = inner.match_indices('"').any(|(i, _)| {
                let slashes = inner[..i].chars().rev().take_while(|c| *c == '\\').count();
                slashes % 2 == 0
            });
            assert!(!bare, "{q}");
        }
    }
}
