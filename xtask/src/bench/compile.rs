//! `cargo xtask bench compile`: the `bench-build` figures (cold debug builds of the client crate
//! per feature set), lines of generated Rust per operation, and debug build seconds per 100
//! operations, so growth from typed bodies shows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::build::{self, CRATE, ONE_AREA};
use super::table::Row;
use crate::cli::{BenchArgs, BenchBuildArgs};
use crate::workspace::{SPEC, out};
use ruckus_bench_stats::Spread;
use std::time::Duration;

/// The lines of an area's code: its module file `<area>.rs` and the files of `<area>/` it
/// includes (0 for what cannot be read).
fn area_lines(api_dir: &Path, area: &str) -> usize {
    let count = |file: &Path| std::fs::read_to_string(file).map_or(0, |t| t.lines().count());
    let parts = std::fs::read_dir(api_dir.join(area))
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| count(&entry.path()))
        .sum::<usize>();
    count(&api_dir.join(format!("{area}.rs"))) + parts
}

/// Operations compiled per area feature, and the lines of each area's code.
pub(super) struct Areas {
    /// Area feature -> (operations without the experimental feature, experimental ones, lines).
    by_feature: BTreeMap<String, (usize, usize, usize)>,
    /// Feature -> the features it turns on.
    features: BTreeMap<String, Vec<String>>,
}

impl Areas {
    pub(super) fn load(root: &Path) -> Result<Areas, String> {
        let ir = ruckus_codegen::build(&root.join(SPEC))
            .map_err(|d| format!("the spec has {} error(s)", d.len()))?;
        let src = root.join("generated").join(CRATE).join("src");
        let mut by_feature = BTreeMap::new();
        for api in &ir.apis {
            for area in &api.areas {
                let (mut plain, mut experimental) = (0, 0);
                for op in &area.operations {
                    match op.lifecycle.label() {
                        "removed" => {}
                        "experimental" => experimental += 1,
                        _ => plain += 1,
                    }
                }
                let lines = area_lines(&src.join(&api.name), &area.name);
                by_feature.insert(area.feature.clone(), (plain, experimental, lines));
            }
        }
        let manifest =
            std::fs::read_to_string(root.join("generated").join(CRATE).join("Cargo.toml"))
                .map_err(|e| format!("cannot read the client crate's manifest: {e}"))?;
        Ok(Areas {
            by_feature,
            features: features(&manifest),
        })
    }

    /// The features of areas with operations, the one with the largest file first (then by
    /// name), at most `count` of them.
    pub(super) fn one_area_features(&self, count: usize) -> Vec<String> {
        let mut areas: Vec<(&String, usize)> = self
            .by_feature
            .iter()
            .filter(|(_, (plain, exp, _))| plain + exp > 0)
            .map(|(feature, (_, _, lines))| (feature, *lines))
            .collect();
        areas.sort_by_key(|(feature, lines)| (std::cmp::Reverse(*lines), *feature));
        areas
            .into_iter()
            .take(count)
            .map(|(feature, _)| feature.clone())
            .collect()
    }

    /// Operations compiled with cargo arguments `args` (`--features`, `--no-default-features`).
    fn operations(&self, args: &[String]) -> usize {
        let mut wanted: Vec<String> = Vec::new();
        if !args.iter().any(|a| a == "--no-default-features") {
            wanted.push("default".into());
        }
        if let Some(i) = args.iter().position(|a| *a == "--features") {
            wanted.extend(
                args.get(i + 1)
                    .into_iter()
                    .flat_map(|f| f.split(','))
                    .map(str::to_owned),
            );
        }
        let mut on = BTreeSet::new();
        while let Some(f) = wanted.pop() {
            if on.insert(f.clone()) {
                wanted.extend(self.features.get(&f).into_iter().flatten().cloned());
            }
        }
        let experimental = on.contains("experimental");
        self.by_feature
            .iter()
            .filter(|(feature, _)| on.contains(*feature))
            .map(|(_, (plain, exp, _))| plain + if experimental { *exp } else { 0 })
            .sum()
    }
}

