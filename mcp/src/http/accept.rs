//! The accept loop: hyper's HTTP/1.1 connections, at most so many at once (the others wait in
//! the listen queue, so the process never runs out of descriptors), each closed when a
//! request's head takes longer than the header timeout to arrive.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::HttpOptions;

/// Serves `router` on `listener` until the task is dropped.
pub(super) async fn serve(listener: TcpListener, router: axum::Router, options: &HttpOptions) {
    let header_timeout = options.header_timeout;
    let slots = Arc::new(Semaphore::new(options.max_connections.max(1)));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors and the like: wait a little, keep serving.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let router = router.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                router.clone().oneshot(req.map(Body::new))
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
