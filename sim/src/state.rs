//! The simulator's state: its clock, the objects and activities of each tenant, issued tokens,
//! rate-limit buckets, injected faults and the log of requests.

use indexmap::IndexMap;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// 2026-01-01T00:00:00Z: where every simulator clock starts.
const EPOCH_MS: u64 = 1_767_225_600_000;

/// The simulator clock: a start time plus what tests advanced it by, plus (unless manual) the
/// real time since the simulator started.
#[derive(Debug)]
pub struct Clock {
    started: Instant,
    advanced_ms: u64,
    manual: bool,
}

impl Clock {
    /// A clock at 2026-01-01T00:00:00Z; `manual`: it moves only by [`Clock::advance`].
    pub fn new(manual: bool) -> Clock {
        Clock {
            started: Instant::now(),
            advanced_ms: 0,
            manual,
        }
    }

    /// Milliseconds since the Unix epoch, on the simulator clock.
    pub fn now_ms(&self) -> u64 {
        let real = if self.manual {
            0
        } else {
            u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
        };
        EPOCH_MS
            .saturating_add(self.advanced_ms)
            .saturating_add(real)
    }

    /// Moves the clock forward by `by` (saturating), on top of real time unless manual.
    pub fn advance(&mut self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.advanced_ms = self.advanced_ms.saturating_add(ms);
    }
}

/// RFC 3339 (UTC, seconds) of milliseconds since the Unix epoch.
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// An asynchronous request's activity.
#[derive(Debug, Clone)]
pub struct Activity {
    /// The request id the 202 answer gave (a UUID-shaped [`State::new_id`]).
    pub id: String,
    /// Position of its API in the model's tables.
    pub api: usize,
    /// The id of the operation that started it (`create_venue`), answered as `useCase`.
    pub use_case: String,
    /// When the write was accepted, on the simulator clock (milliseconds since the epoch).
    pub started_ms: u64,
    /// How long it runs (milliseconds), from [`SimConfig::activity_duration`](crate::SimConfig).
    pub duration_ms: u64,
    /// Visible (not 404) from this time on.
    pub visible_ms: u64,
    /// The error body the activity ends with, when a test asked it to fail.
    pub failure: Option<Value>,
}

impl Activity {
    /// `PENDING`, `INPROGRESS`, then `SUCCESS` or `FAIL`, by the clock.
    pub fn status(&self, now_ms: u64) -> &'static str {
        let elapsed = now_ms.saturating_sub(self.started_ms);
        if elapsed >= self.duration_ms {
            if self.failure.is_some() {
                "FAIL"
            } else {
                "SUCCESS"
            }
        } else if elapsed < self.duration_ms / 2 {
            "PENDING"
        } else {
            "INPROGRESS"
        }
    }
}

/// What one tenant has.
#[derive(Debug, Default)]
pub struct TenantData {
    /// Objects by collection (family path and parent ids), then id, in creation order.
    pub collections: HashMap<String, IndexMap<String, Value>>,
    /// Settings documents by path.
    pub settings: HashMap<String, Value>,
    /// Its asynchronous writes' activities by request id, oldest first.
    pub activities: IndexMap<String, Activity>,
}

/// An issued access token.
#[derive(Debug, Clone)]
pub struct Issued {
    /// The tenant of the credential it was issued to: what a call with it acts as by default.
    pub tenant: String,
    /// When it stops being accepted (401), on the simulator clock (milliseconds).
    pub expires_ms: u64,
}

/// A token bucket.
#[derive(Debug, Clone)]
pub struct Bucket {
    /// Calls left, fractional between refills (at most the budget's burst).
    pub tokens: f64,
    /// When `tokens` was last refilled, on the simulator clock (milliseconds).
    pub at_ms: u64,
    /// Every call refused until then (the tenant bucket's restoration period).
    pub refused_until_ms: u64,
}

