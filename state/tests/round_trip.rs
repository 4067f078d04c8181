//! Export a seeded tenant, plan and apply it to an empty one, plan again, export again: all
//! through the runtime against simulators on loopback.

mod support;

use ruckus_one_sim::SimConfig;
use ruckus_one_state::*;
use std::collections::BTreeMap;
use support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_plan_apply_converge_and_export_the_same_bytes() {
    let resources = resources();
    let source = sim(SimConfig::default().seed(seed())).await;
    let source_client = client(&source);
    let conn = Connection::new(&source_client, None).unwrap();
    let first = tempfile::tempdir().unwrap();
    let live = export(&conn, &resources, &Scope::tenant(), first.path())
        .await
        .unwrap();
    let network = live.of_kind("wifi_network").next().unwrap();
    assert!(
        !format!("{live:?}").contains(PASSPHRASE),
        "no secret in a Debug"
    );
    assert!(format!("{:?}", network.secrets).contains("/wlan/passphrase"));
    let exported = files(first.path());
    assert_exported(&exported);

    // An empty tenant: everything to create, the settings to write.
    let target = sim(SimConfig::default()).await;
    let target_client = client(&target);
    let conn = Connection::new(&target_client, None).unwrap();
    let (scope, desired) = document::read(first.path(), &resources).unwrap();
    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let options = PlanOptions {
        prune: false,
        env: env(),
    };
    let plan = plan(&resources, &desired, &live, &options).unwrap();
    assert_eq!(plan.count(Action::Create), 6, "{plan:#?}");
    assert_eq!(plan.count(Action::Update), 2, "{plan:#?}");
    let kinds: Vec<&str> = plan.steps.iter().map(|s| s.address.kind.as_str()).collect();
    let venue = kinds.iter().position(|k| *k == "venue").unwrap();
    let group = kinds.iter().position(|k| *k == "ap_group").unwrap();
    let activation = kinds
        .iter()
        .position(|k| *k == "venue_switch_profile")
        .unwrap();
    let profile = kinds.iter().position(|k| *k == "switch_profile").unwrap();
    assert!(venue < group && profile < activation, "{kinds:?}");

    let mut journal = Journal::none();
    let apply_options = ApplyOptions { env: env() };
    let report = apply(
        &conn,
        &resources,
        &desired,
        &live,
        &plan,
        &mut journal,
        &apply_options,
    )
    .await;
    assert!(report.succeeded(), "{:?}", report.failure);
    assert_eq!(report.steps.len(), plan.steps.len());
    let networks = target.objects("sim-tenant", "/wifiNetworks");
    assert_eq!(networks.len(), 1);
    assert_eq!(
        networks[0]["wlan"]["passphrase"], PASSPHRASE,
        "the secret is sent"
    );

    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let again = ruckus_one_state::plan(&resources, &desired, &live, &options).unwrap();
    assert!(again.is_empty(), "{again:#?}");

    let second = tempfile::tempdir().unwrap();
    export(&conn, &resources, &Scope::tenant(), second.path())
        .await
        .unwrap();
    let reexported = files(second.path());
    assert_eq!(
        exported.keys().collect::<Vec<_>>(),
        reexported.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &exported {
        assert_eq!(
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&reexported[name]),
            "{name} differs"
        );
    }
}

/// One file per object, no secret, no id; the secret's placeholder; the default left out.
fn assert_exported(exported: &BTreeMap<String, Vec<u8>>) {
    let names: Vec<&str> = exported.keys().map(String::as_str).collect();
    for expected in [
        "scope.yaml",
        "venue/Lobby.yaml",
        "venue/Annex.yaml",
        "ap_group/Lobby/Group A.yaml",
        "wifi_network/Guest.yaml",
        "switch_profile/Core.yaml",
        "venue_switch_profile/Lobby/Core.yaml",
        "venue_load_balancing/Lobby/settings.yaml",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    for (name, bytes) in exported {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(PASSPHRASE), "{name} holds the secret");
        assert!(
            !text.contains("v-1") && !text.contains("sp-1"),
            "{name} holds an id:\n{text}"
        );
    }
    if std::env::var_os("SHOW_EXPORT").is_some() {
        for (name, bytes) in exported {
            eprintln!("--- {name}\n{}", String::from_utf8_lossy(bytes));
        }
    }
    let network = String::from_utf8_lossy(&exported["wifi_network/Guest.yaml"]).into_owned();
    assert!(
        network.contains(&format!("${{env:{PASSPHRASE_VAR}}}")),
        "{network}"
    );
    assert!(!network.contains("vlanId: 1\n"), "{network}");
}