/// The `[features]` table of a manifest: name -> the features it lists.
fn features(manifest: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') && !line.contains('=') {
            inside = line == "[features]";
            continue;
        }
        let Some((name, list)) = line.split_once('=').filter(|_| inside) else {
            continue;
        };
        let items = list
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect();
        out.insert(name.trim().to_owned(), items);
    }
    out
}

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let areas = Areas::load(root)?;
    line_rows(root, &areas, rows);
    if options.quick {
        rows.push(Row::new(
            "compile",
            "cold debug builds: skipped with --quick".into(),
            Spread::single(f64::NAN),
            "s",
            String::new(),
        ));
        return Ok(());
    }
    let runs = options.runs.unwrap_or(3);
    let configurations = build::configurations(&areas.one_area_features(3));
    let measured = build::measure(root, runs, options.full, configurations)?;
    build_rows(&areas, &measured, rows);
    Ok(())
}

/// The rows of `cargo xtask bench-build`'s report: lines per operation, then the builds of
/// `measured` with seconds per 100 operations.
pub(super) fn report(areas: &Areas, root: &Path, measured: &build::Measured) -> Vec<Row> {
    let mut rows = Vec::new();
    line_rows(root, areas, &mut rows);
    build_rows(areas, measured, &mut rows);
    rows
}

/// Lines of generated Rust per operation: the whole crate, and its three largest areas (each its
/// module file and the files it includes).
fn line_rows(root: &Path, areas: &Areas, rows: &mut Vec<Row>) {
    let bench = "compile";
    let src = root.join("generated").join(CRATE).join("src");
    let lines = build::count_lines(&src);
    let all_ops = areas.operations(&["--features".to_owned(), "experimental".to_owned()]);
    rows.push(Row::new(
        bench,
        format!("generated Rust: {lines} lines, {all_ops} operations (experimental included)"),
        Spread::single(lines as f64 / all_ops as f64),
        "lines/op",
        String::new(),
    ));
    for feature in areas.one_area_features(3) {
        let (plain, exp, lines) = areas.by_feature[&feature];
        let ops = plain + exp;
        rows.push(Row::new(
            bench,
            format!("area {feature}: {lines} lines, {ops} operations"),
            Spread::single(lines as f64 / ops as f64),
            "lines/op",
            String::new(),
        ));
    }
}

/// The fewest operations a configuration needs for its seconds per 100 operations to be shown.
const PER_100_MIN_OPERATIONS: usize = 40;

/// Build seconds per configuration and per 100 operations above the skeleton (no area).
fn build_rows(areas: &Areas, measured: &build::Measured, rows: &mut Vec<Row>) {
    let bench = "compile";
    if let Some(t) = measured.full {
        rows.push(Row::new(
            bench,
            "cold debug build from an empty target dir (dependencies too)".into(),
            Spread::single(t.as_secs_f64()),
            "s",
            String::new(),
        ));
    }
    let secs = Spread::of_durations;
    let skeleton = measured
        .configurations
        .iter()
        .find(|(_, args, _)| areas.operations(args) == 0)
        .map_or(0.0, |(_, _, times)| secs(times).median);
    for (label, args, times) in &measured.configurations {
        let ops = areas.operations(args);
        let spread = secs(times);
        rows.push(Row::new(
            bench,
            format!("cold debug build of `{CRATE}`, {label} ({ops} operations)"),
            spread,
            "s",
            String::new(),
        ));
        // Per 100 operations only where there are enough of them for the figure to mean
        // something (a small area's build is mostly its types).
        if ops >= PER_100_MIN_OPERATIONS {
            let per = |t: f64| (t - skeleton) * 100.0 / ops as f64;
            rows.push(Row::new(
                bench,
                format!("… {label}: per 100 operations, above the skeleton"),
                Spread {
                    median: per(spread.median),
                    min: per(spread.min),
                    max: per(spread.max),
                },
                "s",
                String::new(),
            ));
        }
    }
}

