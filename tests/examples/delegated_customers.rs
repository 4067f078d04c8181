//! Lists the customers a managed-service provider (MSP) manages, then reads something in each
//! customer's account.
//!
//! `query_msp_ecs` (`POST /mspecs/query`) runs as the MSP itself. `client.for_each_tenant`
//! then runs the same work for every customer with bounded concurrency, each run with a client
//! acting for that customer (it sends the `x-rks-tenantid` header), all sharing the MSP client's
//! access token, connections and pacing; here each counts the customer's venues with
//! `query_venues` (`POST /venues/query`, one row asked for: the answer's `totalCount` is the
//! count).
//!
//! ```text
//! cargo run -p ruckus-one-tests --example delegated_customers [-- --dry-run]
//! ```
//!
//! With `--dry-run` it runs against the simulator, whose tenant manages two customers (two
//! venues and one): the customer query lists them, and the simulator lets the MSP act for them
//! and for no other tenant.

mod support;

use futures_util::StreamExt;
use ruckus_one::network::QueryRequest;
use ruckus_one_sim::config::DEFAULT_TENANT_ID;
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::json;
use support::Target;

/// The customers of the simulated MSP: tenant id, name and venues.
const SIM_CUSTOMERS: [(&str, &str, &[&str]); 2] = [
    (
        "8a1b2c3d4e5f40718293a4b5c6d7e8f9",
        "Harbor Hotel",
        &["Lobby", "Conference wing"],
    ),
    (
        "1f2e3d4c5b6a47988776655443322110",
        "City Library",
        &["Main hall"],
    ),
];

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = SimConfig::default();
    for (id, _, _) in SIM_CUSTOMERS {
        config = config.customer(DEFAULT_TENANT_ID, id);
    }
    let target = Target::choose_simulated_with(config).await;
    if let Some(sim) = target.simulator() {
        seed_customers(sim)?;
    }
    let client = target.client()?;

    // The MSP's end customers, every page.
    let mut query = QueryRequest::new();
    query.page_size = Some(100);
    query.fields = Some(["id", "name", "tenantType"].map(String::from).to_vec());
    query.filters = Some([("tenantType".to_owned(), json!(["MSP_EC"]))].into());
    let mut pages = client.network().msp().query_msp_ecs(&query).pages();
    let mut customers = Vec::new();
    while let Some(page) = pages.next().await {
        customers.extend(page?.data.unwrap_or_default());
    }

    // The same work for every customer, 8 at a time: each run gets a client acting for its
    // customer (the `x-rks-tenantid` header), all sharing one access token and the pacing
    // buckets; every customer's outcome comes back, in order, failures included.
    let listed: Vec<(String, String)> = customers
        .iter()
        .filter_map(|c| Some((c.id.clone()?, c.name.clone().unwrap_or_default())))
        .collect();
    let mut count = QueryRequest::new();
    count.page_size = Some(1);
    count.fields = Some(vec!["id".to_owned()]);
    let count = &count;
    let outcomes = client
        .for_each_tenant(
            listed.iter().map(|(id, _)| id.clone()),
            8,
            |as_customer| async move {
                let page = as_customer
                    .network()
                    .wireless_venues()
                    .query_venues(count)
                    .send()
                    .await?;
                Ok::<_, ruckus_one::Error>(page.total_count.unwrap_or(0))
            },
        )
        .await;
    let mut venues = Vec::new();
    // Outcomes come in the order of the ids given.
    for ((_, name), outcome) in listed.iter().zip(&outcomes) {
        match &outcome.result {
            Ok(n) => {
                println!("  {name} ({}): {n} venue(s)", outcome.tenant);
                venues.push((name.as_str(), *n));
            }
            Err(e) => println!("  {name} ({}): failed: {e}", outcome.tenant),
        }
    }
    if let Some(failed) = outcomes.iter().find(|o| o.result.is_err()) {
        return Err(format!("customer {} failed", failed.tenant).into());
    }
    println!(
        "delegated_customers: counted the venues of {} managed customers",
        customers.len()
    );
    if target.simulator().is_some() {
        assert_eq!(
            venues,
            [("Harbor Hotel", 2), ("City Library", 1)],
            "each simulated customer's own venues"
        );
    }

    target.finish().await;
    Ok(())
}

/// The MSP's records of its customers, with their names (as `POST /tenants` would have made
/// them: the customer query lists each configured customer with its record), and each
/// customer's venues in its own account.
fn seed_customers(sim: &Simulator) -> Result<(), String> {
    for (id, name, venues) in SIM_CUSTOMERS {
        let record = json!({"id": id, "name": name, "tenantType": "MSP_EC"});
        sim.insert(&sim.tenant_id(), "/tenants", record)?;
        for (n, venue) in venues.iter().enumerate() {
            let venue = json!({"id": format!("{id}-venue-{n}"), "name": venue});
            sim.insert(id, "/venues", venue)?;
        }
    }
    Ok(())
}