/// A fault injected into an operation (by its id, or `*` for every operation).
#[derive(Debug, Clone, Default)]
pub struct Fault {
    /// Wait this long (real time) before answering.
    pub latency: Option<Duration>,
    /// Answer with this status (and the operation's error body) instead.
    pub status: Option<u16>,
    /// With `status`: a `Retry-After` of this many seconds.
    pub retry_after: Option<u64>,
    /// Close the connection without an answer.
    pub drop_connection: bool,
    /// Accept an asynchronous write, then end its activity with FAIL and this message (the
    /// write is not applied).
    pub fail_activity: Option<String>,
    /// How many requests it applies to; `None`: all.
    pub times: Option<u32>,
}

impl Fault {
    /// Answers `status` with the operation's error body instead of serving the call.
    pub fn status(status: u16) -> Fault {
        Fault {
            status: Some(status),
            ..Fault::default()
        }
    }

    /// Waits `latency` of real time, then serves the call as usual.
    pub fn latency(latency: Duration) -> Fault {
        Fault {
            latency: Some(latency),
            ..Fault::default()
        }
    }

    /// Closes the connection without an answer (a transport failure for the client).
    pub fn drop_connection() -> Fault {
        Fault {
            drop_connection: true,
            ..Fault::default()
        }
    }

    /// Accepts an asynchronous write without applying it; its activity ends with FAIL and
    /// `message`.
    pub fn fail_activity(message: impl Into<String>) -> Fault {
        Fault {
            fail_activity: Some(message.into()),
            ..Fault::default()
        }
    }

    /// Adds `Retry-After: <seconds>` to an injected status (a 429 or 503 that says when to
    /// come back).
    pub fn retry_after(mut self, seconds: u64) -> Fault {
        self.retry_after = Some(seconds);
        self
    }

    /// Applies to the next `n` requests only.
    pub fn times(mut self, n: u32) -> Fault {
        self.times = Some(n);
        self
    }
}

/// How many requests the log keeps (the latest).
pub const LOG_SIZE: usize = 50_000;

/// The most bytes of a request's method and of its path the log keeps (so the log's size is
/// bounded however long the paths clients send).
pub const LOGGED_TEXT_MAX: usize = 1024;

/// `text`'s first [`LOGGED_TEXT_MAX`] bytes (whole characters), and how many bytes were left out.
pub(crate) fn bounded(text: &str) -> (String, usize) {
    if text.len() <= LOGGED_TEXT_MAX {
        return (text.to_owned(), 0);
    }
    let mut end = LOGGED_TEXT_MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text[..end].to_owned(), text.len() - end)
}

/// One request the simulator answered: never a secret (no header, no query, no body; a unit
/// token call's tenant masked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    /// The HTTP method as sent (`GET`), its first [`LOGGED_TEXT_MAX`] bytes.
    pub method: String,
    /// The path without the query, any client secret or the call's token in it as `***`;
    /// its first [`LOGGED_TEXT_MAX`] bytes.
    pub path: String,
    /// How many bytes of the method and the path were left out (past [`LOGGED_TEXT_MAX`]).
    pub truncated_bytes: usize,
    /// The operation id, when a route matched.
    pub operation: Option<String>,
    /// The tenant the request acted as, once authenticated.
    pub tenant: Option<String>,
    /// The status answered, the simulator's own refusals included (`401`, `408`, `429`).
    pub status: u16,
    /// A `429`'s rate limit: the service's name, or `(tenant)` for the tenant's own.
    pub limited_by: Option<String>,
    /// When it arrived, on the simulator clock (milliseconds).
    pub at_ms: u64,
}

