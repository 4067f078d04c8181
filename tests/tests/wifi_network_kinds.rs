//! Each kind of Wi-Fi network the service answers decodes to its own variant of `WifiNetwork`,
//! chosen by the service's tag (`psk`, `open`, `aaa`, `dpsk`, `guest`, `hotspot20`: the values the
//! vendor's own UI answers and Postman bodies carry), and goes back byte for byte: the union
//! writes the tag, the variant holds no copy of it, and unknown fields are kept.

use ruckus_one::network::WifiNetwork;

/// Compact JSON in the order the client writes it: the tag, the model's fields, then the
/// fields the spec does not name (sorted).
const KINDS: [(&str, &str); 6] = [
    (
        "aaa",
        r#"{"type":"aaa","name":"Staff","wlan":{"enabled":true,"ssid":"staff-8021x"},"venues":[]}"#,
    ),
    (
        "dpsk",
        r#"{"type":"dpsk","name":"Residents","wlan":{"ssid":"residents","vlanId":20}}"#,
    ),
    (
        "guest",
        r#"{"type":"guest","name":"Lobby","guestPortal":{"guestNetworkType":"GuestPass"},"wlan":{"ssid":"lobby"}}"#,
    ),
    (
        "hotspot20",
        r#"{"type":"hotspot20","name":"Passpoint","hotspot20Settings":{},"wlan":{"ssid":"passpoint"}}"#,
    ),
    (
        "open",
        r#"{"type":"open","name":"Cafe","wlan":{"enabled":false,"ssid":"cafe"}}"#,
    ),
    (
        "psk",
        r#"{"type":"psk","name":"Home","description":"family","wlan":{"passphrase":"tide-lantern-5831","ssid":"home"}}"#,
    ),
];

fn kind(n: &WifiNetwork) -> &'static str {
    match n {
        WifiNetwork::Aaa(_) => "aaa",
        WifiNetwork::Dpsk(_) => "dpsk",
        WifiNetwork::Guest(_) => "guest",
        WifiNetwork::Hotspot20(_) => "hotspot20",
        WifiNetwork::Open(_) => "open",
        WifiNetwork::Psk(_) => "psk",
        _ => "unknown",
    }
}

#[test]
fn every_kind_decodes_to_its_variant_and_goes_back_byte_for_byte() {
    for (tag, text) in KINDS {
        let network: WifiNetwork =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("{tag}: {e}"));
        assert_eq!(kind(&network), tag, "{text}");
        let back = serde_json::to_string(&network).expect("serialise");
        assert_eq!(back, text, "{tag} did not go back byte for byte");
    }
}

#[test]
fn a_kind_this_client_does_not_know_is_kept_and_its_secrets_are_not_shown() {
    let text =
        r#"{"name":"New","type":"sae","wlan":{"passphrase":"tide-lantern-5831","ssid":"new"}}"#;
    let network: WifiNetwork = serde_json::from_str(text).expect("decode");
    assert!(matches!(network, WifiNetwork::Unknown(_)), "{network:?}");
    assert_eq!(serde_json::to_string(&network).expect("serialise"), text);
    let debug = format!("{network:?}");
    assert!(!debug.contains("tide-lantern-5831"), "{debug}");
    assert!(debug.contains("new"), "{debug}");
}

#[test]
fn the_variant_names_its_kind_on_the_wire_whatever_was_set() {
    use ruckus_one::network::{OpenWifiNetwork, OpenWifiWlan};
    let network =
        WifiNetwork::from(OpenWifiNetwork::new(OpenWifiWlan::new("cafe".into())).with_name("Cafe"));
    let value = serde_json::to_value(&network).expect("serialise");
    assert_eq!(value["type"], "open");
}

#[test]
fn a_network_answered_without_a_name_keeps_its_null() {
    // The vendor's UI answers (get_wifi_network/06.json) include a network whose name is null.
    let text = r#"{"type":"guest","id":"n1","name":null,"guestPortal":{"guestNetworkType":"GuestPass"},"wlan":{"ssid":"s"}}"#;
    let network: WifiNetwork = serde_json::from_str(text).expect("decode");
    let WifiNetwork::Guest(guest) = &network else {
        panic!("not the guest variant: {network:?}")
    };
    assert_eq!(guest.name, None);
    assert_eq!(serde_json::to_string(&network).expect("serialise"), text);
}
