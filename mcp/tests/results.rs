//! What the tools declare and return besides text: a title on every tool, output schemas
//! and structured content for the tools that return data, links from search results to
//! the index of their area.

mod common;

use common::{Agent, call, command, start, text};
use rmcp::model::ContentBlock;
use serde_json::json;

#[tokio::test]
async fn tools_have_titles_and_data_tools_return_structured_content() {
    let session = start(
        Agent::capable(),
        command(&["--local", "--allow-writes", "--allow-deletes"], &[]),
    )
    .await;
    let tools = session.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 6);
    for tool in &tools {
        assert!(tool.title.is_some(), "{} has no title", tool.name);
        assert_eq!(
            tool.input_schema.get("additionalProperties"),
            Some(&json!(false))
        );
        let data = ["invoke_read", "describe_operation", "search_operations"];
        assert_eq!(
            tool.output_schema.is_some(),
            data.contains(&tool.name.as_ref()),
            "{}",
            tool.name
        );
    }
    let found = call(
        &session,
        "search_operations",
        json!({"query": "switch ports"}),
    )
    .await;
    let structured = found
        .structured_content
        .clone()
        .expect("structured content");
    assert_eq!(
        structured["operations"][0]["id"],
        "query_venue_switch_ports"
    );
    assert!(
        text(&found).starts_with("query_venue_switch_ports: "),
        "{}",
        text(&found)
    );
    let links: Vec<String> = found
        .content
        .iter()
        .filter_map(|c| match c {
            ContentBlock::ResourceLink(link) => Some(link.uri.clone()),
            _ => None,
        })
        .collect();
    assert!(
        links.contains(&"ruckus://operations/switches".to_owned()),
        "{links:?}"
    );
    // Each link is a resource the server reads.
    for uri in links {
        let read = session
            .read_resource(rmcp::model::ReadResourceRequestParams::new(uri.clone()))
            .await;
        assert!(read.is_ok(), "{uri}");
    }
    let described = call(
        &session,
        "describe_operation",
        json!({"operation": "query_venues"}),
    )
    .await;
    let structured = described
        .structured_content
        .clone()
        .expect("structured content");
    assert_eq!(
        structured["columns"],
        json!(["name", "city", "country", "id"])
    );
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text(&described)).unwrap(),
        structured
    );
    session.cancel().await.unwrap();
}
