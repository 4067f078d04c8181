//! `cargo xtask bench cli`: the command line's figures. Builds `ruckus` and the simulator's
//! binary in release mode (dev profile with `--quick`), then measures, from the spawn to the
//! first byte on standard output, `ruckus --help` and `ruckus --local venues list` (medians of
//! several runs); listing 10,000 APs with `--all` from a simulator in another process (so that
//! the figure is the command line's own): time to the first row, the whole run, and peak memory
//! (VmHWM, polled) against the same listing of 1,000 APs (flat memory: rows stream); the binary's
//! size; and the release build time of the crate itself (its dependencies already built). The
//! bash completion script: its size, the time bash takes to `source` it (timed inside bash with
//! `$EPOCHREALTIME`, so bash's own start is not counted), and the time `ruckus` takes to answer
//! one Tab press (`ruckus venues l<Tab>`).

use super::table::Row;
use crate::cli::BenchArgs;
use ruckus_bench_stats::{Spread, verdict};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let release = !options.quick;
    let build_s = build(root, release)?;
    let dir = target_dir(root).join(if release { "release" } else { "debug" });
    let ruckus = dir.join("ruckus");
    let sim = dir.join("ruckus-one-sim");
    let runs = options.runs.unwrap_or(if options.quick { 3 } else { 21 });

    let help = first_byte_times(&ruckus, &["--help"], runs)?;
    rows.push(Row::new(
        "cli",
        "start-up to first byte: `ruckus --help`".into(),
        millis(&help),
        "ms",
        target(&help, 20.0),
    ));
    let local = first_byte_times(&ruckus, &["--local", "venues", "list", "-o", "json"], runs)?;
    rows.push(Row::new(
        "cli",
        "start-up to first byte: `ruckus --local venues list`".into(),
        millis(&local),
        "ms",
        target(&local, 50.0),
    ));

    completion(&ruckus, runs, rows)?;

    // --quick (CI's harness check, dev profile): smaller listings, same code paths.
    let counts: [usize; 2] = if options.quick {
        [100, 1_000]
    } else {
        [1_000, 10_000]
    };
    for count in counts {
        let listing = list_aps(root, &sim, &ruckus, count, &LIST_APS)?;
        let label = format!("{count} APs with --all");
        rows.push(Row::new(
            "cli",
            format!("{label}: time to first row"),
            Spread::single(ms(listing.first_row)),
            "ms",
            String::new(),
        ));
        rows.push(Row::new(
            "cli",
            format!("{label}: whole listing"),
            Spread::single(ms(listing.total)),
            "ms",
            String::new(),
        ));
        rows.push(Row::new(
            "cli",
            format!("{label}: peak memory (VmHWM)"),
            Spread::single(listing.peak_kib as f64 / 1024.0),
            "MiB",
            String::new(),
        ));
    }
    let size = std::fs::metadata(&ruckus)
        .map_err(|e| format!("{}: {e}", ruckus.display()))?
        .len();
    rows.push(Row::new(
        "cli",
        "binary size".into(),
        Spread::single(size as f64 / (1024.0 * 1024.0)),
        "MiB",
        String::new(),
    ));
    if let Some(build_s) = build_s {
        rows.push(Row::new(
            "cli",
            "build of the crate alone (dependencies built)".into(),
            Spread::single(build_s),
            "s",
            String::new(),
        ));
    }
    Ok(())
}

