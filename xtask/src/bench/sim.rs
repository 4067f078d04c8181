//! `cargo xtask bench sim` and `cargo xtask bench state`: figures printed by an example of a
//! workspace package, built in release mode (dev profile with `--quick`):
//! - `sim`: the simulator's start-up (`sim/examples/startup.rs`);
//! - `state`: export and plan of a tenant of 100 venues, 2,000 APs and 500 networks against
//!   the simulator with its rate limits on (`state/examples/bench_state.rs`).

use super::table::Row;
use crate::cli::BenchArgs;
use std::path::Path;
use std::process::{Command, Stdio};

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    eprintln!("sim: building the simulator's start-up benchmark");
    example(root, options, "ruckus-one-sim", "startup", rows)
}

pub fn run_state(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    eprintln!("state: building the desired-state benchmark");
    example(root, options, "ruckus-one-state", "bench_state", rows)
}

/// Runs `example` of `package` and collects the rows it prints.
fn example(
    root: &Path,
    options: &BenchArgs,
    package: &str,
    example: &str,
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let profile: &[&str] = if options.quick { &[] } else { &["--release"] };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["run", "--quiet"])
        .args(profile)
        .args(["-p", package, "--example", example, "--"])
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
    rows.extend(super::parse_rows(&String::from_utf8_lossy(&output.stdout)));
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "the benchmark (`{package} --example {example}`) failed"
        ))
    }
}
