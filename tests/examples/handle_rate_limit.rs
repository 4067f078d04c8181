//! What happens when the service answers `429 Too Many Requests`.
//!
//! The client's default `RetryPolicy` repeats a rate-limited call (any method) after the
//! answer's `Retry-After` (up to 30 s), else after an exponential backoff, up to 3 attempts in
//! all. With `.retry(RetryPolicy::none())` on one call the `429` comes back at once as an
//! `Error`, whose accessors tell the caller what happened and when to try again.
//!
//! With `--dry-run` the simulator is told to answer `query_venues` (`POST /venues/query`) once
//! with a `429` (`Retry-After: 1`) before each call, then answers from the two venues it holds
//! (the client paces itself by the service's published limits, so it would not draw a 429 from
//! the simulator's own limits with two calls). The real service rarely limits two calls, so live
//! both calls normally just succeed.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example handle_rate_limit [-- --dry-run]
//! ```

mod support;

use std::time::{Duration, Instant};

use ruckus_one::RetryPolicy;
use ruckus_one::network::QueryRequest;
use ruckus_one_sim::{Fault, Simulator};
use serde_json::json;
use support::Target;

/// One `429` with `Retry-After: 1` for the next venue query.
fn rate_limit_next_query(target: &Target) {
    if let Some(sim) = target.simulator() {
        sim.inject("query_venues", Fault::status(429).retry_after(1).times(1));
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose_simulated().await;
    if let Some(sim) = target.simulator() {
        seed_venues(sim)?;
    }
    let client = target.client()?;
    let venues = client.network().wireless_venues();
    let mut query = QueryRequest::new();
    query.page_size = Some(10);

    // 1. The default policy: the 429 is retried after the second the service asked for.
    rate_limit_next_query(&target);
    let started = Instant::now();
    let page = venues.query_venues(&query).send().await?;
    println!(
        "  default policy: {} venues, answered after {:.1} s",
        page.data.as_ref().map_or(0, Vec::len),
        started.elapsed().as_secs_f64()
    );

    // 2. No retries for this call: the 429 is returned to us.
    rate_limit_next_query(&target);
    let (status, retry_after) = match venues
        .query_venues(&query)
        .retry(RetryPolicy::none())
        .send()
        .await
    {
        Ok(_) => {
            println!("  RetryPolicy::none(): answered, not rate limited this time");
            (None, None)
        }
        Err(err) if err.status() == Some(429) => {
            // Each accessor is an `Option`: the service may leave any of them out.
            println!(
                "  RetryPolicy::none(): status {:?}, retry_after {:?}, code {:?}, message {:?}, request_id {:?}, is_retryable {}",
                err.status(),
                err.retry_after(),
                err.code(),
                err.message(),
                err.request_id(),
                err.is_retryable(),
            );
            // The caller decides: wait `err.retry_after()` and send again, or give up.
            (err.status(), err.retry_after())
        }
        // Anything else is a real failure.
        Err(err) => return Err(err.into()),
    };
    match (status, retry_after) {
        (Some(status), Some(wait)) => println!(
            "handle_rate_limit: retried one 429 by default; without retries got {status}, retry after {} s",
            wait.as_secs()
        ),
        _ => println!("handle_rate_limit: both calls answered"),
    }

    if let Some(sim) = target.simulator() {
        let venue_queries: Vec<u16> = sim
            .requests()
            .iter()
            .filter(|r| r.operation.as_deref() == Some("query_venues"))
            .map(|r| r.status)
            .collect();
        assert_eq!(
            venue_queries,
            [429, 200, 429],
            "the first call retried once, the second not"
        );
        assert_eq!(
            (status, retry_after),
            (Some(429), Some(Duration::from_secs(1)))
        );
    }

    target.finish().await;
    Ok(())
}

/// Two venues of the simulator's tenant, as `POST /venues` would have created them.
fn seed_venues(sim: &Simulator) -> Result<(), String> {
    for (id, name) in [
        ("a1b2c3d4e5f60718293a4b5c6d7e8f90", "Head office"),
        ("0f9e8d7c6b5a49382716a5b4c3d2e1f0", "Lab"),
    ] {
        sim.insert(&sim.tenant_id(), "/venues", json!({"id": id, "name": name}))?;
    }
    Ok(())
}
