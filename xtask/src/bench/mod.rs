//! `cargo xtask bench [generator] [runtime] [paging] [compile] [--quick] [--runs N] [--full]`:
//! performance figures as one Markdown table (median, min and max of several runs, with the
//! targets of issue 12 and whether they are met). Without a name, every part runs.
//!
//! - `generator`: the generator's wall time and peak memory (see `generator.rs`).
//! - `runtime`, `paging`: the generated client against hand-written `reqwest` + `serde_json` on
//!   a local HTTP/1.1 server; both run the `ruckus-one-bench` binary (`benches/`), built in
//!   release mode.
//! - `compile`: cold debug build times of the client crate per feature set (as `bench-build`,
//!   `--full` included), lines of generated Rust per operation, build seconds per 100
//!   operations.
//!
//! `--quick` runs everything once with tiny iteration counts (and skips the cold builds): it
//! checks that the harness works, not the timings. `--runs N` overrides the number of runs of
//! every part. Figures come from a shared machine: compare ratios within one run, never figures
//! of different runs. It prints figures and fails only when a harness or a correctness check
//! fails (1,000 concurrent first calls must make exactly one token request), never on a missed
//! target.

pub mod build;
mod compile;
mod generator;
mod synth;

use std::path::Path;
use std::process::{Command, Stdio};

/// Command-line options of `cargo xtask bench`.
pub struct Options {
    pub quick: bool,
    /// Runs of every part; each part has its own default.
    pub runs: Option<usize>,
    /// `compile`: also time a build from an empty target directory.
    pub full: bool,
}

/// Median, minimum and maximum.
#[derive(Clone, Copy, Debug)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let Some((&min, &max)) = sorted.first().zip(sorted.last()) else {
            return Spread::single(f64::NAN);
        };
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Spread { median, min, max }
    }

    /// The spread of `times` in seconds.
    pub fn of_durations(times: &[std::time::Duration]) -> Spread {
        Spread::of(&times.iter().map(|t| t.as_secs_f64()).collect::<Vec<_>>())
    }

    pub fn single(value: f64) -> Spread {
        Spread {
            median: value,
            min: value,
            max: value,
        }
    }
}

/// One line of the table.
pub struct Row {
    bench: String,
    pub measure: String,
    pub spread: Spread,
    pub unit: String,
    target: String,
}

impl Row {
    pub fn new(bench: &str, measure: String, spread: Spread, unit: &str, target: String) -> Row {
        Row {
            bench: bench.to_owned(),
            measure,
            spread,
            unit: unit.to_owned(),
            target,
        }
    }
}

/// `condition: met` or `condition: **missed**`.
pub fn verdict(met: bool, condition: &str) -> String {
    format!("{condition}: {}", if met { "met" } else { "**missed**" })
}

const PARTS: [&str; 4] = ["generator", "runtime", "paging", "compile"];

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("--child") {
        return generator::child(&args[1..]);
    }
    let mut options = Options {
        quick: false,
        runs: None,
        full: false,
    };
    let mut parts: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => options.quick = true,
            "--full" => options.full = true,
            "--runs" => {
                options.runs = Some(
                    it.next()
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|n| *n > 0)
                        .ok_or("--runs takes a positive number")?,
                )
            }
            other => match PARTS.iter().find(|p| **p == other) {
                Some(part) => parts.push(part),
                None => return Err(format!("unknown argument `{other}`\n\n{}", usage())),
            },
        }
    }
    if parts.is_empty() {
        parts = PARTS.to_vec();
    }
    let mut rows = Vec::new();
    let mut failure = None;
    if parts.contains(&"generator") {
        if let Err(e) = generator::run(root, &options, &mut rows) {
            failure.get_or_insert(format!("generator: {e}"));
        }
    }
    let client: Vec<&str> = parts
        .iter()
        .copied()
        .filter(|p| *p == "runtime" || *p == "paging")
        .collect();
    if !client.is_empty() {
        if let Err(e) = runtime(root, &options, &client, &mut rows) {
            failure.get_or_insert(e);
        }
    }
    if parts.contains(&"compile") {
        if let Err(e) = compile::run(root, &options, &mut rows) {
            failure.get_or_insert(format!("compile: {e}"));
        }
    }
    print_table(&options, &rows);
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

pub fn usage() -> &'static str {
    "  bench [generator] [runtime] [paging] [compile] [--quick] [--runs N] [--full]\n            performance figures as a Markdown table (all parts without a name)"
}

/// Builds and runs the `ruckus-one-bench` binary in release mode and collects its rows.
fn runtime(
    root: &Path,
    options: &Options,
    parts: &[&str],
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    eprintln!("runtime: building `ruckus-one-bench` (release)");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "run",
            "--quiet",
            "--release",
            "-p",
            "ruckus-one-bench",
            "--",
        ])
        .args(parts)
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if options.quick {
        command.arg("--quick");
    }
    if let Some(runs) = options.runs {
        command.args(["--runs", &runs.to_string()]);
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    for line in text.lines() {
        let cells: Vec<&str> = line.split('\t').collect();
        if let ["row", bench, measure, median, min, max, unit, target] = cells[..] {
            let number = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
            rows.push(Row::new(
                bench,
                measure.to_owned(),
                Spread {
                    median: number(median),
                    min: number(min),
                    max: number(max),
                },
                unit,
                target.to_owned(),
            ));
        }
    }
    if output.status.success() {
        Ok(())
    } else {
        Err("the runtime benchmark (`ruckus-one-bench`) failed".into())
    }
}

fn print_table(options: &Options, rows: &[Row]) {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut text = format!(
        "\n## cargo xtask bench{}\n\n{cores} cores, load average {load} at the end. Median, min and max of several runs (one run where min = max); ratios are computed per run pair, then summarised.\n\n",
        if options.quick {
            " --quick (harness check: the figures mean nothing)"
        } else {
            ""
        }
    );
    text += "| part | measure | median | min | max | unit | target |\n";
    text += "|---|---|---:|---:|---:|---|---|\n";
    for row in rows {
        let s = row.spread;
        text += &format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            row.bench,
            row.measure.replace('|', "\\|"),
            number(s.median, &row.unit),
            number(s.min, &row.unit),
            number(s.max, &row.unit),
            row.unit,
            row.target
        );
    }
    crate::out(&text);
}

/// A figure with as many decimals as its unit and size call for.
fn number(value: f64, unit: &str) -> String {
    if !value.is_finite() {
        return "–".into();
    }
    let decimals = match unit {
        "ratio" => 3,
        _ if value.fract() == 0.0 => 0,
        "s" if value.abs() < 10.0 => 3,
        _ if value.abs() >= 100.0 => 0,
        _ if value.abs() >= 10.0 => 1,
        _ => 2,
    };
    format!("{value:.decimals$}")
}
