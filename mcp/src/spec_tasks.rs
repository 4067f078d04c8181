//! Tasks as MCP 2025-11-25 defines them (beside the tasks extension of the newer drafts,
//! `tasks.rs`): a `tools/call` carrying `task` answers at once with the task, runs on, and is
//! followed with `tasks/get`, `tasks/result` (which waits for the end) and `tasks/cancel`.
//! This store keeps them; `task_methods.rs` answers the methods for both transports, and the
//! invoke tools write each task's status message as its RUCKUS activity goes on. A task ended
//! is forgotten once its lifetime (`ttl`) has passed.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::task_manager::current_timestamp;
use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio::time::Instant;

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
/// Messages of one task waiting for `tasks/result` at most.
const MAX_OUTBOX: usize = 64;

/// Where a task is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Working,
    /// Waiting for the client's answer to a request of the task (a confirmation).
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        !matches!(self, Status::Working | Status::InputRequired)
    }
}

#[derive(Debug)]
struct Entry {
    status: Status,
    message: Option<String>,
    created: String,
    updated: String,
    ttl: u64,
    /// When the task may be forgotten once it has ended.
    expires: Instant,
    /// The session the task belongs to (HTTP); `None` over stdio, where there is one client.
    owner: Option<String>,
    /// The JSON-RPC answer of the call: `{"result": ...}` or `{"error": ...}`.
    answer: Option<Value>,
    /// Messages of the task for the client that `tasks/result` delivers (HTTP).
    outbox: VecDeque<Value>,
    seq: u64,
}

