//! A call's pacing: taking it from its buckets before an attempt, telling them its answer.

use std::time::Duration;

use super::{Prepared, millis};
use crate::client::Shared;
use crate::deadline::Deadline;
use crate::error::Error;
use crate::pacing::{Plan, Source, Unsent};

/// An answer came to a call taken while its buckets started: see `Pacer::answered`.
pub(super) fn answered(shared: &Shared, req: &Prepared, tenant: &str, source: Source) {
    if let Some(plan) = plan_of(shared, req, tenant) {
        shared.pacer.answered(&plan, tenant, source);
    }
}

/// The buckets a call of `req` for `tenant` takes from, if any.
pub(super) fn plan_of(shared: &Shared, req: &Prepared, tenant: &str) -> Option<Plan> {
    shared
        .pacer
        .pacing()
        .plan(req.tenant_limit, req.service, tenant)
}

/// Takes one call from the buckets of `req` for `tenant` (the tenant's and the service's): how
/// long to wait until the limits allow it, if at all (`None` for calls not paced and calls
/// within budget). A wait that would end after the call's deadline gives the call back and
/// fails at once with [`Error::Timeout`]. The call taken is given back if the caller drops the
/// [`Unsent`] (its call cancelled while it waits) before it is sent. With it, where the call
/// was taken when its buckets were starting (its answer is to be told, [`answered`]).
pub(super) async fn budget_wait<'a>(
    shared: &'a Shared,
    req: &Prepared,
    tenant: &'a str,
    deadline: &Deadline,
) -> Result<(Option<(Duration, Unsent<'a>)>, Option<Source>), Error> {
    let Some(plan) = plan_of(shared, req, tenant) else {
        return Ok((None, None));
    };
    let pacer = &shared.pacer;
    // A shared store answers over the network: its future is boxed inside `reserve`, and a
    // client without one never builds it.
    let reservation = if pacer.is_shared() {
        pacer.reserve(&plan, tenant).await
    } else {
        pacer.reserve_local(&plan, tenant)
    };
    let wait = reservation.taken.wait;
    let starting = reservation.taken.starting.then_some(reservation.source);
    let unsent = Unsent::new(pacer, plan, tenant, reservation.source);
    if wait.is_zero() {
        unsent.sent();
        return Ok((None, starting));
    }
    let service = req.service.map_or("(tenant)", |s| s.name);
    if !deadline.allows_wait(wait) {
        drop(unsent);
        tracing::info!(
            target: "ruckus_one_runtime",
            service,
            wait_ms = millis(wait),
            "not sending: the rate budget frees up after the call's deadline"
        );
        return Err(Error::Timeout);
    }
    tracing::debug!(
        target: "ruckus_one_runtime",
        service,
        wait_ms = millis(wait),
        "waiting for rate budget"
    );
    Ok((Some((wait, unsent)), starting))
}
