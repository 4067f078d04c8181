//! `invoke_read` of a query (`POST /venues/query`) is a read: the runtime under the server
//! repeats it after a `503` or a dropped connection, and the model gets its page.

mod common;

use common::{Agent, call, command, json_of, start, text};
use ruckus_one_sim::{Fault, SimConfig, Simulator};
use serde_json::json;

#[tokio::test]
async fn invoke_read_is_retried_after_a_503_and_a_dropped_connection() {
    let sim = Simulator::start_with(SimConfig::default())
        .await
        .expect("the simulator starts");
    let venue =
        json!({"id": "v-1", "name": "Lobby", "address": {"city": "Lyon", "country": "France"}});
    sim.insert(&sim.tenant_id(), "/venues", venue).unwrap();
    let (id, secret) = sim.credentials();
    let tenant = sim.tenant_id();
    let base = sim.base_url();
    let env = [
        ("RUCKUS_CLIENT_ID", id.as_str()),
        ("RUCKUS_CLIENT_SECRET", secret.as_str()),
        ("RUCKUS_TENANT_ID", tenant.as_str()),
        ("RUCKUS_BASE_URL", base.as_str()),
    ];
    let session = start(Agent::capable(), command(&[], &env)).await;
    for fault in [Fault::status(503), Fault::drop_connection()] {
        sim.inject("query_venues", fault.times(1));
        let page = call(
            &session,
            "invoke_read",
            json!({"operation": "query_venues", "limit": 5}),
        )
        .await;
        assert_ne!(page.is_error, Some(true), "{}", text(&page));
        let page = json_of(&page);
        assert_eq!(page["rows"].as_array().map(Vec::len), Some(1), "{page}");
    }
    let statuses: Vec<u16> = sim
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("query_venues"))
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses.first(), Some(&503), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
    session.cancel().await.unwrap();
}
