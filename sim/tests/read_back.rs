//! Reads return what was written: an object created is read back by id as it was stored, in
//! the variant its tag names (over HTTP with reqwest).

use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::{Value, json};
use std::time::Duration;

const FORM: &str =
    "grant_type=client_credentials&client_id=sim-client-id&client_secret=sim-client-secret";

async fn send(req: reqwest::RequestBuilder) -> (u16, Value) {
    let answer = req.send().await.expect("answer");
    let status = answer.status().as_u16();
    let bytes = answer.bytes().await.expect("body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn a_psk_network_is_read_back_as_a_psk_network() {
    let config = SimConfig::default().activity_duration(Duration::ZERO);
    let sim = Simulator::start_with(config).await.expect("simulator");
    let (http, base) = (reqwest::Client::new(), sim.base_url());
    let (_, token) = send(
        http.post(format!("{base}/oauth2/token"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(FORM),
    )
    .await;
    let token = token["access_token"].as_str().expect("token").to_owned();
    let written = json!({
        "type": "psk",
        "name": "Home",
        "description": "family",
        "wlan": {"ssid": "home", "wlanSecurity": "WPA2Personal", "passphrase": "tide-lantern-5831"}
    });
    let (status, created) = send(
        http.post(format!("{base}/wifiNetworks"))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(written.to_string()),
    )
    .await;
    assert!((200..300).contains(&status), "{status} {created}");
    // The Wi-Fi service's described answer: the created network as `response`, and no
    // top-level `id` (the description has none).
    assert_eq!(created.get("id"), None, "{created}");
    assert_eq!(created["response"]["name"], "Home", "{created}");
    let id = created["response"]["id"]
        .as_str()
        .expect("the created id")
        .to_owned();
    let (status, read) = send(
        http.get(format!("{base}/wifiNetworks/{id}"))
            .bearer_auth(&token),
    )
    .await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["type"], "psk", "{read}");
    assert_eq!(read["name"], "Home", "{read}");
    assert_eq!(read["wlan"]["wlanSecurity"], "WPA2Personal", "{read}");
    assert_eq!(read["wlan"]["passphrase"], "tide-lantern-5831", "{read}");
    // Every field written comes back as written (a field the other variants refuse may be
    // added, so that the answer matches exactly one variant of the plain `oneOf` too).
    for (name, value) in written.as_object().expect("object") {
        assert_eq!(&read[name], value, "{name}: {read}");
    }
}
