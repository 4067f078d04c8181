//! `ruckus venues list` sends the venue query (`POST /venues/query`), which only reads: the
//! runtime repeats it after a `503` or a dropped connection, and the list still prints.

mod support;

use ruckus_one_sim::{Fault, SimConfig};
use serde_json::json;
use support::{ruckus, sim_with};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_is_retried_after_a_503_and_a_dropped_connection() {
    let sim = sim_with(SimConfig::default()).await;
    let venue =
        json!({"id": "v-1", "name": "Lobby", "address": {"city": "Lyon", "country": "France"}});
    sim.insert(&sim.tenant_id(), "/venues", venue).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for fault in [Fault::status(503), Fault::drop_connection()] {
        sim.inject("query_venues", fault.times(1));
        let run = ruckus(
            Some(&sim),
            dir.path(),
            &["venues", "list", "-o", "json"],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.json().as_array().map(Vec::len),
            Some(1),
            "{}",
            run.stdout
        );
    }
    let statuses: Vec<u16> = sim
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("query_venues"))
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses.first(), Some(&503), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
}
