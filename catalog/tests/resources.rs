//! The compiled-in resource layer: its size, the kinds the issue names, its order, and that
//! every operation it names is in the tables.

use ruckus_one_catalog::{Catalog, ResourceKind, ResourceShape};
use std::collections::BTreeSet;

fn kind(name: &str) -> &'static ResourceKind {
    let r = Catalog::resources().expect("the resource layer parses");
    r.kind(name)
        .unwrap_or_else(|| panic!("the layer has no kind `{name}`"))
}

#[test]
fn the_layer_has_at_least_40_kinds_including_the_named_ones() {
    let r = Catalog::resources().expect("the resource layer parses");
    assert!(r.kinds.len() >= 40, "{} kinds", r.kinds.len());
    let wanted = [
        ("venue", ResourceShape::Collection),
        ("ap_group", ResourceShape::Collection),
        ("ap", ResourceShape::Collection),
        ("ap_radio_settings", ResourceShape::Settings),
        ("wifi_network", ResourceShape::Collection),
        ("vlan_pool", ResourceShape::Collection),
        ("l2_acl_policy", ResourceShape::Collection),
        ("l3_acl_policy", ResourceShape::Collection),
        ("device_policy", ResourceShape::Collection),
        ("application_policy", ResourceShape::Collection),
        ("radius_server_profile", ResourceShape::Collection),
        ("syslog_server_profile", ResourceShape::Collection),
        ("dhcp_config_service_profile", ResourceShape::Collection),
        ("wifi_calling_service_profile", ResourceShape::Collection),
        ("identity_group", ResourceShape::Collection),
        ("dpsk_service", ResourceShape::Collection),
        ("mac_registration_pool", ResourceShape::Collection),
        ("switch_profile", ResourceShape::Collection),
        ("switch_vlan", ResourceShape::Collection),
        ("switch_profile_vlan", ResourceShape::Collection),
    ];
    for (name, shape) in wanted {
        assert_eq!(kind(name).shape, shape, "{name}");
    }
    // A Wi-Fi network activated on a venue.
    let activation = r
        .children(Some("venue"))
        .find(|k| {
            k.shape == ResourceShape::Activation
                && k.references.iter().any(|x| x.kind == "wifi_network")
        })
        .expect("an activation of a Wi-Fi network on a venue");
    assert_eq!(
        activation.operations.create.as_deref(),
        Some("activate_wifi_network_on_venue")
    );
    assert_eq!(kind("ap").identity, ["/serialNumber"]);
    assert_eq!(kind("venue").identity, ["/name"]);
    assert_eq!(kind("ap_group").parent.as_deref(), Some("venue"));
}

#[test]
fn each_kind_comes_after_its_parent_and_what_it_references() {
    let r = Catalog::resources().expect("the resource layer parses");
    let mut seen = BTreeSet::new();
    for k in &r.kinds {
        if let Some(p) = &k.parent {
            assert!(
                seen.contains(p.as_str()),
                "{} before its parent {p}",
                k.name
            );
        }
        for x in k
            .references
            .iter()
            .filter(|x| !x.deferred && x.kind != k.name)
        {
            assert!(
                seen.contains(x.kind.as_str()),
                "{} before {}",
                k.name,
                x.kind
            );
        }
        assert!(seen.insert(k.name.as_str()), "{} twice", k.name);
    }
}

#[test]
fn every_operation_of_the_layer_is_in_its_table() {
    let catalog = Catalog::get().expect("the tables parse");
    let r = Catalog::resources().expect("the resource layer parses");
    for k in &r.kinds {
        let (_, table) = catalog.api(&k.api).expect("the kind's API");
        let o = &k.operations;
        for id in [&o.create, &o.read, &o.update, &o.delete, &o.list]
            .into_iter()
            .flatten()
        {
            assert!(table.route(id).is_some(), "{}: `{id}`", k.name);
        }
        assert!(
            ["documented", "inferred: ", "reference: "]
                .iter()
                .any(|p| k.provenance.starts_with(p)),
            "{}: {}",
            k.name,
            k.provenance
        );
    }
}