/// Issue 32's targets for the client crate's debug build, in CPU seconds.
const DEFAULT_CPU_TARGET: f64 = 30.0;
const ONE_AREA_CPU_TARGET: f64 = 5.0;

pub fn bench_build(root: &Path, args: &BenchBuildArgs) -> Result<(), String> {
    let (runs, full, every_area) = (args.runs, args.full, args.every_area);
    let areas = Areas::load(root)?;
    let one_area = areas.one_area_features(if every_area { usize::MAX } else { 3 });
    let measured = build::measure(root, runs, full, build::configurations(&one_area))?;
    let rows = report(&areas, root, &measured);
    let mut text = format!(
        "cold build of `{CRATE}` (dev profile, full debug info, not incremental), median of {runs} run(s), target {}\n",
        measured.target.display()
    );
    if let Some(t) = measured.full {
        text += &format!(
            "{:<44} {:>8.1} s\n",
            "from an empty target dir (dependencies too)",
            t.as_secs_f64()
        );
    }
    text += &format!(
        "{:<52} {:>10} {:>12}\n",
        "configuration", "seconds", "CPU seconds"
    );
    let median = |times: &[Duration]| Spread::of_durations(times).median;
    for ((label, _, times), cpu) in measured.configurations.iter().zip(&measured.cpu) {
        let cpu = Spread::of(cpu).median;
        text += &format!("{label:<52} {:>10.1} {cpu:>12.1}\n", median(times));
    }
    text += &cpu_per_100(&areas, &measured);
    text += &cpu_verdicts(&measured);
    // Lines per operation, operations per configuration and seconds per 100 operations.
    for row in rows
        .iter()
        .filter(|r| r.unit != "s" || r.measure.starts_with('…'))
    {
        text += &format!("{}: {:.1} {}\n", row.measure, row.spread.median, row.unit);
    }
    out(&text);
    Ok(())
}

/// The build-cost targets (issue 32), on CPU seconds: the default build at most
/// [`DEFAULT_CPU_TARGET`], the costliest one-area build at most [`ONE_AREA_CPU_TARGET`].
fn cpu_verdicts(measured: &build::Measured) -> String {
    let cpu = measured
        .configurations
        .iter()
        .zip(&measured.cpu)
        .map(|((label, _, _), cpu)| (label.as_str(), Spread::of(cpu).median));
    let mut text = String::new();
    let mut slowest: Option<(&str, f64)> = None;
    for (label, cpu) in cpu {
        if label == build::DEFAULT {
            text += &format!(
                "default features: {cpu:.1} CPU-s (target: at most {DEFAULT_CPU_TARGET} CPU-s)\n"
            );
        }
        if let Some(area) = label.strip_prefix(ONE_AREA)
            && slowest.is_none_or(|(_, s)| cpu > s)
        {
            slowest = Some((area, cpu));
        }
    }
    if let Some((area, cpu)) = slowest {
        text += &format!(
            "costliest one-area build: {area}, {cpu:.1} CPU-s (target: at most {ONE_AREA_CPU_TARGET} CPU-s)\n"
        );
    }
    text
}

/// CPU seconds per 100 operations of the default build (every area) above the skeleton's.
fn cpu_per_100(areas: &Areas, measured: &build::Measured) -> String {
    let cpu_of = |wanted: &dyn Fn(usize) -> bool| {
        measured
            .configurations
            .iter()
            .zip(&measured.cpu)
            .find(|((_, args, _), _)| wanted(areas.operations(args)))
            .map(|((_, args, _), cpu)| (areas.operations(args), Spread::of(cpu).median))
    };
    let skeleton = cpu_of(&|ops| ops == 0).map_or(0.0, |(_, cpu)| cpu);
    match measured.configurations.first().zip(measured.cpu.first()) {
        Some(((label, args, _), cpu)) if areas.operations(args) > 0 => {
            let ops = areas.operations(args);
            let per = (Spread::of(cpu).median - skeleton) * 100.0 / ops as f64;
            format!(
                "{label}: {per:.2} CPU seconds per 100 operations ({ops} operations, above the skeleton)\n"
            )
        }
        _ => String::new(),
    }
}
