//! The buckets of one client and its clones: taking a call from them, giving it back, emptying
//! them after a `429`; in the client's memory, or in a shared store with the memory as its
//! fallback.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use super::Pacing;

/// One bucket a call takes from: its scope (a service name, or the tenant's own), its size and
/// its refill per second (the headroom and the jitter's reserve applied).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Spec {
    pub(crate) scope: &'static str,
    pub(crate) size: f64,
    pub(crate) rate: f64,
}

/// The buckets one call takes from: the tenant's and the service's, either or both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plan {
    buckets: [Option<Spec>; 2],
}

impl Plan {
    /// `None` when there is no bucket to take from.
    pub(crate) fn of(buckets: [Option<Spec>; 2]) -> Option<Plan> {
        buckets
            .iter()
            .any(Option::is_some)
            .then_some(Plan { buckets })
    }

    pub(crate) fn specs(&self) -> impl Iterator<Item = &Spec> {
        self.buckets.iter().flatten()
    }
}

/// What a bucket is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Take one call (the answer is the wait until it may be sent).
    Take,
    /// Give back a call taken and not sent.
    Give,
    /// Empty it after a `429`, and hold it for the answer's `Retry-After`.
    Empty(Option<Duration>),
    /// A call taken while the bucket starts ([`Taken::starting`]) was answered: the service has
    /// seen it, so its bucket is running.
    Answered,
}

/// How long after a call found its bucket full the bucket's refill may be counted from the
/// first answer instead ([`Op::Answered`]): a call answered later (or never) counts from then.
pub(crate) const START_WINDOW: Duration = Duration::from_secs(1);

/// What taking a call from a bucket gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Taken {
    /// The wait before the call may be sent.
    pub(crate) wait: Duration,
    /// The call was taken while its bucket starts (full when the first call of the window was
    /// taken): its answer, the first of the window's, is told with [`Op::Answered`].
    pub(crate) starting: bool,
}

/// Where a call was taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The client's memory (the store, or the fallback of a shared store).
    Local,
    /// The shared store.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    Shared,
}

/// One bucket: calls available (negative: calls already promised to waiting callers).
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    updated: Instant,
    /// Held until then by a `Retry-After`.
    held_until: Option<Instant>,
    /// When a call found the bucket full: until the first answer of a call taken since, the
    /// service's bucket may still be full (the calls are on their way), and the refill counted
    /// meanwhile is taken back at that answer.
    started: Option<Instant>,
    /// A fallback bucket mirroring a shared one: how far ahead the shared bucket promised its
    /// last call (see [`Pacer::mirror`]).
    queue: Duration,
}

impl Bucket {
    fn refill(&mut self, now: Instant, size: f64, rate: f64) {
        // A fallback bucket mirroring a shared one refills only once the calls the shared
        // bucket promised are out (`updated` is then in the future).
        if now <= self.updated {
            return;
        }
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate).min(size);
        self.updated = now;
    }

    fn new(tokens: f64, updated: Instant) -> Bucket {
        Bucket {
            tokens,
            updated,
            held_until: None,
            started: None,
            queue: Duration::ZERO,
        }
    }

    /// Applies `op`; what the call taken got (nothing for the other operations).
    fn apply(&mut self, op: Op, now: Instant, size: f64, rate: f64) -> Taken {
        self.refill(now, size, rate);
        let mut starting = false;
        let wait = match op {
            Op::Take => {
                if self
                    .started
                    .is_some_and(|s| now.saturating_duration_since(s) > START_WINDOW)
                {
                    self.started = None;
                }
                if self.started.is_none() && self.tokens >= size {
                    self.started = Some(now);
                }
                starting = self.started.is_some();
                self.tokens -= 1.0;
                let wait = if self.tokens >= 0.0 {
                    Duration::ZERO
                } else {
                    let promised = self.updated.saturating_duration_since(now);
                    promised + Duration::from_secs_f64(-self.tokens / rate)
                };
                let held = self.held_until.map(|h| h.saturating_duration_since(now));
                wait.max(held.unwrap_or_default())
            }
            Op::Give => {
                self.tokens = (self.tokens + 1.0).min(size);
                Duration::ZERO
            }
            Op::Empty(hold) => {
                self.tokens = self.tokens.min(0.0);
                if let Some(until) = hold.and_then(|wait| now.checked_add(wait)) {
                    self.held_until = Some(self.held_until.map_or(until, |h| h.max(until)));
                }
                Duration::ZERO
            }
            Op::Answered => {
                // The service's bucket ran from the first arrival at the latest now: the refill
                // counted since the start (at most the window's) was not the service's yet.
                if let Some(started) = self.started.take() {
                    let early = now.saturating_duration_since(started).min(START_WINDOW);
                    self.tokens -= early.as_secs_f64() * rate;
                }
                Duration::ZERO
            }
        };
        Taken { wait, starting }
    }
}

