//! Tasks as MCP 2025-11-25 defines them (beside the tasks extension of the newer drafts,
//! `tasks.rs`): a `tools/call` carrying `task` answers at once with the task, runs on, and is
//! followed with `tasks/get`, `tasks/result` (which waits for the end) and `tasks/cancel`.
//! This store keeps them; the stdio adapter (`stdio_tasks.rs`) speaks the methods, and the
//! invoke tools write each task's status message as its RUCKUS activity goes on.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::task_manager::current_timestamp;
use serde_json::{Value, json};
use tokio::sync::Notify;

/// The `_meta` key marking the call a task runs (its value: the task id).
pub(crate) const META_KEY: &str = "ruckus/task";
/// The `_meta` key naming the task a result belongs to.
pub(crate) const RELATED: &str = "io.modelcontextprotocol/related-task";
/// The tools a client may call as a task (`execution.taskSupport: optional`).
pub(crate) const TASK_TOOLS: &[&str] = &[crate::index::INVOKE_WRITE, crate::index::INVOKE_DELETE];
/// How long a task is kept at most (ms), and how often a client should poll.
const MAX_TTL_MS: u64 = 3_600_000;
const POLL_MS: u64 = 1_000;
/// Tasks kept at most; the oldest ended ones go first.
const MAX_TASKS: usize = 1_000;

/// Where a task is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Working,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        self != Status::Working
    }
}

#[derive(Debug)]
struct Entry {
    status: Status,
    message: Option<String>,
    created: String,
    updated: String,
    ttl: u64,
    /// The JSON-RPC answer of the call: `{"result": ...}` or `{"error": ...}`.
    answer: Option<Value>,
    seq: u64,
}

/// The tasks of one server.
#[derive(Debug, Default)]
pub(crate) struct Store {
    entries: Mutex<HashMap<String, Entry>>,
    changed: Notify,
    counter: AtomicU64,
    seed: RandomState,
}

impl Store {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new working task kept for `ttl` ms (bounded); its id.
    pub(crate) fn create(&self, ttl: Option<u64>) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut hasher = self.seed.build_hasher();
        hasher.write_u64(n);
        let id = format!("task-{n}-{:016x}", hasher.finish());
        let now = current_timestamp();
        let mut entries = self.lock();
        if entries.len() >= MAX_TASKS {
            let oldest = entries
                .iter()
                .filter(|(_, e)| e.status.is_terminal())
                .min_by_key(|(_, e)| e.seq)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                entries.remove(&oldest);
            }
        }
        entries.insert(
            id.clone(),
            Entry {
                status: Status::Working,
                message: Some("starting".to_owned()),
                created: now.clone(),
                updated: now,
                ttl: ttl.unwrap_or(MAX_TTL_MS).min(MAX_TTL_MS),
                answer: None,
                seq: n,
            },
        );
        id
    }

    /// Whether `id` is a task of this store.
    pub(crate) fn has(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    /// The task `id` as the protocol shows it (`Task`).
    pub(crate) fn task(&self, id: &str) -> Option<Value> {
        let entries = self.lock();
        let e = entries.get(id)?;
        let mut task = json!({
            "taskId": id,
            "status": e.status.as_str(),
            "createdAt": e.created,
            "lastUpdatedAt": e.updated,
            "ttl": e.ttl,
            "pollInterval": POLL_MS,
        });
        if let Some(message) = &e.message {
            task["statusMessage"] = json!(message);
        }
        Some(task)
    }

    /// Every task, newest first.
    pub(crate) fn list(&self) -> Vec<Value> {
        let mut ids: Vec<(u64, String)> = self
            .lock()
            .iter()
            .map(|(k, e)| (e.seq, k.clone()))
            .collect();
        ids.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        ids.iter().filter_map(|(_, id)| self.task(id)).collect()
    }

    /// The status message of a working task.
    pub(crate) fn set_message(&self, id: &str, message: String) {
        if let Some(e) = self.lock().get_mut(id)
            && !e.status.is_terminal()
        {
            e.message = Some(message);
            e.updated = current_timestamp();
        }
    }

    /// The call's answer (a JSON-RPC response object); ends the task unless it was cancelled.
    pub(crate) fn finish(&self, id: &str, answer: Value) {
        if let Some(e) = self.lock().get_mut(id)
            && !e.status.is_terminal()
        {
            let failed = answer.get("error").is_some();
            e.status = if failed {
                Status::Failed
            } else {
                Status::Completed
            };
            e.message = Some(e.status.as_str().to_owned());
            e.answer = Some(answer);
            e.updated = current_timestamp();
        }
        self.changed.notify_waiters();
    }

    /// Cancels a working task: its status now, or why not (unknown, or already ended).
    pub(crate) fn cancel(&self, id: &str) -> Result<(), String> {
        {
            let mut entries = self.lock();
            let e = entries.get_mut(id).ok_or_else(|| format!("no task {id}"))?;
            if e.status.is_terminal() {
                return Err(format!(
                    "task {id} has already ended ({})",
                    e.status.as_str()
                ));
            }
            e.status = Status::Cancelled;
            e.message = Some(
                "stopped waiting; a write already sent may still complete (check it with invoke_read get_activity)"
                    .to_owned(),
            );
            e.updated = current_timestamp();
        }
        self.changed.notify_waiters();
        Ok(())
    }

    /// Waits until task `id` ends; its answer as `tasks/result` gives it: the call's result
    /// with the task named in its `_meta`, or the error.
    pub(crate) async fn result(&self, id: &str) -> Result<Value, Value> {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let done = match self.lock().get(id) {
                None => return Err(json!({"code": -32602, "message": format!("no task {id}")})),
                Some(e) => match (e.status, &e.answer) {
                    (Status::Cancelled, _) => {
                        return Err(
                            json!({"code": -32603, "message": format!("task {id} was cancelled")}),
                        );
                    }
                    (_, Some(answer)) => Some(answer.clone()),
                    _ => None,
                },
            };
            if let Some(answer) = done {
                return match (answer.get("result"), answer.get("error")) {
                    (Some(result), _) => {
                        let mut result = result.clone();
                        result["_meta"][RELATED] = json!({"taskId": id});
                        Ok(result)
                    }
                    (_, Some(error)) => Err(error.clone()),
                    _ => Err(json!({"code": -32603, "message": "the task ended with no answer"})),
                };
            }
            changed.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_task_ends_once_and_its_result_names_it() {
        let store = Store::default();
        let id = store.create(Some(60_000));
        assert_eq!(store.task(&id).unwrap()["status"], "working");
        store.set_message(&id, "waiting for request r-1".into());
        assert_eq!(
            store.task(&id).unwrap()["statusMessage"],
            "waiting for request r-1"
        );
        let waiting = store.result(&id);
        store.finish(&id, json!({"result": {"content": []}}));
        let result = waiting.await.unwrap();
        assert_eq!(result["_meta"][RELATED]["taskId"], json!(id));
        assert_eq!(store.task(&id).unwrap()["status"], "completed");
        assert!(store.cancel(&id).is_err());
        let other = store.create(None);
        store.cancel(&other).unwrap();
        store.finish(&other, json!({"result": {}}));
        assert_eq!(store.task(&other).unwrap()["status"], "cancelled");
        assert!(store.result(&other).await.is_err());
        assert_eq!(store.list().len(), 2);
    }
}
