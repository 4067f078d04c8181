//! `cargo xtask bench-build`: cold build times of the generated client crate, per feature set.
//! The same figures, with lines of generated Rust per operation and build seconds per 100
//! operations, are the `compile` part of `cargo xtask bench` (see `compile.rs`).
//!
//! Dependencies are built once in a separate target directory; then, for each configuration,
//! only the client crate's artifacts are removed and its build is timed (median of `--runs`).
//! `--full` also times a build from an empty target directory (dependencies included).
//! It prints figures; it asserts nothing (targets are checked by people, not by timed tests).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub const CRATE: &str = "ruckus-one";

/// Feature sets measured: (label, cargo arguments).
pub fn configurations() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("default (every area)", vec![]),
        (
            "every area + experimental",
            vec!["--features", "experimental"],
        ),
        ("no area (client skeleton)", vec!["--no-default-features"]),
        (
            "one area: network-switches (largest)",
            vec!["--no-default-features", "--features", "network-switches"],
        ),
        (
            "one area: network-wireless-aps",
            vec![
                "--no-default-features",
                "--features",
                "network-wireless-aps",
            ],
        ),
        (
            "one area: analytics-users",
            vec!["--no-default-features", "--features", "analytics-users"],
        ),
        (
            "one area: network-events-alarms",
            vec![
                "--no-default-features",
                "--features",
                "network-events-alarms",
            ],
        ),
    ]
}

/// Build times: of each configuration (every run), and from an empty target directory.
pub struct Measured {
    pub target: PathBuf,
    pub full: Option<Duration>,
    pub configurations: Vec<(&'static str, Vec<&'static str>, Vec<Duration>)>,
}

/// The target directory of these builds: `bench-build` under `CARGO_TARGET_DIR` when set,
/// else under the workspace's `target`.
fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_absolute() { t } else { root.join(t) })
        .unwrap_or_else(|| root.join("target"))
        .join("bench-build")
}

/// Times `runs` cold builds of the client crate per configuration (after building its
/// dependencies, untimed, unless `full` times that build from an empty target directory).
pub fn measure(root: &Path, runs: usize, full: bool) -> Result<Measured, String> {
    let target = target_dir(root);
    let full = if full {
        let _ = std::fs::remove_dir_all(&target);
        Some(cargo(root, &target, &["build", "-p", CRATE])?)
    } else {
        cargo(root, &target, &["build", "-p", CRATE])?; // dependencies, untimed
        None
    };
    let mut measured = Vec::new();
    for (label, extra) in configurations() {
        eprintln!("compile: {label}, {runs} run(s)");
        let mut times = Vec::new();
        for _ in 0..runs {
            cargo(root, &target, &["clean", "-p", CRATE])?;
            let mut build = vec!["build", "-p", CRATE];
            build.extend(&extra);
            times.push(cargo(root, &target, &build)?);
        }
        measured.push((label, extra, times));
    }
    Ok(Measured {
        target,
        full,
        configurations: measured,
    })
}

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let full = args.iter().any(|a| a == "--full");
    let runs = match args.iter().position(|a| a == "--runs") {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n > 0)
            .ok_or("--runs takes a positive number")?,
        None => 1,
    };
    let measured = measure(root, runs, full)?;
    println!(
        "cold build of `{CRATE}` (dev profile), median of {runs} run(s), target {}",
        measured.target.display()
    );
    if let Some(t) = measured.full {
        println!(
            "{:<42} {:>8.1} s",
            "from an empty target dir (dependencies too)",
            t.as_secs_f64()
        );
    }
    println!("{:<42} {:>10}", "configuration", "seconds");
    for (label, _, mut times) in measured.configurations {
        times.sort();
        println!("{label:<42} {:>10.1}", times[times.len() / 2].as_secs_f64());
    }
    let lines = count_lines(&root.join("generated").join(CRATE).join("src"));
    println!("generated Rust under generated/{CRATE}/src: {lines} lines");
    println!(
        "(`cargo xtask bench compile` adds lines per operation and seconds per 100 operations)"
    );
    Ok(())
}

fn cargo(root: &Path, target: &Path, args: &[&str]) -> Result<Duration, String> {
    let started = Instant::now();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .arg("--quiet")
        .env("CARGO_TARGET_DIR", target)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("`cargo {}` failed", args.join(" ")));
    }
    Ok(started.elapsed())
}

/// Lines of the files under `dir` (recursively).
pub fn count_lines(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| e.path())
        .map(|p| {
            if p.is_dir() {
                count_lines(&p)
            } else {
                std::fs::read_to_string(&p).map_or(0, |t| t.lines().count())
            }
        })
        .sum()
}
