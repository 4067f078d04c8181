//! The accept loop: hyper's HTTP/1.1 connections, at most so many at once (the others wait in
//! the listen queue, so the process never runs out of descriptors), each closed when a
//! request's head takes longer than the header timeout to arrive. When every place is taken,
//! the oldest connection with no request in progress (an idle keep-alive, or a head still
//! arriving) is closed for the next, so clients holding heads cannot keep a fresh session
//! waiting.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Notify, Semaphore};
use tower::ServiceExt;

use super::HttpOptions;

/// One connection as the loop sees it.
#[derive(Debug, Default)]
struct Conn {
    /// Requests in progress (from a complete head to the answer's last byte).
    busy: AtomicUsize,
    /// Closes the connection.
    close: Notify,
}

/// The open connections, oldest first.
type Conns = Arc<Mutex<BTreeMap<u64, Arc<Conn>>>>;

/// A request in progress on its connection, until dropped.
struct Busy(Arc<Conn>);

impl Busy {
    fn new(conn: &Arc<Conn>) -> Busy {
        conn.busy.fetch_add(1, Ordering::SeqCst);
        Busy(conn.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Closes the oldest connection with no request in progress, if there is one.
fn close_oldest_idle(conns: &Conns) {
    let conns = conns.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(conn) = conns.values().find(|c| c.busy.load(Ordering::SeqCst) == 0) {
        conn.close.notify_one();
    }
}

/// Serves `router` on `listener` until the task is dropped.
pub(super) async fn serve(listener: TcpListener, router: axum::Router, options: &HttpOptions) {
    let header_timeout = options.header_timeout;
    let slots = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let conns: Conns = Arc::default();
    let mut next = 0u64;
    loop {
        if slots.available_permits() == 0 {
            close_oldest_idle(&conns);
        }
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
        let (seq, conn) = (next, Arc::new(Conn::default()));
        next += 1;
        conns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(seq, conn.clone());
        let (router, conns) = (router.clone(), conns.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let for_requests = conn.clone();
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                let busy = Busy::new(&for_requests);
                let answer = router.clone().oneshot(req.map(Body::new));
                async move {
                    let answer = answer.await?;
                    // The request is in progress until its answer's body is dropped.
                    Ok::<_, std::convert::Infallible>(answer.map(|body| {
                        Body::new(body.map_frame(move |frame| {
                            let _ = &busy;
                            frame
                        }))
                    }))
                }
            });
            let serving = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = serving => {}
                () = conn.close.notified() => {}
            }
            conns.lock().unwrap_or_else(|e| e.into_inner()).remove(&seq);
        });
    }
}
