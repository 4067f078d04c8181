//! A query sent as `POST` only reads, so the client repeats it after a `503` or a dropped
//! connection as it does a `GET`; a create, which may have been carried out, is not repeated.

mod common;

use common::sim_client;

use ruckus_one::network::common::QueryRequest;
use ruckus_one::network::{Venue, VenueAddress};
use ruckus_one_sim::{Fault, SimConfig, Simulator};

fn tries(sim: &Simulator, operation: &str) -> Vec<u16> {
    sim.requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some(operation))
        .map(|r| r.status)
        .collect()
}

#[tokio::test]
async fn a_generated_query_is_retried_after_a_503_and_a_dropped_connection() {
    let sim = Simulator::start_with(SimConfig::default())
        .await
        .expect("simulator starts");
    let client = sim_client(&sim);
    let venues = client.network().wireless_venues();

    sim.inject("query_venues", Fault::status(503).times(1));
    venues
        .query_venues(&QueryRequest::new())
        .send()
        .await
        .expect("a 503 to a query is retried");
    assert_eq!(tries(&sim, "query_venues"), [503, 200]);

    sim.inject("query_venues", Fault::drop_connection().times(1));
    venues
        .query_venues(&QueryRequest::new())
        .send()
        .await
        .expect("a dropped connection under a query is retried");
    assert_eq!(tries(&sim, "query_venues").last(), Some(&200));

    // A write is not a read: its 503 reaches the caller after one try.
    sim.inject("create_venue", Fault::status(503).times(1));
    let address = VenueAddress::new("Lyon".to_owned(), "France".to_owned());
    let error = venues
        .create_venue(&Venue::new("Annex".to_owned(), address))
        .send()
        .await
        .expect_err("a create is not repeated");
    assert_eq!(error.status(), Some(503));
    assert_eq!(tries(&sim, "create_venue"), [503]);
}
