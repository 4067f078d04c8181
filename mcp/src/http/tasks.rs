//! MCP 2025-11-25 tasks over streamable HTTP: a layer in front of the SDK's service, speaking
//! the methods of `task_methods.rs` for each session's own tasks. A task call is handed to
//! the SDK as a request of its own, and the layer reads that request's event stream: the
//! answer ends the task, and what the call asks of the client on the way (a delete's
//! confirmation) waits for the client's `tasks/result`, whose answer is an event stream that
//! delivers it (the task shows `input_required` meanwhile), then the result.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;
use serde_json::{Value, json};
use sse_stream::{Sse, SseStream};

use crate::spec_tasks::{Delivery, RELATED, Store};
use crate::task_methods::{self, Scope, Step, TASK_ID_PREFIX, VERSION};

/// The layer's state: the server's tasks and the largest body read.
#[derive(Debug)]
pub(super) struct Tasks {
    pub store: Arc<Store>,
    pub max_body_bytes: usize,
    /// Sessions whose client declared the newer drafts' tasks extension (whose unknown task
    /// ids go on to the SDK); at most [`MAX_EXTENSION_SESSIONS`].
    pub extension_sessions: Mutex<HashSet<String>>,
}

/// Sessions remembered as declaring the extension at most.
const MAX_EXTENSION_SESSIONS: usize = 4_096;

impl Tasks {
    fn sessions(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.extension_sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

/// The largest answer of the SDK the layer reads whole (`initialize`, `tools/list`).
const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// Answers the task methods of a 2025-11-25 session; passes everything else on.
pub(super) async fn layer(
    State(tasks): State<Arc<Tasks>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::DELETE
        && let Some(session) = request.headers().get("mcp-session-id")
        && let Ok(session) = session.to_str()
    {
        tasks.sessions().remove(session);
    }
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, tasks.max_body_bytes).await else {
        return plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is too large",
        );
    };
    let message = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .filter(Value::is_object);
    let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
    let session = header("mcp-session-id").map(str::to_owned);
    let spec_session = header("mcp-protocol-version") == Some(VERSION);
    // The body may be rewritten (a task call's), so its length is the body's own.
    let rebuild = |bytes: Bytes| {
        let mut parts = parts.clone();
        parts.headers.remove(CONTENT_LENGTH);
        Request::from_parts(parts, Body::from(bytes))
    };
    let Some(message) = message else {
        return next.run(rebuild(bytes)).await;
    };
    match message["method"].as_str() {
        Some("initialize") => {
            let extension = task_methods::declares_extension(&message);
            let answer = next.run(rebuild(bytes)).await;
            let session = answer.headers().get("mcp-session-id");
            if let Some(session) = session.and_then(|s| s.to_str().ok())
                && extension
                && tasks.sessions().len() < MAX_EXTENSION_SESSIONS
            {
                tasks.sessions().insert(session.to_owned());
            }
            return complete(answer, task_methods::add_capability).await;
        }
        Some("tools/list") if spec_session => {
            let answer = next.run(rebuild(bytes)).await;
            return complete(answer, task_methods::add_task_support).await;
        }
        _ => {}
    }
    let Some(session) = session.filter(|_| spec_session) else {
        return next.run(rebuild(bytes)).await;
    };
    let scope = Scope {
        owner: Some(&session),
        unknown_here: !tasks.sessions().contains(&session),
    };
    match task_methods::route(&tasks.store, scope, message) {
        Step::Forward(_) => next.run(rebuild(bytes)).await,
        Step::Reply(reply) => json_answer(&reply),
        Step::AwaitResult { id, task } => result(tasks.store.clone(), id, task),
        Step::Both(to_sdk, reply) => {
            let task = to_sdk["id"]
                .as_str()
                .and_then(|id| id.strip_prefix(TASK_ID_PREFIX))
                .map(str::to_owned);
            let answer = next.run(rebuild(Bytes::from(to_sdk.to_string()))).await;
            let Some(task) = task else {
                // A cancellation, told to the SDK.
                return json_answer(&reply);
            };
            if answer.status() != StatusCode::OK {
                let error = json!({"code": -32603, "message": format!("the call did not start (HTTP {})", answer.status())});
                tasks.store.finish(&task, json!({"error": error}));
                return answer;
            }
            tokio::spawn(follow(tasks.store.clone(), task, answer.into_body()));
            json_answer(&reply)
        }
    }
}