/// Everything that changes.
#[derive(Debug)]
pub struct State {
    /// The simulator clock every timestamp and expiry is read from.
    pub clock: Clock,
    /// Each tenant's objects, settings and activities, by tenant id (made on first use).
    pub tenants: HashMap<String, TenantData>,
    /// Access tokens issued, by token.
    pub tokens: HashMap<String, Issued>,
    /// Rate-limit buckets by tenant and service (or [`TENANT`](crate::limits::TENANT)).
    pub buckets: HashMap<(String, String), Bucket>,
    /// Injected faults by operation id, `*` for every operation without its own.
    pub faults: HashMap<String, Fault>,
    /// The last [`LOG_SIZE`] requests, oldest first.
    pub log: VecDeque<Logged>,
    /// Customers tenants created (`POST /tenants`), by the creating tenant.
    pub customers: HashMap<String, Vec<String>>,
    counter: u64,
}

impl State {
    /// Empty state, its clock at the start (manual when `manual_clock`).
    pub fn new(manual_clock: bool) -> State {
        State {
            clock: Clock::new(manual_clock),
            tenants: HashMap::new(),
            tokens: HashMap::new(),
            buckets: HashMap::new(),
            faults: HashMap::new(),
            log: VecDeque::new(),
            customers: HashMap::new(),
            counter: 0,
        }
    }

    /// The data of tenant `id`, made empty on first use.
    pub fn tenant(&mut self, id: &str) -> &mut TenantData {
        self.tenants.entry(id.to_owned()).or_default()
    }

    /// Logs a request answered, forgetting the oldest past [`LOG_SIZE`].
    pub fn record(&mut self, request: Logged) {
        if self.log.len() >= LOG_SIZE {
            self.log.pop_front();
        }
        self.log.push_back(request);
    }

    /// A new id, shaped like a UUID (unique within the simulator).
    pub fn new_id(&mut self) -> String {
        self.counter += 1;
        format!("5e300000-0000-4000-8000-{:012x}", self.counter)
    }

    /// A new number (integer ids), unique within the simulator.
    pub fn new_number(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    /// The fault for operation `op`, counting one use.
    pub fn take_fault(&mut self, op: &str) -> Option<Fault> {
        let key = if self.faults.contains_key(op) {
            op
        } else {
            "*"
        };
        let fault = self.faults.get_mut(key)?;
        let out = fault.clone();
        if let Some(n) = &mut fault.times {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.faults.remove(key);
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_latest_requests() {
        let mut state = State::new(true);
        for at_ms in 0..(LOG_SIZE as u64 + 5) {
            state.record(Logged {
                method: "GET".into(),
                path: "/".into(),
                truncated_bytes: 0,
                operation: None,
                tenant: None,
                status: 200,
                limited_by: None,
                at_ms,
            });
        }
        assert_eq!(state.log.len(), LOG_SIZE);
        assert_eq!(state.log.front().map(|l| l.at_ms), Some(5));
    }

    #[test]
    fn logged_text_is_cut_at_a_character_boundary() {
        assert_eq!(bounded("/venues"), ("/venues".to_owned(), 0));
        let long = format!("/{}", "é".repeat(LOGGED_TEXT_MAX));
        let (kept, cut) = bounded(&long);
        assert!(kept.len() <= LOGGED_TEXT_MAX && kept.len() >= LOGGED_TEXT_MAX - 1);
        assert_eq!(kept.len() + cut, long.len());
        assert!(long.starts_with(&kept));
    }

    #[test]
    fn dates_are_rfc3339() {
        assert_eq!(rfc3339(EPOCH_MS), "2026-01-01T00:00:00Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400_000 + 3_661_000), "2000-02-29T01:01:01Z");
    }

    #[test]
    fn activities_move_through_their_states() {
        let a = Activity {
            id: "r".into(),
            api: 0,
            use_case: "x".into(),
            started_ms: 1000,
            duration_ms: 2000,
            visible_ms: 1000,
            failure: None,
        };
        assert_eq!(a.status(1000), "PENDING");
        assert_eq!(a.status(2500), "INPROGRESS");
        assert_eq!(a.status(3000), "SUCCESS");
        let failed = Activity {
            failure: Some(Value::Null),
            ..a
        };
        assert_eq!(failed.status(5000), "FAIL");
    }
}
