//! A progress line on standard error (only on a terminal): a spinner with what is waited for
//! and the seconds so far, erased when done.

use std::io::Write;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

pub(crate) struct Progress {
    task: JoinHandle<()>,
}

impl Progress {
    pub(crate) fn start(what: String) -> Progress {
        let task = tokio::spawn(async move {
            let started = Instant::now();
            let frames = ['|', '/', '-', '\\'];
            let mut tick = tokio::time::interval(Duration::from_millis(120));
            for n in 0usize.. {
                tick.tick().await;
                let secs = started.elapsed().as_secs();
                eprint!("\r{} {what} ({secs} s)", frames[n % frames.len()]);
                let _ = std::io::stderr().flush();
            }
        });
        Progress { task }
    }

    pub(crate) fn stop(self) {
        self.task.abort();
        eprint!("\r\x1b[2K");
        let _ = std::io::stderr().flush();
    }
}
