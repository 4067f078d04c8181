//! The methods of MCP 2025-11-25 tasks, the same over both transports: what a client message
//! means for the tasks of one owner (the stdio client, or one HTTP session), and what the
//! `initialize` and `tools/list` answers gain. A `tools/call` carrying `task` is answered at
//! once with the task (`CreateTaskResult`) and handed to the SDK under an id of its own, its
//! `_meta` naming the task; the SDK's answer to that id ends the task. `tasks/get`,
//! `tasks/result`, `tasks/cancel` and `tasks/list` of these tasks are answered here; other
//! task ids go on to the SDK (the newer drafts' extension).

use serde_json::{Value, json};

use crate::spec_tasks::{META_KEY, Store, TASK_TOOLS};

/// The prefix of the ids under which task calls go to the SDK.
pub(crate) const TASK_ID_PREFIX: &str = "ruckus-task:";
/// The protocol version whose tasks these are; sessions of other versions see none of this.
pub(crate) const VERSION: &str = "2025-11-25";

/// What to do with one message of the client.
#[derive(Debug)]
pub(crate) enum Step {
    /// Hand it to the SDK (possibly rewritten).
    Forward(Value),
    /// Answer the client with it.
    Reply(Value),
    /// A task call: hand the first to the SDK and answer the client with the second.
    Both(Value, Value),
    /// Answer `tasks/result` for the task once it ends.
    AwaitResult { id: Value, task: String },
}

/// Whose tasks a message is about.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// The owner of the tasks: the HTTP session, `None` over stdio.
    pub owner: Option<&'a str>,
    /// Whether a task id this store does not have is answered here as unknown (-32602, as
    /// 2025-11-25 asks), rather than passed on to the extension's tasks: true on a
    /// 2025-11-25 session whose client did not declare the extension.
    pub unknown_here: bool,
}

/// Whether an `initialize` request's client declares the newer drafts' tasks extension.
pub(crate) fn declares_extension(initialize: &Value) -> bool {
    initialize["params"]["capabilities"]["extensions"]
        .get(rmcp::model::TASKS_EXTENSION_ID)
        .is_some()
}

/// What `message` from the client means for the tasks of `scope`.
pub(crate) fn route(store: &Store, scope: Scope<'_>, message: Value) -> Step {
    let owner = scope.owner;
    let (Some(method), Some(id)) = (
        message.get("method").and_then(Value::as_str),
        message.get("id").cloned(),
    ) else {
        return Step::Forward(message);
    };
    let task_id = message["params"]["taskId"].as_str().map(str::to_owned);
    let ours = task_id.as_deref().filter(|t| store.belongs(t, owner));
    match (method, ours) {
        ("tools/call", _) if message["params"].get("task").is_some() => {
            call(store, owner, id, message)
        }
        ("tasks/get", Some(task)) => reply(id, store.task(task).unwrap_or_default()),
        ("tasks/result", Some(task)) => Step::AwaitResult {
            id,
            task: task.to_owned(),
        },
        ("tasks/cancel", Some(task)) => match store.cancel(task) {
            Ok(()) => {
                let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": format!("{TASK_ID_PREFIX}{task}"), "reason": "task cancelled"}});
                Step::Both(cancel, answer(id, store.task(task).unwrap_or_default()))
            }
            Err(message) => Step::Reply(error(id, -32602, &message)),
        },
        ("tasks/list", _) => reply(id, json!({"tasks": store.list(owner)})),
        ("tasks/get" | "tasks/result" | "tasks/cancel", None) if scope.unknown_here => {
            let task = task_id.unwrap_or_default();
            Step::Reply(error(id, -32602, &format!("no task {task}")))
        }
        _ => Step::Forward(message),
    }
}

