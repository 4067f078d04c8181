//! When and how long to wait before repeating a failed request.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How failed requests are repeated.
///
/// Retried: `429 Too Many Requests` and `423 Locked` for every method;
/// `502`, `503`, `504`, transport errors and timeouts only for idempotent
/// methods (`GET`, `PUT`, `DELETE`). The wait before attempt `n + 1` is taken
/// at random between `initial_backoff` and
/// `min(max_backoff, initial_backoff * 2^(n-1))` (exponential backoff with
/// jitter). When the answer carries `Retry-After` as a number of seconds,
/// that wait is used instead, capped at `max_retry_after`; the HTTP-date form
/// of `Retry-After` is not interpreted and the computed backoff is used.
///
/// A refresh of the access token after a `401` is not counted as an attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Total number of attempts, the first included (`1` disables retries;
    /// `0` is treated as `1`). Default 3.
    pub max_attempts: u32,
    /// Smallest wait between attempts. Default 200 ms.
    pub initial_backoff: Duration,
    /// Largest computed wait between attempts. Default 10 s.
    pub max_backoff: Duration,
    /// Largest honoured `Retry-After`. Default 30 s.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// A policy that never repeats a request.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// Sets [`RetryPolicy::max_attempts`].
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts;
        self
    }

    /// Sets [`RetryPolicy::initial_backoff`].
    pub fn initial_backoff(mut self, wait: Duration) -> Self {
        self.initial_backoff = wait;
        self
    }

    /// Sets [`RetryPolicy::max_backoff`].
    pub fn max_backoff(mut self, wait: Duration) -> Self {
        self.max_backoff = wait;
        self
    }

    /// Sets [`RetryPolicy::max_retry_after`].
    pub fn max_retry_after(mut self, wait: Duration) -> Self {
        self.max_retry_after = wait;
        self
    }

    pub(crate) fn attempts(&self) -> u32 {
        self.max_attempts.max(1)
    }

    /// Wait after the `failed`-th failed attempt (1-based), given the value
    /// of a `Retry-After` header if the answer had one.
    pub(crate) fn delay(&self, failed: u32, retry_after: Option<&str>) -> Duration {
        if let Some(wait) = retry_after.and_then(parse_retry_after) {
            return wait.min(self.max_retry_after);
        }
        self.backoff(failed)
    }

    fn backoff(&self, failed: u32) -> Duration {
        let initial = self.initial_backoff;
        let factor = 1u32
            .checked_shl(failed.saturating_sub(1))
            .unwrap_or(u32::MAX);
        let cap = initial
            .checked_mul(factor)
            .unwrap_or(Duration::MAX)
            .min(self.max_backoff);
        if cap <= initial {
            return cap;
        }
        let span = (cap - initial).as_nanos();
        let offset = u128::from(random_u64()) % (span + 1);
        initial + Duration::from_nanos(u64::try_from(offset).unwrap_or(u64::MAX))
    }
}

/// A failed attempt, as far as repeating it is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The connection failed or timed out: whether the service acted on the
    /// request is unknown.
    Transport,
    /// The service answered with this non-success status.
    Status(u16),
}

impl Failure {
    /// Whether the attempt may be repeated, `idempotent` being whether
    /// repeating it is harmless (an idempotent method, or a request that never
    /// reached the service). The one retry rule of the crate: `429` and `423`
    /// always; `502`, `503`, `504`, transport errors and timeouts only when
    /// `idempotent`.
    pub(crate) fn is_retryable(self, idempotent: bool) -> bool {
        match self {
            Failure::Status(429 | 423) => true,
            Failure::Status(502..=504) | Failure::Transport => idempotent,
            Failure::Status(_) => false,
        }
    }
}

/// Parses the delay-seconds form of `Retry-After`.
fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Absurdly long digit strings saturate instead of failing.
    Some(Duration::from_secs(
        value.parse::<u64>().unwrap_or(u64::MAX),
    ))
}

/// A pseudo-random number for jitter, from the standard library's randomly
/// keyed hasher.
pub(crate) fn random_u64() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let p = RetryPolicy::default();
        assert_eq!(p.max_attempts, 3);
        assert_eq!(p.initial_backoff, Duration::from_millis(200));
        assert_eq!(p.max_backoff, Duration::from_secs(10));
        assert_eq!(p.max_retry_after, Duration::from_secs(30));
        assert_eq!(RetryPolicy::none().attempts(), 1);
        assert_eq!(RetryPolicy::default().max_attempts(0).attempts(), 1);
    }

    #[test]
    fn backoff_stays_within_bounds() {
        let p = RetryPolicy::default()
            .initial_backoff(Duration::from_millis(100))
            .max_backoff(Duration::from_millis(1000));
        assert_eq!(p.delay(1, None), Duration::from_millis(100));
        for failed in 2..40 {
            let cap = Duration::from_millis(100)
                .saturating_mul(1u32.checked_shl(failed - 1).unwrap_or(u32::MAX))
                .min(Duration::from_millis(1000));
            for _ in 0..20 {
                let d = p.delay(failed, None);
                assert!(d >= Duration::from_millis(100), "{d:?}");
                assert!(d <= cap, "{d:?} > {cap:?}");
            }
        }
        assert!(p.delay(u32::MAX, None) <= Duration::from_millis(1000));
    }

    #[test]
    fn jitter_varies() {
        let p = RetryPolicy::default()
            .initial_backoff(Duration::from_millis(1))
            .max_backoff(Duration::from_secs(100));
        let samples: std::collections::HashSet<_> = (0..20).map(|_| p.delay(10, None)).collect();
        assert!(samples.len() > 1);
    }

    #[test]
    fn retry_after_seconds_capped_and_date_ignored() {
        let p = RetryPolicy::default()
            .initial_backoff(Duration::from_millis(5))
            .max_backoff(Duration::from_millis(5))
            .max_retry_after(Duration::from_secs(2));
        assert_eq!(p.delay(1, Some("1")), Duration::from_secs(1));
        assert_eq!(p.delay(1, Some(" 0 ")), Duration::ZERO);
        assert_eq!(p.delay(1, Some("120")), Duration::from_secs(2));
        assert_eq!(
            p.delay(1, Some("99999999999999999999999")),
            Duration::from_secs(2)
        );
        assert_eq!(
            p.delay(1, Some("Wed, 21 Oct 2015 07:28:00 GMT")),
            Duration::from_millis(5)
        );
        assert_eq!(p.delay(1, Some("-1")), Duration::from_millis(5));
        assert_eq!(p.delay(1, Some("")), Duration::from_millis(5));
    }

    #[test]
    fn retryable_failures() {
        assert!(Failure::Status(429).is_retryable(false));
        assert!(Failure::Status(423).is_retryable(false));
        for s in [502, 503, 504] {
            assert!(Failure::Status(s).is_retryable(true));
            assert!(!Failure::Status(s).is_retryable(false));
        }
        assert!(Failure::Transport.is_retryable(true));
        assert!(!Failure::Transport.is_retryable(false));
        for s in [400, 401, 404, 500, 501] {
            assert!(!Failure::Status(s).is_retryable(true));
        }
    }
}
