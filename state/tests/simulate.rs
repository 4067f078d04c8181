//! `simulate`: a plan tried on an in-process simulator seeded with the live state; the
//! service is only read.

mod support;

use ruckus_one_sim::SimConfig;
use ruckus_one_state::*;
use support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_export_is_simulated_without_writing_to_the_service() {
    let resources = resources();
    let service = sim(SimConfig::default().seed(seed())).await;
    let client = client(&service);
    let conn = Connection::new(&client, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    export(&conn, &resources, &Scope::tenant(), dir.path())
        .await
        .unwrap();
    let file = dir.path().join("venue/Lobby.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("Main building", "Head office")).unwrap();
    std::fs::create_dir_all(dir.path().join("ap_group/Annex")).unwrap();
    std::fs::write(dir.path().join("ap_group/Annex/Hall.yaml"), "name: Hall\n").unwrap();

    let before = service.requests().len();
    let (scope, desired) = document::read(dir.path(), &resources).unwrap();
    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let options = PlanOptions {
        prune: false,
        env: env(),
    };
    let simulation = simulate(&resources, &scope, &desired, &live, &options)
        .await
        .unwrap();
    // The service fills in the fields a file leaves out: the second plan finds them.
    assert!(
        !simulation.converged && simulation.failure.is_none(),
        "{simulation:#?}"
    );
    let remaining: Vec<String> = simulation.remaining.steps.iter().map(Step::key).collect();
    assert_eq!(remaining, ["update ap_group Annex/Hall"]);
    assert!(
        simulation.verdict.contains("remain"),
        "{}",
        simulation.verdict
    );

    let hall = "apSerialNumbers: []\ndescription: the hall\nname: Hall\n";
    std::fs::write(dir.path().join("ap_group/Annex/Hall.yaml"), hall).unwrap();
    let (scope, desired) = document::read(dir.path(), &resources).unwrap();
    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let simulation = simulate(&resources, &scope, &desired, &live, &options)
        .await
        .unwrap();
    assert!(simulation.converged, "{simulation:#?}");
    let keys: Vec<String> = simulation.plan.steps.iter().map(Step::key).collect();
    assert_eq!(keys, ["update venue Lobby", "create ap_group Annex/Hall"]);
    assert_eq!(simulation.steps.len(), 2);
    assert!(
        simulation.verdict.contains("converges"),
        "{}",
        simulation.verdict
    );

    let writes: Vec<_> = service.requests()[before..]
        .iter()
        .filter(|r| r.method != "GET" && !r.path.ends_with("/query") && !r.path.contains("token"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(writes.is_empty(), "{writes:?}");
    let lobby = service
        .objects("sim-tenant", "/venues")
        .into_iter()
        .find(|v| v["name"] == "Lobby")
        .unwrap();
    assert_eq!(lobby["description"], "Main building");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulated_apply_that_cannot_succeed_says_so() {
    let resources = resources();
    let service = sim(SimConfig::default().seed(seed())).await;
    let client = client(&service);
    let conn = Connection::new(&client, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    export(&conn, &resources, &Scope::tenant(), dir.path())
        .await
        .unwrap();
    // A profile applied to a venue, naming a profile that exists nowhere.
    std::fs::write(
        dir.path().join("venue_switch_profile/Lobby/Edge.yaml"),
        "switchProfileId: Edge\n",
    )
    .unwrap();
    let (scope, desired) = document::read(dir.path(), &resources).unwrap();
    let live = live_for(&conn, &resources, &scope, &desired).await.unwrap();
    let options = PlanOptions {
        prune: false,
        env: env(),
    };
    let simulation = simulate(&resources, &scope, &desired, &live, &options)
        .await
        .unwrap();
    assert!(!simulation.converged);
    let failure = simulation.failure.clone().unwrap();
    assert!(failure.contains("switch_profile Edge"), "{failure}");
    assert!(
        simulation.verdict.contains("would fail"),
        "{}",
        simulation.verdict
    );
}
