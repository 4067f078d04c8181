//! What happens when the service answers `429 Too Many Requests`.
//!
//! The client's default `RetryPolicy` repeats a rate-limited call (any method) after the
//! answer's `Retry-After` (up to 30 s), else after an exponential backoff, up to 3 attempts in
//! all. With `.retry(RetryPolicy::none())` on one call the `429` comes back at once as an
//! `Error`, whose accessors tell the caller what happened and when to try again.
//!
//! The fake answers `query_venues` (`POST /venues/query`) with a `429` (`Retry-After: 1`) and
//! then a page of venues, and the second call with a `429` again. The real service rarely
//! limits two calls, so live both calls normally just succeed.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example handle_rate_limit [-- --dry-run]
//! ```

mod support;

use std::time::Instant;

use ruckus_one::RetryPolicy;
use ruckus_one::network::QueryRequest;
use serde_json::json;
use support::Target;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose().await;
    if let Some(server) = target.fake() {
        fake_rate_limited_venues(server).await;
    }
    let client = target.client()?;
    let venues = client.network().wireless_venues();
    let mut query = QueryRequest::new();
    query.page_size = Some(10);

    // 1. The default policy: the 429 is retried after the second the service asked for.
    let started = Instant::now();
    let page = venues.query_venues(&query).send().await?;
    println!(
        "  default policy: {} venues, answered after {:.1} s",
        page.data.as_ref().map_or(0, Vec::len),
        started.elapsed().as_secs_f64()
    );

    // 2. No retries for this call: the 429 is returned to us.
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

    target.finish().await;
    Ok(())
}

/// `POST /venues/query` answers 429 (with `Retry-After: 1`), then a page of venues, then 429.
async fn fake_rate_limited_venues(server: &MockServer) {
    // The services document neither the 429 body nor Retry-After; this canned answer uses the
    // configuration services' error shape.
    let limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "1")
        .insert_header("x-request-id", "7d0c6a4e-2b1f-4c3d-9e8f-a1b2c3d4e5f6")
        .set_body_json(json!({
            "requestId": "7d0c6a4e-2b1f-4c3d-9e8f-a1b2c3d4e5f6",
            "errors": [{
                "code": "TOO_MANY_REQUESTS",
                "message": "Rate limit exceeded for this tenant",
                "suggestion": "Retry after the time given in Retry-After"
            }]
        }));
    let page = support::ok_v1(json!({
        "totalCount": 2,
        "page": 1,
        "data": [
            {"id": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "name": "Head office"},
            {"id": "0f9e8d7c6b5a49382716a5b4c3d2e1f0", "name": "Lab"}
        ]
    }));
    Mock::given(method("POST"))
        .and(path("/venues/query"))
        .respond_with(support::sequence(vec![limited.clone(), page, limited]))
        .expect(3)
        .named("venue query: 429, 200, 429")
        .mount(server)
        .await;
}
