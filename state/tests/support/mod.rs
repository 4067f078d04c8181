//! Simulators on loopback and runtime clients for the engine's tests, and the fixture's
//! resource layer.

#![allow(dead_code)] // each test file uses a part

use ruckus_one_catalog::{Catalog, Resources};
use ruckus_one_runtime::internal::described;
use ruckus_one_runtime::{Client, Config, Credentials};
use ruckus_one_sim::{Seed, SimConfig, Simulator};
use std::collections::BTreeMap;
use std::path::Path;

/// The passphrase the seeded Wi-Fi network has: never to be found in an exported file.
pub const PASSPHRASE: &str = "s3cret-Passphrase-4711";

/// The variable its placeholder names.
pub const PASSPHRASE_VAR: &str = "RUCKUS_SECRET_WIFI_NETWORK_GUEST_WLAN_PASSPHRASE";

/// The fixture's resource layer.
pub fn resources() -> Resources {
    serde_json::from_str(include_str!("../fixtures/resources.json")).expect("the fixture parses")
}

/// A tenant with a venue (an AP group, a switch profile applied to it), a PSK network.
pub fn seed() -> Seed {
    Seed::parse(&format!(
        r#"
objects:
  sim-tenant:
    /venues:
      - {{id: v-1, name: Lobby, description: Main building, address: {{city: Sunnyvale, country: United States}}}}
      - {{id: v-2, name: Annex, address: {{city: Paris, country: France}}}}
    /venues/v-1/apGroups:
      - {{id: g-1, name: Group A, description: first floor}}
    /wifiNetworks:
      - {{id: w-1, name: Guest, type: psk, wlan: {{ssid: guest, passphrase: {PASSPHRASE}, vlanId: 10}}}}
    /switchProfiles:
      - {{id: sp-1, name: Core, description: core switches}}
    /venues/v-1/switchProfiles:
      - {{id: sp-1}}
"#
    ))
    .expect("the seed parses")
}

/// A simulator whose activities end after 100 ms.
pub async fn sim(config: SimConfig) -> Simulator {
    Simulator::start_with(config.activity_duration(std::time::Duration::from_millis(100)))
        .await
        .expect("the simulator starts")
}

/// A runtime client of `sim`.
pub fn client(sim: &Simulator) -> Client {
    let catalog = Catalog::get().expect("the catalog");
    let (_, table) = catalog.api("network").expect("the network API");
    let (id, secret) = sim.credentials();
    let config = Config::new(Credentials::new(id, secret)).base_url(sim.base_url());
    Client::new(config, described::auth_settings(table)).expect("a client")
}

/// Secrets as the environment would hold them.
pub fn env() -> ruckus_one_state::Env {
    ruckus_one_state::Env::from_map(BTreeMap::from([(
        PASSPHRASE_VAR.to_owned(),
        PASSPHRASE.to_owned(),
    )]))
}

/// Every file under `dir`, by path relative to it, with its bytes.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("under root");
                out.insert(
                    rel.to_string_lossy().into_owned(),
                    std::fs::read(&path).expect("a readable file"),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
