//! A write as an MCP 2025-11-25 task, driven by an `rmcp` client over stdio (its requests sent
//! as they are on the wire: the SDK's types are the newer drafts' extension): `tools/call`
//! with `task` answers with the task at once, `tasks/get` follows the RUCKUS activity to
//! `completed`, `tasks/result` gives the created id.

mod common;

use std::time::Duration;

use common::{Agent, call, command, send, start_legacy, text, venue};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn a_write_runs_as_a_2025_11_25_task_to_its_created_id() {
    let session = start_legacy(
        Agent::default(),
        command(&["--local", "--allow-writes"], &[]),
    )
    .await;
    let params = json!({
        "name": "invoke_write",
        "arguments": {"operation": "create_venue", "body": venue("Tasked")},
        "task": {"ttl": 60_000}
    });
    let created = send(&session, "tools/call", params).await.unwrap();
    let task_id = created["task"]["taskId"]
        .as_str()
        .expect("a CreateTaskResult")
        .to_owned();
    assert_eq!(created["task"]["status"], "working", "{created}");
    assert_eq!(created["task"]["ttl"], 60_000);
    let mut messages = Vec::new();
    let last = loop {
        let got = send(&session, "tasks/get", json!({"taskId": task_id}))
            .await
            .unwrap();
        if let Some(message) = got["statusMessage"].as_str() {
            messages.push(message.to_owned());
        }
        if got["status"] != "working" {
            break got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(last["status"], "completed", "{last}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("waiting for its activity")),
        "the status follows the activity: {messages:?}"
    );
    let result = send(&session, "tasks/result", json!({"taskId": task_id}))
        .await
        .unwrap();
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        json!(task_id)
    );
    let answer: Value =
        serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(answer["activity"]["status"], "SUCCESS", "{answer}");
    let id = answer["id"].as_str().expect("the created id");
    let read = call(
        &session,
        "invoke_read",
        json!({"operation": "get_venue", "params": {"venueId": id}}),
    )
    .await;
    assert!(text(&read).contains("Tasked"), "{}", text(&read));
    // An ended task cannot be cancelled; a read does not run as a task.
    assert!(
        send(&session, "tasks/cancel", json!({"taskId": task_id}))
            .await
            .is_err()
    );
    let read_task =
        json!({"name": "invoke_read", "arguments": {"operation": "query_venues"}, "task": {}});
    let refused = send(&session, "tools/call", read_task).await.unwrap_err();
    assert!(refused.contains("taskSupport"), "{refused}");
    session.cancel().await.unwrap();
}
