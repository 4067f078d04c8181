//! `cargo xtask bench sim`: the simulator's start-up figures, from its `startup` example (see
//! `sim/examples/startup.rs`), built in release mode (dev profile with `--quick`).

use super::table::Row;
use crate::cli::BenchArgs;
use std::path::Path;
use std::process::{Command, Stdio};

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let profile: &[&str] = if options.quick { &[] } else { &["--release"] };
    eprintln!("sim: building the simulator's start-up benchmark");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["run", "--quiet"])
        .args(profile)
        .args(["-p", "ruckus-one-sim", "--example", "startup", "--"])
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
        Err("the start-up benchmark (`ruckus-one-sim --example startup`) failed".into())
    }
}
