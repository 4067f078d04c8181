//! Creates a Wi-Fi network and waits until the service has finished creating it.
//!
//! `create_wifi_network` (`POST /wifiNetworks`) answers `202 Accepted` with a `requestId`; the
//! work goes on in the background. `send_and_wait` sends the request, then polls
//! `GET /activities/{requestId}` (as the tenant the request was sent as) until the activity
//! succeeds (or fails, or the wait times out: both are `Error::Activity`). It returns the 202
//! answer, with the new network's id, and the finished activity.
//!
//! Live, this creates a real WPA2 network named `rust-example-<seconds>`. It is not activated
//! on any venue, so no AP broadcasts it; delete it afterwards.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example create_network_and_wait [-- --dry-run]
//! ```

mod support;

use std::time::{SystemTime, UNIX_EPOCH};

use ruckus_one::WaitOptions;
use ruckus_one::network::{PskWifiNetwork, PskWifiWlan, PskWifiWlanWlanSecurity, WifiNetwork};
use serde_json::json;
use support::Target;
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const REQUEST_ID: &str = "5c1e0a52-8f7b-4e43-9d6a-1b2c3d4e5f60";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose().await;
    if let Some(server) = target.fake() {
        fake_create_and_activity(server).await;
    }
    let client = target.client()?;

    // A PSK network: one kind of the `WifiNetwork` union. The union writes the `type` field
    // that tells the service which kind it is (`"psk"` for this one).
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let name = format!("rust-example-{seconds}");
    let wlan = PskWifiWlan::new(name.clone())
        .with_wlan_security(PskWifiWlanWlanSecurity::Wpa2Personal)
        .with_passphrase("example-passphrase-change-me")
        .with_vlan_id(1);
    let network = WifiNetwork::from(
        PskWifiNetwork::new(wlan)
            .with_name(name.clone())
            .with_description("Created by the ruckus-one example create_network_and_wait"),
    );

    // First poll at once, then pauses of 1 s growing 1.5 times each (at most 10 s); gives up
    // after 5 minutes.
    let wait = WaitOptions::default();
    let (accepted, activity) = client
        .network()
        .wireless_networks()
        .create_wifi_network(&network)
        .send_and_wait(&wait)
        .await?
        .into_parts();
    // The 202 answer's `response` carries the created network's id.
    let id = accepted
        .response
        .as_ref()
        .and_then(|response| response.get("id"))
        .and_then(|id| id.as_str())
        .unwrap_or("?");

    let status = activity
        .status
        .as_ref()
        .map_or("unknown", |status| status.as_str());
    println!(
        "create_network_and_wait: created Wi-Fi network {name} (id {id}): activity {} {status} ({} to {})",
        activity.request_id.as_deref().unwrap_or("?"),
        activity.start_datetime.as_deref().unwrap_or("?"),
        activity.end_datetime.as_deref().unwrap_or("?"),
    );

    target.finish().await;
    Ok(())
}

/// `POST /wifiNetworks` answers 202 with a request id; the activity is in progress at the first
/// poll and has succeeded at the second.
async fn fake_create_and_activity(server: &MockServer) {
    Mock::given(method("POST"))
        .and(path("/wifiNetworks"))
        .and(header("content-type", "application/vnd.ruckus.v1+json"))
        .and(body_partial_json(json!({
            "type": "psk",
            "wlan": {"wlanSecurity": "WPA2Personal", "vlanId": 1}
        })))
        .respond_with(
            ResponseTemplate::new(202).set_body_raw(
                json!({
                    "requestId": REQUEST_ID,
                    "response": {"id": "b2f6c1d0e9a84c7fa3e2d1c0b9a87654"}
                })
                .to_string(),
                "application/vnd.ruckus.v1+json",
            ),
        )
        .expect(1)
        .named("create Wi-Fi network")
        .mount(server)
        .await;

    // The activity resource answers plain `application/json`.
    let activity = |status: &str, end: Option<&str>| {
        ResponseTemplate::new(200).set_body_json(json!({
            "requestId": REQUEST_ID,
            "status": status,
            "useCase": "AddWifiNetwork",
            "startDatetime": "2025-06-02T09:14:03Z",
            "endDatetime": end
        }))
    };
    Mock::given(method("GET"))
        .and(path(format!("/activities/{REQUEST_ID}")))
        .and(header("authorization", "Bearer example-access-token"))
        .respond_with(support::sequence(vec![
            activity("INPROGRESS", None),
            activity("SUCCESS", Some("2025-06-02T09:14:05Z")),
        ]))
        .expect(2)
        .named("activity polls")
        .mount(server)
        .await;
}
