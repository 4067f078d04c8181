//! The HTTP server: axum's router (every request goes to the one handler that reads the route
//! table) served by hyper's HTTP/1.1 connections on a loopback listener. A handler answer
//! marked [`Dropped`] closes the connection without a response.
//!
//! No client can keep the others waiting: connections are served at most so many at once
//! (the others wait in the listen queue), and each one ends when a request's head is late, when
//! an answer's write stalls (answers never read), and once it is older than its age bound
//! (after the request in progress), so a slot held by a slow or greedy client comes free.

use crate::config::SimConfig;
use crate::handler::handle;
use crate::shared::{Dropped, Inner};
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

#[derive(Debug)]
struct DroppedError;

impl std::fmt::Display for DroppedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped on purpose")
    }
}

impl std::error::Error for DroppedError {}

/// Accepts connections until the task is aborted: at most `max_connections` at once, each
/// served by [`connection`].
pub(crate) async fn serve(listener: TcpListener, inner: Arc<Inner>) {
    let slots = Arc::new(Semaphore::new(inner.config.max_connections.max(1)));
    let app = axum::Router::new()
        .fallback(handle)
        .with_state(inner.clone());
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors and the like: wait a little, keep serving.
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            continue;
        };
        let (app, inner) = (app.clone(), inner.clone());
        tokio::spawn(async move {
            let _slot = slot;
            connection(stream, app, &inner.config).await;
        });
    }
}

/// Serves one connection: closed when a request's head takes longer than `read_timeout` to
/// arrive (the body's time is the handler's) or an answer's write stalls for `write_timeout`;
/// past `max_connection_age` it ends after the request in progress, or is closed if that
/// request is still not done after a read and a write timeout more.
async fn connection(stream: TcpStream, app: axum::Router, config: &SimConfig) {
    let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let app = app.clone();
        async move {
            let answer = app.oneshot(req.map(Body::new)).await;
            match answer {
                Ok(a) if a.extensions().get::<Dropped>().is_some() => Err(DroppedError),
                Ok(a) => Ok(a),
                Err(never) => match never {},
            }
        }
    });
    let mut stream = TimeoutStream::new(stream);
    stream.set_write_timeout(Some(config.write_timeout));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(config.read_timeout);
    let conn = builder.serve_connection(TokioIo::new(Box::pin(stream)), service);
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        () = tokio::time::sleep(config.max_connection_age) => {}
    }
    conn.as_mut().graceful_shutdown();
    let grace = config.read_timeout + config.write_timeout;
    let _ = tokio::time::timeout(grace, conn).await;
}
