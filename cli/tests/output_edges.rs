//! Where output goes and how it looks: the rows of every customer under the columns of them
//! all, `--out FILE`, a reader that closes standard output early, `--watch`, colours on a
//! terminal only, and the completion script a shell sources.

mod support;

use ruckus_one_sim::config::DEFAULT_TENANT_ID;
use ruckus_one_sim::{Fault, SimConfig, Simulator};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use support::{Screen, command, on_pty, ruckus, sim_with};

/// Three customers with a venue each; the first customer's query answers 500.
async fn customers_first_failing() -> Simulator {
    let mut config = SimConfig::default();
    for c in ["c1", "c2", "c3"] {
        config = config.customer(DEFAULT_TENANT_ID, c);
    }
    let sim = sim_with(config).await;
    for c in ["c1", "c2", "c3"] {
        let venue = json!({"id": format!("{c}-v"), "name": format!("{c} venue")});
        sim.insert(c, "/venues", venue).unwrap();
    }
    sim.inject("query_venues", Fault::status(500).times(1));
    sim
}

fn fan_out_args(format: &str) -> Vec<&str> {
    let mut args = vec!["venues", "list", "--tenants", "c1,c2,c3"];
    args.extend(["--concurrency", "1", "-o", format]);
    args
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_of_customers_keeps_every_row_when_the_first_fails() {
    let sim = customers_first_failing().await;
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(Some(&sim), dir.path(), &fan_out_args("csv"), "");
    assert_eq!(run.code, 1, "one customer failed: {}", run.stderr);
    let mut reader = csv::Reader::from_reader(run.stdout.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        header.first().map(String::as_str),
        Some("tenant"),
        "{header:?}"
    );
    assert_eq!(
        header.last().map(String::as_str),
        Some("error"),
        "{header:?}"
    );
    assert!(header.iter().any(|h| h == "name"), "{header:?}");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3, "{}", run.stdout);
    let name = header.iter().position(|h| h == "name").unwrap();
    let error = header.len() - 1;
    assert_eq!(&rows[0][0], "c1");
    assert!(rows[0][error].contains("500"), "{}", run.stdout);
    assert_eq!(&rows[1][name], "c2 venue");
    assert_eq!(&rows[2][name], "c3 venue");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_is_looked_up_in_each_customers_own_objects() {
    let mut config = SimConfig::default();
    for c in ["c1", "c2", "c3"] {
        config = config.customer(DEFAULT_TENANT_ID, c);
    }
    let sim = sim_with(config).await;
    for c in ["c1", "c2"] {
        let venue = json!({"id": format!("{c}-hq"), "name": "HQ"});
        sim.insert(c, "/venues", venue).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let args = ["venues", "get", "HQ", "--tenants", "c1,c2,c3", "-o", "json"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 4, "c3 has no HQ: {}", run.stderr);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    let of = |t: &str| rows.iter().find(|r| r["tenant"] == t).unwrap().clone();
    assert_eq!(of("c1")["id"], "c1-hq", "{}", run.stdout);
    assert_eq!(of("c2")["id"], "c2-hq", "{}", run.stdout);
    let missing = of("c3")["error"].as_str().unwrap_or_default().to_owned();
    assert!(missing.contains("HQ"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_of_customers_keeps_every_row_when_the_first_fails() {
    let sim = customers_first_failing().await;
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(Some(&sim), dir.path(), &fan_out_args("table"), "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let header = run.stdout.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("TENANT") && header.contains("NAME") && header.ends_with("ERROR"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("c2 venue") && run.stdout.contains("c3 venue"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_writes_a_file_and_leaves_it_alone_on_failure() {
    let sim = sim_with(SimConfig::default()).await;
    sim.insert(
        DEFAULT_TENANT_ID,
        "/venues",
        json!({"id": "v-1", "name": "Lobby"}),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("venues.json");
    let path = file.to_str().unwrap();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "list", "--out", path],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written[0]["name"], "Lobby");

    std::fs::write(&file, "kept").unwrap();
    let args = ["venues", "get", "--venue-id", "nope", "--out", path];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with(".ruckus-out-"))
        .collect();
    assert!(left.is_empty(), "no temporary file is left: {left:?}");
}

/// Runs `ruckus ARGS` with standard output's reading end closed before it writes.
fn with_stdout_closed(sim: &Simulator, args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = command(Some(sim), dir.path(), args);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_stdout_ends_every_command_quietly() {
    let sim = sim_with(SimConfig::default()).await;
    sim.insert(
        DEFAULT_TENANT_ID,
        "/venues",
        json!({"id": "v-1", "name": "Lobby"}),
    )
    .unwrap();
    let commands: [&[&str]; 8] = [
        &["schema"],
        &["schema", "venues", "list"],
        &["completion", "bash"],
        &["man"],
        &["api", "GET", "/venues/v-1"],
        &[
            "--dry-run",
            "venues",
            "create",
            "--name",
            "Annex",
            "--address.city",
            "Lyon",
            "--address.country",
            "France",
        ],
        &["venues", "list", "-o", "table"],
        &["venues", "list", "-o", "csv"],
    ];
    for args in commands {
        let (code, stderr) = with_stdout_closed(&sim, args);
        assert!(code == 141 || code == 0, "{args:?}: exit {code}: {stderr}");
        assert!(stderr.is_empty(), "{args:?} said: {stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_draws_a_list_again_until_stopped() {
    let sim = sim_with(SimConfig::default()).await;
    sim.insert(
        DEFAULT_TENANT_ID,
        "/venues",
        json!({"id": "v-1", "name": "Lobby"}),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let args = ["--watch", "100ms", "venues", "list", "-o", "jsonl"];
    let mut cmd = command(Some(&sim), dir.path(), &args);
    cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for round in 0..3 {
        let line = lines.next().expect("another round").unwrap();
        assert!(line.contains("Lobby"), "round {round}: {line}");
    }
    child.kill().unwrap();
    child.wait().unwrap();

    let args = ["--watch", "1s", "venues", "create", "--name", "X"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 2, "a write is not watched: {}", run.stderr);
}

/// `ruckus ARGS` with standard output on a pseudo-terminal: what it showed.
fn on_terminal(sim: &Simulator, args: &[&str], no_color: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = command(Some(sim), dir.path(), args);
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    on_pty(cmd, Screen::Stdout).1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_words_are_coloured_on_a_terminal_only() {
    let sim = sim_with(SimConfig::default()).await;
    let venue = json!({"id": "v-1", "name": "Lobby", "status": "ONLINE"});
    sim.insert(DEFAULT_TENANT_ID, "/venues", venue).unwrap();
    let args = ["venues", "list", "--columns", "name,status"];
    let green = "\x1b[1m\x1b[32m";
    let shown = on_terminal(&sim, &args, false);
    assert!(
        shown.contains(green) && shown.contains("ONLINE"),
        "{shown:?}"
    );
    let plain = on_terminal(&sim, &args, true);
    assert!(
        plain.contains("ONLINE") && !plain.contains('\x1b'),
        "{plain:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let piped = ruckus(
        Some(&sim),
        dir.path(),
        &[&args[..], &["-o", "table"]].concat(),
        "",
    );
    assert!(piped.stdout.contains("ONLINE") && !piped.stdout.contains('\x1b'));
}

#[test]
fn the_completion_script_is_small_and_completes_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(None, dir.path(), &["completion", "bash"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.len() < 100_000, "{} bytes", run.stdout.len());
    let script = dir.path().join("ruckus.bash");
    std::fs::write(&script, &run.stdout).unwrap();
    let sourced = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p ruckus", script.display()))
        .output()
        .unwrap();
    assert!(sourced.status.success(), "{sourced:?}");
    // What the script asks when Tab is pressed after `ruckus venues l`.
    let mut cmd = command(None, dir.path(), &["--", "ruckus", "venues", "l"]);
    cmd.env("COMPLETE", "bash").env("_CLAP_COMPLETE_INDEX", "2");
    let answer = cmd.output().unwrap();
    let words = String::from_utf8_lossy(&answer.stdout);
    assert!(
        words.split(['\n', '\x0b']).any(|w| w == "list"),
        "{words:?}"
    );
}
