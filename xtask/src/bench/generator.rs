//! `cargo xtask bench generator`: the generator's wall time and peak memory.
//!
//! Every in-process figure comes from a child process (this binary, `bench --child SPEC`), so
//! that each run starts from a fresh heap and its peak resident memory (`VmHWM`) is its own:
//!
//! - the full spec: load + validate ([`ruckus_codegen::build`]), and load + validate + emit of
//!   the client crate, docs and OpenAPI export ([`ruckus_codegen::generate_all`], what `cargo
//!   xtask generate` runs);
//! - `cargo xtask generate` end to end as a maintainer runs it (warm: after a first run),
//!   writing into a temporary directory so the workspace is not touched;
//! - synthetic specs of 1×, 4× and 16× today's operations ([`synth::replicate`]): time, peak
//!   memory and memory per input byte, and whether they grow linearly (judged on CPU time, which
//!   other work on a shared machine changes least; wall time is shown too);
//! - one area file of small object types added to the spec ([`synth::with_small_types`]) at two
//!   sizes: memory per byte of that file.
//!
//! `--quick` runs every step once on a small fixture spec ([`QUICK_SPEC`]) instead of the
//! workspace's: the harness is exercised in a few seconds; the figures mean nothing.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The spec `--quick` measures, relative to the workspace root: a valid fixture of a few
/// operations.
pub const QUICK_SPEC: &str = "tests/fixtures/valid/operations/ruckus-one.yaml";

use super::synth::{self, Synthetic};
use super::table::Row;
use crate::cli::BenchArgs;
use crate::workspace::SPEC;
use ruckus_bench_stats::{Spread, verdict};

/// What one child run measured.
#[derive(Clone, Copy, Debug)]
struct Child {
    /// Seconds of `build` (load + validate).
    build: f64,
    /// Seconds of `generate_all` (load + validate + emit of the crate, docs and OpenAPI).
    all: f64,
    /// CPU seconds of `generate_all`, every thread (it runs its jobs on several): what other work on
    /// the machine changes least.
    cpu: f64,
    /// `VmHWM` before any work, KiB.
    base_kib: f64,
    /// `VmHWM` at the end, KiB.
    peak_kib: f64,
    /// Operations in the spec (removed ones included).
    operations: f64,
    /// Bytes of generated output.
    output_bytes: f64,
}

impl Child {
    /// What `cargo xtask generate` spends in the generator.
    fn total(&self) -> f64 {
        self.all
    }

    /// Seconds of emitting, beyond load + validate.
    fn emit(&self) -> f64 {
        self.all - self.build
    }

    /// Peak memory above the process's own start, KiB.
    fn grown_kib(&self) -> f64 {
        self.peak_kib - self.base_kib
    }
}

/// The child: runs the generator on `spec` and prints its figures on one line.
pub fn child(spec: &Path) -> Result<(), String> {
    let report = |d: Vec<ruckus_codegen::Diagnostic>| {
        let first: Vec<String> = d.iter().take(5).map(|d| d.to_string()).collect();
        format!(
            "{} error(s) in {}:\n{}",
            d.len(),
            spec.display(),
            first.join("\n")
        )
    };
    let base = vm_hwm_kib();
    let t = Instant::now();
    let ir = ruckus_codegen::build(spec).map_err(report)?;
    let build = t.elapsed().as_secs_f64();
    let operations: usize = ir
        .apis
        .iter()
        .flat_map(|a| &a.areas)
        .map(|a| a.operations.len())
        .sum();
    drop(ir);
    // As `run_generator` in main.rs.
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let files = ruckus_codegen::generate_all(spec).map_err(report)?;
    let all = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    let output_bytes: usize = files.values().map(String::len).sum();
    let peak = vm_hwm_kib();
    println!("{build} {all} {cpu} {base} {peak} {operations} {output_bytes}");
    Ok(())
}

/// Peak resident memory of this process so far (`VmHWM`), in KiB; 0 without /proc.
fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// CPU time of this process so far, every thread (user + system, `/proc/self/stat`, clock
/// ticks of 10 ms), in seconds; 0 without /proc.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // utime and stime are fields 14 and 15; the name (field 2) may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => (user + system) / 100.0,
        _ => 0.0,
    }
}

