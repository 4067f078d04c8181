//! MCP 2025-11-25 tasks over streamable HTTP, driven by an `rmcp` client on a 2025-11-25
//! session (its task requests sent as they are on the wire): a create runs as a task to its
//! created id; a delete runs as a task whose confirmation reaches the client through
//! `tasks/result` while the task shows `input_required`; one session does not see another's
//! tasks; a read is not a task tool (-32601).

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use common::{Agent, Session, call, send, text, venue};
use rmcp::ServiceExt;
use rmcp::model::ProtocolVersion;
use rmcp::transport::StreamableHttpClientTransport;
use ruckus_one_mcp::policy::Policy;
use ruckus_one_mcp::{HttpOptions, Server, connect};
use serde_json::{Value, json};
use tokio::net::TcpListener;

const RELATED: &str = "io.modelcontextprotocol/related-task";

/// A server allowing writes and deletes, on the simulator, served over HTTP; its URL.
async fn serve() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let policy = Policy {
        writes: true,
        deletes: true,
        tenants: None,
    };
    let server = Server::start(policy, async {
        let connection = connect::local(None).await?;
        let own = connection.local.as_ref().map(|sim| sim.tenant_id());
        Ok((connection, own))
    });
    tokio::spawn(ruckus_one_mcp::http::serve_http_on(
        listener,
        server,
        HttpOptions::default(),
    ));
    format!("http://{addr}/mcp")
}

/// A 2025-11-25 session of `agent` with the server at `url`.
async fn session(url: &str, agent: Agent) -> Session {
    let agent = Agent {
        version: Some(ProtocolVersion::V_2025_11_25),
        ..agent
    };
    let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
    agent.serve(transport).await.expect("MCP session over HTTP")
}

/// Calls `tool` with `args` as a task; the task id.
async fn call_as_task(session: &Session, tool: &str, args: Value) -> String {
    let params = json!({"name": tool, "arguments": args, "task": {"ttl": 60_000}});
    let created = send(session, "tools/call", params).await.unwrap();
    assert_eq!(created["task"]["status"], "working", "{created}");
    created["task"]["taskId"]
        .as_str()
        .expect("a CreateTaskResult")
        .to_owned()
}

/// Polls `tasks/get` until the task leaves `working`; every status seen, and the last task.
async fn poll(session: &Session, task: &str) -> (Vec<String>, Value) {
    let mut seen = Vec::new();
    loop {
        let got = send(session, "tasks/get", json!({"taskId": task}))
            .await
            .unwrap();
        seen.push(got["status"].as_str().unwrap_or_default().to_owned());
        if got["status"] != "working" {
            return (seen, got);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The JSON text of a tool result's first content.
fn answer_of(result: &Value) -> Value {
    serde_json::from_str(result["content"][0]["text"].as_str().expect("text")).expect("JSON")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_and_a_confirmed_delete_run_as_tasks_over_http() {
    let url = serve().await;
    let agent = Agent::capable();
    agent.confirm.store(true, Ordering::SeqCst);
    let client = session(&url, agent.clone()).await;
    let info = client.peer_info().expect("initialize answered");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);

    let args = json!({"operation": "create_venue", "body": venue("Tasked over HTTP")});
    let task = call_as_task(&client, "invoke_write", args).await;
    let (_, last) = poll(&client, &task).await;
    assert_eq!(last["status"], "completed", "{last}");
    let result = send(&client, "tasks/result", json!({"taskId": task}))
        .await
        .unwrap();
    assert_eq!(result["_meta"][RELATED]["taskId"], json!(task));
    let created = answer_of(&result);
    let id = created["id"].as_str().expect("the created id").to_owned();

    // A delete asks first: the task waits for the answer, which tasks/result brings about.
    let args = json!({"operation": "delete_venue", "params": {"venueId": id}});
    let task = call_as_task(&client, "invoke_delete", args).await;
    let (seen, waiting) = poll(&client, &task).await;
    assert_eq!(waiting["status"], "input_required", "{seen:?}");
    let result = send(&client, "tasks/result", json!({"taskId": task}))
        .await
        .unwrap();
    assert_eq!(result["_meta"][RELATED]["taskId"], json!(task));
    assert_ne!(result["isError"], json!(true), "{result}");
    let asked = agent.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(asked[0].contains(&id), "{}", asked[0]);
    let (_, last) = poll(&client, &task).await;
    assert_eq!(last["status"], "completed", "{last}");
    let read = call(
        &client,
        "invoke_read",
        json!({"operation": "get_venue", "params": {"venueId": id}}),
    )
    .await;
    assert!(text(&read).contains("404"), "{}", text(&read));

    // Another session sees none of these tasks; a read is not a task tool.
    let other = session(&url, Agent::capable()).await;
    let list = send(&other, "tasks/list", json!({})).await.unwrap();
    assert_eq!(list["tasks"], json!([]), "{list}");
    let own = send(&client, "tasks/list", json!({})).await.unwrap();
    assert_eq!(own["tasks"].as_array().map(Vec::len), Some(2), "{own}");
    assert!(
        send(&other, "tasks/get", json!({"taskId": task}))
            .await
            .is_err()
    );
    let read_task =
        json!({"name": "invoke_read", "arguments": {"operation": "query_venues"}, "task": {}});
    let refused = send(&client, "tools/call", read_task).await.unwrap_err();
    assert!(refused.contains("taskSupport"), "{refused}");
    client.cancel().await.unwrap();
    other.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_write_is_a_failed_task() {
    let url = serve().await;
    let client = session(&url, Agent::capable()).await;
    // No body: the tool answers with isError, which 2025-11-25 counts as a failed task.
    let task = call_as_task(
        &client,
        "invoke_write",
        json!({"operation": "create_venue", "body": {"name": 7}}),
    )
    .await;
    let (_, last) = poll(&client, &task).await;
    assert_eq!(last["status"], "failed", "{last}");
    let result = send(&client, "tasks/result", json!({"taskId": task}))
        .await
        .unwrap();
    assert_eq!(result["isError"], json!(true), "{result}");
    client.cancel().await.unwrap();
}
