//! A process's own view of the buckets it shares through Redis: what the server answered of
//! each after this process's last operation, refilled since, less the calls this process paced
//! locally since (the server not answering). While it paces locally the view does not refill:
//! every process then paces at its fallback share, and together they are assumed to spend the
//! whole refill. A bucket the server no longer holds (restarted
//! empty) or holds with invalid values starts again from this view instead of full: the
//! service's own bucket is still as spent as this process last saw it, and a full one would
//! send a burst of calls that meet `429`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use super::pacer::Spec;

/// Buckets kept in view before the ones that are full again are dropped.
const KEPT: usize = 4096;

/// The view of one shared bucket.
#[derive(Clone, Copy, Debug)]
struct View {
    tokens: f64,
    at: Instant,
    held_until: Option<Instant>,
    spec: Spec,
    /// Paced locally since the last answer of the server: no refill.
    local: bool,
}

impl View {
    fn tokens_at(&self, now: Instant) -> f64 {
        if self.local {
            return self.tokens;
        }
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        (self.tokens + elapsed * self.spec.rate).min(self.spec.size)
    }
}

/// The views of one store's buckets, by key.
#[derive(Debug, Default)]
pub(crate) struct Views {
    buckets: Mutex<HashMap<String, View>>,
}

impl Views {
    /// What a bucket missing or invalid on the server starts from: its tokens (full when this
    /// process never saw it) and the hold left.
    pub(crate) fn seed(&self, key: &str, spec: &Spec, now: Instant) -> (f64, Duration) {
        let buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        match buckets.get(key) {
            Some(view) => (
                view.tokens_at(now),
                view.held_until
                    .map_or(Duration::ZERO, |h| h.saturating_duration_since(now)),
            ),
            None => (spec.size, Duration::ZERO),
        }
    }

    /// The server answered `tokens` for the bucket at `now`; `hold`: held that long from now.
    pub(crate) fn record(
        &self,
        key: &str,
        spec: &Spec,
        tokens: f64,
        now: Instant,
        hold: Option<Duration>,
    ) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= KEPT && !buckets.contains_key(key) {
            buckets.retain(|_, v| v.tokens_at(now) < v.spec.size);
        }
        let held = hold.and_then(|h| now.checked_add(h));
        let view = buckets.entry(key.to_owned()).or_insert(View {
            tokens,
            at: now,
            held_until: None,
            spec: *spec,
            local: false,
        });
        view.tokens = tokens.min(spec.size);
        view.local = false;
        view.at = now;
        view.spec = *spec;
        view.held_until = match (view.held_until, held) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }

    /// This process sent a call paced locally (the server not answering): one call less.
    pub(crate) fn took_locally(&self, key: &str, spec: &Spec, now: Instant) {
        let (tokens, _) = self.seed(key, spec, now);
        self.record(key, spec, tokens - 1.0, now, None);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(view) = buckets.get_mut(key) {
            view.local = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        scope: "small",
        size: 10.0,
        rate: 5.0,
    };

    #[tokio::test(start_paused = true)]
    async fn the_view_refills_until_the_process_paces_locally() {
        let views = Views::default();
        let start = Instant::now();
        assert_eq!(views.seed("k", &SPEC, start).0, 10.0, "never seen: full");
        views.record("k", &SPEC, -2.0, start, None);
        let later = start + Duration::from_secs(1);
        assert_eq!(views.seed("k", &SPEC, later).0, 3.0);
        views.took_locally("k", &SPEC, later);
        // Paced locally: the other processes are assumed to spend the refill.
        let much_later = later + Duration::from_secs(60);
        assert_eq!(views.seed("k", &SPEC, much_later).0, 2.0);
        views.record("k", &SPEC, 0.0, much_later, Some(Duration::from_secs(2)));
        let after = much_later + Duration::from_secs(1);
        assert_eq!(views.seed("k", &SPEC, after), (5.0, Duration::from_secs(1)));
    }
}
