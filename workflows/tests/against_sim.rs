//! The library against the simulator: a swap resumed after a kill between sending the add and
//! recording it, and a report written to memory.

use ruckus_one_catalog::Catalog;
use ruckus_one_runtime::internal::described;
use ruckus_one_runtime::{Client, Config, Credentials};
use ruckus_one_sim::{SimConfig, Simulator};
use ruckus_one_state::{Entry, StepState};
use ruckus_one_workflows::report::{self, JsonSink, Report, Scope};
use ruckus_one_workflows::swap::{self, Connection, Journal, Outcome};
use serde_json::{Value, json};

async fn sim() -> Simulator {
    let config = SimConfig::default().activity_duration(std::time::Duration::from_millis(100));
    Simulator::start_with(config)
        .await
        .expect("the simulator starts")
}

fn client(sim: &Simulator) -> Client {
    let (_, table) = Catalog::get().unwrap().api("network").unwrap();
    let (id, secret) = sim.credentials();
    let config = Config::new(Credentials::new(id, secret)).base_url(sim.base_url());
    Client::new(config, described::auth_settings(table)).expect("a client")
}

fn seed(sim: &Simulator) {
    let t = sim.tenant_id();
    sim.insert(&t, "/venues", json!({"id": "v-1", "name": "Lobby"}))
        .unwrap();
    for (serial, name) in [("111111111111", "Hall-1"), ("333333333333", "Hall-3")] {
        let ap = json!({"serialNumber": serial, "name": name, "venueId": "v-1", "model": "R750"});
        sim.insert(&t, "/venues/v-1/aps", ap).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_swap_finds_the_add_it_sent_and_does_not_send_it_again() {
    let sim = sim().await;
    seed(&sim);
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swap.journal");
    let snapshot = swap::prepare(&conn, "111111111111", "222222222222", Some(&path))
        .await
        .unwrap();
    let steps = swap::steps(&snapshot, false);
    // Killed after the add went out and before it was recorded as done.
    let mut journal = Journal::create(&path).unwrap();
    journal
        .record(Entry::new(steps[0].key.clone(), StepState::Started))
        .unwrap();
    let t = sim.tenant_id();
    let sent = json!({"serialNumber": "222222222222", "name": "Hall-1", "venueId": "v-1"});
    sim.insert(&t, "/venues/v-1/aps", sent).unwrap();
    drop(journal);

    // The resumed run reads the snapshot back (the old AP is not read again).
    let again = swap::prepare(&conn, "111111111111", "222222222222", Some(&path))
        .await
        .unwrap();
    assert_eq!(again, snapshot);
    let mut journal = Journal::resume(&path).unwrap();
    let adds_before = adds(&sim);
    let report = swap::run(&conn, &steps, &mut journal, &mut |_| true)
        .await
        .unwrap();
    assert_eq!(report[0].outcome, Outcome::Found);
    assert!(report[1..].iter().all(|r| r.outcome == Outcome::Done));
    assert_eq!(adds(&sim), adds_before, "the add is not sent again");
    let serials: Vec<String> = sim
        .objects(&t, "/venues/v-1/aps")
        .iter()
        .filter_map(|a| a["serialNumber"].as_str().map(str::to_owned))
        .collect();
    assert!(serials.contains(&"222222222222".to_owned()), "{serials:?}");
    assert!(!serials.contains(&"111111111111".to_owned()), "{serials:?}");
}

fn adds(sim: &Simulator) -> usize {
    sim.requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("create_venue_ap"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_removal_keeps_the_old_ap() {
    let sim = sim().await;
    seed(&sim);
    let client = client(&sim);
    let conn = Connection::new(&client, None).unwrap();
    let snapshot = swap::prepare(&conn, "333333333333", "444444444444", None)
        .await
        .unwrap();
    let steps = swap::steps(&snapshot, false);
    let mut journal = Journal::none();
    let report = swap::run(&conn, &steps, &mut journal, &mut |_| false)
        .await
        .unwrap();
    assert_eq!(report.last().map(|r| r.outcome), Some(Outcome::Declined));
    let serials: Vec<Value> = sim
        .objects(&sim.tenant_id(), "/venues/v-1/aps")
        .iter()
        .map(|a| a["serialNumber"].clone())
        .collect();
    assert!(serials.contains(&json!("333333333333")), "{serials:?}");
    assert!(serials.contains(&json!("444444444444")), "{serials:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inventory_of_the_own_tenant_has_no_tenant_column() {
    let sim = sim().await;
    seed(&sim);
    let client = client(&sim);
    let mut out = Vec::new();
    let summary = report::run(
        &client,
        Report::Inventory,
        &Scope::Own,
        &mut JsonSink::new(&mut out),
    )
    .await
    .unwrap();
    assert_eq!(summary.rows, 2);
    let rows: Vec<Value> = serde_json::from_slice(&out).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows[0].get("tenant").is_none(), "{}", rows[0]);
    assert_eq!(rows[0]["type"], "ap");
    assert_eq!(rows[0]["model"], "R750");
    let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), Report::Inventory.columns().len());
}