/// The buckets of one client and its clones.
#[derive(Debug)]
pub(crate) struct Pacer {
    pacing: Pacing,
    /// The client's own buckets: scope → tenant id (`""` for the token's own tenant; tenant ids
    /// are never empty) → bucket. With a shared store, its fallback.
    local: Mutex<HashMap<&'static str, HashMap<Box<str>, Bucket>>>,
    /// The share of each budget the local buckets pace by: 1 without a shared store, the
    /// store's fallback share with one (the other processes pace by theirs meanwhile).
    local_share: f64,
    /// Who the buckets of a shared store belong to: the regional host, and the tenant of the
    /// calls for no delegated tenant (see [`Pacer::owned_by`]).
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    owner: (Box<str>, Box<str>),
}

/// A call taken from the buckets: how long to wait before sending it, and where it was taken.
pub(crate) struct Reservation {
    pub(crate) taken: Taken,
    pub(crate) source: Source,
}

impl Pacer {
    pub(crate) fn new(pacing: Pacing) -> Pacer {
        let local_share = pacing.store_ref().fallback_share().unwrap_or(1.0);
        Pacer {
            pacing,
            local: Mutex::new(HashMap::new()),
            local_share,
            owner: Default::default(),
        }
    }

    /// The shared buckets of this pacer are those of `host` (the regional host called), and its
    /// calls for no delegated tenant count against `own_tenant` (the token's tenant, or a name
    /// for the credentials): processes of other tenants or regions on the same store do not
    /// share their buckets.
    pub(crate) fn owned_by(mut self, host: &str, own_tenant: &str) -> Pacer {
        self.owner = (host.into(), own_tenant.into());
        self
    }

    /// The name of `tenant`'s buckets in a shared store (`""`: the own tenant's).
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    fn shared_tenant(&self, tenant: &str) -> String {
        let (host, own) = &self.owner;
        let tenant = if tenant.is_empty() { own } else { tenant };
        format!("{host} {tenant}")
    }

    /// The pacing this pacer follows.
    pub(crate) fn pacing(&self) -> &Pacing {
        &self.pacing
    }

    /// Whether the buckets live in a shared store (taking from them is asynchronous).
    pub(crate) fn is_shared(&self) -> bool {
        self.pacing.store_ref().is_shared()
    }

    /// Applies `op` to the local buckets of `plan` for `tenant`: the longest wait of them.
    pub(crate) fn apply_local(&self, plan: &Plan, tenant: &str, op: Op) -> Taken {
        let now = Instant::now();
        let share = self.local_share;
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        let mut taken = Taken::default();
        for spec in plan.specs() {
            let (size, rate) = ((spec.size * share).max(1.0), (spec.rate * share).max(0.01));
            let tenants = local.entry(spec.scope).or_default();
            let bucket = match tenants.get_mut(tenant) {
                Some(bucket) => bucket,
                // A fallback bucket starts empty: the shared budget may be spent already.
                None => tenants
                    .entry(tenant.into())
                    .or_insert(Bucket::new(if share < 1.0 { 0.0 } else { size }, now)),
            };
            if op == Op::Take && !bucket.queue.is_zero() {
                // The first local call after the shared store stopped answering: the other
                // processes' calls promised since this one's last may reach as far ahead from
                // now as the shared bucket's queue reached then.
                bucket.updated = bucket.updated.max(now + bucket.queue);
                bucket.queue = Duration::ZERO;
            }
            let this = bucket.apply(op, now, size, rate);
            taken.wait = taken.wait.max(this.wait);
            taken.starting |= this.starting;
        }
        taken
    }

    /// Takes one call from the buckets of `plan` for `tenant`. The caller waits
    /// [`Reservation::wait`] before sending.
    pub(crate) async fn reserve(&self, plan: &Plan, tenant: &str) -> Reservation {
        #[cfg(feature = "redis")]
        if let Some(store) = self.pacing.store_ref().shared() {
            let shared = self.shared_tenant(tenant);
            if let Some(taken) = Box::pin(store.apply(plan, &shared, Op::Take)).await {
                self.mirror(plan, tenant, taken.wait);
                return Reservation {
                    taken,
                    source: Source::Shared,
                };
            }
            store.took_locally(plan, &shared);
        }
        self.reserve_local(plan, tenant)
    }

