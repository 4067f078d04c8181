//! `cargo xtask bench [generator] [runtime] [paging] [msp] [compile] [sim] [mcp] [cli] [state] [batch] [report] [--quick] [--runs N] [--full] [--redis]`:
//! performance figures as one Markdown table (median, min and max of several runs, with the
//! targets of issue 12 and whether they are met). Without a name, every part runs.
//!
//! - `generator`: the generator's wall time and peak memory (see `generator.rs`).
//! - `runtime`, `paging`: the generated client against hand-written `reqwest` + `serde_json` on
//!   a local HTTP/1.1 server; both run the `ruckus-one-bench` binary (`benches/`), built in
//!   release mode (dev profile with `--quick`).
//! - `msp`: writes at MSP scale (100 customer tenants × 100 switch-service writes) through the
//!   generated client's fan-out, pacing and bulk waiting, against the simulator with its rate
//!   limits on, the tenant-wide bucket and the services' (`benches/src/msp.rs`): 429 share per
//!   limit, budget used per limit (the binding one ≥ 90 %), token requests, activity queries per
//!   poll round. With `--redis`, from four client processes sharing one `redis-server` (started
//!   by the benchmark), then with that server stopped a third of the way (`msp_redis.rs`).
//! - `sim`: start-up of the simulator (`ruckus-one-sim`'s `startup` example, built in release
//!   mode, dev profile with `--quick`): the first start in a process, one start to its first
//!   answer (target < 50 ms) and 100 started at once.
//! - `mcp`: start-up of `ruckus-mcp --local` to its `initialize` answer (target < 100 ms) and
//!   the size of its tool list in characters and characters / 4 (target < 2,000); the text of
//!   `invoke_read` pages of venues and APs, the default one (target <= 8,000 characters) and
//!   one of 100 rows.
//! - `batch`: `ruckus venues create --each` over 1,000 rows against the simulator with its
//!   published limits on: wall time against the least the limits allow, rows left failed by
//!   a 429, the journal's cost per row (see `batch.rs`).
//! - `state`: desired state: export and plan of a tenant of 100 venues, 2,000 APs and 500
//!   networks against the simulator with its rate limits on (calls, wall time, the least time
//!   the published limits allow, the plan's compute time, peak memory).
//! - `report`: `ruckus report inventory` over 1,000 and 10,000 APs: time to the first row and
//!   peak memory, as CSV and as XLSX (see `report.rs`).
//! - `compile`: cold debug build times of the client crate per feature set (as `bench-build`,
//!   `--full` included), lines of generated Rust per operation, build seconds per 100
//!   operations.
//!
//! `--quick` runs everything once with tiny iteration counts, the generator on a small fixture
//! spec instead of the workspace's, the benchmark binary in the dev profile, and skips the cold
//! builds: it checks that the harness works (a few seconds once built), not the timings.
//! `--runs N` overrides the number of runs of every part. Figures come from a shared machine: compare ratios within one run, never figures
//! of different runs. It prints figures and fails only when a harness or a correctness check
//! fails (1,000 concurrent first calls must make exactly one token request), never on a missed
//! target.

mod batch;
pub mod build;
mod cli;
mod compile;
mod e2e;
mod generator;
mod mcp;
mod mcp_pages;
mod report;
mod sim;
mod synth;
mod table;

use crate::cli::{BenchArgs, BenchBuildArgs, Part};
use ruckus_bench_stats::Spread;
use std::path::Path;
use std::process::{Command, Stdio};
use table::Row;

pub fn run(root: &Path, args: &BenchArgs) -> Result<(), String> {
    if let Some(spec) = &args.child {
        return generator::child(spec);
    }
    let parts: &[Part] = if args.parts.is_empty() {
        &Part::ALL
    } else {
        &args.parts
    };
    let mut rows = Vec::new();
    let mut failure = None;
    if parts.contains(&Part::Generator) {
        if let Err(e) = generator::run(root, args, &mut rows) {
            failure.get_or_insert(format!("generator: {e}"));
        }
    }
    let client: Vec<&str> = parts
        .iter()
        .filter(|p| matches!(p, Part::Runtime | Part::Paging | Part::Msp))
        .map(|p| p.name())
        .collect();
    if !client.is_empty() {
        if let Err(e) = runtime(root, args, &client, &mut rows) {
            failure.get_or_insert(e);
        }
    }
    if parts.contains(&Part::Compile) {
        if let Err(e) = compile::run(root, args, &mut rows) {
            failure.get_or_insert(format!("compile: {e}"));
        }
    }
    if parts.contains(&Part::Sim) {
        if let Err(e) = sim::run(root, args, &mut rows) {
            failure.get_or_insert(format!("sim: {e}"));
        }
    }
    if parts.contains(&Part::Mcp) {
        if let Err(e) = mcp::run(root, args, &mut rows) {
            failure.get_or_insert(format!("mcp: {e}"));
        }
    }
    if parts.contains(&Part::State) {
        if let Err(e) = sim::run_state(root, args, &mut rows) {
            failure.get_or_insert(format!("state: {e}"));
        }
    }
    if parts.contains(&Part::Report) {
        if let Err(e) = report::run(root, args, &mut rows) {
            failure.get_or_insert(format!("report: {e}"));
        }
    }
    if parts.contains(&Part::Cli) {
        if let Err(e) = cli::run(root, args, &mut rows) {
            failure.get_or_insert(format!("cli: {e}"));
        }
    }
    if parts.contains(&Part::Batch) {
        if let Err(e) = batch::run(root, args, &mut rows) {
            failure.get_or_insert(format!("batch: {e}"));
        }
    }
    table::print(args.quick, &rows);
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `cargo xtask bench-build`: cold build times per feature set (see `build.rs`).
pub fn bench_build(root: &Path, args: &BenchBuildArgs) -> Result<(), String> {
    compile::bench_build(root, args)
}

/// Builds and runs the `ruckus-one-bench` binary and collects its rows: in release mode, or
/// with `--quick` in the dev profile (its figures mean nothing then, and the dev build shares
/// what the tests already built instead of compiling every dependency again optimised).
fn runtime(
    root: &Path,
    options: &BenchArgs,
    parts: &[&str],
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let profile: &[&str] = if options.quick { &[] } else { &["--release"] };
    eprintln!(
        "runtime: building `ruckus-one-bench` ({})",
        if options.quick {
            "dev profile"
        } else {
            "release"
        }
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["run", "--quiet"])
        .args(profile)
        .args(["-p", "ruckus-one-bench", "--"])
        .args(parts)
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if options.quick {
        command.arg("--quick");
    }
    if options.redis {
        command.arg("--redis");
    }
    if let Some(runs) = options.runs {
        command.args(["--runs", &runs.to_string()]);
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    rows.extend(parse_rows(&String::from_utf8_lossy(&output.stdout)));
    if output.status.success() {
        Ok(())
    } else {
        Err("the runtime benchmark (`ruckus-one-bench`) failed".into())
    }
}

/// The rows a benchmark binary prints (`row`, part, measure, median, min, max, unit, target).
fn parse_rows(text: &str) -> Vec<Row> {
    let mut rows = Vec::new();
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
    rows
}
