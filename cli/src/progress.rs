//! Progress on standard error, only on a terminal (indicatif): a spinner with what is waited
//! for and the time so far, and a batch's bar of rows ended; each erased when done.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// A spinner while something is waited for.
pub(crate) struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub(crate) fn start(what: String) -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_message(what);
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar }
    }

    pub(crate) fn stop(self) {
        self.bar.finish_and_clear();
    }
}

/// A bar of the rows of a batch that have ended, with how many failed.
pub(crate) struct Rows {
    bar: ProgressBar,
}

impl Rows {
    /// A bar of `total` rows, drawn when `shown` (standard error is a terminal).
    pub(crate) fn new(total: usize, shown: bool) -> Rows {
        let target = if shown {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total as u64), target);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} rows ({msg}) {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message("0 failed");
        // Drawn at once, however fast the rows end.
        bar.tick();
        Rows { bar }
    }

    /// One more row ended; `failed` so far.
    pub(crate) fn ended(&self, failed: usize) {
        self.bar.set_message(format!("{failed} failed"));
        self.bar.inc(1);
    }

    pub(crate) fn finish(self) {
        self.bar.finish_and_clear();
    }
}
