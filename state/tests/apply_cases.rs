//! Applies beyond the plain case: a deferred reference set by a second pass, and a write
//! whose activity is still running when the wait ends.

mod support;

use ruckus_one_sim::SimConfig;
use ruckus_one_state::*;
use support::*;

/// The fixture with AP groups before Wi-Fi networks and an AP group's description as a
/// deferred reference to a network (a stand-in for a reference cycle).
fn layer() -> Resources {
    let mut r = resources();
    let at = r
        .kinds
        .iter()
        .position(|k| k.name == "wifi_network")
        .unwrap();
    let network = r.kinds.remove(at);
    r.kinds.push(network);
    let group = r.kinds.iter_mut().find(|k| k.name == "ap_group").unwrap();
    group.references.push(
        serde_json::from_value(serde_json::json!(
            {"kind": "wifi_network", "field": "/description", "deferred": true}
        ))
        .unwrap(),
    );
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_reference_is_set_after_the_object_it_names_is_created() {
    let resources = layer();
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "venue/Lobby.yaml",
        "name: Lobby\naddress: {city: Sunnyvale, country: United States}\n",
    );
    write(
        "ap_group/Lobby/Group A.yaml",
        "name: Group A\ndescription: Guest\napSerialNumbers: []\n",
    );
    write(
        "wifi_network/Guest.yaml",
        &format!(
            "name: Guest\ntype: psk\nwlan: {{ssid: guest, passphrase: '${{env:{PASSPHRASE_VAR}}}'}}\n"
        ),
    );
    let sim = sim(SimConfig::default()).await;
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let (scope, desired) = document::read(dir.path(), &resources).unwrap();
    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let options = PlanOptions {
        prune: false,
        env: env(),
    };
    let planned = plan(&resources, &desired, &live, &options).unwrap();
    let keys: Vec<String> = planned.steps.iter().map(Step::key).collect();
    assert_eq!(
        keys,
        [
            "create venue Lobby",
            "create ap_group Lobby/Group A",
            "create wifi_network Guest"
        ]
    );
    let report = apply(
        &conn,
        &resources,
        &desired,
        &live,
        &planned,
        &mut Journal::none(),
        &ApplyOptions { env: env() },
    )
    .await;
    assert!(report.succeeded(), "{:?}", report.failure);
    let last = report.steps.last().unwrap();
    assert_eq!(last.step.key(), "update ap_group Lobby/Group A");
    let network_id = sim.objects("sim-tenant", "/wifiNetworks")[0]["id"].clone();
    let venue_id = sim.objects("sim-tenant", "/venues")[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let group = &sim.objects("sim-tenant", &format!("/venues/{venue_id}/apGroups"))[0];
    assert_eq!(group["description"], network_id);

    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let again = plan(&resources, &desired, &live, &options).unwrap();
    assert!(
        again.steps.iter().all(|s| s.address.kind != "ap_group"),
        "{again:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_write_still_running_is_no_failure() {
    use std::time::Duration;
    let resources = resources();
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "venue/Lobby.yaml",
        "name: Lobby\naddress: {city: Sunnyvale, country: United States}\n",
    );
    write("ap_group/Lobby/Group A.yaml", "name: Group A\n");
    // Activities that take an hour; the apply waits 300 ms for each.
    let sim = ruckus_one_sim::Simulator::start_with(
        SimConfig::default().activity_duration(Duration::from_secs(3600)),
    )
    .await
    .unwrap();
    let client = client(&sim);
    let wait = ruckus_one_runtime::WaitOptions::default()
        .timeout(Duration::from_millis(300))
        .initial_interval(Duration::from_millis(50));
    let conn = Connection::new(&client, None).unwrap().wait_options(wait);
    let (scope, desired) = document::read(dir.path(), &resources).unwrap();
    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let options = PlanOptions {
        prune: false,
        env: env(),
    };
    let planned = plan(&resources, &desired, &live, &options).unwrap();
    let report = apply(
        &conn,
        &resources,
        &desired,
        &live,
        &planned,
        &mut Journal::none(),
        &ApplyOptions { env: env() },
    )
    .await;
    assert!(report.succeeded(), "{:?}", report.failure);
    assert_eq!(report.steps.len(), 2);
    for s in &report.steps {
        assert!(matches!(s.outcome, Outcome::Running { .. }), "{s:?}");
    }
    let venue_id = report.steps[0].id.clone().unwrap();
    assert_eq!(
        sim.objects("sim-tenant", &format!("/venues/{venue_id}/apGroups"))
            .len(),
        1
    );
}
