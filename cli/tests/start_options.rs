//! The built binary's global options that choose where and how a call goes: `--tenants a,b`
//! (one call per named customer), `--local --seed FILE` (the simulator in process, with the
//! file's objects) and `--version-media` (the media version of the request).

mod support;

use ruckus_one_sim::SimConfig;
use ruckus_one_sim::config::DEFAULT_TENANT_ID;
use serde_json::json;
use support::{ruckus, sim_with};

/// The `name` of each row of a JSON list.
fn names(rows: &serde_json::Value) -> Vec<String> {
    let mut out: Vec<String> = rows
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v["name"].as_str().expect("a name").to_owned())
        .collect();
    out.sort();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tenants_calls_once_for_each_named_customer_and_no_other() {
    let mut config = SimConfig::default();
    for c in ["c1", "c2", "c3"] {
        config = config.customer(DEFAULT_TENANT_ID, c);
    }
    let sim = sim_with(config).await;
    for c in ["c1", "c2", "c3"] {
        let venue = json!({"id": format!("{c}-v"), "name": format!("{c} venue")});
        sim.insert(c, "/venues", venue).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "venues",
        "list",
        "--tenants",
        "c1,c2",
        "-o",
        "csv",
        "--columns",
        "name",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.first(), Some(&"tenant,name,error"), "{}", run.stdout);
    lines.remove(0);
    lines.sort_unstable();
    assert_eq!(lines, ["c1,c1 venue,", "c2,c2 venue,"], "{}", run.stdout);
    let mut asked: Vec<String> = sim
        .requests()
        .into_iter()
        .filter(|r| r.operation.as_deref() == Some("query_venues"))
        .filter_map(|r| r.tenant)
        .collect();
    asked.sort();
    assert_eq!(asked, ["c1", "c2"]);
}

#[test]
fn local_answers_with_the_seed_files_objects() {
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed.yaml");
    let text = format!(
        "customers:\n  {DEFAULT_TENANT_ID}: [c7]\nobjects:\n  {DEFAULT_TENANT_ID}:\n    /venues:\n      - {{id: s-1, name: Seeded North}}\n      - {{id: s-2, name: Seeded South}}\n  c7:\n    /venues:\n      - {{id: c7-1, name: Customer Hall}}\n"
    );
    std::fs::write(&seed, text).unwrap();
    let seed = seed.to_str().unwrap();

    let own = ruckus(
        None,
        dir.path(),
        &["--local", "--seed", seed, "venues", "list", "-o", "json"],
        "",
    );
    assert_eq!(own.code, 0, "{}", own.stderr);
    assert_eq!(names(&own.json()), ["Seeded North", "Seeded South"]);

    // The seed's customer, through the in-process simulator's MSP delegation.
    let args = [
        "--local", "--seed", seed, "--tenant", "c7", "venues", "list", "-o", "json",
    ];
    let customer = ruckus(None, dir.path(), &args, "");
    assert_eq!(customer.code, 0, "{}", customer.stderr);
    assert_eq!(names(&customer.json()), ["Customer Hall"]);

    // Without --seed: the demonstration venues, not the file's.
    let demo = ruckus(
        None,
        dir.path(),
        &["--local", "venues", "list", "-o", "json"],
        "",
    );
    assert_eq!(demo.code, 0, "{}", demo.stderr);
    assert_eq!(names(&demo.json()), ["Lobby", "Warehouse"]);

    let missing = ruckus(
        None,
        dir.path(),
        &[
            "--local",
            "--seed",
            "/nonexistent/seed.yaml",
            "venues",
            "list",
        ],
        "",
    );
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert!(missing.stderr.contains("--seed"), "{}", missing.stderr);
}

/// The `Accept` and `Content-Type` a dry run of `venues create` shows with `extra` flags.
fn media_of(extra: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--dry-run",
        "venues",
        "create",
        "--name",
        "Annex",
        "-o",
        "json",
    ];
    args.extend_from_slice(extra);
    let run = ruckus(None, dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shown = run.json();
    let header = |name: &str| {
        shown["headers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["name"] == name)
            .map(|h| h["value"].as_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    (header("accept"), header("content-type"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_media_picks_the_media_types_sent() {
    let vendor = "application/vnd.ruckus.v1+json".to_owned();
    let plain = "application/json".to_owned();
    // The first version offered is the default.
    assert_eq!(media_of(&[]), (vendor.clone(), vendor.clone()));
    assert_eq!(
        media_of(&["--version-media", "v1"]),
        (vendor.clone(), vendor)
    );
    assert_eq!(
        media_of(&["--version-media", "json"]),
        (plain.clone(), plain.clone())
    );
    // A version may be named by its media type too.
    assert_eq!(
        media_of(&["--version-media", "application/json"]),
        (plain.clone(), plain)
    );

    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--dry-run",
        "venues",
        "create",
        "--name",
        "Annex",
        "--version-media",
        "v9",
    ];
    let refused = ruckus(None, dir.path(), &args, "");
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("offered are v1, json"),
        "{}",
        refused.stderr
    );

    // The simulator takes the chosen version's media types and creates the venue.
    let sim = sim_with(SimConfig::default()).await;
    let args = [
        "venues",
        "create",
        "--name",
        "Plain",
        "--set",
        "address.city=Paris",
        "--set",
        "address.country=France",
        "--version-media",
        "json",
        "-o",
        "json",
    ];
    let created = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(created.code, 0, "{}", created.stderr);
    let venues = sim.objects(&sim.tenant_id(), "/venues");
    assert_eq!(names(&json!(venues)), ["Plain"]);
}
