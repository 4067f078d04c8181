//! The Redis script's start window, against a real `redis-server` on a free loopback port
//! (skipped with a message when it is not installed, except in CI, `CI=true`). Its timing is
//! the memory buckets' (`tests.rs`, on the paused clock); here, that the script keeps the same
//! window: the calls taken from a full bucket are marked until one of them is answered.

use std::time::Duration;

use super::pacer::Op;
use super::*;

static SMALL: Service = Service {
    name: "small",
    rate_limit: Some(RateLimit::per_tenant(3, 1)),
};

#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

#[tokio::test]
async fn the_script_marks_the_calls_of_a_start_until_one_is_answered() {
    let Some(redis) = redis_server::RedisServer::start() else {
        return;
    };
    let store = RedisStore::open(&redis.url)
        .expect("url")
        .key_prefix("start-test");
    let plan = Pacing::default()
        .headroom(1.0)
        .jitter(Duration::ZERO)
        .plan(None, Some(&SMALL), "a")
        .expect("paced");
    let mut taken = Vec::new();
    for _ in 0..4 {
        taken.push(store.apply(&plan, "a", Op::Take).await.expect("answered"));
    }
    // The bucket was full: all four are in its start window, the fourth waits for a refill.
    assert!(taken.iter().all(|t| t.starting), "{taken:?}");
    assert!(taken[..3].iter().all(|t| t.wait.is_zero()), "{taken:?}");
    assert!(!taken[3].wait.is_zero());
    store
        .apply(&plan, "a", Op::Answered)
        .await
        .expect("answered");
    let after = store.apply(&plan, "a", Op::Take).await.expect("answered");
    // Answered: the window is closed (how much refill it takes back is the memory buckets'
    // test, on the paused clock), and the fifth call queues behind the fourth.
    assert!(!after.starting, "{after:?}");
    assert!(after.wait > taken[3].wait, "{after:?} {taken:?}");
}

#[tokio::test]
async fn a_full_bucket_reads_back_within_its_size() {
    let Some(redis) = redis_server::RedisServer::start() else {
        return;
    };
    let store = RedisStore::open(&redis.url)
        .expect("url")
        .key_prefix("exact-test");
    // 3 × 0.95 less the jitter's reserve: 2.6599999999999997, which 14 digits round up.
    let plan = Pacing::default()
        .plan(None, Some(&SMALL), "a")
        .expect("paced");
    let size = plan.specs().next().expect("a bucket").size;
    store.apply(&plan, "a", Op::Give).await.expect("answered");
    let mut connection = ::redis::Client::open(redis.url.as_str())
        .and_then(|c| c.get_connection())
        .expect("connection");
    let tokens: String = ::redis::cmd("HGET")
        .arg("exact-test:{a}:small")
        .arg("tokens")
        .query(&mut connection)
        .expect("tokens");
    let tokens: f64 = tokens.parse().expect("a number");
    assert!(tokens <= size, "{tokens} > {size}");
    assert_eq!(tokens, size);
}
