//! Percentiles and the rows handed to `cargo xtask bench` (medians: `ruckus-bench-stats`).

use std::time::Duration;

pub use ruckus_bench_stats::{Spread, verdict};

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
