//! Standard input and output with MCP 2025-11-25 tasks: an adapter between the client's
//! lines and the SDK's, which keeps everything else as it is. A `tools/call` carrying `task`
//! is answered at once with the task (`CreateTaskResult`) and handed to the SDK under an id of
//! its own, its `_meta` naming the task; the SDK's answer to that id ends the task.
//! `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` of these tasks are answered
//! here (other task ids go on to the SDK: the extension's tasks). The `initialize` answer
//! gains the `tasks` capability and `tools/list` the tools' `execution.taskSupport`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::spec_tasks::{META_KEY, Store, TASK_TOOLS};

/// The prefix of the ids under which task calls go to the SDK.
const TASK_ID_PREFIX: &str = "ruckus-task:";

/// What to do with one message of the client.
#[derive(Debug)]
pub(crate) enum Step {
    /// Hand it to the SDK (possibly rewritten).
    Forward(Value),
    /// Answer the client with it.
    Reply(Value),
    /// Hand the first to the SDK and answer the client with the second.
    Both(Value, Value),
    /// Answer `tasks/result` for the task once it ends.
    AwaitResult { id: Value, task: String },
}

/// The adapter's state: the tasks, and the requests whose answers it completes.
#[derive(Debug)]
pub(crate) struct Adapter {
    store: Arc<Store>,
    /// Client request ids (as JSON text) of `initialize` and `tools/list`.
    watched: Mutex<HashMap<String, &'static str>>,
}

impl Adapter {
    pub(crate) fn new(store: Arc<Store>) -> Adapter {
        Adapter {
            store,
            watched: Mutex::new(HashMap::new()),
        }
    }

    /// What to do with `message` from the client.
    pub(crate) fn incoming(&self, mut message: Value) -> Step {
        let (Some(method), Some(id)) = (
            message.get("method").and_then(Value::as_str),
            message.get("id").cloned(),
        ) else {
            return Step::Forward(message);
        };
        let task_id = message["params"]["taskId"].as_str().map(str::to_owned);
        let ours = task_id.as_deref().filter(|t| self.store.has(t));
        match (method, ours) {
            ("initialize", _) | ("tools/list", _) => {
                let kind = if method == "initialize" {
                    "initialize"
                } else {
                    "tools/list"
                };
                self.watched
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id.to_string(), kind);
                Step::Forward(message)
            }
            ("tools/call", _) if message["params"].get("task").is_some() => self.call(id, message),
            ("tasks/get", Some(task)) => reply(id, self.store.task(task).unwrap_or_default()),
            ("tasks/result", Some(task)) => Step::AwaitResult {
                id,
                task: task.to_owned(),
            },
            ("tasks/cancel", Some(task)) => match self.store.cancel(task) {
                Ok(()) => {
                    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": format!("{TASK_ID_PREFIX}{task}"), "reason": "task cancelled"}});
                    Step::Both(
                        cancel,
                        answer(id, self.store.task(task).unwrap_or_default()),
                    )
                }
                Err(message) => Step::Reply(error(id, -32602, &message)),
            },
            ("tasks/list", _) => reply(id, json!({"tasks": self.store.list()})),
            _ => {
                message["params"].as_object_mut().map(|p| p.remove("task"));
                Step::Forward(message)
            }
        }
    }

    /// A `tools/call` as a task: the task at once, the call to the SDK under the task's id.
    fn call(&self, id: Value, mut message: Value) -> Step {
        let tool = message["params"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if !TASK_TOOLS.contains(&tool.as_str()) {
            let text = format!(
                "the tool `{tool}` does not run as a task (its execution.taskSupport is forbidden); call it without `task`"
            );
            return Step::Reply(error(id, -32602, &text));
        }
        let ttl = message["params"]["task"]["ttl"].as_u64();
        let task = self.store.create(ttl);
        let params = &mut message["params"];
        params.as_object_mut().map(|p| p.remove("task"));
        params["_meta"][META_KEY] = json!(task);
        message["id"] = json!(format!("{TASK_ID_PREFIX}{task}"));
        let created = json!({"task": self.store.task(&task).unwrap_or_default()});
        Step::Both(message, answer(id, created))
    }

    /// `message` from the SDK as the client gets it, if it gets it: answers of task calls end
    /// their task; the answers of `initialize` and `tools/list` gain what tasks add.
    pub(crate) fn outgoing(&self, mut message: Value) -> Option<Value> {
        let Some(id) = message.get("id") else {
            return Some(message);
        };
        if message.get("method").is_some() {
            return Some(message);
        }
        if let Some(task) = id.as_str().and_then(|i| i.strip_prefix(TASK_ID_PREFIX)) {
            let task = task.to_owned();
            self.store.finish(&task, message);
            return None;
        }
        let kind = self
            .watched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id.to_string());
        let result = message.get_mut("result");
        match (kind, result) {
            (Some("initialize"), Some(result)) => {
                result["capabilities"]["tasks"] =
                    json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
            }
            (Some("tools/list"), Some(result)) => {
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
            _ => {}
        }
        Some(message)
    }
}

