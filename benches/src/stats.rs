//! Medians, percentiles and the rows handed to `cargo xtask bench`.

use std::time::Duration;

/// Median, minimum and maximum of several runs.
#[derive(Clone, Copy, Debug)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        sorted.sort_by(f64::total_cmp);
        if sorted.is_empty() {
            return Spread {
                median: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
            };
        }
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Spread {
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        }
    }

    pub fn single(value: f64) -> Spread {
        Spread::of(&[value])
    }
}

/// The `p`-th percentile (nearest rank) of `latencies`, in microseconds.
pub fn percentile_us(latencies: &mut [Duration], p: f64) -> f64 {
    if latencies.is_empty() {
        return f64::NAN;
    }
    latencies.sort_unstable();
    let rank = ((p / 100.0) * latencies.len() as f64).ceil() as usize;
    latencies[rank.clamp(1, latencies.len()) - 1].as_secs_f64() * 1e6
}

/// Prints one row for `cargo xtask bench`: tab-separated, after the word `row`.
pub fn row(bench: &str, measure: &str, spread: Spread, unit: &str, target: &str) {
    println!(
        "row\t{bench}\t{measure}\t{}\t{}\t{}\t{unit}\t{target}",
        spread.median, spread.min, spread.max
    );
}

/// `met` or `missed` with the condition, for the target column.
pub fn verdict(met: bool, condition: &str) -> String {
    format!("{condition}: {}", if met { "met" } else { "**missed**" })
}
