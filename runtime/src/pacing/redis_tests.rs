//! The Redis script's start window, against a real `redis-server` on a free loopback port
//! (skipped with a message when it is not installed, except in CI, `CI=true`). Its timing is
//! the memory buckets' (`tests.rs`, on the paused clock); here, that the script keeps the same
//! window: the calls taken from a full bucket are marked until one of them is answered.

use std::process::{Command, Stdio};
use std::time::Duration;

use super::pacer::Op;
use super::*;

static SMALL: Service = Service {
    name: "small",
    rate_limit: Some(RateLimit::per_tenant(3, 1)),
};

/// A `redis-server` on a free port; `None` when it cannot be started outside CI.
fn redis_server() -> Option<(std::process::Child, String)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let spawned = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let child = match spawned {
        Ok(child) => child,
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("skipped: cannot start redis-server ({e})");
            return None;
        }
        Err(e) => panic!("CI needs redis-server: {e}"),
    };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some((child, format!("redis://127.0.0.1:{port}/")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("redis-server did not listen on port {port}");
}

#[tokio::test]
async fn the_script_marks_the_calls_of_a_start_until_one_is_answered() {
    let Some((mut child, url)) = redis_server() else {
        return;
    };
    let store = RedisStore::open(&url)
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
    let _ = child.kill();
    let _ = child.wait();
}