/// Runs the child `runs` times on `top`.
fn children(top: &Path, runs: usize, env: &[(&str, String)]) -> Result<Vec<Child>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find xtask itself: {e}"))?;
    (0..runs)
        .map(|_| {
            let output = Command::new(&exe)
                .args(["bench", "--child"])
                .arg(top)
                .envs(env.iter().map(|(k, v)| (k, v)))
                .output()
                .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
            if !output.status.success() {
                return Err(format!(
                    "the generator failed on {}:\n{}",
                    top.display(),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            let text = String::from_utf8_lossy(&output.stdout);
            let n: Vec<f64> = text
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            match n[..] {
                [
                    build,
                    all,
                    cpu,
                    base_kib,
                    peak_kib,
                    operations,
                    output_bytes,
                ] => Ok(Child {
                    build,
                    all,
                    cpu,
                    base_kib,
                    peak_kib,
                    operations,
                    output_bytes,
                }),
                _ => Err(format!("unexpected child output: {text}")),
            }
        })
        .collect()
}

fn spread(runs: &[Child], f: impl Fn(&Child) -> f64) -> Spread {
    Spread::of(&runs.iter().map(f).collect::<Vec<_>>())
}

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let top = root.join(if options.quick { QUICK_SPEC } else { SPEC });
    let runs = options.runs.unwrap_or(if options.quick { 1 } else { 5 });
    let mut push = |measure: String, spread: Spread, unit: &str, target: String| {
        rows.push(Row::new("generator", measure, spread, unit, target));
    };
    let full = full_spec(root, &top, runs, &mut push)?;

    // End to end, as a maintainer runs it: nothing changed, one area edited, no cache; on the
    // spec and on one half as large again.
    super::e2e::run(root, &top, options.quick, runs, &mut push)?;

    let temp = TempDir::new("scale")?;
    scaling(&top, runs, options.quick, &temp, &mut push)?;
    small_types(&top, options.quick, &full, &temp, &mut push)
}

/// How a part hands its rows over: measure, spread, unit, target.
pub(super) type Push<'p> = dyn FnMut(String, Spread, &str, String) + 'p;

/// The full spec, in process: build, emit, both, peak memory. Returns the runs.
fn full_spec(
    root: &Path,
    top: &Path,
    runs: usize,
    push: &mut Push<'_>,
) -> Result<Vec<Child>, String> {
    eprintln!("generator: {} in process, {runs} run(s)", top.display());
    let full = children(top, runs, &[])?;
    let ops = full[0].operations;
    let spec_bytes = spec_bytes(top.parent().unwrap_or(root));
    let which = if top.ends_with(SPEC) {
        "full spec"
    } else {
        "fixture spec"
    };
    let at = format!("{which} ({ops} operations, {} KB)", spec_bytes / 1000);
    push(
        format!("{at}: load + validate"),
        spread(&full, |c| c.build),
        "s",
        String::new(),
    );
    push(
        format!("{at}: emit crate, docs and OpenAPI"),
        spread(&full, Child::emit),
        "s",
        String::new(),
    );
    push(
        format!("{at}: load + validate + emit, in process (what `cargo xtask generate` runs)"),
        spread(&full, Child::total),
        "s",
        String::new(),
    );
    push(
        format!("{at}: peak memory"),
        spread(&full, |c| c.peak_kib / 1024.0),
        "MiB",
        String::new(),
    );

    Ok(full)
}

/// Scaling: 1×, 4×, 16× today's operations (1× and 2× with `--quick`), then the ratios of the
/// largest to 1×.
fn scaling(
    top: &Path,
    runs: usize,
    quick: bool,
    temp: &TempDir,
    push: &mut Push<'_>,
) -> Result<(), String> {
    let factors: &[(usize, usize)] = if quick {
        &[(1, 1), (2, 1)]
    } else {
        &[(1, runs), (4, 3.min(runs)), (16, 3.min(runs))]
    };
    let mut measured: Vec<(usize, Synthetic, Vec<Child>)> = Vec::new();
    for &(factor, runs) in factors {
        eprintln!("generator: synthetic spec {factor}×, {runs} run(s)");
        let spec = synth::replicate(top, factor, &temp.0.join(format!("x{factor}")))?;
        let results = children(&spec.top, runs, &[])?;
        measured.push((factor, spec, results));
    }
    for (factor, spec, results) in &measured {
        let at = format!(
            "{factor}× spec ({} operations, {:.1} MB)",
            results[0].operations,
            spec.bytes as f64 / 1e6
        );
        push(
            format!("{at}: time"),
            spread(results, Child::total),
            "s",
            String::new(),
        );
        push(
            format!("{at}: CPU time"),
            spread(results, |c| c.cpu),
            "s",
            String::new(),
        );
        push(
            format!("{at}: peak memory"),
            spread(results, |c| c.peak_kib / 1024.0),
            "MiB",
            String::new(),
        );
        push(
            format!("{at}: memory per input byte"),
            spread(results, |c| c.grown_kib() * 1024.0 / spec.bytes as f64),
            "B/B",
            String::new(),
        );
    }
    scaling_ratios(&measured, push);
    Ok(())
}

/// Time, CPU time and memory of the largest synthetic spec over 1×, with the linearity verdict.
fn scaling_ratios(measured: &[(usize, Synthetic, Vec<Child>)], push: &mut Push<'_>) {
    if let [(1, _, one), .., (last, _, big)] = measured {
        let base_mem = spread(one, Child::grown_kib).median;
        let time = spread(big, Child::total).median / spread(one, Child::total).median;
        let cpu = spread(big, |c| c.cpu).median / spread(one, |c| c.cpu).median;
        let memory = spread(big, Child::grown_kib).median / base_mem;
        let linear = |ratio: f64| verdict(ratio <= *last as f64 * 1.25, "linear (≤ 1.25 × factor)");
        // Wall time moves with other work on a shared machine; the verdict is on CPU time.
        push(
            format!("wall time {last}× / 1× (linear: {last})"),
            Spread::single(time),
            "ratio",
            String::new(),
        );
        push(
            format!("CPU time {last}× / 1× (linear: {last})"),
            Spread::single(cpu),
            "ratio",
            linear(cpu),
        );
        push(
            format!("peak memory above start {last}× / 1× (linear: {last})"),
            Spread::single(memory),
            "ratio",
            linear(memory),
        );
    }
}

/// One area file of small types: memory and output per byte of that file.
fn small_types(
    top: &Path,
    quick: bool,
    full: &[Child],
    temp: &TempDir,
    push: &mut Push<'_>,
) -> Result<(), String> {
    let sizes: &[usize] = if quick { &[20] } else { &[4_000, 16_000] };
    let plain = spread(full, Child::grown_kib).median;
    for &count in sizes {
        eprintln!("generator: spec + area file of {count} small types");
        let spec = synth::with_small_types(top, count, &temp.0.join(format!("small{count}")))?;
        // The added file may be above the default limit of 4 MiB per file.
        let limit = ruckus_codegen::limits::Limits::default().max_file_bytes;
        let env = [(
            ruckus_codegen::limits::ENV_FILE_BYTES,
            limit.max(spec.extra_bytes * 2).to_string(),
        )];
        let results = children(&spec.top, 1, &env)?;
        let at = format!(
            "spec + area file of {count} small types ({:.2} MB)",
            spec.extra_bytes as f64 / 1e6
        );
        push(
            format!("{at}: time"),
            spread(&results, Child::total),
            "s",
            String::new(),
        );
        push(
            format!("{at}: peak memory"),
            spread(&results, |c| c.peak_kib / 1024.0),
            "MiB",
            String::new(),
        );
        push(
            format!("{at}: memory per byte of that file"),
            spread(&results, |c| {
                (c.grown_kib() - plain) * 1024.0 / spec.extra_bytes as f64
            }),
            "B/B",
            String::new(),
        );
        push(
            format!("{at}: output per byte of that file"),
            spread(&results, |c| {
                (c.output_bytes - full[0].output_bytes) / spec.extra_bytes as f64
            }),
            "B/B",
            String::new(),
        );
    }
    Ok(())
}

/// Bytes of the YAML files under `dir`.
fn spec_bytes(dir: &Path) -> u64 {
    let yaml_bytes = |p: &Path| {
        if p.extension().is_some_and(|e| e == "yaml") {
            std::fs::metadata(p).map_or(0, |m| m.len())
        } else {
            0
        }
    };
    super::build::sum_files(dir, &yaml_bytes)
}

/// A directory under the system's temporary directory, removed when dropped.
pub(super) struct TempDir(pub(super) std::path::PathBuf);

impl TempDir {
    pub(super) fn new(what: &str) -> Result<TempDir, String> {
        let dir = std::env::temp_dir().join(format!("ruckus-bench-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
