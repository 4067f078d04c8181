//! A simulator in the test's process, seeded with many venues and APs, that `ruckus-mcp`
//! calls with its credentials from the environment: the test reads its request log.

use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::json;

/// The venue holding every seeded AP.
pub const AP_VENUE: &str = "venue-000";

/// A simulator with `venues` venues and `aps` APs (in [`AP_VENUE`]).
pub async fn simulator(venues: usize, aps: usize) -> Simulator {
    let sim = Simulator::start_with(SimConfig::default())
        .await
        .expect("the simulator starts");
    let tenant = sim.tenant_id();
    for i in 0..venues {
        let venue = json!({
            "id": format!("venue-{i:03}"),
            "name": format!("Venue {i:03}"),
            "description": "A seeded venue with a description of ordinary length",
            "address": {"country": "United States", "city": "Sunnyvale",
                        "addressLine": format!("{i} Main Street"), "timezone": "America/Los_Angeles",
                        "latitude": "37.3688", "longitude": "-122.0363"},
        });
        sim.insert(&tenant, "/venues", venue).expect("a venue");
    }
    for i in 0..aps {
        let ap = json!({
            "serialNumber": format!("{:012}", 100_000_000_000_u64 + i as u64),
            "name": format!("ap-{i:03}"),
            "model": "R750",
            "venueId": AP_VENUE,
            "macAddress": format!("00:11:22:33:{:02x}:{:02x}", i / 256, i % 256),
            "description": "A seeded access point",
            "tags": ["lobby", "floor-1"],
        });
        sim.insert(&tenant, &format!("/venues/{AP_VENUE}/aps"), ap)
            .expect("an AP");
    }
    sim
}

/// The environment that points `ruckus-mcp` at `sim` with its credential.
pub fn env(sim: &Simulator) -> Vec<(String, String)> {
    let (id, secret) = sim.credentials();
    vec![
        ("RUCKUS_CLIENT_ID".into(), id),
        ("RUCKUS_CLIENT_SECRET".into(), secret),
        ("RUCKUS_TENANT_ID".into(), sim.tenant_id()),
        ("RUCKUS_BASE_URL".into(), sim.base_url()),
    ]
}

/// The operations `sim` was asked for (the token requests left out).
pub fn operations(sim: &Simulator) -> Vec<String> {
    sim.requests()
        .into_iter()
        .filter(|r| !r.path.starts_with("/oauth2"))
        .map(|r| r.operation.unwrap_or(r.path))
        .collect()
}
