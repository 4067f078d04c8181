//! The built binary against the simulator: tables and JSON, asynchronous writes, paging,
//! customers, dry runs, rate limits, usage errors.

mod support;

use ruckus_one_sim::config::DEFAULT_TENANT_ID;
use ruckus_one_sim::{Fault, SimConfig};
use serde_json::json;
use support::{ruckus, sim_with};

fn seed_venues(sim: &ruckus_one_sim::Simulator) {
    for (id, name) in [("v-1", "Lobby"), ("v-2", "Warehouse")] {
        let venue = json!({"id": id, "name": name, "city": "Lyon", "address": {"city": "Lyon", "country": "France"}});
        sim.insert(&sim.tenant_id(), "/venues", venue).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_venues_as_a_table_and_as_json() {
    let sim = sim_with(SimConfig::default()).await;
    seed_venues(&sim);
    let dir = tempfile::tempdir().unwrap();
    let table = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "list", "-o", "table"],
        "",
    );
    assert_eq!(table.code, 0, "{}", table.stderr);
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", table.stdout);
    assert!(
        lines[0].starts_with("NAME") && lines[0].contains("ID"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("Lobby") && lines[1].contains("v-1"),
        "{}",
        lines[1]
    );

    // Not a terminal: JSON by default.
    let listed = ruckus(Some(&sim), dir.path(), &["venues", "list"], "");
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let names: Vec<String> = listed
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Lobby", "Warehouse"]);

    // --jq runs on each row.
    let names = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "list", "--jq", ".name"],
        "",
    );
    assert_eq!(names.stdout, "Lobby\nWarehouse\n", "{}", names.stderr);

    // The operation id is an alias of its command.
    let alias = ruckus(Some(&sim), dir.path(), &["venues", "query_venues"], "");
    assert_eq!(alias.json(), listed.json());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_a_venue_and_waits_for_its_activity() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "venues",
        "create",
        "--name",
        "Annex",
        "--set",
        "address.city=Paris",
        "--set",
        "address.country=France",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The venue made, read back.
    let printed = run.json();
    let venues = sim.objects(&sim.tenant_id(), "/venues");
    let made = venues
        .iter()
        .find(|v| v["name"] == "Annex" && v["address"]["city"] == "Paris")
        .unwrap_or_else(|| panic!("{venues:?}"));
    assert_eq!(printed["id"], made["id"], "{printed}");

    // --no-wait prints the request id (and the id when the answer names it).
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "--no-wait",
            "venues",
            "create",
            "--json",
            r#"{"name":"Bee Annex","address":{"city":"X","country":"Y"}}"#,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.json()["requestId"]
            .as_str()
            .is_some_and(|id| !id.is_empty()),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_activity_exits_non_zero_with_its_error() {
    let sim = sim_with(SimConfig::default()).await;
    sim.inject(
        "create_venue",
        Fault::fail_activity("venue name already taken"),
    );
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "venues",
            "create",
            "--name",
            "Dup",
            "--json",
            r#"{"address":{"city":"X","country":"Y"}}"#,
        ],
        "",
    );
    assert_eq!(run.code, 6, "stdout {} stderr {}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("venue name already taken"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr.trim_end().lines().count(),
        1,
        "one line: {}",
        run.stderr
    );

    // With -o json the error is one JSON line naming its class.
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "-o",
            "json",
            "venues",
            "create",
            "--name",
            "Dup2",
            "--json",
            r#"{"address":{"city":"X","country":"Y"}}"#,
        ],
        "",
    );
    let err: serde_json::Value = serde_json::from_str(run.stderr.trim()).unwrap();
    assert_eq!(err["error"]["class"], "activity_failed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_fetches_every_page() {
    let sim = sim_with(SimConfig::default()).await;
    for n in 0..5 {
        let ap = json!({"serialNumber": format!("30000000000{n}"), "name": format!("ap-{n}"), "venueId": "v-1"});
        sim.insert(&sim.tenant_id(), "/venues/v-1/aps", ap).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["aps", "list", "--all", "--page-size", "2", "-o", "jsonl"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5, "{}", run.stdout);
    let pages = sim
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("query_venue_aps"))
        .count();
    assert_eq!(pages, 3, "two rows a page");

    // Without --all: the first page only.
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["aps", "list", "--page-size", "2"],
        "",
    );
    assert_eq!(run.json().as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_customers_runs_for_each_and_reports_the_failing_one() {
    let customers = ["c1", "c2", "c3", "c4", "c5"];
    let mut config = SimConfig::default();
    for c in customers {
        config = config.customer(DEFAULT_TENANT_ID, c);
    }
    let sim = sim_with(config).await;
    for c in customers {
        sim.insert(
            c,
            "/venues",
            json!({"id": format!("{c}-v"), "name": format!("{c} venue")}),
        )
        .unwrap();
    }
    // One customer's query answers 500 (a POST is not retried): whichever comes first.
    sim.inject("query_venues", Fault::status(500).times(1));
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "venues",
        "list",
        "--all-customers",
        "--concurrency",
        "2",
        "-o",
        "csv",
        "--columns",
        "name,id",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(
        run.code, 1,
        "one customer failed (a server error): {}",
        run.stderr
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "tenant,name,id,error");
    assert_eq!(lines.len(), 6, "{}", run.stdout);
    let failed: Vec<&&str> = lines[1..].iter().filter(|l| !l.ends_with(',')).collect();
    assert_eq!(failed.len(), 1, "{}", run.stdout);
    assert!(
        failed[0].contains("500"),
        "the error column says why: {}",
        failed[0]
    );
    let ok = lines[1..]
        .iter()
        .filter(|l| l.ends_with(" venue,") || l.contains(" venue,"))
        .count();
    assert_eq!(ok, 4, "{}", run.stdout);
    assert!(
        run.stderr.contains("5 customers: 4 ok, 1 failed"),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_sends_nothing_and_shows_no_secret() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--dry-run",
        "--tenant",
        "c9",
        "venues",
        "create",
        "--name",
        "Annex",
        "-o",
        "json",
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(sim.requests().is_empty(), "nothing reached the simulator");
    let (_, secret) = sim.credentials();
    assert!(!run.stdout.contains(&secret) && !run.stderr.contains(&secret));
    let shown = run.json();
    assert_eq!(shown["method"], "POST");
    assert_eq!(shown["url"], format!("{}/venues", sim.base_url()));
    assert_eq!(shown["body"], json!({"name": "Annex"}));
    let headers = shown["headers"].to_string();
    assert!(
        headers.contains("Bearer ***") && headers.contains("x-rks-tenantid"),
        "{headers}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_retried_and_recovered() {
    let sim = sim_with(SimConfig::default()).await;
    seed_venues(&sim);
    sim.inject("query_venues", Fault::status(429).retry_after(1).times(1));
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(Some(&sim), dir.path(), &["venues", "list"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json().as_array().unwrap().len(), 2);
    let tries = sim
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("query_venues"))
        .count();
    assert_eq!(tries, 2, "the 429, then the answer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_errors_exit_2_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(None, dir.path(), &["venues", "list", "--no-such-flag"], "");
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("--no-such-flag"));
    // A body flag contradicting --json.
    let run = ruckus(
        None,
        dir.path(),
        &[
            "--dry-run",
            "venues",
            "create",
            "--name",
            "A",
            "--json",
            r#"{"name":"B"}"#,
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    // No credentials at all: an auth error.
    let run = ruckus(None, dir.path(), &["venues", "list"], "");
    assert_eq!(run.code, 3, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_calls_any_path_and_activity_wait_waits_for_many() {
    let sim = sim_with(SimConfig::default()).await;
    seed_venues(&sim);
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(Some(&sim), dir.path(), &["api", "GET", "/venues/v-2"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["name"], "Warehouse");
    let missing = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "get", "--venue-id", "nope"],
        "",
    );
    assert_eq!(missing.code, 4, "not found: {}", missing.stderr);

    let mut ids = Vec::new();
    for name in ["First annex", "Second annex"] {
        let body = format!(r#"{{"name":"{name}","address":{{"city":"X","country":"Y"}}}}"#);
        let run = ruckus(
            Some(&sim),
            dir.path(),
            &["--no-wait", "venues", "create", "--json", &body],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        ids.push(run.json()["requestId"].as_str().unwrap().to_owned());
    }
    let mut args = vec!["activity", "wait", "-o", "jsonl"];
    args.extend(ids.iter().map(String::as_str));
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    assert!(
        rows.iter().all(|r| r["status"] == "SUCCESS"),
        "{}",
        run.stdout
    );
    let bulk = sim
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("query_activities"))
        .count();
    assert!(bulk >= 1, "waited with the bulk activity query");
}
