//! The table `cargo xtask bench` prints: one row per figure, with its spread, unit and target.

use crate::workspace::out;
use ruckus_bench_stats::Spread;

/// One line of the table.
pub struct Row {
    bench: String,
    pub measure: String,
    pub spread: Spread,
    pub unit: String,
    target: String,
}

impl Row {
    pub fn new(bench: &str, measure: String, spread: Spread, unit: &str, target: String) -> Row {
        Row {
            bench: bench.to_owned(),
            measure,
            spread,
            unit: unit.to_owned(),
            target,
        }
    }
}

pub fn print(quick: bool, rows: &[Row]) {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut text = format!(
        "\n## cargo xtask bench{}\n\n{cores} cores, load average {load} at the end. Median, min and max of several runs (one run where min = max); ratios are computed per run pair, then summarised.\n\n",
        if quick {
            " --quick (harness check: the figures mean nothing)"
        } else {
            ""
        }
    );
    text += "| part | measure | median | min | max | unit | target |\n";
    text += "|---|---|---:|---:|---:|---|---|\n";
    for row in rows {
        let s = row.spread;
        text += &format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            row.bench,
            row.measure.replace('|', "\\|"),
            number(s.median, &row.unit),
            number(s.min, &row.unit),
            number(s.max, &row.unit),
            row.unit,
            row.target
        );
    }
    out(&text);
}

/// A figure with as many decimals as its unit and size call for.
fn number(value: f64, unit: &str) -> String {
    if !value.is_finite() {
        return "–".into();
    }
    let decimals = match unit {
        "ratio" => 3,
        _ if value.fract() == 0.0 => 0,
        "s" if value.abs() < 10.0 => 3,
        _ if value.abs() >= 100.0 => 0,
        _ if value.abs() >= 10.0 => 1,
        _ => 2,
    };
    format!("{value:.decimals$}")
}
