//! `cargo xtask bench batch`: `ruckus venues create --each` over 1,000 rows (200 with
//! `--quick`) against the simulator's binary with its published rate limits on: the wall
//! time against the least the limits allow (the venue service's burst, then its rate, plus
//! one activity), rows left failed by a 429 (the runtime paces and retries; the target is
//! none), and the journal's cost: the same run with and without `--journal` against the
//! simulator with its limits off, per row, and the journal's bytes per row.

use super::cli::{build_bins, spawn, start_sim};
use super::table::Row;
use crate::cli::BenchArgs;
use ruckus_bench_stats::{Spread, verdict};
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

/// The simulator's activity length in the paced runs (seconds).
const ACTIVITY_S: f64 = 0.2;

/// The share of each published limit the runtime's pacing uses by default (its `headroom`).
const HEADROOM: f64 = 0.95;

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let bins = build_bins(root, !options.quick)?;
    let (ruckus, sim) = (bins.join("ruckus"), bins.join("ruckus-one-sim"));
    let count: usize = if options.quick { 200 } else { 1_000 };
    let runs = options.runs.unwrap_or(if options.quick { 1 } else { 3 });
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (max, per_second) = venue_limit(root)?;
    let least = (count.saturating_sub(max) as f64 / per_second) + ACTIVITY_S;
    let paced_burst = (max as f64 * HEADROOM).floor() as usize;
    let paced = (count.saturating_sub(paced_burst) as f64 / (per_second * HEADROOM)) + ACTIVITY_S;
    let activity = ACTIVITY_S.to_string();
    let (mut walls, mut ratios, mut left) = (Vec::new(), Vec::new(), 0usize);
    for n in 0..runs {
        let csv = write_csv(dir.path(), &format!("paced-{n}"), count)?;
        let (mut child, env) = start_sim(root, &sim, &["--activity-seconds", &activity])?;
        let result = create(&ruckus, &env, &csv, None);
        let _ = child.kill();
        let _ = child.wait();
        let done = result?;
        if done.done != count {
            return Err(format!(
                "{} of {count} rows done: {}",
                done.done, done.first_error
            ));
        }
        left += done.rate_limited;
        walls.push(done.wall.as_secs_f64());
        ratios.push(done.wall.as_secs_f64() / least);
    }
    let label = format!("{count} creates from a CSV, limits on");
    let ratio = Spread::of(&ratios);
    rows.push(Row::new(
        "batch",
        format!("{label}: wall time"),
        Spread::of(&walls),
        "s",
        String::new(),
    ));
    rows.push(Row::new(
        "batch",
        format!("{label}: least the limits allow ({max} at once, {per_second}/s, one activity)"),
        Spread::single(least),
        "s",
        String::new(),
    ));
    rows.push(Row::new(
        "batch",
        format!("{label}: wall time / least"),
        ratio,
        "x",
        verdict(ratio.median <= 1.10, "<= 1.10"),
    ));
    rows.push(Row::new(
        "batch",
        format!("{label}: least at the runtime's pacing (95 % of each limit)"),
        Spread::single(paced),
        "s",
        String::new(),
    ));
    let of_paced: Vec<f64> = walls.iter().map(|w| w / paced).collect();
    rows.push(Row::new(
        "batch",
        format!("{label}: wall time / least at the runtime's pacing"),
        Spread::of(&of_paced),
        "x",
        String::new(),
    ));
    rows.push(Row::new(
        "batch",
        format!("{label}: rows failed with a 429 (all runs)"),
        Spread::single(left as f64),
        "rows",
        verdict(left == 0, "0"),
    ));
    journal_cost(root, &ruckus, &sim, dir.path(), count, runs, rows)
}

