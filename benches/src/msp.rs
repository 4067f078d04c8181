//! The `msp` part: writes at MSP scale through the generated client's fan-out, pacing and bulk
//! waiting, against a local server that enforces a per-tenant token bucket and answers every
//! write `202 Accepted` with a request id (its activity succeeds a little later).
//!
//! A skeleton until the simulator (`ruckus-one-sim`) replaces the server: the same figures
//! (429 share, budget used, token requests, activity queries) against the real thing. Here the
//! bucket is small (40 calls at once, 20 per second; the client is told the same limit) so that
//! a run takes seconds; the published venue limit (200 / 100) would need far more writes per
//! tenant before pacing shows.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use ruckus_one::network::{Venue, VenueAddress};
use ruckus_one::{Client, Config, Credentials, Pacing, RateLimit, WaitOptions};
use serde_json::{Value, json};

use crate::clients::Failure;
use crate::options::Options;
use crate::stats::{Spread, row, verdict};

/// The server's bucket per tenant, and the limit the client paces by.
const MAX: u32 = 40;
const PER_SECOND: u32 = 20;
/// An activity is listed this long after its write, and succeeds this long after it.
const LISTED_AFTER: Duration = Duration::from_millis(100);
const DONE_AFTER: Duration = Duration::from_millis(500);

/// What the server saw.
#[derive(Default)]
struct Seen {
    token_requests: usize,
    writes: usize,
    refused: usize,
    /// Accepted writes per tenant: first and last time, count.
    per_tenant: HashMap<String, (Instant, Instant, usize)>,
    /// Request id -> when it was written.
    activities: HashMap<String, Instant>,
    queries: usize,
    /// Request ids asked for, over every activity query.
    ids_asked: usize,
    buckets: HashMap<String, (f64, Instant)>,
}

type Shared = Arc<Mutex<Seen>>;

fn lock(seen: &Shared) -> std::sync::MutexGuard<'_, Seen> {
    seen.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `tenants` × `writes` and prints the rows.
pub async fn msp_bench(options: &Options) -> Result<(), Failure> {
    let (tenants, writes) = if options.quick { (3, 60) } else { (20, 100) };
    let seen: Shared = Arc::default();
    let base = serve(seen.clone()).await?;
    let config = Config::new(Credentials::new("msp-client", "msp-secret-0123456789"))
        .base_url(&base)
        .token_tenant_id("msp")
        .pacing(Pacing::default().limit("venue", RateLimit::per_tenant(MAX, PER_SECOND)));
    let client = Client::new(config)?;
    eprintln!("msp: {tenants} tenants × {writes} writes, {MAX} / {PER_SECOND} per tenant");
    let ids: Vec<String> = (0..tenants).map(|i| format!("customer-{i}")).collect();
    let started = Instant::now();
    let outcomes = client
        .for_each_tenant(ids, tenants, |customer| async move {
            let venue = Venue::new(
                "Site".to_owned(),
                VenueAddress::new("Sunnyvale".to_owned(), "United States".to_owned()),
            );
            let venue = &venue;
            let customer = &customer;
            let answers: Vec<_> = futures_util::stream::iter(0..writes)
                .map(|_| async move {
                    let accepted = customer
                        .network()
                        .wireless_venues()
                        .create_venue(venue)
                        .send()
                        .await?;
                    Ok::<_, ruckus_one::Error>(accepted.pending())
                })
                .buffer_unordered(16)
                .collect()
                .await;
            answers.into_iter().collect::<Result<Vec<_>, _>>()
        })
        .await;
    let wrote = started.elapsed();
    let mut pending = Vec::new();
    for outcome in outcomes {
        pending.extend(outcome.result?.into_iter().flatten());
    }
    let expected = pending.len();
    let options = WaitOptions::default()
        .initial_interval(Duration::from_millis(250))
        .max_interval(Duration::from_secs(1));
    let finished = client.network().wait_all(pending, &options).await?;
    let succeeded = finished.iter().filter(|r| r.is_ok()).count();
    eprintln!(
        "msp: {expected} writes in {:.1} s, {succeeded} activities succeeded after {:.1} s",
        wrote.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    report(&lock(&seen), tenants * writes, succeeded);
    Ok(())
}

fn report(seen: &Seen, writes: usize, succeeded: usize) {
    let one = |v: f64| Spread {
        median: v,
        min: v,
        max: v,
    };
    let calls = seen.writes + seen.queries;
    let share = 100.0 * seen.refused as f64 / calls.max(1) as f64;
    row(
        "msp",
        "429 answers / calls",
        one(share),
        "%",
        &verdict(share <= 0.1, "≤ 0.1 %"),
    );
    // Per tenant: the writes after the first bucketful, against what the refill allows in the
    // time they took.
    let used: Vec<f64> = seen
        .per_tenant
        .values()
        .filter(|(_, _, n)| *n > MAX as usize)
        .map(|(first, last, n)| {
            let seconds = last.duration_since(*first).as_secs_f64().max(1e-3);
            (*n - MAX as usize) as f64 / (seconds * f64::from(PER_SECOND))
        })
        .collect();
    let used = Spread::of(&used.iter().map(|u| u * 100.0).collect::<Vec<_>>());
    row(
        "msp",
        "budget used (per tenant)",
        used,
        "%",
        &verdict(used.median >= 90.0, "≥ 90 %"),
    );
    row(
        "msp",
        "token requests",
        one(seen.token_requests as f64),
        "requests",
        &verdict(seen.token_requests == 1, "exactly 1"),
    );
    row(
        "msp",
        "activities succeeded / writes",
        one(succeeded as f64 / writes.max(1) as f64),
        "ratio",
        &verdict(succeeded == writes, "all"),
    );
    row(
        "msp",
        "activity queries",
        one(seen.queries as f64),
        "requests",
        "",
    );
    let per_query = seen.ids_asked as f64 / seen.queries.max(1) as f64;
    row(
        "msp",
        "request ids per activity query (mean)",
        one(per_query),
        "ids",
        "",
    );
}

/// Starts the server on the current runtime; its base URL.
async fn serve(seen: Shared) -> Result<String, Failure> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            let seen = seen.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req| handle(seen.clone(), req));
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok(url)
}

