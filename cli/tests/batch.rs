//! `ruckus <command> --each FILE` run as the built binary against the simulator: venues
//! created from a CSV, a run killed with SIGKILL and resumed, waves with a pause, a bad row
//! refused before any call.

mod support;

use ruckus_one_sim::{SimConfig, Simulator};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use support::{Screen, command, on_pty, ruckus, sim_with};

/// A CSV of `rows` venues named `{prefix} 000`, `{prefix} 001`, ...
fn venues_csv(dir: &Path, prefix: &str, rows: usize) -> String {
    let mut text = String::from("name,address.city,address.country,description\n");
    for i in 0..rows {
        text.push_str(&format!("{prefix} {i:03},Paris,France,row {i}\n"));
    }
    let path = dir.join(format!("{prefix}.csv"));
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// How many venues of each name starting with `prefix` the tenant has.
fn census(sim: &Simulator, prefix: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for v in sim.objects(&sim.tenant_id(), "/venues") {
        if let Some(name) = v["name"].as_str().filter(|n| n.starts_with(prefix)) {
            *out.entry(name.to_owned()).or_default() += 1;
        }
    }
    out
}

fn every_once(sim: &Simulator, prefix: &str, rows: usize) {
    let counts = census(sim, prefix);
    assert_eq!(counts.len(), rows, "one venue per row");
    assert!(counts.values().all(|n| *n == 1), "a duplicate: {counts:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venues_are_created_from_a_csv() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let csv = venues_csv(dir.path(), "Site", 120);
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "create", "--each", &csv, "-o", "json"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    every_once(&sim, "Site", 120);
    let rows = run.json();
    assert_eq!(rows.as_array().map(Vec::len), Some(120));
    assert_eq!(rows[0]["line"], 2);
    assert!(run.stderr.contains("120 done"), "{}", run.stderr);
}

/// The last state of each row of a journal, by line.
fn states(journal: &str) -> BTreeMap<u64, String> {
    let mut last = BTreeMap::new();
    for line in journal.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let row = v["step"].as_str().and_then(|s| s.strip_prefix("row "));
        if let (Some(row), Some(state)) = (row.and_then(|r| r.parse().ok()), v["state"].as_str()) {
            last.insert(row, state.to_owned());
        }
    }
    last
}

/// Whether the journal shows a row done and another accepted but not done.
fn mid_run(journal: &str) -> bool {
    let last = states(journal);
    last.values().any(|s| s == "done") && last.values().any(|s| s == "accepted")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_killed_with_sigkill_resumes_without_a_duplicate_or_a_gap() {
    // Activities of a second: the rows are sent long before they are done.
    let sim = Simulator::start_with(SimConfig::default().activity_duration(Duration::from_secs(1)))
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let csv = venues_csv(dir.path(), "Kill", 60);
    let journal = dir.path().join("run.journal");
    let journal_s = journal.to_str().unwrap();
    // In waves: while the second wave's creates wait for their activities, the first wave's
    // are done, so the journal shows both states for about a second.
    let args = [
        "venues",
        "create",
        "--each",
        &csv,
        "--journal",
        journal_s,
        "--wave",
        "20",
        "--pause",
        "1s",
    ];
    let mut child = command(Some(&sim), dir.path(), &args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Waits on the journal, not on the clock: a run that ends before it is mid-way fails the
    // test at once.
    while !mid_run(&std::fs::read_to_string(&journal).unwrap_or_default()) {
        let ended = child.try_wait().unwrap();
        assert!(
            ended.is_none(),
            "the run ended ({ended:?}) before it was mid-way"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success(), "killed before it ended");
    let killed = states(&std::fs::read_to_string(&journal).unwrap());
    let done = killed.values().filter(|s| *s == "done").count();
    assert!(done < 60, "killed mid-way: {done} rows done");

    let mut resume = args.to_vec();
    resume.extend(["--resume", "-o", "json"]);
    let run = ruckus(Some(&sim), dir.path(), &resume, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    every_once(&sim, "Kill", 60);
    let outcomes: BTreeMap<u64, String> = run
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let outcome = r["outcome"].as_str().unwrap_or_default().to_owned();
            (r["line"].as_u64().unwrap_or_default(), outcome)
        })
        .collect();
    assert_eq!(outcomes.len(), 60);
    // A row done before the kill is skipped; a create accepted but not recorded done is
    // found by its name, not sent again.
    for (line, state) in &killed {
        let want = match state.as_str() {
            "done" => "skipped",
            "accepted" => "existing",
            _ => continue,
        };
        assert_eq!(outcomes[line], want, "line {line}: {outcomes:?}");
    }

    // The same journal with another file is refused.
    let other = venues_csv(dir.path(), "Other", 3);
    let refused = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "venues",
            "create",
            "--each",
            &other,
            "--journal",
            journal_s,
            "--resume",
        ],
        "",
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("another input file"),
        "{}",
        refused.stderr
    );
    assert!(census(&sim, "Other").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waves_pause_between_them_and_complete_every_row() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let csv = venues_csv(dir.path(), "Wave", 30);
    let t0 = Instant::now();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "venues", "create", "--each", &csv, "--wave", "10", "--pause", "1s",
        ],
        "",
    );
    let took = t0.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Three waves, two pauses of a second: a lower bound, not a speed figure.
    assert!(took >= Duration::from_secs(2), "{took:?}");
    every_once(&sim, "Wave", 30);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csv_with_a_bad_row_is_refused_before_any_call() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    std::fs::write(
        &csv,
        "name,address.city,address.country,address.latitude\n\
         Good one,Paris,France,48.8\n\
         Bad one,Paris,France,north\n\
         Another,Paris,France,1\n",
    )
    .unwrap();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "create", "--each", csv.to_str().unwrap()],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("line 3"), "{}", run.stderr);
    assert!(!run.stderr.contains("line 2"), "{}", run.stderr);
    assert!(
        sim.requests().is_empty(),
        "nothing was sent, not even a token request"
    );
    assert!(census(&sim, "").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_prints_every_row_and_fills_path_columns() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("aps.csv");
    std::fs::write(
        &csv,
        "venueId,serialNumber\nv-1,111111111111\nv-2,222222222222\n",
    )
    .unwrap();
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &[
            "aps",
            "system-command",
            "patch",
            "--each",
            csv.to_str().unwrap(),
            "--set",
            "type=REBOOT",
            "--dry-run",
            "-o",
            "json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let previews = run.json();
    assert_eq!(previews.as_array().map(Vec::len), Some(2));
    let url = previews[1]["url"].as_str().unwrap();
    assert!(
        url.ends_with("/venues/v-2/aps/222222222222/systemCommands"),
        "{url}"
    );
    assert_eq!(previews[1]["body"]["type"], "REBOOT");
    assert!(sim.requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rows_bar_shows_on_a_terminal_only() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let csv = venues_csv(dir.path(), "Bar", 3);
    let args = ["venues", "create", "--each", csv.as_str()];
    // Standard error on a pseudo-terminal: the bar of rows is drawn, then erased.
    let (ok, screen) = on_pty(command(Some(&sim), dir.path(), &args), Screen::Stderr);
    assert!(ok, "{screen:?}");
    assert!(screen.contains("/3 rows (0 failed)"), "{screen:?}");
    every_once(&sim, "Bar", 3);
    // Piped: the counts line only, no bar.
    let csv = venues_csv(dir.path(), "Piped", 2);
    let run = ruckus(
        Some(&sim),
        dir.path(),
        &["venues", "create", "--each", &csv],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("rows (0 failed)"), "{}", run.stderr);
    assert!(!run.stderr.contains('\r'), "{:?}", run.stderr);
}
