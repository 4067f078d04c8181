//! The acceptance of issue 35, driven by an `rmcp` client over stdio against `ruckus-mcp
//! --local` (the simulator in the server's process).

mod common;

use std::sync::atomic::Ordering;

use common::{
    Agent, call, command, json_of, run_task, start, start_legacy, task_result, text, venue,
};
use rmcp::model::TaskPayload;
use serde_json::json;

#[tokio::test]
async fn search_finds_the_aps_of_a_venue_and_creating_a_venue() {
    let session = start(Agent::capable(), command(&["--local"], &[])).await;
    let found = text(
        &call(
            &session,
            "search_operations",
            json!({"query": "list the APs of a venue"}),
        )
        .await,
    );
    assert!(found.starts_with("query_venue_aps: "), "{found}");
    let found = text(
        &call(
            &session,
            "search_operations",
            json!({"query": "create a venue"}),
        )
        .await,
    );
    assert!(found.starts_with("create_venue: "), "{found}");
    assert!(
        found.lines().next().unwrap().contains("[write, async]"),
        "{found}"
    );
    let described = json_of(
        &call(
            &session,
            "describe_operation",
            json!({"operation": "create_venue"}),
        )
        .await,
    );
    assert_eq!(described["tool"], "invoke_write");
    assert_eq!(
        described["body"]["schema"]["required"],
        json!(["name", "address"])
    );
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn invoke_reads_a_bounded_page_and_checks_arguments_first() {
    let session = start(Agent::capable(), command(&["--local"], &[])).await;
    let page = call(
        &session,
        "invoke_read",
        json!({"operation": "query_venues", "limit": 5}),
    )
    .await;
    assert_ne!(page.is_error, Some(true), "{}", text(&page));
    let page = json_of(&page);
    assert!(page["rows"].as_array().unwrap().len() <= 5, "{page}");
    let wrong = call(
        &session,
        "invoke_read",
        json!({"operation": "get_venue", "params": {}}),
    )
    .await;
    assert_eq!(wrong.is_error, Some(true));
    assert!(
        text(&wrong).contains("params.venueId: required"),
        "{}",
        text(&wrong)
    );
    let resource = session
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "ruckus://areas",
        ))
        .await
        .unwrap();
    assert!(format!("{resource:?}").contains("network/wireless_venues"));
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn a_write_is_refused_in_read_only_mode() {
    let session = start(Agent::capable(), command(&["--local"], &[])).await;
    let tools = session.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search_operations",
            "describe_operation",
            "invoke_read",
            "plan"
        ]
    );
    assert_eq!(
        tools[2].annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    let refused = call(
        &session,
        "invoke_write",
        json!({"operation": "create_venue", "body": venue("Lobby")}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(text(&refused).contains("read-only"), "{}", text(&refused));
    // A write through the read tool is refused too.
    let refused = call(
        &session,
        "invoke_read",
        json!({"operation": "create_venue", "body": venue("Lobby")}),
    )
    .await;
    assert!(
        text(&refused).contains("call it with invoke_write"),
        "{}",
        text(&refused)
    );
    let venues = json_of(
        &call(
            &session,
            "invoke_read",
            json!({"operation": "query_venues"}),
        )
        .await,
    );
    assert!(!venues.to_string().contains("Lobby"), "{venues}");
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn with_writes_on_a_venue_create_runs_as_a_task_to_completion() {
    let agent = Agent::capable();
    let session = start(agent.clone(), command(&["--local", "--allow-writes"], &[])).await;
    let payload = run_task(
        &session,
        &agent,
        "invoke_write",
        json!({"operation": "create_venue", "body": venue("Atrium")}),
    )
    .await;
    let result = json_of(&task_result(payload));
    assert_eq!(result["activity"]["status"], "SUCCESS", "{result}");
    let venues = json_of(
        &call(
            &session,
            "invoke_read",
            json!({"operation": "query_venues"}),
        )
        .await,
    );
    assert!(venues.to_string().contains("Atrium"), "{venues}");
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn a_delete_asks_first_and_does_nothing_when_declined() {
    let agent = Agent::capable();
    let session = start(
        agent.clone(),
        command(&["--local", "--allow-writes", "--allow-deletes"], &[]),
    )
    .await;
    let created = task_result(
        run_task(
            &session,
            &agent,
            "invoke_write",
            json!({"operation": "create_venue", "body": venue("Annex")}),
        )
        .await,
    );
    let id = json_of(&created)["id"]
        .as_str()
        .expect("the created venue's id")
        .to_owned();
    let delete = json!({"operation": "delete_venue", "params": {"venueId": id}});
    let declined = call(&session, "invoke_delete", delete.clone()).await;
    assert!(
        text(&declined).contains("nothing was deleted"),
        "{}",
        text(&declined)
    );
    let asked = agent.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].contains("named \"Annex\"") && asked[0].contains(&format!("\"{id}\"")),
        "{asked:?}"
    );
    assert!(
        asked[0].contains("sim-tenant"),
        "names the account: {asked:?}"
    );
    let still = call(
        &session,
        "invoke_read",
        json!({"operation": "get_venue", "params": {"venueId": id}}),
    )
    .await;
    assert_ne!(still.is_error, Some(true), "{}", text(&still));
    // Confirmed, it is deleted (as a task: deletes are asynchronous).
    agent.confirm.store(true, Ordering::SeqCst);
    let deleted = task_result(run_task(&session, &agent, "invoke_delete", delete).await);
    assert_eq!(
        json_of(&deleted)["activity"]["status"],
        "SUCCESS",
        "{}",
        text(&deleted)
    );
    let gone = call(
        &session,
        "invoke_read",
        json!({"operation": "get_venue", "params": {"venueId": id}}),
    )
    .await;
    assert_eq!(gone.is_error, Some(true), "{}", text(&gone));
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn a_client_that_cannot_ask_its_user_cannot_delete() {
    let session = start_legacy(
        Agent::default(),
        command(
            &["--local"],
            &[
                ("RUCKUS_MCP_ALLOW_WRITES", "1"),
                ("RUCKUS_MCP_ALLOW_DELETES", "1"),
            ],
        ),
    )
    .await;
    let refused = call(
        &session,
        "invoke_delete",
        json!({"operation": "delete_venue", "params": {"venueId": "v-1"}}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("cannot ask its user"),
        "{}",
        text(&refused)
    );
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn an_older_client_confirms_through_an_elicitation_request() {
    let agent = Agent::capable();
    agent.confirm.store(false, Ordering::SeqCst);
    let session = start_legacy(
        agent.clone(),
        command(&["--local", "--allow-writes", "--allow-deletes"], &[]),
    )
    .await;
    let declined = call(
        &session,
        "invoke_delete",
        json!({"operation": "delete_venue", "params": {"venueId": "v-1"}}),
    )
    .await;
    assert!(
        text(&declined).contains("nothing was deleted"),
        "{}",
        text(&declined)
    );
    assert_eq!(agent.asked.lock().unwrap().len(), 1);
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn a_tenant_outside_the_allow_list_is_refused() {
    let session = start(
        Agent::capable(),
        command(&["--local", "--tenants", "cust-1,cust-2"], &[]),
    )
    .await;
    let refused = call(
        &session,
        "invoke_read",
        json!({"operation": "query_venues", "tenant": "cust-9"}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("not in this server's allow-list"),
        "{}",
        text(&refused)
    );
    let unnamed = call(
        &session,
        "invoke_read",
        json!({"operation": "query_venues"}),
    )
    .await;
    assert!(
        text(&unnamed).contains("acts only for listed tenants"),
        "{}",
        text(&unnamed)
    );
    session.cancel().await.unwrap();
}

#[tokio::test]
async fn a_cancelled_task_says_the_write_may_still_complete() {
    let session = start(
        Agent::capable(),
        command(&["--local", "--allow-writes"], &[]),
    )
    .await;
    let Some(serde_json::Value::Object(args)) =
        Some(json!({"operation": "create_venue", "body": venue("Porch")}))
    else {
        unreachable!()
    };
    let response = session
        .call_tool_once(
            rmcp::model::CallToolRequestParams::new("invoke_write").with_arguments(args),
        )
        .await
        .unwrap();
    let rmcp::model::CallToolResponse::Task(created) = response else {
        panic!("{response:?}")
    };
    let id = created.task.task_id;
    session
        .peer()
        .cancel_task(rmcp::model::CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    loop {
        let got = session
            .peer()
            .get_task(rmcp::model::GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if got.task.status().is_terminal() {
            // The simulator's activities take 2 s: the cancel arrives while the task waits.
            assert!(
                matches!(got.task.payload, TaskPayload::Cancelled),
                "{got:?}"
            );
            let message = got.task.task.status_message.unwrap_or_default();
            assert!(message.contains("may still complete"), "{message}");
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    session.cancel().await.unwrap();
}
