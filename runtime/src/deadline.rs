//! The deadline of a call.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

use crate::error::Error;

/// When a call must be over; `None` when the timeout is too large for the
/// clock (no deadline).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    at: Option<Instant>,
}

impl Deadline {
    /// The deadline `timeout` from now.
    pub(crate) fn after(timeout: Duration) -> Deadline {
        Deadline {
            at: Instant::now().checked_add(timeout),
        }
    }

    /// Time left; `None` without a deadline.
    pub(crate) fn remaining(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// `timeout`, shortened to the time left.
    pub(crate) fn cap(&self, timeout: Duration) -> Duration {
        self.remaining().map_or(timeout, |left| timeout.min(left))
    }

    /// Whether a wait of `wait` ends before the deadline, leaving time for
    /// an attempt.
    pub(crate) fn allows_wait(&self, wait: Duration) -> bool {
        self.remaining().is_none_or(|left| wait < left)
    }

    /// Runs `work`, failing with [`Error::Timeout`] if the deadline passes
    /// first.
    pub(crate) async fn run<T>(
        &self,
        work: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        match self.at {
            Some(at) => tokio::time::timeout_at(at, work)
                .await
                .unwrap_or(Err(Error::Timeout)),
            None => work.await,
        }
    }
}
