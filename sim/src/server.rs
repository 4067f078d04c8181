//! The HTTP server: axum's router (every request goes to the one handler that reads the route
//! table) served by hyper's HTTP/1.1 connections on a loopback listener. A handler answer
//! marked [`Dropped`] closes the connection without a response.

use crate::handler::handle;
use crate::shared::{Dropped, Inner};
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

#[derive(Debug)]
struct DroppedError;

impl std::fmt::Display for DroppedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped on purpose")
    }
}

impl std::error::Error for DroppedError {}

/// Accepts connections until the task is aborted: at most `max_connections` at once (the
/// others wait in the listen queue), each closed when a request's head takes longer than
/// `read_timeout` to arrive (the body's time is the handler's).
pub(crate) async fn serve(listener: TcpListener, inner: Arc<Inner>) {
    let read_timeout = inner.config.read_timeout;
    let slots = Arc::new(Semaphore::new(inner.config.max_connections.max(1)));
    let app = axum::Router::new().fallback(handle).with_state(inner);
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors and the like: wait a little, keep serving.
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            let _slot = slot;
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
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
