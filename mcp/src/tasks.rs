//! Asynchronous writes: the service accepts them (`202` and a request id) and an activity
//! tells when they are done. For a client of MCP's tasks extension the call becomes a task
//! (its status message follows the activity; cancelling stops the waiting, not the write);
//! for others the tool call waits for the activity itself.

use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolResult, CreateTaskResult};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use ruckus_one_runtime::Client;
use serde_json::{Value, json};

use crate::index::Index;
use crate::invoke::Call;
use crate::poller::Poller;

/// What an asynchronous write needs from the server.
pub(crate) struct Writer {
    pub client: Client,
    pub index: Arc<Index>,
    pub poller: Arc<Poller>,
}

impl Writer {
    /// Sends `call` and waits for its activity: the answer with the activity's final state.
    /// `progress` hears what happens (sent, waiting for which request).
    pub(crate) async fn run(
        &self,
        call: &Call,
        progress: &(dyn Fn(String) + Send + Sync),
    ) -> Result<Value, String> {
        progress(format!("sending {}", call.op.id()));
        let (mut answer, pending) = call.send_accepted(&self.client, &self.index).await?;
        let Some(pending) = pending else {
            return Ok(answer);
        };
        progress(format!(
            "accepted as request {}; waiting for its activity",
            pending.request_id()
        ));
        let activity = self.poller.wait(pending).await?;
        answer["activity"] = activity;
        Ok(answer)
    }

    /// `call` as a task of `tasks`: `result` turns its outcome into the tool's result.
    pub(crate) fn spawn(
        self: Arc<Self>,
        tasks: &TaskManager,
        call: Call,
        result: fn(&Client, Result<Value, String>) -> CallToolResult,
    ) -> CreateTaskResult {
        let options = TaskOptions::new()
            .with_poll_interval_ms(1_000)
            .with_status_message(format!("starting {}", call.op.id()));
        let task = tasks.spawn(options, move |ctx: TaskContext| {
            Box::pin(async move {
                let last = Arc::new(Mutex::new(String::new()));
                let progress = {
                    let (ctx, last) = (ctx.clone(), last.clone());
                    move |message: String| {
                        ctx.set_status_message(message.clone());
                        *last.lock().unwrap_or_else(|e| e.into_inner()) = message;
                    }
                };
                tokio::select! {
                    outcome = self.run(&call, &progress) => Ok(result(&self.client, outcome)),
                    () = ctx.cancelled() => {
                        let was = last.lock().unwrap_or_else(|e| e.into_inner()).clone();
                        ctx.set_status_message(cancelled_message(&was));
                        Err(TaskExit::Cancelled)
                    }
                }
            })
        });
        CreateTaskResult::new(task)
    }
}

/// What a cancelled task says: the waiting stopped; the write itself may still complete.
fn cancelled_message(last: &str) -> String {
    json!({
        "cancelled": "stopped waiting; a write already sent may still complete (check it with invoke_read get_activity)",
        "lastStatus": last,
    })
    .to_string()
}
