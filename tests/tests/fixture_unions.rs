//! Union types generated from the `unions` fixture spec, on realistic payloads: a known tag
//! decodes to its variant (extra fields kept by the open variant type), an unknown tag or none is
//! kept raw in `Unknown` and sent back byte for byte, a malformed value of a known tag is an
//! error naming the union and the tag, and a union without a discriminator takes the first
//! variant that decodes. Also through the client, against a local server.

mod common;

use common::{call, expect_once, ok};
use ruckus_one_runtime::MissingField;
use ruckus_one_tests::fixtures::unions::Client;
use ruckus_one_tests::fixtures::unions::demo::common::Radius;
use ruckus_one_tests::fixtures::unions::demo::networks::{
    AaaWifiNetwork, NetworkIds, NetworkSelector, PskWifiNetwork, WifiNetwork,
};
use ruckus_one_tests::fixtures::unions::demo::widgets::FolderItem;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

/// A list as a newer service version might send it: two kinds this client knows (one with a
/// field the spec does not name), one kind it does not (`DPSK`), and one without a `type`.
fn networks_json() -> Value {
    json!([
        {"type": "PSK", "name": "Home", "passphrase": "correct horse battery", "vlanId": 12,
         "hidden": true, "wpa": {"version": 3}},
        {"type": "AAA", "name": "Corp", "ssid": "corp", "authRadius": {"id": "r-1", "port": 1812},
         "accountingRadius": {"id": "r-2"}},
        {"type": "DPSK", "name": "Guests", "dpskPoolId": "p-9", "vlanId": 40},
        {"name": "Legacy"}
    ])
}

#[test]
fn a_known_tag_decodes_to_its_variant_and_keeps_unnamed_fields() {
    let networks: Vec<WifiNetwork> = serde_json::from_value(networks_json()).unwrap();
    let WifiNetwork::Psk(psk) = &networks[0] else {
        panic!("PSK decodes as Psk: {:?}", networks[0]);
    };
    assert_eq!(
        serde_json::to_value(&networks[0]).unwrap()["type"],
        "PSK",
        "the union writes the tag of its variant"
    );
    assert_eq!(psk.name, "Home");
    assert_eq!(psk.passphrase.expose(), "correct horse battery");
    assert_eq!(psk.vlan_id, Some(12));
    assert_eq!(psk.additional_fields["hidden"], json!(true));
    assert_eq!(psk.additional_fields["wpa"], json!({"version": 3}));
    assert!(
        !format!("{:?}", networks[0]).contains("correct horse"),
        "the secret stays redacted inside the union"
    );
    let WifiNetwork::Aaa(aaa) = &networks[1] else {
        panic!("AAA decodes as Aaa: {:?}", networks[1]);
    };
    assert_eq!(
        aaa.ssid, "corp",
        "the variant type holds no copy of the tag"
    );
    assert_eq!(aaa.auth_radius.port, Some(1812));
}

#[test]
fn an_unknown_tag_or_none_is_kept_raw_and_sent_back_unchanged() {
    let wire = networks_json();
    let networks: Vec<WifiNetwork> = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(
        networks[2],
        WifiNetwork::Unknown(wire[2].clone().into()),
        "a new kind of network is kept as received"
    );
    assert_eq!(
        networks[3],
        WifiNetwork::Unknown(wire[3].clone().into()),
        "no tag"
    );
    assert_eq!(serde_json::to_value(&networks).unwrap(), wire);
    // The text of an unknown one too, byte for byte, in the order it came.
    let text = r#"{"type":"DPSK","name":"Guests","vlanId":40,"dpskPoolId":"p-9","n":1e400}"#;
    let decoded: WifiNetwork = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&decoded).unwrap(), text);
}