/// What `tasks/result` delivers next.
#[derive(Debug)]
pub(crate) enum Delivery {
    /// A request or notification of the task, for the client.
    Message(Value),
    /// The task's end: what the call answered (a result naming the task, or an error).
    End(Result<Value, Value>),
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
    /// The tasks, those ended past their lifetime forgotten.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        entries.retain(|_, e| !e.status.is_terminal() || e.expires > now);
        entries
    }

    /// A new working task of `owner` kept for `ttl` ms (bounded); its id.
    pub(crate) fn create(&self, ttl: Option<u64>, owner: Option<&str>) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut hasher = self.seed.build_hasher();
        hasher.write_u64(n);
        let id = format!("task-{n}-{:016x}", hasher.finish());
        let now = current_timestamp();
        let ttl = ttl.unwrap_or(MAX_TTL_MS).min(MAX_TTL_MS);
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
                ttl,
                expires: Instant::now() + Duration::from_millis(ttl),
                owner: owner.map(str::to_owned),
                answer: None,
                outbox: VecDeque::new(),
                seq: n,
            },
        );
        id
    }

    /// Whether `id` is a task of `owner` in this store.
    pub(crate) fn belongs(&self, id: &str, owner: Option<&str>) -> bool {
        self.lock()
            .get(id)
            .is_some_and(|e| e.owner.as_deref() == owner)
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

    /// Every task of `owner`, newest first.
    pub(crate) fn list(&self, owner: Option<&str>) -> Vec<Value> {
        let mut ids: Vec<(u64, String)> = self
            .lock()
            .iter()
            .filter(|(_, e)| e.owner.as_deref() == owner)
            .map(|(k, e)| (e.seq, k.clone()))
            .collect();
        ids.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        ids.iter().filter_map(|(_, id)| self.task(id)).collect()
    }

    /// The status message of a task still running.
    pub(crate) fn set_message(&self, id: &str, message: String) {
        if let Some(e) = self.lock().get_mut(id)
            && !e.status.is_terminal()
        {
            e.message = Some(message);
            e.updated = current_timestamp();
        }
    }

    /// A task still running waits for the client's answer (`input_required`), or has it
    /// (`working`).
    pub(crate) fn set_waiting(&self, id: &str, waiting: bool) {
        if let Some(e) = self.lock().get_mut(id)
            && !e.status.is_terminal()
        {
            e.status = if waiting {
                Status::InputRequired
            } else {
                Status::Working
            };
            e.updated = current_timestamp();
        }
        self.changed.notify_waiters();
    }

    /// Keeps `message` (a request or notification of the task) for `tasks/result` to deliver;
    /// at most [`MAX_OUTBOX`] wait, the oldest notifications dropped first.
    pub(crate) fn post(&self, id: &str, message: Value) {
        if let Some(e) = self.lock().get_mut(id) {
            if e.outbox.len() >= MAX_OUTBOX
                && let Some(at) = e.outbox.iter().position(|m| m.get("id").is_none())
            {
                e.outbox.remove(at);
            }
            e.outbox.push_back(message);
        }
        self.changed.notify_waiters();
    }

    /// The call's answer (a JSON-RPC response object); ends the task unless it was cancelled.
    /// A tool result with `isError` is a failed task, as 2025-11-25 defines it.
    pub(crate) fn finish(&self, id: &str, answer: Value) {
        if let Some(e) = self.lock().get_mut(id)
            && !e.status.is_terminal()
        {
            let failed = answer.get("error").is_some()
                || answer["result"]["isError"].as_bool() == Some(true);
            e.status = if failed {
                Status::Failed
            } else {
                Status::Completed
            };
            e.message = Some(e.status.as_str().to_owned());
            e.answer = Some(answer);
            e.updated = current_timestamp();
            e.expires = Instant::now() + Duration::from_millis(e.ttl);
        }
        self.changed.notify_waiters();
    }

    /// Cancels a running task: its status now, or why not (unknown, or already ended).
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
            e.expires = Instant::now() + Duration::from_millis(e.ttl);
        }
        self.changed.notify_waiters();
        Ok(())
    }

    /// Waits until task `id` ends; its answer as `tasks/result` gives it: the call's result
    /// with the task named in its `_meta`, or the error.
    pub(crate) async fn result(&self, id: &str) -> Result<Value, Value> {
        loop {
            if let Delivery::End(end) = self.next(id, false).await {
                return end;
            }
        }
    }

    /// Waits for what `tasks/result` delivers next: a message of the task (when `messages`),
    /// else its end.
    pub(crate) async fn next(&self, id: &str, messages: bool) -> Delivery {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if let Some(delivery) = self.now(id, messages) {
                return delivery;
            }
            changed.await;
        }
    }

    /// What task `id` has to deliver now, if anything.
    pub(crate) fn now(&self, id: &str, messages: bool) -> Option<Delivery> {
        let mut entries = self.lock();
        let Some(e) = entries.get_mut(id) else {
            let error = json!({"code": -32602, "message": format!("no task {id}")});
            return Some(Delivery::End(Err(error)));
        };
        if messages && let Some(message) = e.outbox.pop_front() {
            return Some(Delivery::Message(message));
        }
        let answer = match (e.status, &e.answer) {
            (Status::Cancelled, _) => {
                let error = json!({"code": -32603, "message": format!("task {id} was cancelled")});
                return Some(Delivery::End(Err(error)));
            }
            (_, Some(answer)) => answer,
            _ => return None,
        };
        let end = match (answer.get("result"), answer.get("error")) {
            (Some(result), _) => {
                let mut result = result.clone();
                result["_meta"][RELATED] = json!({"taskId": id});
                Ok(result)
            }
            (_, Some(error)) => Err(error.clone()),
            _ => Err(json!({"code": -32603, "message": "the task ended with no answer"})),
        };
        Some(Delivery::End(end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_task_ends_once_and_its_result_names_it() {
        let store = Store::default();
        let id = store.create(Some(60_000), None);
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
        let other = store.create(None, None);
        store.cancel(&other).unwrap();
        store.finish(&other, json!({"result": {}}));
        assert_eq!(store.task(&other).unwrap()["status"], "cancelled");
        assert!(store.result(&other).await.is_err());
        assert_eq!(store.list(None).len(), 2);
        assert!(store.list(Some("another session")).is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn an_ended_task_is_forgotten_after_its_lifetime_a_running_one_is_not() {
        let store = Store::default();
        let ended = store.create(Some(1_000), None);
        let running = store.create(Some(1_000), None);
        store.finish(&ended, json!({"result": {"content": [], "isError": true}}));
        assert_eq!(store.task(&ended).unwrap()["status"], "failed");
        tokio::time::advance(Duration::from_millis(999)).await;
        assert!(store.belongs(&ended, None));
        tokio::time::advance(Duration::from_millis(2)).await;
        assert!(
            !store.belongs(&ended, None),
            "forgotten once its ttl passed"
        );
        assert!(store.belongs(&running, None), "a running task is kept");
    }

    #[tokio::test]
    async fn messages_wait_for_tasks_result_and_the_end_comes_last() {
        let store = Store::default();
        let id = store.create(None, Some("s"));
        store.set_waiting(&id, true);
        assert_eq!(store.task(&id).unwrap()["status"], "input_required");
        store.post(
            &id,
            json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create"}),
        );
        let Delivery::Message(asked) = store.next(&id, true).await else {
            panic!("the question first")
        };
        assert_eq!(asked["method"], "elicitation/create");
        store.set_waiting(&id, false);
        assert_eq!(store.task(&id).unwrap()["status"], "working");
        store.finish(&id, json!({"result": {"content": []}}));
        let Delivery::End(Ok(result)) = store.next(&id, true).await else {
            panic!("then the end")
        };
        assert_eq!(result["_meta"][RELATED]["taskId"], json!(id));
        for n in 0..100 {
            store.post(
                &id,
                json!({"method": "notifications/progress", "params": {"n": n}}),
            );
        }
        let Delivery::Message(oldest) = store.next(&id, true).await else {
            panic!()
        };
        assert_eq!(
            oldest["params"]["n"],
            100 - MAX_OUTBOX as i64,
            "the oldest dropped"
        );
    }
}
