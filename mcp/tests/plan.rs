//! The read-only `plan` tool: desired-state files given inline are planned against the
//! tenant and simulated; nothing is written, and a path leaving the folder is refused.

mod common;

use common::{Agent, call, command, json_of, start, text};
use serde_json::json;

#[tokio::test]
async fn a_new_venue_file_plans_one_create_and_writes_nothing() {
    let session = start(Agent::capable(), command(&["--local"], &[])).await;
    let venue = "name: Annex Plan\naddress:\n  city: Lyon\n  country: France\n";
    let result = call(
        &session,
        "plan",
        json!({"documents": {"venue/Annex Plan.yaml": venue}}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let answer = json_of(&result);
    let steps = answer["plan"]["steps"].as_array().expect("steps");
    let create = steps
        .iter()
        .find(|s| s["address"]["name"] == "Annex Plan")
        .unwrap_or_else(|| panic!("no step for the venue: {answer}"));
    assert_eq!(create["action"], "create", "{answer}");
    assert_eq!(create["operation"], "create_venue", "{answer}");
    assert!(answer["simulated"]["verdict"].is_string(), "{answer}");

    // Planning wrote nothing: the venue is still not there.
    let again = call(
        &session,
        "plan",
        json!({"documents": {"venue/Annex Plan.yaml": venue}}),
    )
    .await;
    let steps = json_of(&again)["plan"]["steps"].clone();
    assert!(
        steps
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["address"]["name"] == "Annex Plan" && s["action"] == "create"),
        "{steps}"
    );

    let escape = call(
        &session,
        "plan",
        json!({"documents": {"../venue/x.yaml": venue}}),
    )
    .await;
    assert_eq!(escape.is_error, Some(true));
    assert!(text(&escape).contains("relative path"), "{}", text(&escape));
    session.cancel().await.unwrap();
}
