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
//!
//! With `--dry-run` it runs against the simulator, which checks the body against the spec.

mod support;

use std::time::{SystemTime, UNIX_EPOCH};

use ruckus_one::WaitOptions;
use ruckus_one::network::{PskWifiNetwork, PskWifiWlan, PskWifiWlanWlanSecurity, WifiNetwork};
use support::Target;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose_simulated().await;
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
    let done = client
        .network()
        .wireless_networks()
        .create_wifi_network(&network)
        .send_and_wait(&wait)
        .await?;
    // The id of the created network, wherever the service's 202 answer puts it.
    let id = done.created_id().unwrap_or("?").to_owned();
    let (_, activity) = done.into_parts();

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

    // Locally, the simulator checked the body against the spec (a `type` other than the
    // service's own tags is refused with 400) and kept the network.
    if let Some(sim) = target.simulator() {
        let kept = sim.objects(&sim.tenant_id(), "/wifiNetworks");
        assert_eq!(kept.len(), 1, "the simulator kept the network");
        assert_eq!(kept[0]["type"], "psk");
        assert_eq!(kept[0]["name"], name.as_str());
        assert_eq!(status, "SUCCESS");
    }
    Ok(())
}