    /// Keeps the local (fallback) buckets of `plan` empty until `wait` from now, when the
    /// shared buckets let the call just taken go: should the shared store stop answering, the
    /// calls it already promised (to every process: its wait counts them all) go out first,
    /// and the fallback pacing only starts after them. The other processes' calls promised
    /// after this one are not known here: the first local call after the store stopped
    /// answering assumes the shared bucket's queue reached `wait` ahead of it as well.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn mirror(&self, plan: &Plan, tenant: &str, wait: Duration) {
        let until = Instant::now() + wait;
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        for spec in plan.specs() {
            let tenants = local.entry(spec.scope).or_default();
            let bucket = tenants
                .entry(tenant.into())
                .or_insert(Bucket::new(0.0, until));
            bucket.tokens = bucket.tokens.min(0.0);
            bucket.updated = bucket.updated.max(until);
            bucket.queue = wait;
        }
    }

    /// Takes one call from local buckets only (no shared store configured).
    pub(crate) fn reserve_local(&self, plan: &Plan, tenant: &str) -> Reservation {
        Reservation {
            taken: self.apply_local(plan, tenant, Op::Take),
            source: Source::Local,
        }
    }

    /// A call taken while its buckets started ([`Taken::starting`]) was answered (from
    /// `source`): the refill counted before the service saw the calls is taken back.
    pub(crate) fn answered(&self, plan: &Plan, tenant: &str, source: Source) {
        match source {
            Source::Local => {
                self.apply_local(plan, tenant, Op::Answered);
            }
            Source::Shared => self.spawn_shared(plan, tenant, Op::Answered),
        }
    }

    /// Gives back a call taken from `source` and not sent.
    pub(crate) fn release(&self, plan: &Plan, tenant: &str, source: Source) {
        match source {
            Source::Local => {
                self.apply_local(plan, tenant, Op::Give);
            }
            Source::Shared => self.spawn_shared(plan, tenant, Op::Give),
        }
    }

    /// The service answered `429` to a call for `tenant`: nothing is left in the buckets of the
    /// call (the answer does not say which limit refused it), and with a `Retry-After` nothing
    /// is sent before it passes.
    pub(crate) fn throttled(&self, plan: &Plan, tenant: &str, retry_after: Option<Duration>) {
        self.apply_local(plan, tenant, Op::Empty(retry_after));
        if self.is_shared() {
            self.spawn_shared(plan, tenant, Op::Empty(retry_after));
        }
    }

    /// Applies `op` to the shared buckets in the background (a give-back or a `429` must not
    /// hold up the call; the shared store's own fallback covers a failure).
    #[cfg_attr(not(feature = "redis"), allow(unused_variables))]
    fn spawn_shared(&self, plan: &Plan, tenant: &str, op: Op) {
        #[cfg(feature = "redis")]
        if let (Some(store), Ok(handle)) = (
            self.pacing.store_ref().shared().cloned(),
            tokio::runtime::Handle::try_current(),
        ) {
            let (plan, tenant) = (*plan, self.shared_tenant(tenant));
            handle.spawn(async move {
                store.apply(&plan, &tenant, op).await;
            });
        }
    }
}

/// A call taken from the buckets that waits before it is sent: given back when dropped before
/// [`sent`](Unsent::sent), so that a cancelled call (its future dropped while it waits) does
/// not keep the budget it reserved from the calls after it.
pub(crate) struct Unsent<'a> {
    pacer: &'a Pacer,
    plan: Plan,
    tenant: &'a str,
    source: Source,
}

impl<'a> Unsent<'a> {
    pub(crate) fn new(pacer: &'a Pacer, plan: Plan, tenant: &'a str, source: Source) -> Self {
        Unsent {
            pacer,
            plan,
            tenant,
            source,
        }
    }

    /// The wait is over and the call goes out: it keeps its call.
    pub(crate) fn sent(self) {
        std::mem::forget(self);
    }
}

impl Drop for Unsent<'_> {
    fn drop(&mut self) {
        self.pacer.release(&self.plan, self.tenant, self.source);
    }
}