/// The same run with and without `--journal`, limits off and activities instant.
fn journal_cost(
    root: &Path,
    ruckus: &Path,
    sim: &Path,
    dir: &Path,
    count: usize,
    runs: usize,
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let (mut per_row, mut bytes) = (Vec::new(), 0u64);
    for n in 0..runs {
        let mut walls = [Duration::ZERO; 2];
        for (i, journaled) in [false, true].into_iter().enumerate() {
            let csv = write_csv(dir, &format!("free-{n}-{i}"), count)?;
            let journal = dir.join(format!("free-{n}-{i}.journal"));
            let args = ["--no-rate-limits", "--activity-seconds", "0"];
            let (mut child, env) = start_sim(root, sim, &args)?;
            let result = create(ruckus, &env, &csv, journaled.then_some(journal.as_path()));
            let _ = child.kill();
            let _ = child.wait();
            walls[i] = result?.wall;
            if journaled {
                bytes = std::fs::metadata(&journal)
                    .map_err(|e| e.to_string())?
                    .len();
            }
        }
        per_row.push((walls[1].as_secs_f64() - walls[0].as_secs_f64()) * 1000.0 / count as f64);
    }
    rows.push(Row::new(
        "batch",
        "journal: wall time added per row (limits off)".into(),
        Spread::of(&per_row),
        "ms",
        String::new(),
    ));
    rows.push(Row::new(
        "batch",
        "journal: size per row".into(),
        Spread::single(bytes as f64 / count as f64),
        "bytes",
        String::new(),
    ));
    Ok(())
}

/// The venue service's published limit (calls at once, calls back per second), from the
/// catalog the simulator enforces.
fn venue_limit(root: &Path) -> Result<(usize, f64), String> {
    let text = std::fs::read_to_string(root.join("generated/catalog/network.json"))
        .map_err(|e| e.to_string())?;
    let at = text
        .find(r#"{"service":"venue","#)
        .ok_or("the catalog names no venue service limit")?;
    let end = text[at..].find('}').ok_or("a cut limit")? + at + 1;
    let v: Value = serde_json::from_str(&text[at..end]).map_err(|e| e.to_string())?;
    let max = v["max"].as_u64().ok_or("no max")?;
    let per_second = v["per_second"].as_f64().ok_or("no per_second")?;
    Ok((usize::try_from(max).unwrap_or(usize::MAX), per_second))
}

fn write_csv(dir: &Path, name: &str, count: usize) -> Result<String, String> {
    let mut text = String::from("name,address.city,address.country\n");
    for i in 0..count {
        text.push_str(&format!("Bench {i:05},Paris,France\n"));
    }
    let path = dir.join(format!("{name}.csv"));
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    Ok(path.display().to_string())
}

struct Created {
    wall: Duration,
    done: usize,
    rate_limited: usize,
    first_error: String,
}

/// `ruckus venues create --each CSV -o jsonl` (with `--journal` when given): its wall time and
/// its rows' outcomes.
fn create(
    ruckus: &Path,
    env: &[(&str, String)],
    csv: &str,
    journal: Option<&Path>,
) -> Result<Created, String> {
    let journal_s = journal.map(|j| j.display().to_string());
    let mut args = vec!["venues", "create", "--each", csv, "-o", "jsonl"];
    if let Some(j) = &journal_s {
        args.extend(["--journal", j.as_str()]);
    }
    let t0 = Instant::now();
    let mut child = spawn(ruckus, &args, env)?;
    let mut out = String::new();
    child
        .stdout
        .take()
        .ok_or("no stdout")?
        .read_to_string(&mut out)
        .map_err(|e| e.to_string())?;
    let status = child.wait().map_err(|e| e.to_string())?;
    let wall = t0.elapsed();
    let mut created = Created {
        wall,
        done: 0,
        rate_limited: 0,
        first_error: String::new(),
    };
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
        match v["outcome"].as_str() {
            Some("done") => created.done += 1,
            _ => {
                let error = v["error"].as_str().unwrap_or_default();
                if error.contains("429") {
                    created.rate_limited += 1;
                }
                if created.first_error.is_empty() {
                    created.first_error = line.to_owned();
                }
            }
        }
    }
    if !status.success() && created.first_error.is_empty() {
        return Err(format!("ruckus {args:?} failed: {status}"));
    }
    Ok(created)
}