/// Reads the SDK's event stream of a task call: its requests and notifications wait for
/// `tasks/result`, its answer ends the task.
async fn follow(store: Arc<Store>, task: String, body: Body) {
    let mut events = SseStream::new(body);
    while let Some(Ok(event)) = events.next().await {
        let Some(mut message) = event
            .data
            .and_then(|d| serde_json::from_str::<Value>(&d).ok())
        else {
            continue;
        };
        if message.get("method").is_none() {
            store.finish(&task, message);
            return;
        }
        if message["params"]["_meta"][RELATED].is_null() && message["params"].is_object() {
            message["params"]["_meta"][RELATED] = json!({"taskId": task});
        }
        store.post(&task, message);
    }
    let error = json!({"code": -32603, "message": "the call ended with no answer"});
    store.finish(&task, json!({"error": error}));
}

/// `tasks/result`: the answer at once when the task has ended with nothing to deliver, else
/// an event stream of what it has for the client, ending with the answer.
fn result(store: Arc<Store>, id: Value, task: String) -> Response {
    let first = match store.now(&task, true) {
        Some(Delivery::End(end)) => return json_answer(&task_methods::ended(id, end)),
        first => first,
    };
    let state = Some((store, id, task, first));
    let events = futures_util::stream::unfold(state, |state| async move {
        let (store, id, task, first) = state?;
        let delivery = match first {
            Some(delivery) => delivery,
            None => store.next(&task, true).await,
        };
        let (message, rest) = match delivery {
            Delivery::Message(message) => (message, Some((store, id, task, None))),
            Delivery::End(end) => (task_methods::ended(id, end), None),
        };
        let event = Bytes::from(Sse::default().data(message.to_string()));
        Some((Ok::<_, Infallible>(event), rest))
    });
    let mut answer = Response::new(Body::from_stream(events));
    let headers = answer.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    answer
}

/// The SDK's `answer` with its JSON-RPC result completed by `complete` (a JSON body, or each
/// event of an event stream).
async fn complete(answer: Response, complete: fn(&mut Value)) -> Response {
    let (mut parts, body) = answer.into_parts();
    let is_json = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    let done = move |text: &str| -> Option<String> {
        let mut message = serde_json::from_str::<Value>(text).ok()?;
        complete(message.get_mut("result")?);
        Some(message.to_string())
    };
    if is_json {
        let Ok(bytes) = axum::body::to_bytes(body, MAX_ANSWER_BYTES).await else {
            return plain(StatusCode::BAD_GATEWAY, "the answer could not be read");
        };
        let text = String::from_utf8_lossy(&bytes);
        let body = done(&text).map_or(bytes.clone(), Bytes::from);
        parts.headers.remove(CONTENT_LENGTH);
        return Response::from_parts(parts, Body::from(body));
    }
    let events = SseStream::new(body).map(move |event| {
        event.map(|mut event| {
            if let Some(data) = event.data.as_deref().and_then(done) {
                event.data = Some(data);
            }
            Bytes::from(event)
        })
    });
    parts.headers.remove(CONTENT_LENGTH);
    Response::from_parts(parts, Body::from_stream(events))
}

fn json_answer(message: &Value) -> Response {
    let mut answer = Response::new(Body::from(message.to_string()));
    answer
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    answer
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    let mut answer = Response::new(Body::from(text));
    *answer.status_mut() = status;
    answer
}
