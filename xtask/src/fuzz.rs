//! `cargo xtask fuzz --cases N [--seed S] [--compile K] [--timeout SECS] [--jobs J]`: runs the
//! generator on N randomly mutated copies of the base spec (see `mutate.rs`) and prints figures:
//! cases, accepted and rejected specs, panics, hangs over the time limit, unlocated
//! diagnostics, property violations of accepted output (Rust that does not parse, control
//! characters, HTML or code blocks in docs, broken tables), the slowest case and the largest
//! output per input byte. With `--compile K`, up to K accepted outputs are also compiled
//! (`cargo check`, offline) as modules of one temporary crate that depends on the workspace's
//! runtime by path. Exits non-zero when any figure other than the counts is not zero.
//!
//! Every case runs in its own thread with a deadline; a case past it is counted as a hang and
//! left running (the run goes on). Case `i` uses seed `S + i`, so `--seed S+i --cases 1`
//! repeats it; `--keep DIR` writes the spec of every failing case to `DIR/<seed>/`.

use crate::cli::FuzzArgs;
use crate::mutate::{self, Kind, Rng, Spec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

#[derive(Clone)]
struct Options {
    cases: usize,
    seed: u64,
    compile: usize,
    timeout: Duration,
    jobs: usize,
    keep: Option<PathBuf>,
}

impl Options {
    fn of(args: &FuzzArgs) -> Options {
        Options {
            cases: args.cases,
            seed: args.seed,
            compile: args.compile,
            timeout: Duration::from_secs(args.timeout.max(1)),
            jobs: args
                .jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1),
            keep: args.keep.clone(),
        }
    }
}

/// What one case gave.
enum CaseResult {
    Accepted {
        output_bytes: usize,
        accepted: BTreeMap<String, String>,
    },
    Rejected,
    Panicked(String),
    Hung,
}

#[derive(Default)]
struct Figures {
    cases: usize,
    accepted: usize,
    rejected: usize,
    panics: Vec<(u64, String)>,
    hangs: Vec<u64>,
    violations: BTreeMap<Kind, Vec<(u64, String)>>,
    slowest: (Duration, u64),
    worst_ratio: (f64, u64),
    /// Seeds (and output) of accepted specs, for the compile sample.
    sample: Vec<(u64, BTreeMap<String, String>)>,
}

pub fn run(root: &Path, args: &FuzzArgs) -> Result<(), String> {
    let o = Options::of(args);
    let started = Instant::now();
    let shared = Arc::new(Shared {
        base: Spec::base(root),
        tmp: std::env::temp_dir().join(format!("xtask-fuzz-{}", std::process::id())),
        messages: panic_messages(),
        next: AtomicUsize::new(0),
        figures: Mutex::new(Figures::default()),
        options: o.clone(),
        started,
    });
    let workers: Vec<_> = (0..o.jobs)
        .map(|w| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || worker(w, &shared))
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let _ = std::fs::remove_dir_all(&shared.tmp);
    let elapsed = started.elapsed();
    let mut f = std::mem::take(&mut *shared.figures.lock().expect("figures lock"));
    let compile = if o.compile > 0 {
        Some(compile_sample(root, &f.sample)?)
    } else {
        None
    };
    f.sample.clear();
    report(&o, &f, compile.as_ref(), elapsed)
}

/// What the workers share: the base spec, the next case, the figures.
struct Shared {
    base: Spec,
    tmp: PathBuf,
    messages: Arc<Mutex<BTreeMap<String, String>>>,
    next: AtomicUsize,
    figures: Mutex<Figures>,
    options: Options,
    started: Instant,
}

/// Installs a panic hook that records each panic's message (and place) under its thread's
/// name: panics are counted, not printed.
fn panic_messages() -> Arc<Mutex<BTreeMap<String, String>>> {
    let messages: Arc<Mutex<BTreeMap<String, String>>> = Arc::default();
    {
        let messages = Arc::clone(&messages);
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_owned();
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            messages
                .lock()
                .map(|mut m| m.insert(name, format!("{msg}{at}")))
                .ok();
        }));
    }
    messages
}

