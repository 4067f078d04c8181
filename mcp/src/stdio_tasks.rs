//! Standard input and output with MCP 2025-11-25 tasks: an adapter between the client's
//! lines and the SDK's, which keeps everything else as it is. The methods are
//! `task_methods.rs`'s; this adapter remembers which answers to complete (`initialize`, and
//! `tools/list` on a 2025-11-25 session). A confirmation a task asks for goes to the client
//! as any request does.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::spec_tasks::Store;
use crate::task_methods::{self, Scope, Step};

/// An answer of the SDK the adapter completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Watched {
    Initialize,
    ToolsList,
}

/// The adapter's state: the tasks, and the requests whose answers it completes.
#[derive(Debug)]
pub(crate) struct Adapter {
    store: Arc<Store>,
    /// Client request ids (as JSON text) of `initialize` and `tools/list`.
    watched: Mutex<HashMap<String, Watched>>,
    /// Whether the session speaks 2025-11-25 (its `initialize` answer says).
    tasks: AtomicBool,
    /// Whether the client declared the newer drafts' tasks extension.
    extension: AtomicBool,
}

impl Adapter {
    pub(crate) fn new(store: Arc<Store>) -> Adapter {
        Adapter {
            store,
            watched: Mutex::new(HashMap::new()),
            tasks: AtomicBool::new(false),
            extension: AtomicBool::new(false),
        }
    }

    fn watched(&self) -> std::sync::MutexGuard<'_, HashMap<String, Watched>> {
        self.watched.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What to do with `message` from the client.
    pub(crate) fn incoming(&self, message: Value) -> Step {
        let kind = match message.get("method").and_then(Value::as_str) {
            Some("initialize") => Some(Watched::Initialize),
            Some("tools/list") => Some(Watched::ToolsList),
            _ => None,
        };
        if let (Some(kind), Some(id)) = (kind, message.get("id")) {
            self.watched().insert(id.to_string(), kind);
        }
        if kind == Some(Watched::Initialize) {
            let declared = task_methods::declares_extension(&message);
            self.extension.store(declared, Ordering::Relaxed);
        }
        let scope = Scope {
            owner: None,
            unknown_here: self.tasks.load(Ordering::Relaxed)
                && !self.extension.load(Ordering::Relaxed),
        };
        task_methods::route(&self.store, scope, message)
    }

    /// `message` from the SDK as the client gets it, if it gets it: answers of task calls end
    /// their task; the answers of `initialize` and `tools/list` gain what tasks add.
    pub(crate) fn outgoing(&self, mut message: Value) -> Option<Value> {
        if let Some(task) = task_methods::answered_task(&message) {
            let task = task.to_owned();
            self.store.finish(&task, message);
            return None;
        }
        let Some(id) = message.get("id") else {
            return Some(message);
        };
        if message.get("method").is_some() {
            return Some(message);
        }
        let kind = self.watched().remove(&id.to_string());
        let Some(result) = message.get_mut("result") else {
            return Some(message);
        };
        match kind {
            Some(Watched::Initialize) => {
                task_methods::add_capability(result);
                let tasks = result["protocolVersion"] == task_methods::VERSION;
                self.tasks.store(tasks, Ordering::Relaxed);
            }
            Some(Watched::ToolsList) if self.tasks.load(Ordering::Relaxed) => {
                task_methods::add_task_support(result);
            }
            _ => {}
        }
        Some(message)
    }
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
                    let out = task_methods::ended(id, store.result(&task).await);
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
    use serde_json::json;

    #[test]
    fn initialize_and_tools_list_gain_what_tasks_add_on_2025_11_25() {
        let a = Adapter::new(Arc::new(Store::default()));
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}});
        assert!(matches!(a.incoming(init), Step::Forward(_)));
        let answer = a
            .outgoing(json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}}}))
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
            tools["result"]["tools"][1]["execution"]["taskSupport"],
            "optional"
        );
        // Other answers and notifications pass as they are.
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}});
        assert_eq!(a.outgoing(note.clone()), Some(note));
    }

    #[test]
    fn a_newer_session_sees_no_2025_11_25_tasks() {
        let a = Adapter::new(Arc::new(Store::default()));
        a.incoming(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
        let answer = a
            .outgoing(json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2026-07-28", "capabilities": {}}}))
            .unwrap();
        assert!(answer["result"]["capabilities"].get("tasks").is_none());
        a.incoming(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
        let tools = a
            .outgoing(
                json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "invoke_write"}]}}),
            )
            .unwrap();
        assert!(tools["result"]["tools"][0].get("execution").is_none());
    }
}
