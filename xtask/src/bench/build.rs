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
pub const ONE_AREA: &str = "one area: ";
/// The label of the default build (every area).
pub const DEFAULT: &str = "default (every area)";

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
        (DEFAULT.to_owned(), Vec::new()),
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
    /// CPU seconds (cargo and rustc, user + system) of each run, as `configurations`.
    pub cpu: Vec<Vec<f64>>,
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
    let mut cpu = Vec::new();
    for (label, extra) in configurations {
        eprintln!("compile: {label}, {runs} run(s)");
        let (mut times, mut seconds) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            cargo(root, &target, &["clean", "-p", CRATE])?;
            let mut build = vec!["build", "-p", CRATE];
            build.extend(extra.iter().map(String::as_str));
            let before = children_cpu_seconds();
            times.push(cargo(root, &target, &build)?);
            seconds.push(children_cpu_seconds() - before);
        }
        measured.push((label, extra, times));
        cpu.push(seconds);
    }
    Ok(Measured {
        target,
        full,
        configurations: measured,
        cpu,
    })
}

/// The profile these builds use whatever the caller's environment says: the dev profile as a
/// new application builds a dependency from crates.io (cargo's default full debug info, no
/// optimisation, not incremental). The workspace's own `line-tables-only` and a shell's
/// `CARGO_PROFILE_DEV_DEBUG=false` would each report a cheaper build than users get.
pub const PROFILE: [(&str, &str); 3] = [
    ("CARGO_INCREMENTAL", "0"),
    ("CARGO_PROFILE_DEV_DEBUG", "true"),
    ("CARGO_PROFILE_DEV_OPT_LEVEL", "0"),
];

fn cargo(root: &Path, target: &Path, args: &[&str]) -> Result<Duration, String> {
    let started = Instant::now();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .arg("--quiet")
        .envs(PROFILE)
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

/// CPU time (user + system) of the child processes waited for so far (`cutime` and `cstime`
/// of `/proc/self/stat`, in clock ticks of 10 ms), in seconds; 0 without /proc.
pub fn children_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command name (which may hold spaces) start at field 3; cutime and
    // cstime are fields 16 and 17.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(13), ticks(14)) {
        (Some(user), Some(system)) => (user + system) / 100.0,
        _ => 0.0,
    }
}