/// Runs cases until none are left, recording each in the shared figures.
fn worker(w: usize, shared: &Shared) {
    let o = &shared.options;
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= o.cases {
            break;
        }
        let seed = o.seed.wrapping_add(i as u64);
        let mut spec = shared.base.clone();
        for m in Rng::new(seed).mutations(4) {
            m.apply(&mut spec);
        }
        let dir = shared.tmp.join(format!("w{w}-{i}"));
        let t0 = Instant::now();
        let (result, problems) = one_case(&spec, &dir, seed, o.timeout, &shared.messages);
        let took = t0.elapsed();
        let hung = matches!(result, CaseResult::Hung);
        if !hung {
            let _ = std::fs::remove_dir_all(&dir);
        }
        let failed =
            !problems.is_empty() || matches!(result, CaseResult::Panicked(_) | CaseResult::Hung);
        if failed && let Some(keep) = &o.keep {
            let _ = spec.write(&keep.join(seed.to_string()));
        }
        let mut f = shared.figures.lock().expect("figures lock");
        f.record(seed, took, spec.size(), result, problems, o.compile);
        let done = f.cases;
        drop(f);
        if done % 1000 == 0 {
            eprintln!("  {done} cases ({:.0?})", shared.started.elapsed());
        }
    }
}

impl Figures {
    /// Counts one case.
    fn record(
        &mut self,
        seed: u64,
        took: Duration,
        spec_size: usize,
        result: CaseResult,
        problems: Vec<(Kind, String)>,
        compile: usize,
    ) {
        self.cases += 1;
        if took > self.slowest.0 {
            self.slowest = (took, seed);
        }
        match result {
            CaseResult::Accepted {
                output_bytes,
                accepted,
            } => {
                self.accepted += 1;
                let ratio = output_bytes as f64 / spec_size.max(1) as f64;
                if ratio > self.worst_ratio.0 {
                    self.worst_ratio = (ratio, seed);
                }
                if self.sample.len() < compile {
                    self.sample.push((seed, accepted));
                }
            }
            CaseResult::Rejected => self.rejected += 1,
            CaseResult::Panicked(msg) => self.panics.push((seed, msg)),
            CaseResult::Hung => self.hangs.push(seed),
        }
        for (kind, what) in problems {
            self.violations.entry(kind).or_default().push((seed, what));
        }
    }
}

/// Runs one case in its own thread, within `timeout`.
fn one_case(
    spec: &Spec,
    dir: &Path,
    seed: u64,
    timeout: Duration,
    messages: &Mutex<BTreeMap<String, String>>,
) -> (CaseResult, Vec<(Kind, String)>) {
    let (tx, rx) = mpsc::channel();
    let name = format!("fuzz-case-{seed}");
    let (spec, dir) = (spec.clone(), dir.to_path_buf());
    let spawned = std::thread::Builder::new()
        .name(name.clone())
        .stack_size(16 * 1024 * 1024)
        .spawn(move || {
            let outcome = mutate::generate(&spec, &dir);
            let problems = mutate::check(&outcome);
            let _ = tx.send((outcome, problems));
        });
    if let Err(e) = spawned {
        return (
            CaseResult::Panicked(format!("cannot start a thread: {e}")),
            vec![],
        );
    }
    match rx.recv_timeout(timeout) {
        Ok((Ok(files), problems)) => (
            CaseResult::Accepted {
                output_bytes: files.values().map(String::len).sum(),
                accepted: files,
            },
            problems,
        ),
        Ok((Err(_), problems)) => (CaseResult::Rejected, problems),
        Err(mpsc::RecvTimeoutError::Timeout) => (CaseResult::Hung, vec![]),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let msg = messages
                .lock()
                .ok()
                .and_then(|mut m| m.remove(&name))
                .unwrap_or_else(|| "panicked".to_owned());
            (CaseResult::Panicked(msg), vec![])
        }
    }
}

/// Per sampled case: None when it compiled, else the first error.
struct Compiled {
    checked: usize,
    failed: Vec<(u64, String)>,
    took: Duration,
}