/// The completion script's size, its sourcing time in bash, and one completion's answer time.
fn completion(ruckus: &Path, runs: usize, rows: &mut Vec<Row>) -> Result<(), String> {
    let script = Command::new(ruckus)
        .args(["completion", "bash"])
        .output()
        .map_err(|e| format!("ruckus completion bash: {e}"))?;
    if !script.status.success() {
        return Err("ruckus completion bash failed".into());
    }
    let kib = script.stdout.len() as f64 / 1024.0;
    rows.push(Row::new(
        "cli",
        "bash completion script size".into(),
        Spread::single(kib),
        "KiB",
        verdict(kib < 100.0, "< 100 KiB"),
    ));
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let file = dir.path().join("ruckus.bash");
    std::fs::write(&file, &script.stdout).map_err(|e| e.to_string())?;
    let timed = format!(
        "s=$EPOCHREALTIME; source '{}'; e=$EPOCHREALTIME; echo \"$s $e\"",
        file.display()
    );
    let mut sourcing = Vec::new();
    for _ in 0..runs {
        let out = Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &timed])
            .output()
            .map_err(|e| format!("cannot run bash: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout).replace(',', ".");
        let times: Vec<f64> = text
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        match times[..] {
            [start, end] => sourcing.push(Duration::from_secs_f64((end - start).max(0.0))),
            _ => return Err(format!("bash did not time the sourcing: {text:?}")),
        }
    }
    rows.push(Row::new(
        "cli",
        "bash: `source` of the completion script".into(),
        millis(&sourcing),
        "ms",
        target(&sourcing, 50.0),
    ));
    let mut answers = Vec::new();
    for _ in 0..runs {
        let t0 = Instant::now();
        let out = Command::new(ruckus)
            .args(["--", "ruckus", "venues", "l"])
            .env("COMPLETE", "bash")
            .env("_CLAP_COMPLETE_INDEX", "2")
            .output()
            .map_err(|e| e.to_string())?;
        answers.push(t0.elapsed());
        if !String::from_utf8_lossy(&out.stdout).contains("list") {
            return Err("the completion of `ruckus venues l` has no `list`".into());
        }
    }
    rows.push(Row::new(
        "cli",
        "completion answer: `ruckus venues l<Tab>`".into(),
        millis(&answers),
        "ms",
        String::new(),
    ));
    Ok(())
}

pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The spread of `times` in milliseconds.
fn millis(times: &[Duration]) -> Spread {
    Spread::of(&times.iter().map(|t| ms(*t)).collect::<Vec<_>>())
}

fn target(times: &[Duration], limit_ms: f64) -> String {
    let median = millis(times).median;
    verdict(median < limit_ms, &format!("< {limit_ms} ms"))
}

pub(super) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

fn cargo(root: &Path, release: bool, args: &[&str]) -> Result<bool, String> {
    let profile: &[&str] = if release { &["--release"] } else { &[] };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(&cargo)
        .args(args)
        .args(profile)
        .current_dir(root)
        .status()
        .map(|s| s.success())
        .map_err(|e| format!("cannot run cargo: {e}"))
}

/// Builds `ruckus` and the simulator's binary (release, or the dev profile); returns their
/// directory.
pub(super) fn build_bins(root: &Path, release: bool) -> Result<PathBuf, String> {
    eprintln!("building `ruckus` and `ruckus-one-sim`");
    let args = [
        "build",
        "--quiet",
        "-p",
        "ruckus-one-cli",
        "-p",
        "ruckus-one-sim",
        "--bins",
    ];
    if !cargo(root, release, &args)? {
        return Err("the build failed".into());
    }
    Ok(target_dir(root).join(if release { "release" } else { "debug" }))
}

/// Builds both binaries, then (in release mode) rebuilds the command line's crate alone (its
/// sources touched) and returns that build's wall time in seconds.
pub(super) fn build(root: &Path, release: bool) -> Result<Option<f64>, String> {
    build_bins(root, release)?;
    let status = |args: &[&str]| cargo(root, release, args);
    if !release {
        return Ok(None);
    }
    let main = root.join("cli/src/main.rs");
    let text = std::fs::read(&main).map_err(|e| e.to_string())?;
    std::fs::write(&main, text).map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    if !status(&["build", "--quiet", "-p", "ruckus-one-cli", "--bins"])? {
        return Err("the rebuild failed".into());
    }
    Ok(Some(t0.elapsed().as_secs_f64()))
}

/// Spawn to first byte of standard output, `runs` times (after one warm-up run).
fn first_byte_times(bin: &Path, args: &[&str], runs: usize) -> Result<Vec<Duration>, String> {
    let mut times = Vec::new();
    for n in 0..=runs {
        let t0 = Instant::now();
        let mut child = spawn(bin, args, &[])?;
        let mut out = child.stdout.take().ok_or("no stdout")?;
        let mut byte = [0u8; 1];
        out.read_exact(&mut byte)
            .map_err(|e| format!("{args:?}: no output: {e}"))?;
        let elapsed = t0.elapsed();
        std::io::copy(&mut out, &mut std::io::sink()).map_err(|e| e.to_string())?;
        let status = child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("ruckus {args:?} failed: {status}"));
        }
        if n > 0 {
            times.push(elapsed);
        }
    }
    Ok(times)
}

pub(super) fn spawn(bin: &Path, args: &[&str], env: &[(&str, String)]) -> Result<Child, String> {
    Command::new(bin)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))
}

pub(super) struct Listing {
    pub(super) first_row: Duration,
    pub(super) total: Duration,
    pub(super) peak_kib: u64,
}

