//! Seeing what a command does (`--verbose`, `--debug`, `RUST_LOG`, `whoami`) without a secret
//! in sight, waiting with a bound (`activity wait --timeout`, unknown ids), the `--local` demo,
//! and bad input refused as a usage error.

mod support;

use ruckus_one_sim::config::DEFAULT_TENANT_ID;
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::json;
use std::time::Duration;
use support::{Run, command, ruckus, sim_with};

/// Every issued access token starts so.
const TOKEN_PREFIX: &str = "sim-token-";

fn assert_no_secret(sim: &Simulator, run: &Run) {
    let (_, secret) = sim.credentials();
    for text in [&run.stdout, &run.stderr] {
        assert!(!text.contains(&secret), "the client secret shows: {text}");
        assert!(!text.contains(TOKEN_PREFIX), "a token shows: {text}");
    }
}

async fn one_venue() -> Simulator {
    let sim = sim_with(SimConfig::default()).await;
    sim.insert(
        DEFAULT_TENANT_ID,
        "/venues",
        json!({"id": "v-1", "name": "Lobby"}),
    )
    .unwrap();
    sim
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verbose_shows_each_exchange_and_no_secret() {
    let sim = one_venue().await;
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(Some(&sim), dir.path(), &["--verbose", "venues", "list"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let url = format!("url=\"{}/venues/query\"", sim.base_url());
    for part in [
        "ruckus_one.call",
        "method=\"POST\"",
        &url,
        "status=200",
        "duration_ms=",
    ] {
        assert!(run.stderr.contains(part), "{part} missing: {}", run.stderr);
    }
    assert!(
        !run.stderr.contains("authorization"),
        "headers are --debug's"
    );
    assert_no_secret(&sim, &run);

    let run = ruckus(Some(&sim), dir.path(), &["--debug", "venues", "list"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("authorization: ***"), "{}", run.stderr);
    assert!(
        run.stderr.contains("Lobby"),
        "the answer's body: {}",
        run.stderr
    );
    assert_no_secret(&sim, &run);

    let quiet = ruckus(Some(&sim), dir.path(), &["venues", "list"], "");
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_log_turns_on_the_runtime_tracing() {
    let sim = one_venue().await;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = command(Some(&sim), dir.path(), &["venues", "list"]);
    cmd.env("RUST_LOG", "ruckus_one_runtime=debug");
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("access token obtained"), "{stderr}");
    assert!(stderr.contains("call succeeded"), "{stderr}");
    assert!(!stderr.contains(TOKEN_PREFIX) && !stderr.contains(&sim.credentials().1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whoami_tells_the_tenants_and_region_without_a_secret() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(Some(&sim), dir.path(), &["whoami", "--tenant", "c9"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let who = run.json();
    assert_eq!(who["tokenTenant"], sim.tenant_id());
    assert_eq!(who["actingTenant"], "c9");
    assert_eq!(who["profile"], "default");
    assert_eq!(who["region"], "na");
    assert_eq!(who["baseUrl"], sim.base_url());
    assert_no_secret(&sim, &run);
    assert!(sim.requests().is_empty(), "whoami sends nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn activity_wait_stops_at_its_timeout_and_knows_unknown_ids() {
    // Activities that take ten minutes.
    let config = SimConfig::default().activity_duration(Duration::from_secs(600));
    let sim = Simulator::start_with(config).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let body = r#"{"name":"Annex","address":{"city":"Lyon","country":"France"}}"#;
    let args = ["--no-wait", "venues", "create", "--json", body];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let id = run.json()["requestId"].as_str().unwrap().to_owned();

    let args = ["activity", "wait", "--timeout", "1s", &id];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 6, "timed out: {} {}", run.stdout, run.stderr);
    assert!(run.stderr.contains(&id), "{}", run.stderr);

    let args = ["activity", "wait", "--timeout", "1s", "no-such-request"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(
        run.stderr.contains("unknown request id `no-such-request`"),
        "{}",
        run.stderr
    );

    let args = ["activity", "wait", "--timeout", "soon", &id];
    assert_eq!(ruckus(Some(&sim), dir.path(), &args, "").code, 2);
}

#[test]
fn the_local_demo_shows_whole_addresses() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--local", "venues", "list", "-o", "csv"];
    let run = ruckus(None, dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Sunnyvale") && run.stdout.contains("France"));
    assert!(!run.stdout.contains("string"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_a_usage_error_and_sends_nothing() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let deep_path = format!("{}=1", vec!["a"; 10_000].join("."));
    let deep_json = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let nested = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let cases: [&[&str]; 8] = [
        &["venues", "create", "--set", &deep_path],
        &["--dry-run", "venues", "create", "--set", &deep_path],
        &["venues", "create", "--json", &deep_json],
        &["venues", "create", "--json", &nested],
        &["venues", "get", "--venue-id", ".."],
        &["--dry-run", "venues", "get", "--venue-id", "."],
        &["api", "GET", "/venues/../tenants"],
        &["api", "GET", "/venues/%2E%2e/tenants"],
    ];
    for args in cases {
        let run = ruckus(Some(&sim), dir.path(), args, "");
        let shown: Vec<&str> = args.iter().map(|a| &a[..a.len().min(30)]).collect();
        assert_eq!(run.code, 2, "{shown:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("ruckus: "),
            "{shown:?}: {}",
            run.stderr
        );
        assert!(run.stderr.lines().count() == 1, "{shown:?}: {}", run.stderr);
    }
    // A token tenant that would be a dot segment of the token URL (`/oauth2/token/..`).
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["--token-tenant", "..", "venues", "list"],
        "",
    );
    assert_eq!(run.code, 3, "refused as a setting: {}", run.stderr);
    assert!(run.stderr.contains("not `.` or `..`"), "{}", run.stderr);
    assert!(sim.requests().is_empty(), "{:?}", sim.requests());
}
