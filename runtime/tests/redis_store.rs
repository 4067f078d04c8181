//! Issue 33 item 4: pacing buckets in a Redis server shared by several clients (each its own
//! process in production: here each its own `Client`, whose memory buckets they do not share),
//! and the fallback to local pacing when the server stops. A real `redis-server` is started on
//! a free loopback port; without the binary the tests are skipped with a message, except in CI
//! (`CI=true`), where a missing server fails them.
#![cfg(feature = "redis")]

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::capture::Capture;
use common::loopback::{Answer, Loopback, ServerBucket};
use futures_util::future::join_all;
use ruckus_one_runtime::internal::Request;
use ruckus_one_runtime::{
    Client, Config, Credentials, Pacing, PacingStore, RedisStore, RetryPolicy,
};

use common::small::{AUTH, GET_THING};

const FALLBACK: &str =
    "the Redis pacing store does not answer: pacing locally at a share of each budget";

#[path = "redis_server/mod.rs"]
mod redis_server;
use redis_server::RedisServer;

/// A server enforcing the small limit per tenant: 429 when over.
async fn limited_server() -> Loopback {
    let bucket = Arc::new(Mutex::new(None::<Arc<ServerBucket>>));
    Loopback::start(move |_| {
        let bucket = bucket
            .lock()
            .expect("bucket")
            .get_or_insert_with(|| Arc::new(ServerBucket::new(10, 20)))
            .clone();
        if bucket.take() {
            Answer::json(200, "{}")
        } else {
            Answer::json(
                429,
                r#"{"errors":[{"code":"TOO_MANY","message":"slow down"}]}"#,
            )
        }
    })
    .await
}

fn client(url: &str, store: PacingStore) -> Client {
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(url)
        .token_tenant_id("owner")
        .retry(RetryPolicy::none())
        .pacing(Pacing::default().store(store));
    Client::new(config, &AUTH).expect("client")
}

fn store(redis: &RedisServer, prefix: &str) -> PacingStore {
    let store = RedisStore::open(&redis.url)
        .expect("url")
        .key_prefix(prefix);
    PacingStore::redis(store.retry_interval(Duration::from_millis(200)))
}

async fn calls(clients: &[Client], each: usize) -> Vec<Result<(), ruckus_one_runtime::Error>> {
    join_all(clients.iter().flat_map(|client| {
        (0..each).map(move |_| async move {
            Request::new(client, &GET_THING, &[])
                .send_raw()
                .await
                .map(drop)
        })
    }))
    .await
}

#[tokio::test]
async fn clients_sharing_redis_share_one_budget() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (capture, _guard) = Capture::install();
    let server = limited_server().await;
    // Three clients, as three processes would be: their own memory, one Redis.
    let shared: Vec<Client> = (0..3)
        .map(|_| client(&server.url, store(&redis, "shared-test")))
        .collect();
    let results = calls(&shared, 12).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let refused = server.calls().iter().filter(|h| h.status == 429).count();
    assert_eq!(refused, 0);
    assert_eq!(server.calls().len(), 36);
    // Paced by Redis all along, not by the local fallback.
    assert!(capture.events_saying(FALLBACK).is_empty());
}

#[tokio::test]
async fn clients_each_with_their_own_memory_overrun_the_budget() {
    // The control of the test above: the same calls, each client pacing alone.
    let server = limited_server().await;
    let alone: Vec<Client> = (0..3)
        .map(|_| client(&server.url, PacingStore::memory()))
        .collect();
    let results = calls(&alone, 12).await;
    assert!(results.iter().filter(|r| r.is_err()).count() >= 5);
}

#[tokio::test]
async fn a_stopped_redis_falls_back_to_local_pacing_and_says_so_once() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let (capture, _guard) = Capture::install();
    let server = limited_server().await;
    let client = client(&server.url, store(&redis, "stopped-test"));
    let first = calls(std::slice::from_ref(&client), 5).await;
    assert!(first.iter().all(Result::is_ok), "{first:?}");
    assert!(capture.events_saying(FALLBACK).is_empty());
    redis.stop();
    // Paced locally at a quarter of the budget meanwhile: no call fails for it.
    let second = calls(std::slice::from_ref(&client), 20).await;
    assert!(second.iter().all(Result::is_ok), "{second:?}");
    let warned = capture.events_saying(FALLBACK);
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0].level, tracing::Level::WARN);
    assert_eq!(server.calls().iter().filter(|h| h.status == 429).count(), 0);
    // Nothing secret in what was said (the address may hold a password).
    assert!(!capture.all_text().contains("redis://"));
}
