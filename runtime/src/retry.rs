//! When and how long to wait before repeating a failed request.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// How failed requests are repeated.
///
/// Retried: `429 Too Many Requests` and `423 Locked` for every method;
/// `502`, `503`, `504`, transport errors and timeouts only for idempotent
/// methods (`GET`, `PUT`, `DELETE`). The wait before attempt `n + 1` is taken
/// at random between `initial_backoff` and
/// `min(max_backoff, initial_backoff * 2^(n-1))` (exponential backoff with
/// jitter).
///
/// When the answer carries `Retry-After` (a number of seconds, or an HTTP
/// date), the service's wait is used instead of the backoff if it is at
/// most `max_retry_after`. If the service asks for longer, the call is not
/// repeated: the `429`/`503`... error is returned at once, and
/// [`Error::retry_after`](crate::Error::retry_after) tells how long the
/// service asked to wait. The same happens when a wait would end after the
/// call's deadline ([`Config::call_timeout`](crate::Config::call_timeout)).
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
    /// Longest `Retry-After` waited for; a longer one ends the call with the
    /// answer's error. Default 30 s.
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

    /// Wait after the `failed`-th failed attempt (1-based), given the
    /// answer's `Retry-After` if it had one; `None` when the service asks for
    /// more than `max_retry_after` (no retry).
    pub(crate) fn delay(&self, failed: u32, retry_after: Option<Duration>) -> Option<Duration> {
        match retry_after {
            Some(wait) if wait > self.max_retry_after => None,
            Some(wait) => Some(wait),
            None => Some(self.backoff(failed)),
        }
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

/// Parses `Retry-After`: a number of seconds, or an HTTP date (a date in the
/// past means no wait), as a wait from `now`.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    if value.bytes().all(|b| b.is_ascii_digit()) {
        // Absurdly long digit strings saturate instead of failing.
        return Some(Duration::from_secs(
            value.parse::<u64>().unwrap_or(u64::MAX),
        ));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
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
        assert_eq!(p.delay(1, None), Some(Duration::from_millis(100)));
        for failed in 2..40 {
            let cap = Duration::from_millis(100)
                .saturating_mul(1u32.checked_shl(failed - 1).unwrap_or(u32::MAX))
                .min(Duration::from_millis(1000));
            for _ in 0..20 {
                let d = p.delay(failed, None).unwrap();
                assert!(d >= Duration::from_millis(100), "{d:?}");
                assert!(d <= cap, "{d:?} > {cap:?}");
            }
        }
        assert!(p.delay(u32::MAX, None).unwrap() <= Duration::from_millis(1000));
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
    fn retry_after_is_used_up_to_the_cap_and_longer_ones_give_up() {
        let p = RetryPolicy::default()
            .initial_backoff(Duration::from_millis(5))
            .max_backoff(Duration::from_millis(5))
            .max_retry_after(Duration::from_secs(2));
        let secs = |s: u64| Some(Duration::from_secs(s));
        assert_eq!(p.delay(1, secs(1)), secs(1));
        assert_eq!(p.delay(1, secs(0)), secs(0));
        assert_eq!(p.delay(1, secs(2)), secs(2));
        assert_eq!(p.delay(1, secs(120)), None);
        assert_eq!(p.delay(1, None), Some(Duration::from_millis(5)));
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480); // 2015-10-21 07:28:00
        let parse = |v: &str| parse_retry_after(v, now);
        assert_eq!(parse("1"), Some(Duration::from_secs(1)));
        assert_eq!(parse(" 0 "), Some(Duration::ZERO));
        assert_eq!(
            parse("99999999999999999999999"),
            Some(Duration::from_secs(u64::MAX))
        );
        assert_eq!(
            parse("Wed, 21 Oct 2015 07:28:30 GMT"),
            Some(Duration::from_secs(30))
        );
        // Obsolete date forms that HTTP still accepts.
        assert_eq!(
            parse("Wednesday, 21-Oct-15 07:29:00 GMT"),
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            parse("Wed Oct 21 07:28:10 2015"),
            Some(Duration::from_secs(10))
        );
        // In the past: no wait.
        assert_eq!(parse("Wed, 21 Oct 2015 07:00:00 GMT"), Some(Duration::ZERO));
        for bad in ["-1", "", "1.5", "soon", "Wed, 32 Oct 2015 07:28:00 GMT"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
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
