//! Issue 48: a Redis pacing store restarted empty in the middle of a run. The buckets it lost
//! start again from the process's own view of them, not full: a full bucket would let a burst
//! of writes through that the simulator (its published limits on: the switch service's 20 at
//! once and 10 a second) refuses with `429`. Run with `--features redis`; a real
//! `redis-server` is started (skipped with a message when it is not installed, except in CI).
#![cfg(feature = "redis")]

use std::time::Duration;

use futures_util::StreamExt;
use ruckus_one::network::AcxCliTemplate;
use ruckus_one::{Client, Config, Credentials, Pacing, PacingStore, RedisStore, RetryPolicy};
use ruckus_one_sim::{SimConfig, Simulator};

#[path = "../../runtime/tests/redis_server/mod.rs"]
mod redis_server;

/// Writes sent, 16 at a time: about 5 s of the switch budget.
const WRITES: usize = 64;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_restarted_empty_mid_run_leaves_no_429_to_the_caller() {
    let Some(mut redis) = redis_server::RedisServer::start() else {
        return;
    };
    let sim = Simulator::start_with(SimConfig::default())
        .await
        .expect("simulator starts");
    let (id, secret) = sim.credentials();
    let store = RedisStore::open(&redis.url)
        .expect("url")
        .retry_interval(Duration::from_millis(200));
    // No retries: every 429 reaches the caller.
    let config = Config::new(Credentials::new(id, secret))
        .base_url(sim.base_url())
        .token_tenant_id(sim.tenant_id())
        .retry(RetryPolicy::none())
        .pacing(Pacing::default().store(PacingStore::redis(store)));
    let client = Client::new(config).expect("client");
    let run = tokio::spawn(async move {
        futures_util::stream::iter(0..WRITES)
            .map(|i| {
                let client = client.clone();
                async move {
                    let template = AcxCliTemplate::new()
                        .with_name(format!("template {i}"))
                        .with_cli("hostname edge".to_owned());
                    let profiles = client.network().switch_profiles();
                    profiles
                        .create_cli_template(&template)
                        .send()
                        .await
                        .map(drop)
                }
            })
            .buffer_unordered(16)
            .collect::<Vec<_>>()
            .await
    });
    // Past the first burst, into the paced part of the run.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let _redis = tokio::task::spawn_blocking(move || {
        redis.restart_empty();
        redis
    })
    .await
    .expect("restarted");
    let results = run.await.expect("joined");
    let refused: Vec<_> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(refused.is_empty(), "{} refused: {refused:?}", refused.len());
    let throttled = sim.requests().iter().filter(|l| l.status == 429).count();
    assert_eq!(throttled, 0);
    assert_eq!(results.len(), WRITES);
}
