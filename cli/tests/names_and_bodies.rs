//! The built binary against the simulator: names and MACs where ids are asked, write bodies
//! from flags (required fields checked before anything is sent), one-field updates, the
//! created object printed, `--quiet`.

mod support;

use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::json;
use support::{ruckus, sim_with};

/// Four venues (two named `Annex`) and an AP of `Warehouse Lyon`.
async fn seeded() -> Simulator {
    let sim = sim_with(SimConfig::default()).await;
    let t = sim.tenant_id();
    for (id, name, city) in [
        ("v-1", "Lobby", "Lyon"),
        ("v-2", "Warehouse Lyon", "Lyon"),
        ("v-3", "Annex", "Lyon"),
        ("v-4", "Annex", "Paris"),
    ] {
        let venue = json!({"id": id, "name": name, "address": {"city": city, "country": "France"}});
        sim.insert(&t, "/venues", venue).unwrap();
    }
    let ap = json!({"serialNumber": "311900000001", "name": "Hall AP", "venueId": "v-2",
        "apMac": "AA:BB:CC:DD:EE:01", "macAddress": "AA:BB:CC:DD:EE:01"});
    sim.insert(&t, "/venues/v-2/aps", ap).unwrap();
    sim
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_venue_is_found_by_name_and_an_ambiguous_name_lists_the_candidates() {
    let sim = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let args = |v: &'static str| ["venues", "get", "--venue-id", v, "-o", "json"];
    let run = ruckus(Some(&sim), dir.path(), &args("Warehouse Lyon"), "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["id"], "v-2");
    // Another case: the same venue.
    let run = ruckus(Some(&sim), dir.path(), &args("warehouse lyon"), "");
    assert_eq!(run.json()["id"], "v-2", "{}", run.stderr);
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "get", "Lobby", "-o", "json"],
        "",
    );
    assert_eq!(run.json()["id"], "v-1", "{}", run.stderr);
    // An id is used as is.
    let run = ruckus(Some(&sim), dir.path(), &args("v-1"), "");
    assert_eq!(run.json()["name"], "Lobby", "{}", run.stderr);

    let run = ruckus(Some(&sim), dir.path(), &args("Annex"), "");
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("v-3") && run.stderr.contains("v-4"),
        "{}",
        run.stderr
    );
    let run = ruckus(Some(&sim), dir.path(), &args("Nowhere"), "");
    assert_eq!(run.code, 4, "{}", run.stdout);
    assert!(run.stderr.contains("Nowhere"), "{}", run.stderr);
    // A body field holding a venue's id takes its name too.
    let list = |v: &'static str| ["aps", "list", "--venue-id", v];
    let run = ruckus(Some(&sim), dir.path(), &list("Warehouse Lyon"), "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = ruckus(Some(&sim), dir.path(), &list("Nowhere"), "");
    assert_eq!(run.code, 4, "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ap_is_found_by_its_mac_in_four_spellings_without_its_venue() {
    let sim = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    for mac in [
        "aa:bb:cc:dd:ee:01",
        "AA-BB-CC-DD-EE-01",
        "aabbccddee01",
        "aabb.ccdd.ee01",
    ] {
        let run = ruckus(
            Some(&sim),
            dir.path(),
            &["aps", "get", "--serial-number", mac, "-o", "json"],
            "",
        );
        assert_eq!(run.code, 0, "{mac}: {}", run.stderr);
        assert_eq!(run.json()["serialNumber"], "311900000001", "{mac}");
    }
    let gets: Vec<String> = sim
        .requests()
        .into_iter()
        .filter(|r| r.operation.as_deref() == Some("get_venue_ap"))
        .map(|r| r.path)
        .collect();
    assert!(
        gets.iter()
            .all(|p| p.ends_with("/venues/v-2/aps/311900000001")),
        "{gets:?}"
    );
    // The object as the command's one argument.
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["aps", "get", "AABB.CCDD.EE01", "-o", "json"],
        "",
    );
    assert_eq!(run.json()["serialNumber"], "311900000001", "{}", run.stderr);
    // A name in a venue given by its name.
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "aps",
            "get",
            "--venue-id",
            "Warehouse Lyon",
            "--serial-number",
            "Hall AP",
            "-o",
            "json",
        ],
        "",
    );
    assert_eq!(run.json()["serialNumber"], "311900000001", "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_schema_and_skeleton_show_the_required_body_fields() {
    let dir = tempfile::tempdir().unwrap();
    let help = ruckus(None, dir.path(), &["venues", "create", "--help"], "");
    assert_eq!(help.code, 0, "{}", help.stderr);
    // The flag's help, beside it or on the next line.
    let at = help
        .stdout
        .find("--address.city")
        .expect("the flag is listed");
    let city: String = help.stdout[at..].lines().take(2).collect();
    assert!(city.contains("(required)"), "{}", help.stdout);

    let wifi = ruckus(
        None,
        dir.path(),
        &["networks", "wifi-network", "create", "--help"],
        "",
    );
    assert!(
        wifi.stdout.contains("--type") && wifi.stdout.contains("psk"),
        "{}",
        wifi.stdout
    );
    assert!(wifi.stdout.contains("--wlan.passphrase"), "{}", wifi.stdout);

    let schema = ruckus(None, dir.path(), &["schema", "venues", "create"], "");
    let body = &schema.json()["commands"][0]["body_schema"];
    assert_eq!(
        body["properties"]["address"]["required"],
        json!(["city", "country"])
    );

    let yaml = ruckus(None, dir.path(), &["venues", "create", "--skeleton"], "");
    assert_eq!(yaml.code, 0, "{}", yaml.stderr);
    // Required fields first, in the schema's order, in `address` too; then the others by name.
    let doc: serde_yaml::Mapping = serde_yaml::from_str(&yaml.stdout).unwrap();
    let keys = |m: &serde_yaml::Mapping| -> Vec<String> {
        m.keys()
            .filter_map(|k| k.as_str().map(str::to_owned))
            .collect()
    };
    let required = |v: &serde_json::Value| -> Vec<String> {
        serde_json::from_value(v["required"].clone()).unwrap()
    };
    let top = keys(&doc);
    let wanted = required(body);
    assert_eq!(top[..wanted.len()], wanted[..], "{}", yaml.stdout);
    let rest = &top[wanted.len()..];
    assert!(rest.windows(2).all(|w| w[0] < w[1]), "{}", yaml.stdout);
    let address = doc["address"].as_mapping().unwrap();
    assert_eq!(keys(address)[..2], ["city", "country"], "{}", yaml.stdout);
    let json = ruckus(
        None,
        dir.path(),
        &[
            "networks",
            "wifi-network",
            "create",
            "--type",
            "psk",
            "--skeleton",
            "-o",
            "json",
        ],
        "",
    );
    let v = json.json();
    assert_eq!(v["type"], "psk");
    assert!(v["wlan"].get("passphrase").is_some(), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_required_field_is_a_usage_error_before_anything_is_sent() {
    let sim = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "create", "--name", "X"],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("--address.city"), "{}", run.stderr);
    assert!(sim.requests().is_empty(), "{:?}", sim.requests().len());
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "networks",
            "wifi-network",
            "create",
            "--name",
            "G",
            "--wlan.ssid",
            "G",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("--type"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_psk_network_is_created_from_flags_and_printed_with_its_id() {
    let sim = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "networks",
        "wifi-network",
        "create",
        "--type",
        "psk",
        "--name",
        "Guests",
        "--wlan.ssid",
        "Guests",
        "--wlan.passphrase",
        "correct-horse",
        "--wlan.wlan-security",
        "WPA2Personal",
        "-o",
        "json",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let printed = run.json();
    let stored = sim.objects(&sim.tenant_id(), "/wifiNetworks");
    let made = stored
        .iter()
        .find(|n| n["name"] == "Guests")
        .expect("created");
    assert_eq!(made["wlan"]["ssid"], "Guests");
    assert_eq!(made["type"], "psk");
    assert_eq!(printed["id"], made["id"], "{printed}");
    assert_eq!(printed["name"], "Guests");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_venue_is_renamed_by_one_flag_and_replace_sends_the_body_as_given() {
    let sim = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "venues",
        "update",
        "--venue-id",
        "Warehouse Lyon",
        "--name",
        "Depot",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let venues = sim.objects(&sim.tenant_id(), "/venues");
    let v2 = venues.iter().find(|v| v["id"] == "v-2").unwrap();
    assert_eq!(v2["name"], "Depot");
    // What is printed is the venue as it now is, not the activity.
    assert!(run.stdout.contains("Depot"), "{}", run.stdout);
    assert!(!run.stdout.contains("SUCCESS"), "{}", run.stdout);
    assert_eq!(v2["address"]["city"], "Lyon", "{v2}");

    let put = sim
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT")
        .count();
    let mut replace = args.to_vec();
    replace[3] = "v-2";
    replace.push("--replace");
    let run = ruckus(Some(&sim), dir.path(), &replace, "");
    assert_eq!(run.code, 2, "{}", run.stdout);
    let after = sim
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT")
        .count();
    assert_eq!(put, after, "nothing sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_field_naming_a_child_object_is_looked_up_under_its_parent() {
    let sim = seeded().await;
    let t = sim.tenant_id();
    // The same group name in two venues: the AP's own venue's group is the one meant.
    for (venue, id) in [("v-2", "g-lyon"), ("v-1", "g-lobby")] {
        let group = json!({"id": id, "name": "Floor 2"});
        sim.insert(&t, &format!("/venues/{venue}/apGroups"), group)
            .unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let args = ["aps", "update", "311900000001", "--ap-group-id", "floor 2"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let aps = sim.objects(&t, "/venues/v-2/aps");
    assert_eq!(aps[0]["apGroupId"], "g-lyon", "{}", aps[0]);
    // A name the venue does not have is not found (exit 4), and nothing is sent.
    let puts = |sim: &Simulator| sim.requests().iter().filter(|r| r.method == "PUT").count();
    let before = puts(&sim);
    let args = ["aps", "update", "311900000001", "--ap-group-id", "Roof"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(run.stderr.contains("Roof"), "{}", run.stderr);
    assert_eq!(puts(&sim), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_prints_the_new_id_and_quiet_prints_ids_only() {
    let sim = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let create = |name: &'static str| {
        [
            "venues",
            "create",
            "--name",
            name,
            "--address.city",
            "Nice",
            "--address.country",
            "France",
        ]
    };
    let mut args = create("Harbour").to_vec();
    args.extend(["-o", "yaml"]);
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let printed: serde_json::Value = serde_yaml::from_str(&run.stdout).unwrap();
    let venues = sim.objects(&sim.tenant_id(), "/venues");
    let made = venues.iter().find(|v| v["name"] == "Harbour").unwrap();
    assert_eq!(printed["id"], made["id"], "{}", run.stdout);

    let mut args = vec!["--quiet"];
    args.extend(create("Marina"));
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let venues = sim.objects(&sim.tenant_id(), "/venues");
    let made = venues.iter().find(|v| v["name"] == "Marina").unwrap();
    assert_eq!(run.stdout.trim(), made["id"].as_str().unwrap());

    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["--quiet", "venues", "list", "--all"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ids: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(ids.len(), 6, "{}", run.stdout);
    assert_eq!(&ids[..4], ["v-1", "v-2", "v-3", "v-4"]);

    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "--no-wait",
            "-o",
            "json",
            "venues",
            "create",
            "--name",
            "Quay",
            "--address.city",
            "A",
            "--address.country",
            "B",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.json()["requestId"].is_string(), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_goes_to_the_patch_of_the_same_path_where_there_is_one() {
    let sim = sim_with(SimConfig::default()).await;
    let pool =
        json!({"id": "d-1", "name": "Residents", "identityGroupId": "g-1", "passphraseLength": 18});
    sim.insert(&sim.tenant_id(), "/dpskServices", pool).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "dpsk",
        "service",
        "update",
        "Residents",
        "--name",
        "Tenants",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sent: Vec<String> = sim
        .requests()
        .into_iter()
        .filter_map(|r| r.operation)
        .filter(|o| o.contains("dpsk_service"))
        .collect();
    assert!(
        sent.contains(&"patch_dpsk_service".to_owned())
            && !sent.contains(&"update_dpsk_service".to_owned()),
        "{sent:?}"
    );
    let pools = sim.objects(&sim.tenant_id(), "/dpskServices");
    assert_eq!(pools[0]["name"], "Tenants");
    assert_eq!(pools[0]["passphraseLength"], 18, "{}", pools[0]);
}
