//! Credentials as the command line keeps them: with no `RUCKUS_*` variable set, the server
//! uses the profile `ruckus auth login` saved (its secret in the 0600 file here: the keychain is
//! turned off, as CI machines have none), and calls the service it names (a simulator).

mod common;

use common::{Agent, call, command, json_of, start, text};
use ruckus_one_profiles::{Profile, Store};
use ruckus_one_sim::Simulator;
use serde_json::json;

/// The variables that would otherwise take precedence over the saved profile.
const CREDENTIAL_VARS: [&str; 6] = [
    "RUCKUS_CLIENT_ID",
    "RUCKUS_CLIENT_SECRET",
    "RUCKUS_TENANT_ID",
    "RUCKUS_REGION",
    "RUCKUS_BASE_URL",
    "RUCKUS_PROFILE",
];

fn server(dir: &std::path::Path, args: &[&str]) -> tokio::process::Command {
    let config_dir = dir.to_str().expect("utf-8 path");
    let mut command = command(
        args,
        &[
            ("RUCKUS_CONFIG_DIR", config_dir),
            ("RUCKUS_KEYCHAIN", "off"),
        ],
    );
    for name in CREDENTIAL_VARS {
        command.env_remove(name);
    }
    command
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saved_profile_supplies_the_credentials() {
    let sim = Simulator::start().await.expect("simulator");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::at(dir.path()).without_keychain();
    let (id, secret) = sim.credentials();
    let mut profile = Profile::default();
    profile.client_id = Some(id);
    profile.token_tenant = Some(sim.tenant_id());
    profile.base_url = Some(sim.base_url());
    store.save_profile("lab", &profile).expect("profile saved");
    store.store_secret("lab", &secret).expect("secret saved");

    let session = start(Agent::capable(), server(dir.path(), &["--profile", "lab"])).await;
    let page = call(
        &session,
        "invoke_read",
        json!({"operation": "query_venues", "limit": 5}),
    )
    .await;
    assert_ne!(page.is_error, Some(true), "{}", text(&page));
    assert!(json_of(&page)["rows"].is_array(), "{}", text(&page));
    assert!(!text(&page).contains(&secret));
    session.cancel().await.unwrap();
    assert!(
        sim.requests()
            .iter()
            .any(|r| r.operation.as_deref() == Some("query_venues") && r.status == 200),
        "the call reached the simulator the profile names"
    );
}

#[tokio::test]
async fn without_credentials_the_server_says_how_to_save_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = server(dir.path(), &["--profile", "nobody"])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .expect("ruckus-mcp runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("RUCKUS_CLIENT_ID"), "{stderr}");
    assert!(stderr.contains("ruckus auth login"), "{stderr}");
}
