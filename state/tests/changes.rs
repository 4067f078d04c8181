//! Updates, deletes, scopes, secrets and resuming, against simulators on loopback.

mod support;

use ruckus_one_sim::SimConfig;
use ruckus_one_state::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use support::*;

/// The seeded tenant exported to a new folder.
async fn exported(conn: &Connection<'_>, scope: &Scope) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    export(conn, &resources(), scope, dir.path()).await.unwrap();
    dir
}

async fn plan_of(conn: &Connection<'_>, dir: &Path, prune: bool, env: Env) -> (State, State, Plan) {
    let resources = resources();
    let (scope, desired) = document::read(dir, &resources).unwrap();
    let live = live_for(conn, &resources, &scope, &desired).await.unwrap();
    let plan = plan(&resources, &desired, &live, &PlanOptions { prune, env }).unwrap();
    (desired, live, plan)
}

async fn applied(conn: &Connection<'_>, dir: &Path, prune: bool) -> Report {
    let (desired, live, plan) = plan_of(conn, dir, prune, env()).await;
    let mut journal = Journal::none();
    let options = ApplyOptions { env: env() };
    apply(
        conn,
        &resources(),
        &desired,
        &live,
        &plan,
        &mut journal,
        &options,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_field_is_one_patch_and_applied() {
    let sim = sim(SimConfig::default().seed(seed())).await;
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let dir = exported(&conn, &Scope::tenant()).await;
    let file = dir.path().join("venue/Lobby.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("Main building", "Head office")).unwrap();
    let (_, _, plan) = plan_of(&conn, dir.path(), false, env()).await;
    assert_eq!(plan.steps.len(), 1, "{plan:#?}");
    let step = serde_json::to_value(&plan.steps[0]).unwrap();
    assert_eq!(step["action"], "update");
    assert_eq!(step["operation"], "update_venue");
    assert_eq!(
        step["patch"],
        json!([{"op": "replace", "path": "/description", "value": "Head office"}])
    );
    assert!(applied(&conn, dir.path(), false).await.succeeded());
    let venues = sim.objects("sim-tenant", "/venues");
    let lobby = venues.iter().find(|v| v["name"] == "Lobby").unwrap();
    assert_eq!(lobby["description"], "Head office");
    assert_eq!(lobby["id"], "v-1", "updated in place");
    assert!(plan_of(&conn, dir.path(), false, env()).await.2.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_only_when_pruning_and_dependants_first() {
    let sim = sim(SimConfig::default().seed(seed())).await;
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let dir = exported(&conn, &Scope::tenant()).await;
    for gone in [
        "venue_switch_profile/Lobby/Core.yaml",
        "switch_profile/Core.yaml",
    ] {
        std::fs::remove_file(dir.path().join(gone)).unwrap();
    }
    let (_, _, kept) = plan_of(&conn, dir.path(), false, env()).await;
    assert!(kept.is_empty(), "nothing deleted without prune: {kept:#?}");
    let (_, _, pruned) = plan_of(&conn, dir.path(), true, env()).await;
    let steps: Vec<String> = pruned.steps.iter().map(Step::key).collect();
    assert_eq!(
        steps,
        [
            "delete venue_switch_profile Lobby/Core",
            "delete switch_profile Core"
        ]
    );
    assert!(applied(&conn, dir.path(), true).await.succeeded());
    assert!(sim.objects("sim-tenant", "/switchProfiles").is_empty());
    assert!(
        sim.objects("sim-tenant", "/venues/v-1/switchProfiles")
            .is_empty()
    );
    assert!(plan_of(&conn, dir.path(), true, env()).await.2.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_venue_copied_to_a_customer_takes_what_it_refers_to() {
    let sim = sim(SimConfig::default()
        .seed(seed())
        .customer("sim-tenant", "customer-a"))
    .await;
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let dir = exported(&conn, &Scope::named("venue", ["Lobby"])).await;
    let names: Vec<String> = files(dir.path()).into_keys().collect();
    assert_eq!(
        names,
        [
            "ap_group/Lobby/Group A.yaml",
            "scope.yaml",
            "switch_profile/Core.yaml",
            "venue/Lobby.yaml",
            "venue_load_balancing/Lobby/settings.yaml",
            "venue_switch_profile/Lobby/Core.yaml",
        ]
    );
    let missing = tempfile::tempdir().unwrap();
    let e = export(
        &conn,
        &resources(),
        &Scope::named("venue", ["Nowhere"]),
        missing.path(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&e, Error::NotFound(what) if what == "venue Nowhere"),
        "{e}"
    );
    // A file for another venue of the tenant, as it is live: nothing to do for it.
    let annex =
        "address:\n  city: Paris\n  country: France\ndescription: string\nname: Annex\ntags: []\n";
    std::fs::write(dir.path().join("venue/Annex.yaml"), annex).unwrap();
    let (_, _, widened) = plan_of(&conn, dir.path(), true, env()).await;
    assert!(widened.is_empty(), "{widened:#?}");
    std::fs::remove_file(dir.path().join("venue/Annex.yaml")).unwrap();
    let customer = Connection::new(&client, Some("customer-a")).unwrap();
    let report = applied(&customer, dir.path(), true).await;
    assert!(report.succeeded(), "{:?}", report.failure);
    assert_eq!(sim.objects("customer-a", "/venues").len(), 1);
    assert_eq!(sim.objects("customer-a", "/switchProfiles").len(), 1);
    assert_eq!(
        sim.objects("sim-tenant", "/venues").len(),
        2,
        "the source is unchanged"
    );
    assert!(
        plan_of(&customer, dir.path(), true, env())
            .await
            .2
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_secret_is_planned_without_its_value_and_an_unset_one_is_named() {
    let sim = sim(SimConfig::default().seed(seed())).await;
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let dir = exported(&conn, &Scope::tenant()).await;
    let rotated = Env::from_map(BTreeMap::from([(
        PASSPHRASE_VAR.to_owned(),
        "rotated-Passphrase-0815".to_owned(),
    )]));
    let (desired, live, plan) = plan_of(&conn, dir.path(), false, rotated.clone()).await;
    let text = serde_json::to_string(&plan).unwrap();
    assert!(
        !text.contains("rotated-Passphrase") && !text.contains(PASSPHRASE),
        "{text}"
    );
    assert_eq!(plan.steps.len(), 1, "{plan:#?}");
    assert_eq!(
        serde_json::to_value(&plan.steps[0].patch).unwrap(),
        json!([{"op": "replace", "path": "/wlan/passphrase",
                "value": format!("${{env:{PASSPHRASE_VAR}}}")}])
    );
    let unset = ApplyOptions {
        env: Env::from_map(BTreeMap::new()),
    };
    let report = apply(
        &conn,
        &resources(),
        &desired,
        &live,
        &plan,
        &mut Journal::none(),
        &unset,
    )
    .await;
    let (_, error) = report.failure.expect("an unset secret fails the step");
    assert!(matches!(&error, Error::MissingSecret { variable } if variable == PASSPHRASE_VAR));
    assert!(error.to_string().contains(PASSPHRASE_VAR));
    let options = ApplyOptions { env: rotated };
    let report = apply(
        &conn,
        &resources(),
        &desired,
        &live,
        &plan,
        &mut Journal::none(),
        &options,
    )
    .await;
    assert!(report.succeeded(), "{:?}", report.failure);
    let network = &sim.objects("sim-tenant", "/wifiNetworks")[0];
    assert_eq!(network["wlan"]["passphrase"], "rotated-Passphrase-0815");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_apply_finds_a_started_create_and_repeats_no_step() {
    let source = sim(SimConfig::default().seed(seed())).await;
    let source_client = client(&source);
    let dir = exported(
        &Connection::new(&source_client, None).unwrap(),
        &Scope::tenant(),
    )
    .await;
    let target = sim(SimConfig::default()).await;
    let client = client(&target);
    let conn = Connection::new(&client, None).unwrap();
    let (desired, live, plan) = plan_of(&conn, dir.path(), false, env()).await;
    // The killed run: the create of Lobby was journaled as started, and the service got it.
    let lobby = &desired
        .objects
        .values()
        .find(|o| o.address.name == "Lobby")
        .unwrap()
        .doc;
    target
        .insert("sim-tenant", "/venues", lobby.clone())
        .unwrap();
    let journal_path = dir.path().join("apply.journal");
    std::fs::write(
        &journal_path,
        "{\"step\":\"create venue Lobby\",\"state\":\"started\"}\n{\"step\":\"cre",
    )
    .unwrap();
    let mut journal = Journal::resume(&journal_path).unwrap();
    let options = ApplyOptions { env: env() };
    let report = apply(
        &conn,
        &resources(),
        &desired,
        &live,
        &plan,
        &mut journal,
        &options,
    )
    .await;
    assert!(report.succeeded(), "{:?}", report.failure);
    let lobby_step = report
        .steps
        .iter()
        .find(|s| s.step.key() == "create venue Lobby")
        .unwrap();
    assert_eq!(lobby_step.outcome, Outcome::Existing);
    let venues: Vec<Value> = target.objects("sim-tenant", "/venues");
    assert_eq!(
        venues.iter().filter(|v| v["name"] == "Lobby").count(),
        1,
        "{venues:#?}"
    );
    let lobby_id = lobby_step.id.clone().unwrap();
    assert_eq!(
        target
            .objects("sim-tenant", &format!("/venues/{lobby_id}/apGroups"))
            .len(),
        1
    );
    assert!(plan_of(&conn, dir.path(), false, env()).await.2.is_empty());

    // Resumed again with the finished journal: every step skipped, nothing written.
    let writes = |sim: &ruckus_one_sim::Simulator| {
        sim.requests()
            .iter()
            .filter(|r| {
                r.method != "GET" && !r.path.ends_with("/query") && !r.path.contains("token")
            })
            .count()
    };
    let before = writes(&target);
    let mut journal = Journal::resume(&journal_path).unwrap();
    let report = apply(
        &conn,
        &resources(),
        &desired,
        &live,
        &plan,
        &mut journal,
        &options,
    )
    .await;
    assert!(report.succeeded());
    assert!(
        report.steps.iter().all(|s| s.outcome == Outcome::Skipped),
        "{:?}",
        report.steps
    );
    assert_eq!(writes(&target), before);
}