/// A `tools/call` as a task: the task at once, the call to the SDK under the task's id. A
/// tool that does not run as a task is refused with -32601, as the specification asks.
fn call(store: &Store, owner: Option<&str>, id: Value, mut message: Value) -> Step {
    let tool = message["params"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    if !TASK_TOOLS.contains(&tool.as_str()) {
        let text = format!(
            "the tool `{tool}` does not run as a task (its execution.taskSupport is forbidden); call it without `task`"
        );
        return Step::Reply(error(id, -32601, &text));
    }
    let ttl = message["params"]["task"]["ttl"].as_u64();
    let task = store.create(ttl, owner);
    let params = &mut message["params"];
    params.as_object_mut().map(|p| p.remove("task"));
    params["_meta"][META_KEY] = json!(task);
    message["id"] = json!(format!("{TASK_ID_PREFIX}{task}"));
    let created = json!({"task": store.task(&task).unwrap_or_default()});
    Step::Both(message, answer(id, created))
}

/// The task whose call `message` (an answer of the SDK) answers, if it is one.
pub(crate) fn answered_task(message: &Value) -> Option<&str> {
    if message.get("method").is_some() {
        return None;
    }
    message.get("id")?.as_str()?.strip_prefix(TASK_ID_PREFIX)
}

/// An `initialize` result gains the `tasks` capability on a 2025-11-25 session.
pub(crate) fn add_capability(result: &mut Value) {
    if result["protocolVersion"] == VERSION {
        result["capabilities"]["tasks"] =
            json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
    }
}

/// A `tools/list` result gains each tool's `execution.taskSupport`.
pub(crate) fn add_task_support(result: &mut Value) {
    for tool in result["tools"].as_array_mut().into_iter().flatten() {
        let name = tool["name"].as_str().unwrap_or_default();
        let support = if TASK_TOOLS.contains(&name) {
            "optional"
        } else {
            "forbidden"
        };
        tool["execution"] = json!({"taskSupport": support});
    }
}

/// A JSON-RPC answer.
pub(crate) fn answer(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The JSON-RPC answer `tasks/result` gives for `end`.
pub(crate) fn ended(id: Value, end: Result<Value, Value>) -> Value {
    match end {
        Ok(result) => answer(id, result),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": e}),
    }
}

fn reply(id: Value, result: Value) -> Step {
    Step::Reply(answer(id, result))
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(owner: &str) -> Scope<'_> {
        Scope {
            owner: Some(owner),
            unknown_here: true,
        }
    }

    #[test]
    fn an_unknown_task_is_invalid_params_unless_the_extension_may_have_it() {
        let store = Store::default();
        let get =
            json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": "t-x"}});
        let Step::Reply(answer) = route(&store, scope("s"), get.clone()) else {
            panic!("answered here")
        };
        assert_eq!(answer["error"]["code"], -32602);
        let extension = Scope {
            owner: Some("s"),
            unknown_here: false,
        };
        assert!(matches!(route(&store, extension, get), Step::Forward(_)));
        let init = json!({"params": {"capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}});
        assert!(declares_extension(&init));
        assert!(!declares_extension(
            &json!({"params": {"capabilities": {"tasks": {}}}})
        ));
    }

    #[test]
    fn a_task_call_is_answered_at_once_and_ends_with_the_sdks_answer() {
        let store = Store::default();
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "invoke_write", "arguments": {}, "task": {"ttl": 5_000}}});
        let Step::Both(forwarded, reply) = route(&store, scope("s1"), call) else {
            panic!("a task call is forwarded and answered")
        };
        let task = reply["result"]["task"]["taskId"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(reply["id"], 7);
        assert_eq!(forwarded["id"], json!(format!("{TASK_ID_PREFIX}{task}")));
        assert_eq!(forwarded["params"]["_meta"][META_KEY], json!(task));
        assert!(forwarded["params"].get("task").is_none());
        let get =
            json!({"jsonrpc": "2.0", "id": 8, "method": "tasks/get", "params": {"taskId": task}});
        let Step::Reply(got) = route(&store, scope("s1"), get.clone()) else {
            panic!()
        };
        assert_eq!(got["result"]["status"], "working");
        // Another session does not see the task: its request goes on to the SDK.
        assert!(matches!(
            route(
                &store,
                Scope {
                    owner: Some("s2"),
                    unknown_here: false
                },
                get.clone()
            ),
            Step::Forward(_)
        ));
        let done = json!({"jsonrpc": "2.0", "id": forwarded["id"], "result": {"content": []}});
        assert_eq!(answered_task(&done), Some(task.as_str()));
        store.finish(&task, done);
        let Step::Reply(got) = route(&store, scope("s1"), get) else {
            panic!()
        };
        assert_eq!(got["result"]["status"], "completed");
    }

    #[test]
    fn a_tool_that_is_not_a_task_tool_is_method_not_found() {
        let store = Store::default();
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "invoke_read", "arguments": {}, "task": {}}});
        let Step::Reply(refused) = route(&store, scope("s1"), call) else {
            panic!("refused at once")
        };
        assert_eq!(refused["error"]["code"], -32601);
        assert!(store.list(None).is_empty());
    }

    #[test]
    fn only_2025_11_25_sessions_gain_the_capability() {
        let mut old = json!({"protocolVersion": VERSION, "capabilities": {"tools": {}}});
        add_capability(&mut old);
        assert_eq!(
            old["capabilities"]["tasks"]["requests"]["tools"]["call"],
            json!({})
        );
        let mut new = json!({"protocolVersion": "2026-07-28", "capabilities": {"tools": {}}});
        add_capability(&mut new);
        assert!(new["capabilities"].get("tasks").is_none());
        let mut tools = json!({"tools": [{"name": "invoke_read"}, {"name": "invoke_write"}]});
        add_task_support(&mut tools);
        assert_eq!(tools["tools"][0]["execution"]["taskSupport"], "forbidden");
        assert_eq!(tools["tools"][1]["execution"]["taskSupport"], "optional");
    }
}