/// A command that lists the seeded APs, one line each after `headings` lines; or, not `lines`,
/// writes them in a binary form (XLSX) whose rows are not counted.
pub(super) struct Lister {
    pub(super) args: &'static [&'static str],
    pub(super) headings: usize,
    pub(super) lines: bool,
}

const LIST_APS: Lister = Lister {
    args: &["aps", "list", "--all", "--page-size", "500", "-o", "jsonl"],
    headings: 0,
    lines: true,
};

/// Lists `count` APs seeded into a simulator process with `lister` (`ruckus aps list --all`).
pub(super) fn list_aps(
    root: &Path,
    sim_bin: &Path,
    ruckus: &Path,
    count: usize,
    lister: &Lister,
) -> Result<Listing, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let seed = dir.path().join("aps.json");
    let aps: Vec<String> = (0..count)
        .map(|n| format!(r#"{{"serialNumber":"{:012}","name":"ap-{n}","model":"R770","status":"2_00_Operational","venueId":"v-1","macAddress":"00:11:22:33:44:55"}}"#, n))
        .collect();
    let text = format!(
        r#"{{"objects":{{"sim-tenant":{{"/venues":[{{"id":"v-1","name":"Bench"}}],"/venues/v-1/aps":[{}]}}}}}}"#,
        aps.join(",")
    );
    std::fs::write(&seed, text).map_err(|e| e.to_string())?;
    let seed_arg = seed.display().to_string();
    let (mut sim, env) = start_sim(root, sim_bin, &["--seed", &seed_arg, "--no-rate-limits"])?;
    let result = measure_listing(ruckus, &env, count, lister);
    let _ = sim.kill();
    let _ = sim.wait();
    result
}

/// The variables that point `ruckus` at a simulator.
pub(super) type SimEnv = [(&'static str, String); 4];

/// The simulator's binary started with `args`, and the environment that points `ruckus` at
/// it (its default credentials and tenant).
pub(super) fn start_sim(
    root: &Path,
    sim_bin: &Path,
    args: &[&str],
) -> Result<(Child, SimEnv), String> {
    let mut sim = Command::new(sim_bin)
        .args(args)
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run the simulator: {e}"))?;
    let mut line = String::new();
    BufReader::new(sim.stdout.take().ok_or("no stdout")?)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .ok_or("the simulator did not start")?
        .to_owned();
    let env = [
        ("RUCKUS_CLIENT_ID", "sim-client-id".to_owned()),
        ("RUCKUS_CLIENT_SECRET", "sim-client-secret".to_owned()),
        ("RUCKUS_TENANT_ID", "sim-tenant".to_owned()),
        ("RUCKUS_BASE_URL", base),
    ];
    Ok((sim, env))
}

fn measure_listing(
    ruckus: &Path,
    env: &[(&str, String)],
    count: usize,
    lister: &Lister,
) -> Result<Listing, String> {
    let t0 = Instant::now();
    let mut child = spawn(ruckus, lister.args, env)?;
    let pid = child.id();
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let watcher = {
        let peak = peak.clone();
        std::thread::spawn(move || {
            while let Some(kib) = vm_hwm(pid) {
                peak.fetch_max(kib, std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let mut out = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    if !lister.lines {
        let mut bytes = Vec::new();
        out.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        let total = t0.elapsed();
        let status = child.wait().map_err(|e| e.to_string())?;
        let _ = watcher.join();
        if !status.success() || bytes.is_empty() {
            return Err(format!("{:?} over {count} APs: {status}", lister.args));
        }
        return Ok(Listing {
            first_row: total,
            total,
            peak_kib: peak.load(std::sync::atomic::Ordering::Relaxed),
        });
    }
    let mut line = String::new();
    for _ in 0..lister.headings {
        out.read_line(&mut line).map_err(|e| e.to_string())?;
    }
    line.clear();
    out.read_line(&mut line).map_err(|e| e.to_string())?;
    let first_row = t0.elapsed();
    let mut rows = usize::from(!line.is_empty());
    loop {
        line.clear();
        if out.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            break;
        }
        rows += 1;
    }
    let total = t0.elapsed();
    let status = child.wait().map_err(|e| e.to_string())?;
    let _ = watcher.join();
    if !status.success() || rows != count {
        return Err(format!("listing {count} APs: {rows} rows, {status}"));
    }
    Ok(Listing {
        first_row,
        total,
        peak_kib: peak.load(std::sync::atomic::Ordering::Relaxed),
    })
}

/// The process's peak resident set (KiB), while it runs (Linux).
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
