//! The HTTP transport under clients that hold its resources: half-sent request heads are
//! closed after the header timeout, connections past the cap wait in the listen queue instead
//! of using up descriptors, and the oldest idle one is closed for a newcomer (so a fresh
//! session is served at once while many heads are held), and a body past
//! the limit is refused as soon as the bytes read pass it (tokio's paused clock, raw TCP).

use std::net::SocketAddr;
use std::time::Duration;

use ruckus_one_mcp::policy::Policy;
use ruckus_one_mcp::{HttpOptions, Server, connect};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::timeout;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#;

/// A server on loopback with `options`; its address.
async fn serve(options: HttpOptions) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let server = Server::start(Policy::default(), async {
        let connection = connect::local(None).await?;
        let own = connection.local.as_ref().map(|sim| sim.tenant_id());
        Ok((connection, own))
    });
    tokio::spawn(ruckus_one_mcp::http::serve_http_on(
        listener, server, options,
    ));
    addr
}

/// What the server sends on `conn` until it closes it or an error (a reset) ends the
/// reading; `None` when it is still open after ten minutes.
async fn until_closed(conn: &mut TcpStream) -> Option<String> {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let read = timeout(Duration::from_secs(600), async {
        while let Ok(n @ 1..) = conn.read(&mut buf).await {
            seen.extend_from_slice(&buf[..n]);
        }
    });
    read.await
        .ok()
        .map(|()| String::from_utf8_lossy(&seen).into_owned())
}

/// An `initialize` on a fresh connection; the status line of its answer.
async fn initialize(addr: SocketAddr) -> String {
    let mut conn = TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n",
        addr.port(),
        INITIALIZE.len()
    );
    conn.write_all(head.as_bytes()).await.expect("write head");
    conn.write_all(INITIALIZE.as_bytes())
        .await
        .expect("write body");
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    while !answer.windows(2).any(|w| w == b"\r\n") {
        let n = conn.read(&mut buf).await.expect("read");
        assert!(n > 0, "closed without an answer");
        answer.extend_from_slice(&buf[..n]);
    }
    let answer = String::from_utf8_lossy(&answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

/// `n` connections to `addr`, each with half a request head sent.
async fn hold_heads(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for _ in 0..n {
        let mut conn = TcpStream::connect(addr).await.expect("connect");
        conn.write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n")
            .await
            .expect("write");
        held.push(conn);
    }
    held
}

#[tokio::test(start_paused = true)]
async fn half_sent_heads_are_closed_and_a_fresh_session_is_served_meanwhile() {
    let options = HttpOptions {
        header_timeout: Duration::from_secs(5),
        max_connections: 4,
        ..HttpOptions::default()
    };
    let addr = serve(options).await;
    let mut held = hold_heads(addr, 12).await;
    let status = timeout(Duration::from_secs(600), initialize(addr)).await;
    let status = status.expect("a fresh session is served while heads are held");
    assert_eq!(status, "HTTP/1.1 200 OK");
    for conn in &mut held {
        let answer = until_closed(conn)
            .await
            .expect("a half-sent head is closed");
        assert!(!answer.contains(" 200 "), "{answer}");
    }
}

#[tokio::test(start_paused = true)]
async fn held_heads_do_not_keep_a_fresh_session_waiting_for_their_timeout() {
    // Heads held for an hour fill every place: only closing the oldest idle one for the
    // newcomer serves it before half that hour is out.
    let options = HttpOptions {
        header_timeout: Duration::from_secs(3_600),
        max_connections: 4,
        ..HttpOptions::default()
    };
    let addr = serve(options).await;
    let _held = hold_heads(addr, 12).await;
    let status = timeout(Duration::from_secs(1_800), initialize(addr)).await;
    let status = status.expect("served before the held heads time out");
    assert_eq!(status, "HTTP/1.1 200 OK");
}

#[tokio::test(start_paused = true)]
async fn a_body_past_the_limit_is_refused_while_it_is_read() {
    let addr = serve(HttpOptions::default()).await;
    let mut conn = TcpStream::connect(addr).await.expect("connect");
    let declared = 3_900_000;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {declared}\r\n\r\n",
        addr.port()
    );
    conn.write_all(head.as_bytes()).await.expect("write head");
    // Just past the 1 MiB limit, and then nothing: the rest of the body never comes.
    let (mut read, mut write) = conn.into_split();
    tokio::spawn(async move {
        let _ = write.write_all(&vec![b' '; 1024 * 1024 + 64 * 1024]).await;
        std::future::pending::<()>().await;
        drop(write);
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    let reading = timeout(Duration::from_secs(600), async {
        while !answer.windows(2).any(|w| w == b"\r\n") {
            match read.read(&mut buf).await {
                Ok(n @ 1..) => answer.extend_from_slice(&buf[..n]),
                _ => break,
            }
        }
    });
    reading.await.expect("answered before the body ends");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
}
