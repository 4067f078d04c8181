//! An accepted write is never an error: `create_venue` answered `202` with only the new id (or
//! nothing) in `response`, where the typed answer's venue needs a name, still gives the request
//! id and the created id.

mod common;

use common::expect_once;
use ruckus_one::network::{Venue, VenueAddress};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

#[tokio::test]
async fn a_create_answered_with_a_partial_response_is_accepted() {
    for (response, id) in [
        (json!({"id": "venue-0"}), Some("venue-0")),
        (json!({}), None),
    ] {
        let server = common::server().await;
        let config = common::config(&server).retry(ruckus_one::RetryPolicy::none());
        let client = ruckus_one::Client::new(config).expect("valid configuration");
        expect_once(
            &server,
            Mock::given(method("POST")).and(path("/venues")),
            ResponseTemplate::new(202)
                .set_body_json(json!({"requestId": "req-9", "response": response})),
        )
        .await;
        let address = VenueAddress::new("Lyon".to_owned(), "France".to_owned());
        let accepted = client
            .network()
            .wireless_venues()
            .create_venue(&Venue::new("Annex".to_owned(), address))
            .send()
            .await
            .expect("an accepted write is no error");
        assert_eq!(accepted.request_id(), Some("req-9"));
        assert_eq!(accepted.created_id(), id);
    }
}