fn answer(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn reply(id: Value, result: Value) -> Step {
    Step::Reply(answer(id, result))
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Runs the adapter between the client (`input`, `output`) and the SDK's end of a pipe
/// (`sdk`), until the client closes its input.
pub(crate) async fn run<I, O, S>(adapter: Arc<Adapter>, input: I, output: O, sdk: S)
where
    I: tokio::io::AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
    S: tokio::io::AsyncRead + AsyncWrite + Send + 'static,
{
    let (sdk_read, mut sdk_write) = tokio::io::split(sdk);
    let (to_client, mut client_lines) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = client_lines.recv().await {
            if output.write_all(line.as_bytes()).await.is_err()
                || output.write_all(b"\n").await.is_err()
            {
                break;
            }
            let _ = output.flush().await;
        }
    });
    let from_sdk = {
        let (adapter, to_client) = (adapter.clone(), to_client.clone());
        tokio::spawn(async move {
            let mut lines = BufReader::new(sdk_read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let out = match serde_json::from_str::<Value>(&line) {
                    Ok(message) => adapter.outgoing(message).map(|m| m.to_string()),
                    Err(_) => Some(line),
                };
                if let Some(out) = out {
                    let _ = to_client.send(out);
                }
            }
        })
    };
    let mut lines = BufReader::new(input).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            // Not JSON: the SDK answers it as it does.
            if sdk_write
                .write_all(format!("{line}\n").as_bytes())
                .await
                .is_err()
            {
                break;
            }
            continue;
        };
        let (forward, reply) = match adapter.incoming(message) {
            Step::Forward(m) => (Some(m), None),
            Step::Reply(r) => (None, Some(r)),
            Step::Both(m, r) => (Some(m), Some(r)),
            Step::AwaitResult { id, task } => {
                let (store, to_client) = (adapter.store.clone(), to_client.clone());
                tokio::spawn(async move {
                    let out = match store.result(&task).await {
                        Ok(result) => answer(id, result),
                        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": e}),
                    };
                    let _ = to_client.send(out.to_string());
                });
                (None, None)
            }
        };
        if let Some(reply) = reply {
            let _ = to_client.send(reply.to_string());
        }
        if let Some(m) = forward
            && sdk_write
                .write_all(format!("{m}\n").as_bytes())
                .await
                .is_err()
        {
            break;
        }
    }
    let _ = sdk_write.shutdown().await;
    drop(to_client);
    let _ = from_sdk.await;
    let _ = writer.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter() -> Adapter {
        Adapter::new(Arc::new(Store::default()))
    }

    #[test]
    fn initialize_and_tools_list_gain_what_tasks_add() {
        let a = adapter();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}});
        assert!(matches!(a.incoming(init), Step::Forward(_)));
        let answer = a
            .outgoing(json!({"jsonrpc": "2.0", "id": 1, "result": {"capabilities": {"tools": {}}}}))
            .unwrap();
        assert_eq!(
            answer["result"]["capabilities"]["tasks"]["requests"]["tools"]["call"],
            json!({})
        );
        let list = json!({"jsonrpc": "2.0", "id": "l", "method": "tools/list"});
        assert!(matches!(a.incoming(list), Step::Forward(_)));
        let tools = json!({"jsonrpc": "2.0", "id": "l", "result": {"tools": [{"name": "invoke_read"}, {"name": "invoke_write"}]}});
        let tools = a.outgoing(tools).unwrap();
        assert_eq!(
            tools["result"]["tools"][0]["execution"]["taskSupport"],
            "forbidden"
        );
        assert_eq!(
            tools["result"]["tools"][1]["execution"]["taskSupport"],
            "optional"
        );
        // Other answers and notifications pass as they are.
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}});
        assert_eq!(a.outgoing(note.clone()), Some(note));
    }

    #[test]
    fn a_task_call_is_answered_at_once_and_ends_with_the_sdks_answer() {
        let a = adapter();
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "invoke_write", "arguments": {}, "task": {"ttl": 5}}});
        let Step::Both(forwarded, reply) = a.incoming(call) else {
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
        let Step::Reply(got) = a.incoming(get.clone()) else {
            panic!()
        };
        assert_eq!(got["result"]["status"], "working");
        let done = json!({"jsonrpc": "2.0", "id": forwarded["id"], "result": {"content": []}});
        assert_eq!(a.outgoing(done), None);
        let Step::Reply(got) = a.incoming(get) else {
            panic!()
        };
        assert_eq!(got["result"]["status"], "completed");
        // Unknown task ids go on to the SDK (the extension's tasks).
        let other =
            json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {"taskId": "x"}});
        assert!(matches!(a.incoming(other), Step::Forward(_)));
    }
}
