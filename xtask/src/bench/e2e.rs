//! `cargo xtask generate` end to end, as a maintainer runs it (`cargo` included), into a
//! temporary output directory from a copy of the spec, so the workspace is not touched:
//!
//! - warm, nothing changed: the run after a first one (the inputs and the output are as that
//!   run left them: it stops at once);
//! - warm, one area edited: the title of the first area file changes before each run (its
//!   Rust, its API's module and its Markdown page change; everything is loaded, validated and
//!   emitted, the formatted Rust of unchanged pieces comes from the cache);
//! - cold cache: `--no-cache` (everything is formatted), as after a change of the generator;
//!
//! each on the spec (1×) and on a copy one half as large again (1.5×: the size the spec grows
//! to with the drafted operations). Medians of `runs` runs; wall time (the target: under 1 s
//! warm) and the CPU time of cargo and xtask. `--quick` runs the fixture spec once.

use super::build::children_cpu_seconds;
use super::generator::{Push, TempDir};
use super::synth;
use ruckus_bench_stats::{Spread, verdict};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// How a timed run starts.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Unchanged,
    Edited,
    Cold,
}

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Mode::Unchanged => "warm, nothing changed",
            Mode::Edited => "warm, one area edited",
            Mode::Cold => "cold cache (`--no-cache`)",
        }
    }
}

pub fn run(
    root: &Path,
    top: &Path,
    quick: bool,
    runs: usize,
    push: &mut Push<'_>,
) -> Result<(), String> {
    let temp = TempDir::new("e2e")?;
    let sizes: &[f64] = if quick { &[1.0] } else { &[1.0, 1.5] };
    for &factor in sizes {
        let copy = synth::scaled(top, factor, &temp.0.join(format!("spec{factor}")))?;
        let out = temp.0.join(format!("out{factor}"));
        for mode in [Mode::Unchanged, Mode::Edited, Mode::Cold] {
            eprintln!(
                "generator: `cargo xtask generate` end to end, {factor}× spec, {}, {runs} run(s)",
                mode.label()
            );
            let (wall, cpu) = timed(root, &copy.top, &out, mode, runs)?;
            let target = match mode {
                Mode::Cold => String::new(),
                _ => verdict(wall.median < 1.0, "< 1 s"),
            };
            let at = format!(
                "`cargo xtask generate` end to end, {factor}× spec, {}",
                mode.label()
            );
            push(at.clone(), wall, "s", target);
            push(
                format!("{at}: CPU time of cargo and xtask"),
                cpu,
                "s",
                String::new(),
            );
        }
    }
    Ok(())
}

/// One untimed run (it fills the output and the caches), then `runs` timed ones started as
/// `mode` says. Returns the wall times and the CPU times (cargo and xtask, user + system).
fn timed(
    root: &Path,
    top: &Path,
    out: &Path,
    mode: Mode,
    runs: usize,
) -> Result<(Spread, Spread), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let area = first_area(top)?;
    let original = std::fs::read_to_string(&area)
        .map_err(|e| format!("cannot read {}: {e}", area.display()))?;
    let (mut times, mut cpu) = (Vec::new(), Vec::new());
    for i in 0..=runs {
        if mode == Mode::Edited {
            let edited = original.replacen("\ntitle: ", &format!("\ntitle: Edit {i} of "), 1);
            std::fs::write(&area, edited).map_err(|e| format!("cannot edit the copy: {e}"))?;
        }
        let mut command = Command::new(&cargo);
        command
            .args(["xtask", "generate", "--spec"])
            .arg(top)
            .arg("--out")
            .arg(out);
        if mode == Mode::Cold {
            command.arg("--no-cache");
        }
        let (started, before) = (Instant::now(), children_cpu_seconds());
        let output = command
            .current_dir(root)
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        let elapsed = started.elapsed().as_secs_f64();
        if !output.status.success() {
            return Err(format!(
                "`cargo xtask generate` failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        if i > 0 {
            times.push(elapsed);
            cpu.push(children_cpu_seconds() - before);
        }
    }
    std::fs::write(&area, original).map_err(|e| format!("cannot restore the copy: {e}"))?;
    Ok((Spread::of(&times), Spread::of(&cpu)))
}

/// The first area file the top-level file lists.
fn first_area(top: &Path) -> Result<std::path::PathBuf, String> {
    let text =
        std::fs::read_to_string(top).map_err(|e| format!("cannot read {}: {e}", top.display()))?;
    let value: serde_yaml::Value =
        serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", top.display()))?;
    let api = &value["apis"][0];
    let (Some(name), Some(area)) = (api["name"].as_str(), api["areas"][0].as_str()) else {
        return Err(format!("{}: no API with an area", top.display()));
    };
    let dir = top.parent().unwrap_or(Path::new("."));
    Ok(dir.join(name).join(format!("{area}.yaml")))
}
