//! The simulator's server under slow or many clients: an incomplete request does not hold a
//! connection past the read timeout, and connections are served at most so many at once
//! (raw TCP on loopback, tokio's paused clock).

use ruckus_one_sim::{SimConfig, Simulator};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout};

async fn sim(config: SimConfig) -> Simulator {
    Simulator::start_with(config).await.expect("simulator")
}

/// What the server sends until it closes the connection (or a minute passes).
async fn until_closed(conn: &mut TcpStream) -> Option<String> {
    let mut seen = Vec::new();
    let read = timeout(Duration::from_secs(60), conn.read_to_end(&mut seen)).await;
    read.ok()
        .map(|_| String::from_utf8_lossy(&seen).into_owned())
}

#[tokio::test(start_paused = true)]
async fn an_incomplete_request_head_is_closed_after_the_read_timeout() {
    let sim = sim(SimConfig::default().read_timeout(Duration::from_secs(5))).await;
    let mut conn = TcpStream::connect(sim.addr()).await.expect("connect");
    conn.write_all(b"GET /venues HTTP/1.1\r\nhost: sim\r\n")
        .await
        .expect("write");
    let started = Instant::now();
    assert!(until_closed(&mut conn).await.is_some(), "still open");
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(5), "{took:?}");
    assert!(took <= Duration::from_secs(6), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn an_incomplete_body_is_answered_408_after_the_read_timeout() {
    let sim = sim(SimConfig::default().read_timeout(Duration::from_secs(5))).await;
    let mut conn = TcpStream::connect(sim.addr()).await.expect("connect");
    conn.write_all(
        b"POST /venues HTTP/1.1\r\nhost: sim\r\ncontent-type: application/json\r\n\
          content-length: 100\r\n\r\n{\"name\"",
    )
    .await
    .expect("write");
    let started = Instant::now();
    let answer = until_closed(&mut conn).await.expect("closed");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(started.elapsed() <= Duration::from_secs(6));
}

#[tokio::test(start_paused = true)]
async fn connections_past_the_cap_wait_for_a_free_one() {
    let sim = sim(SimConfig::default().max_connections(1)).await;
    let first = TcpStream::connect(sim.addr()).await.expect("connect");
    let mut second = TcpStream::connect(sim.addr()).await.expect("connect");
    second
        .write_all(b"GET /venues HTTP/1.1\r\nhost: sim\r\nconnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut byte = [0u8; 1];
    let early = timeout(Duration::from_secs(1), second.read(&mut byte)).await;
    assert!(early.is_err(), "served past the cap: {early:?}");
    drop(first);
    let answer = until_closed(&mut second).await.expect("served");
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
}

#[tokio::test(start_paused = true)]
async fn a_silent_or_idle_connection_is_closed_after_the_read_timeout() {
    let sim = sim(SimConfig::default().read_timeout(Duration::from_secs(5))).await;
    // Nothing sent at all.
    let mut silent = TcpStream::connect(sim.addr()).await.expect("connect");
    let started = Instant::now();
    assert!(until_closed(&mut silent).await.is_some(), "still open");
    assert!(started.elapsed() <= Duration::from_secs(6));
    // Idle after a whole request and its answer (keep-alive).
    let mut idle = TcpStream::connect(sim.addr()).await.expect("connect");
    idle.write_all(b"GET /venues HTTP/1.1\r\nhost: sim\r\n\r\n")
        .await
        .expect("write");
    let started = Instant::now();
    let answer = until_closed(&mut idle).await.expect("closed");
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    assert!(started.elapsed() <= Duration::from_secs(6));
}

/// Keeps one connection busy with keep-alive requests whose 4-byte bodies drip in well within
/// the read timeout, reconnecting whenever the server ends it; never reads.
async fn drip(addr: std::net::SocketAddr) {
    let head = b"POST /venues HTTP/1.1\r\nhost: sim\r\ncontent-type: application/json\r\n\
                 content-length: 4\r\n\r\n";
    loop {
        let Ok(mut conn) = TcpStream::connect(addr).await else {
            return;
        };
        'requests: loop {
            if conn.write_all(head).await.is_err() {
                break;
            }
            for _ in 0..4 {
                tokio::time::sleep(Duration::from_millis(200)).await;
                if conn.write_all(b" ").await.is_err() {
                    break 'requests;
                }
            }
        }
    }
}

/// Sends pipelined requests on one connection as fast as it can and never reads an answer.
async fn pipeline(addr: std::net::SocketAddr) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("buffer size");
    let Ok(mut conn) = socket.connect(addr).await else {
        return;
    };
    let batch = b"GET /venues HTTP/1.1\r\nhost: sim\r\n\r\n".repeat(200);
    while conn.write_all(&batch).await.is_ok() {}
}

/// A fresh connection's answer, once it is served (`None` after `wait`).
async fn fresh_answer(addr: std::net::SocketAddr, wait: Duration) -> Option<String> {
    let mut conn = TcpStream::connect(addr).await.expect("connect");
    conn.write_all(b"GET /venues HTTP/1.1\r\nhost: sim\r\nconnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut seen = Vec::new();
    let read = timeout(wait, conn.read_to_end(&mut seen)).await;
    read.ok()
        .map(|_| String::from_utf8_lossy(&seen).into_owned())
}

// On the real clock with short limits: on the paused one, the body of a keep-alive
// connection's second request is not read before its read timeout.
#[tokio::test]
async fn dripping_keep_alive_clients_do_not_keep_a_fresh_connection_waiting() {
    let config = SimConfig::default()
        .max_connections(2)
        .read_timeout(Duration::from_secs(3))
        .max_connection_age(Duration::from_secs(2));
    let sim = sim(config).await;
    let drippers: Vec<_> = (0..2).map(|_| tokio::spawn(drip(sim.addr()))).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let answer = fresh_answer(sim.addr(), Duration::from_secs(60)).await;
    let answer = answer.expect("the fresh connection is served");
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    drippers.iter().for_each(|d| d.abort());
}

#[tokio::test(start_paused = true)]
async fn pipelining_clients_that_never_read_do_not_keep_a_fresh_connection_waiting() {
    let config = SimConfig::default()
        .max_connections(2)
        .max_connection_age(Duration::from_secs(3600))
        .write_timeout(Duration::from_secs(5));
    let sim = sim(config).await;
    let pipes: Vec<_> = (0..2).map(|_| tokio::spawn(pipeline(sim.addr()))).collect();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let answer = fresh_answer(sim.addr(), Duration::from_secs(600)).await;
    let answer = answer.expect("the fresh connection is served");
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    pipes.iter().for_each(|p| p.abort());
}