/// Compiles the sampled outputs as modules of one temporary crate (`cargo check --offline`).
fn compile_sample(
    root: &Path,
    sample: &[(u64, BTreeMap<String, String>)],
) -> Result<Compiled, String> {
    let t0 = Instant::now();
    let dir = std::env::temp_dir().join(format!("xtask-fuzz-compile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &Path, text: &str| -> Result<(), String> {
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(|e| format!("create {}: {e}", p.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("write {}: {e}", path.display()))
    };
    let runtime = root.join("runtime");
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"fuzz-compile\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\nruckus-one-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\nbytes = \"1\"\n",
            runtime.display().to_string()
        ),
    )?;
    if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) {
        write(&dir.join("Cargo.lock"), &lock)?;
    }
    let mut lib = String::from("#![allow(warnings)]\n");
    for (seed, files) in sample {
        let case = dir.join(format!("case_{seed}"));
        for (rel, text) in files.iter() {
            write(&case.join(rel), text)?;
        }
        if let Some(librs) = files.keys().find(|k| k.ends_with("/src/lib.rs")) {
            lib.push_str(&format!(
                "#[path = {:?}]\npub mod case_{seed};\n",
                case.join(librs).display().to_string()
            ));
        }
    }
    write(&dir.join("src/lib.rs"), &lib)?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("fuzz-compile");
    let output =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["check", "--offline", "--quiet", "--message-format=short"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(&dir)
            .output()
            .map_err(|e| format!("run cargo check: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut failed: Vec<(u64, String)> = Vec::new();
    for line in stderr.lines().filter(|l| l.contains(": error")) {
        let seed = sample
            .iter()
            .map(|(s, _)| *s)
            .find(|s| line.contains(&format!("case_{s}/")));
        match seed {
            Some(s) if failed.iter().any(|(x, _)| *x == s) => {}
            Some(s) => failed.push((s, line.to_owned())),
            None => failed.push((0, line.to_owned())),
        }
    }
    if !output.status.success() && failed.is_empty() {
        failed.push((0, stderr.lines().take(5).collect::<Vec<_>>().join(" / ")));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(Compiled {
        checked: sample.len(),
        failed,
        took: t0.elapsed(),
    })
}

fn report(
    o: &Options,
    f: &Figures,
    compiled: Option<&Compiled>,
    elapsed: Duration,
) -> Result<(), String> {
    let count = |k: Kind| f.violations.get(&k).map_or(0, Vec::len);
    println!(
        "fuzz: {} cases (seeds {}..{}), {} jobs, {:.1} s",
        f.cases,
        o.seed,
        o.seed.wrapping_add(o.cases as u64),
        o.jobs,
        elapsed.as_secs_f64()
    );
    println!("  accepted                      {}", f.accepted);
    println!("  rejected with diagnostics     {}", f.rejected);
    println!("  panics                        {}", f.panics.len());
    println!(
        "  hangs over {:>3} s             {}",
        o.timeout.as_secs(),
        f.hangs.len()
    );
    println!("  unlocated diagnostics         {}", count(Kind::Unlocated));
    println!(
        "  diagnostics echoing controls  {}",
        count(Kind::RawControl)
    );
    println!("  accepted, Rust does not parse {}", count(Kind::RustParse));
    println!(
        "  accepted, control chars out   {}",
        count(Kind::OutputControl)
    );
    println!("  accepted, HTML/code/tables    {}", count(Kind::Markup));
    if let Some(c) = compiled {
        println!(
            "  accepted, does not compile    {} of {} compiled ({:.1} s)",
            c.failed.len(),
            c.checked,
            c.took.as_secs_f64()
        );
    }
    println!(
        "  slowest case                  {:.3} s (seed {})",
        f.slowest.0.as_secs_f64(),
        f.slowest.1
    );
    println!(
        "  largest output per input byte {:.1} (seed {})",
        f.worst_ratio.0, f.worst_ratio.1
    );
    let mut failures: Vec<String> = Vec::new();
    for (seed, msg) in &f.panics {
        failures.push(format!("panic (seed {seed}): {msg}"));
    }
    for seed in &f.hangs {
        failures.push(format!("hang (seed {seed})"));
    }
    for (kind, list) in &f.violations {
        for (seed, what) in list {
            failures.push(format!("{kind:?} (seed {seed}): {what}"));
        }
    }
    for (seed, what) in compiled.map(|c| c.failed.as_slice()).unwrap_or_default() {
        failures.push(format!("does not compile (seed {seed}): {what}"));
    }
    if failures.is_empty() {
        return Ok(());
    }
    for line in failures.iter().take(20) {
        println!("  - {line}");
    }
    if failures.len() > 20 {
        println!("  ... and {} more", failures.len() - 20);
    }
    Err(format!(
        "fuzz: {} failures (rerun one with --seed <seed> --cases 1 --keep DIR)",
        failures.len()
    ))
}
