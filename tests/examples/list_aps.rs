//! Lists every access point of the account, page by page.
//!
//! `query_venue_aps` (`POST /venues/aps/query`) takes a query body; its builder's `pages()`
//! returns a stream that asks for page 1, 2, ... (the page number goes in the body's `page`
//! field) and ends by itself after an empty or short page.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example list_aps [-- --dry-run]
//! ```
//!
//! With `--dry-run` it runs against the simulator, seeded with five APs in three venues: the
//! cross-venue query answers from the APs of every venue.

mod support;

use futures_util::StreamExt;
use ruckus_one::network::{QueryRequest, SortOrder};
use ruckus_one_sim::Simulator;
use serde_json::{Value, json};
use support::Target;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose_simulated().await;
    if let Some(sim) = target.simulator() {
        seed_aps(sim)?;
    }
    let client = target.client()?;

    // Small pages against the simulator so that paging shows; the service accepts much larger
    // ones.
    let page_size = if target.simulator().is_some() { 2 } else { 100 };
    let mut query = QueryRequest::new();
    query.page_size = Some(page_size);
    query.sort_field = Some("name".to_owned());
    query.sort_order = Some(SortOrder::Asc);
    query.fields = Some(
        ["serialNumber", "name", "model", "venueName", "status"]
            .map(String::from)
            .to_vec(),
    );

    let mut pages = client
        .network()
        .wireless_aps()
        .query_venue_aps(&query)
        .pages();
    let (mut aps, mut page_count) = (0, 0);
    while let Some(page) = pages.next().await {
        // An error ends the stream: `?` returns it.
        let page = page?;
        page_count += 1;
        for ap in page.data.unwrap_or_default() {
            aps += 1;
            // A page keeps its rows as raw JSON (the page type is shared by many queries);
            // `.items()` instead of `.pages()` yields each row typed, as a `VenueApRow`.
            let field = |name: &str| ap.get(name).and_then(Value::as_str).unwrap_or("?");
            println!(
                "  {:<14} {:<12} {:<6} {:<12} {}",
                field("serialNumber"),
                field("name"),
                field("model"),
                field("venueName"),
                field("status"),
            );
        }
    }
    println!("list_aps: {aps} APs on {page_count} pages");
    if target.simulator().is_some() {
        assert_eq!((aps, page_count), (5, 3), "every seeded AP, two per page");
    }

    target.finish().await;
    Ok(())
}

/// Five APs in three venues of the simulator's tenant, as `POST /venues/{venueId}/aps` would
/// have created them.
fn seed_aps(sim: &Simulator) -> Result<(), String> {
    let aps = [
        ("head-office", "302139001101", "Atrium-1", "R770"),
        ("head-office", "302139001102", "Atrium-2", "R770"),
        ("lab", "432204002201", "Lab-East", "R670"),
        ("lab", "432204002202", "Lab-West", "R670"),
        ("depot", "972301003301", "Warehouse", "T670"),
    ];
    for (venue, serial, name, model) in aps {
        let ap = json!({
            "serialNumber": serial,
            "name": name,
            "model": model,
            "venueName": venue,
            "status": "2_00_Operational"
        });
        sim.insert(&sim.tenant_id(), &format!("/venues/{venue}/aps"), ap)?;
    }
    Ok(())
}