async fn handle(seen: Shared, req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let tenant = parts
        .headers
        .get("x-rks-tenantid")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let mut seen = lock(&seen);
    let (status, body) = match (&parts.method, parts.uri.path()) {
        (&Method::POST, p) if p.starts_with("/oauth2/token") => {
            seen.token_requests += 1;
            let token =
                json!({"access_token": "msp-token", "token_type": "Bearer", "expires_in": 3600});
            (StatusCode::OK, token)
        }
        (&Method::POST, "/venues") => write(&mut seen, &tenant),
        (&Method::POST, "/activities/query") => query(&mut seen, &body),
        _ => (StatusCode::NOT_FOUND, json!({})),
    };
    drop(seen);
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(response)
}

/// A write for `tenant`: 202 with a request id, or 429 when the tenant's bucket is empty.
fn write(seen: &mut Seen, tenant: &str) -> (StatusCode, Value) {
    seen.writes += 1;
    let now = Instant::now();
    let (tokens, updated) = seen
        .buckets
        .entry(tenant.to_owned())
        .or_insert((f64::from(MAX), now));
    *tokens = (*tokens + now.duration_since(*updated).as_secs_f64() * f64::from(PER_SECOND))
        .min(f64::from(MAX));
    *updated = now;
    if *tokens < 1.0 {
        seen.refused += 1;
        return (
            StatusCode::TOO_MANY_REQUESTS,
            json!({"errors": [{"code": "TOO_MANY"}]}),
        );
    }
    *tokens -= 1.0;
    let entry = seen
        .per_tenant
        .entry(tenant.to_owned())
        .or_insert((now, now, 0));
    entry.1 = now;
    entry.2 += 1;
    let id = format!("{tenant}-{}", seen.writes);
    seen.activities.insert(id.clone(), now);
    (
        StatusCode::ACCEPTED,
        json!({"requestId": id, "response": {"id": id}}),
    )
}

/// The activity query: a row per listed activity among the ids asked for.
fn query(seen: &mut Seen, body: &[u8]) -> (StatusCode, Value) {
    seen.queries += 1;
    let asked: Value = serde_json::from_slice(body).unwrap_or_default();
    let ids = asked["filters"]["id"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    seen.ids_asked += ids.len();
    let now = Instant::now();
    let rows: Vec<Value> = ids
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|id| {
            let age = now.duration_since(*seen.activities.get(id)?);
            let status = match age {
                a if a < LISTED_AFTER => return None,
                a if a < DONE_AFTER => "INPROGRESS",
                _ => "SUCCESS",
            };
            Some(json!({"requestId": id, "status": status, "useCase": "AddVenue"}))
        })
        .collect();
    (
        StatusCode::OK,
        json!({"totalCount": rows.len(), "page": 1, "data": rows}),
    )
}
