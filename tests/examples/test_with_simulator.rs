//! Tests your own code against the local simulator instead of a real tenant: `ruckus-one-sim`
//! runs in your test's process (or as the `ruckus-one-sim` binary), keeps what you create per
//! tenant, answers asynchronous writes with activities that finish on its clock, and checks
//! bodies, media types and rate limits as the spec says.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example test_with_simulator
//! ```
//!
//! The same in a test is a few lines:
//!
//! ```rust,ignore
//! #[tokio::test]
//! async fn creates_the_lobby_venue() {
//!     let sim = ruckus_one_sim::Simulator::start().await.unwrap();
//!     let (id, secret) = sim.credentials();
//!     let client = Client::new(Config::new(Credentials::new(id, secret)).base_url(sim.base_url())).unwrap();
//!     my_code::create_lobby(&client).await.unwrap();
//!     assert_eq!(sim.objects(&sim.tenant_id(), "/venues").len(), 1);
//! }
//! ```

use ruckus_one::network::{QueryRequest, Venue, VenueAddress};
use ruckus_one::{Client, Config, Credentials, WaitOptions};
use ruckus_one_sim::{Fault, SimConfig, Simulator};
use std::time::Duration;

/// The code under test: creates a venue and waits until the service has made it.
async fn create_lobby(client: &Client) -> Result<String, ruckus_one::Error> {
    let address = VenueAddress::new("Sunnyvale".to_owned(), "United States".to_owned());
    let wait = WaitOptions::default().initial_interval(Duration::from_millis(50));
    let done = client
        .network()
        .wireless_venues()
        .create_venue(&Venue::new("Lobby".to_owned(), address))
        .send_and_wait(&wait)
        .await?;
    Ok(done.created_id().unwrap_or_default().to_owned())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `--dry-run` (CI runs every example with it) changes nothing here: it is always local.
    let sim =
        Simulator::start_with(SimConfig::default().activity_duration(Duration::from_millis(200)))
            .await?;
    println!("simulator at {}", sim.base_url());
    let (id, secret) = sim.credentials();
    let client = Client::new(Config::new(Credentials::new(id, secret)).base_url(sim.base_url()))?;

    let venue_id = create_lobby(&client).await?;
    let venues = sim.objects(&sim.tenant_id(), "/venues");
    assert_eq!(venues.len(), 1, "the simulator kept the venue");
    assert_eq!(venues[0]["name"], "Lobby");
    let read = client
        .network()
        .wireless_venues()
        .get_venue(&venue_id)
        .send()
        .await?;
    println!(
        "created {} ({venue_id}) in {}",
        read.name, read.address.city
    );

    // An outage of the service, injected: the activity fails, and the caller sees why.
    sim.inject(
        "create_venue",
        Fault::fail_activity("venue limit reached").times(1),
    );
    let error = create_lobby(&client)
        .await
        .expect_err("the injected failure");
    println!("injected failure seen by the caller: {error}");
    let page = client
        .network()
        .wireless_venues()
        .query_venues(&QueryRequest::new())
        .send()
        .await?;
    let page = serde_json::to_value(&page)?;
    assert_eq!(page["totalCount"], 1, "the failed write changed nothing");
    println!("{} requests answered; ok", sim.requests().len());
    Ok(())
}
