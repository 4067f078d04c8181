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

/// How the label of a configuration that builds one area alone starts.
const ONE_AREA: &str = "one area: ";

/// Feature sets measured: (label, cargo arguments). `--no-default-features` also turns off the
/// default TLS provider, which would change the runtime's and reqwest's features and time their
/// rebuild too: every configuration keeps `tls-aws-lc`, so only the client crate is built.
/// `one_area` lists the area features to build alone (the largest first).
pub fn configurations(one_area: &[String]) -> Vec<(String, Vec<String>)> {
    let alone = |features: &str| {
        ["--no-default-features", "--features", features]
            .map(str::to_owned)
            .to_vec()
    };
    let mut out = vec![
        ("default (every area)".to_owned(), Vec::new()),
        (
            "every area + experimental".to_owned(),
            vec!["--features".to_owned(), "experimental".to_owned()],
        ),
        ("no area (client skeleton)".to_owned(), alone("tls-aws-lc")),
    ];
    for feature in one_area {
        out.push((
            format!("{ONE_AREA}{feature}"),
            alone(&format!("{feature},tls-aws-lc")),
        ));
    }
    out
}

/// Build times: of each configuration (every run), and from an empty target directory.
pub struct Measured {
    pub target: PathBuf,
    pub full: Option<Duration>,
    pub configurations: Vec<(String, Vec<String>, Vec<Duration>)>,
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
pub fn measure(
    root: &Path,
    runs: usize,
    full: bool,
    configurations: Vec<(String, Vec<String>)>,
) -> Result<Measured, String> {
    let target = target_dir(root);
    let full = if full {
        let _ = std::fs::remove_dir_all(&target);
        Some(cargo(root, &target, &["build", "-p", CRATE])?)
    } else {
        cargo(root, &target, &["build", "-p", CRATE])?; // dependencies, untimed
        None
    };
    let mut measured = Vec::new();
    for (label, extra) in configurations {
        eprintln!("compile: {label}, {runs} run(s)");
        let mut times = Vec::new();
        for _ in 0..runs {
            cargo(root, &target, &["clean", "-p", CRATE])?;
            let mut build = vec!["build", "-p", CRATE];
            build.extend(extra.iter().map(String::as_str));
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
    let every_area = args.iter().any(|a| a == "--every-area");
    let areas = super::compile::Areas::load(root)?;
    let one_area = areas.one_area_features(if every_area { usize::MAX } else { 3 });
    let measured = measure(root, runs, full, configurations(&one_area))?;
    let rows = super::compile::report(&areas, root, &measured);
    let mut text = format!(
        "cold build of `{CRATE}` (dev profile), median of {runs} run(s), target {}\n",
        measured.target.display()
    );
    if let Some(t) = measured.full {
        text += &format!(
            "{:<44} {:>8.1} s\n",
            "from an empty target dir (dependencies too)",
            t.as_secs_f64()
        );
    }
    text += &format!("{:<52} {:>10}\n", "configuration", "seconds");
    let median = |times: &[Duration]| super::Spread::of_durations(times).median;
    for (label, _, times) in &measured.configurations {
        text += &format!("{label:<52} {:>10.1}\n", median(times));
    }
    let slowest = measured
        .configurations
        .iter()
        .filter_map(|(label, _, times)| Some((median(times), label.strip_prefix(ONE_AREA)?)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((secs, label)) = slowest {
        text += &format!("slowest one-area build: {label}, {secs:.1} s (target: 3 s)\n");
    }
    // Lines per operation, operations per configuration and seconds per 100 operations.
    for row in rows
        .iter()
        .filter(|r| r.unit != "s" || r.measure.starts_with('…'))
    {
        text += &format!("{}: {:.1} {}\n", row.measure, row.spread.median, row.unit);
    }
    crate::out(&text);
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

/// The sum of `measure` over the files under `dir` (recursively).
pub fn sum_files(dir: &Path, measure: &dyn Fn(&Path) -> u64) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| e.path())
        .map(|p| {
            if p.is_dir() {
                sum_files(&p, measure)
            } else {
                measure(&p)
            }
        })
        .sum()
}

/// Lines of the files under `dir` (recursively).
pub fn count_lines(dir: &Path) -> usize {
    let lines = |p: &Path| std::fs::read_to_string(p).map_or(0, |t| t.lines().count() as u64);
    sum_files(dir, &lines) as usize
}
