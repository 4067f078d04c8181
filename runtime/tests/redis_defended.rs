//! Issue 48: the Redis pacing store keyed by region and tenant, and defended against values it
//! cannot trust. Each client stands for a process with its own memory; they share one real
//! `redis-server` (skipped with a message when it is not installed, except in CI).
#![cfg(feature = "redis")]

mod common;

use std::time::Duration;

use common::capture::Capture;
use common::loopback::{Answer, Loopback};
use futures_util::future::join_all;
use redis::Commands;
use ruckus_one_runtime::internal::Request;
use ruckus_one_runtime::{
    Client, Config, Credentials, Error, Pacing, PacingStore, RedisStore, RetryPolicy,
};

use common::small::{AUTH, GET_THING};

const REPLACED: &str =
    "a Redis pacing bucket held invalid values: replaced by this process's view of it";

#[path = "redis_server/mod.rs"]
mod redis_server;
use redis_server::RedisServer;

/// A client of `url` acting for its token's tenant `tenant`, its calls given `deadline` each.
fn client(url: &str, redis: &RedisServer, tenant: &str, deadline: Duration) -> Client {
    let store = RedisStore::open(&redis.url)
        .expect("url")
        .key_prefix("defended");
    let config = Config::new(Credentials::new(format!("id-{tenant}"), "secret"))
        .base_url(url)
        .token_tenant_id(tenant)
        .retry(RetryPolicy::none())
        .call_timeout(deadline)
        .pacing(Pacing::default().store(PacingStore::redis(store)));
    Client::new(config, &AUTH).expect("client")
}

async fn calls(client: &Client, n: usize) -> Vec<Result<(), Error>> {
    join_all((0..n).map(|_| async {
        Request::new(client, &GET_THING, &[])
            .send_raw()
            .await
            .map(drop)
    }))
    .await
}

fn keys(redis: &RedisServer) -> Vec<String> {
    let mut connection = redis::Client::open(redis.url.as_str())
        .and_then(|c| c.get_connection())
        .expect("redis connection");
    let mut keys: Vec<String> = connection.keys("defended:*").expect("keys");
    keys.sort();
    keys
}

#[tokio::test]
async fn two_tenants_on_one_redis_do_not_slow_each_other() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let server = Loopback::start(|_| Answer::json(200, "{}")).await;
    let busy = client(&server.url, &redis, "tenant-a", Duration::from_secs(30));
    let quiet = client(&server.url, &redis, "tenant-b", Duration::from_millis(300));
    // Tenant A queues 60 calls: about 3 s of its budget (9 at once, 19 a second).
    let queued = tokio::spawn({
        let busy = busy.clone();
        async move { calls(&busy, 60).await }
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    // Tenant B's budget is its own: its 5 calls go at once, well inside their 300 ms (behind
    // A's queue they would wait seconds, and fail at once with a timeout).
    let quick = calls(&quiet, 5).await;
    assert!(quick.iter().all(Result::is_ok), "{quick:?}");
    let slow = queued.await.expect("joined");
    assert!(slow.iter().all(Result::is_ok), "{slow:?}");
    let host = server.url.trim_end_matches('/');
    assert_eq!(
        keys(&redis),
        [
            format!("defended:{{{host} tenant-a}}:small"),
            format!("defended:{{{host} tenant-b}}:small"),
        ]
    );
}

/// Each spoilt value, written into the bucket after a first call made it.
async fn spoilt_bucket_is_replaced(field: &str, value: impl Fn(u64) -> String) {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (capture, _guard) = Capture::install();
    let server = Loopback::start(|_| Answer::json(200, "{}")).await;
    let client = client(&server.url, &redis, "tenant-a", Duration::from_secs(2));
    assert!(calls(&client, 1).await.iter().all(Result::is_ok));
    let key = keys(&redis).pop().expect("the bucket");
    let mut connection = redis::Client::open(redis.url.as_str())
        .and_then(|c| c.get_connection())
        .expect("redis connection");
    let (seconds, _): (u64, u64) = redis::cmd("TIME").query(&mut connection).expect("time");
    let micros = seconds * 1_000_000;
    let () = connection
        .hset(&key, field, value(micros))
        .expect("spoil the bucket");
    // Not obeyed: the calls still flow (with the bucket obeyed, none would be sent before its
    // deadline), and it is said once.
    let after = calls(&client, 20).await;
    assert!(after.iter().all(Result::is_ok), "{field}: {after:?}");
    let said = capture.events_saying(REPLACED);
    assert_eq!(said.len(), 1, "{field}: {said:?}");
    assert_eq!(said[0].level, tracing::Level::WARN);
    let tokens: f64 = connection.hget(&key, "tokens").expect("repaired tokens");
    assert!((-100.0..=10.0).contains(&tokens), "{field}: {tokens}");
}

#[tokio::test]
async fn a_bucket_owing_a_trillion_calls_is_not_obeyed() {
    spoilt_bucket_is_replaced("tokens", |_| "-1e12".to_owned()).await;
}

#[tokio::test]
async fn a_bucket_held_ten_years_ahead_is_not_obeyed() {
    let ten_years = 10 * 365 * 24 * 3600 * 1_000_000u64;
    spoilt_bucket_is_replaced("held", |now| (now + ten_years).to_string()).await;
}

#[tokio::test]
async fn a_bucket_of_words_is_not_obeyed() {
    spoilt_bucket_is_replaced("tokens", |_| "plenty".to_owned()).await;
}

#[tokio::test]
async fn a_bucket_updated_in_the_future_is_not_obeyed() {
    let a_day = 24 * 3600 * 1_000_000u64;
    spoilt_bucket_is_replaced("ts", |now| (now + a_day).to_string()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_slower_than_half_a_second_is_waited_for_up_to_the_timeout() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (capture, _guard) = Capture::install();
    let server = Loopback::start(|_| Answer::json(200, "{}")).await;
    let store = RedisStore::open(&redis.url)
        .expect("url")
        .key_prefix("defended")
        .timeout(Duration::from_secs(5));
    let config = Config::new(Credentials::new("id", "secret"))
        .base_url(&server.url)
        .token_tenant_id("tenant-a")
        .pacing(Pacing::default().store(PacingStore::redis(store)));
    let client = Client::new(config, &AUTH).expect("client");
    assert!(calls(&client, 1).await.iter().all(Result::is_ok));
    // The server busy for 1.5 s: longer than redis-rs's own 500 ms, within the store's 5 s.
    let url = redis.url.clone();
    let busy = std::thread::spawn(move || {
        let mut connection = redis::Client::open(url.as_str())
            .and_then(|c| c.get_connection())
            .expect("redis connection");
        let () = redis::cmd("DEBUG")
            .arg("SLEEP")
            .arg("1.5")
            .query(&mut connection)
            .expect("debug sleep");
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(calls(&client, 3).await.iter().all(Result::is_ok));
    busy.join().expect("joined");
    let fallback = capture.events_saying(
        "the Redis pacing store does not answer: pacing locally at a share of each budget",
    );
    assert!(fallback.is_empty(), "{fallback:?}");
}
