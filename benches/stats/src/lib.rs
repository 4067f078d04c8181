//! Medians and the target column of the benchmark tables: one rule for `cargo xtask bench`
//! (`xtask/src/bench/`) and the runtime benchmark binary (`benches/`), which hands its rows to
//! xtask. No dependencies, so that neither side pulls in the other's.

use std::time::Duration;

/// Median, minimum and maximum of several runs (`NaN` each when there is no finite value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of the finite values among `values`.
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        sorted.sort_by(f64::total_cmp);
        let Some((&min, &max)) = sorted.first().zip(sorted.last()) else {
            return Spread {
                median: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
            };
        };
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Spread { median, min, max }
    }

    /// The spread of `times` in seconds.
    pub fn of_durations(times: &[Duration]) -> Spread {
        Spread::of(&times.iter().map(Duration::as_secs_f64).collect::<Vec<_>>())
    }

    /// One figure: median, minimum and maximum alike.
    pub fn single(value: f64) -> Spread {
        Spread::of(&[value])
    }
}

/// `condition: met` or `condition: **missed**`, for the target column.
pub fn verdict(met: bool, condition: &str) -> String {
    format!("{condition}: {}", if met { "met" } else { "**missed**" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        let s = Spread::of(&[4.0, 1.0, 2.0, 3.0]);
        assert_eq!((s.median, s.min, s.max), (2.5, 1.0, 4.0));
    }

    #[test]
    fn non_finite_values_are_left_out() {
        let s = Spread::of(&[f64::NAN, 5.0, f64::INFINITY]);
        assert_eq!((s.median, s.min, s.max), (5.0, 5.0, 5.0));
        assert!(Spread::of(&[]).median.is_nan());
        assert_eq!(
            Spread::of_durations(&[Duration::from_millis(1500)]).median,
            1.5
        );
    }
}
