//! Pages that always parse, driven by an `rmcp` client against `ruckus-mcp` calling a seeded
//! simulator: whole rows with their fields, the cursor always there while rows remain,
//! followed to the end with no row twice and none missed.

mod common;

use std::collections::BTreeSet;

use common::seeded::{self, AP_VENUE};
use common::{Agent, call, command_with, start};
use serde_json::{Value, json};

/// Follows `args` page by page from the first; the ids of every row and the size of the
/// largest page (characters of its text).
async fn follow(session: &common::Session, args: Value, id: &str) -> (Vec<String>, usize) {
    let (mut ids, mut largest, mut args) = (Vec::new(), 0, args);
    for _ in 0..100 {
        let page = call(session, "invoke_read", args.clone()).await;
        assert_ne!(page.is_error, Some(true), "{}", common::text(&page));
        let text = common::text(&page);
        largest = largest.max(text.chars().count());
        let parsed: Value = serde_json::from_str(&text).expect("every page is JSON");
        assert_eq!(page.structured_content.as_ref(), Some(&parsed));
        for row in parsed["rows"].as_array().expect("rows") {
            ids.push(row[id].as_str().expect("each row has its id").to_owned());
        }
        match parsed["nextCursor"].as_str() {
            Some(cursor) => args["cursor"] = json!(cursor),
            None => return (ids, largest),
        }
    }
    panic!("more than 100 pages")
}

fn assert_whole(ids: &[String], expected: usize) {
    let unique: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "a row came twice");
    assert_eq!(ids.len(), expected, "a row is missing");
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_of_100_rows_parse_and_chain_to_the_end() {
    let sim = seeded::simulator(230, 150).await;
    let session = start(Agent::capable(), command_with(&[], &seeded::env(&sim))).await;
    // Venues with their usual columns, then whole rows (the budget cuts those pages short).
    let (ids, largest) = follow(
        &session,
        json!({"operation": "query_venues", "limit": 100}),
        "id",
    )
    .await;
    assert_whole(&ids, 230);
    assert!(largest < 40_000, "{largest}");
    let whole = json!({"operation": "query_venues", "limit": 100, "fields": ["*"]});
    let (ids, _) = follow(&session, whole, "id").await;
    assert_whole(&ids, 230);
    let aps = json!({
        "operation": "query_venue_aps", "limit": 100,
        "body": {"filters": {"venueId": [AP_VENUE]}},
        "fields": ["serialNumber", "name", "model"]
    });
    let (ids, _) = follow(&session, aps, "serialNumber").await;
    assert_whole(&ids, 150);
    session.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_default_page_is_small_and_shows_the_usual_columns() {
    let sim = seeded::simulator(60, 0).await;
    let session = start(Agent::capable(), command_with(&[], &seeded::env(&sim))).await;
    let page = call(
        &session,
        "invoke_read",
        json!({"operation": "query_venues"}),
    )
    .await;
    let text = common::text(&page);
    assert!(text.chars().count() <= 8_000, "{}", text.chars().count());
    let page: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(page["rows"].as_array().unwrap().len(), 20, "{page}");
    assert_eq!(page["fields"], json!(["name", "city", "country", "id"]));
    assert!(page["rows"][0].get("description").is_none(), "{page}");
    assert_eq!(page["nextCursor"], "rows:20:20");
    // A cursor past any answer, or past this one, is a prompt tool error.
    for cursor in [format!("rows:{}:20", u64::MAX), "rows:5000:20".to_owned()] {
        let args = json!({"operation": "query_venues", "cursor": cursor});
        let refused = call(&session, "invoke_read", args).await;
        assert_eq!(refused.is_error, Some(true), "{}", common::text(&refused));
        assert!(common::text(&refused).contains("`cursor`"));
    }
    session.cancel().await.unwrap();
}