#[test]
fn a_malformed_value_of_a_known_tag_is_an_error_naming_union_and_tag() {
    let err = serde_json::from_value::<WifiNetwork>(json!({"type": "PSK", "name": "Home"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("`WifiNetwork` tagged `PSK`"), "{err}");
    assert!(err.contains("field `passphrase`: missing"), "{err}");
    let err = serde_json::from_value::<WifiNetwork>(json!({"type": "PSK", "name": "Home",
        "passphrase": "p", "vlanId": "twelve"}))
    .unwrap_err()
    .to_string();
    assert!(err.contains("`WifiNetwork` tagged `PSK`"), "{err}");
}

#[test]
fn a_union_without_discriminator_takes_the_first_variant_that_decodes() {
    let by_id: NetworkSelector = serde_json::from_value(json!({"ids": ["n-1"]})).unwrap();
    assert_eq!(
        by_id,
        NetworkSelector::ById(NetworkIds::new(vec!["n-1".to_owned()]))
    );
    let by_name: NetworkSelector = serde_json::from_value(json!({"names": ["Home"]})).unwrap();
    assert!(matches!(by_name, NetworkSelector::NetworkNames(_)));
    let other = json!({"tags": ["x"]});
    let unknown: NetworkSelector = serde_json::from_value(other.clone()).unwrap();
    assert_eq!(unknown, NetworkSelector::Unknown(other.clone().into()));
    assert_eq!(serde_json::to_value(&unknown).unwrap(), other);
}

#[test]
fn a_recursive_union_decodes_nested_items() {
    let wire = json!({"kind": "folder", "name": "root", "items": [
        {"kind": "widget", "widget": {"id": "w-1", "size": 3}},
        {"kind": "folder", "name": "empty", "items": []},
        {"kind": "shortcut", "target": "w-1"}
    ]});
    let item: FolderItem = serde_json::from_value(wire.clone()).unwrap();
    let FolderItem::Folder(root) = &item else {
        panic!("a folder: {item:?}");
    };
    let items = root.items.as_deref().unwrap_or_default();
    assert!(matches!(&items[0], FolderItem::Widget(w) if w.widget.size == 3));
    assert!(matches!(&items[1], FolderItem::Folder(f) if f.name == "empty"));
    assert!(matches!(&items[2], FolderItem::Unknown(_)));
    assert_eq!(serde_json::to_value(&item).unwrap(), wire);
}

#[test]
fn variants_are_built_from_their_types() {
    let psk = PskWifiNetwork::new("Home".to_owned(), "correct horse battery".into());
    let network = WifiNetwork::from(psk);
    assert_eq!(
        serde_json::to_value(&network).unwrap(),
        json!({"type": "PSK", "name": "Home", "passphrase": "correct horse battery"})
    );
    // Four required fields: a builder, which names a missing one by its wire name.
    let aaa = AaaWifiNetwork::builder()
        .name("Corp")
        .ssid("corp")
        .auth_radius(Radius::new("r-1".to_owned()))
        .build();
    assert_eq!(
        aaa.unwrap_err(),
        MissingField::new("AaaWifiNetwork", "accountingRadius")
    );
}

#[tokio::test]
async fn a_listed_network_of_an_unknown_kind_is_sent_back_as_it_came() {
    let server = common::server().await;
    let client = Client::new(common::config(&server)).expect("valid configuration");
    expect_once(
        &server,
        call("GET", "/demo/networks", None),
        ok(networks_json()),
    )
    .await;
    let networks = client
        .demo()
        .networks()
        .list_networks()
        .send()
        .await
        .unwrap();
    assert_eq!(networks.len(), 4);
    let dpsk = &networks[2];
    assert!(matches!(dpsk, WifiNetwork::Unknown(_)));
    // Creating it again sends exactly what was received, and decodes the 201 answer.
    let answer = json!({"type": "DPSK", "name": "Guests", "dpskPoolId": "p-9", "vlanId": 40,
                        "id": "n-3"});
    expect_once(
        &server,
        call("POST", "/demo/networks", Some(networks_json()[2].clone())),
        ResponseTemplate::new(201).set_body_json(answer.clone()),
    )
    .await;
    let created = client
        .demo()
        .networks()
        .create_network(dpsk)
        .send()
        .await
        .unwrap();
    assert_eq!(created, WifiNetwork::Unknown(answer.into()));
}
