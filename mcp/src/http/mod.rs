//! Streamable HTTP on loopback, guarded as stdio is by construction: only the server's own
//! origins (and those the user adds) may call it, optionally only with a bearer token, and
//! no client can hold the server's connections or memory (a header read timeout, a cap on
//! connections, a body limit enforced while the body is read).

mod accept;
mod guard;
mod origin;
mod tasks;

pub use guard::BearerToken;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::Server;

/// How the HTTP transport is guarded and bounded.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Browser origins allowed besides the server's own (`http://127.0.0.1:PORT`,
    /// `http://localhost:PORT`, `http://[::1]:PORT`), each `scheme://host[:port]`; a request
    /// with any other `Origin` (`null` included) is refused with 403.
    pub allowed_origins: Vec<String>,
    /// When set, every request needs `Authorization: Bearer <token>` (else 401).
    pub token: Option<BearerToken>,
    /// How long a request's head may take to arrive before its connection is closed.
    pub header_timeout: Duration,
    /// Connections served at once; more wait in the listen queue until one closes.
    pub max_connections: usize,
    /// The largest request body read; a bigger one is answered 413 as soon as the bytes
    /// read pass it.
    pub max_body_bytes: usize,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            allowed_origins: Vec::new(),
            token: None,
            header_timeout: Duration::from_secs(10),
            max_connections: 512,
            max_body_bytes: 1024 * 1024,
        }
    }
}

/// `text` if it is an origin `--allow-origin` accepts: `scheme://host` with an optional port
/// and nothing after it.
pub fn parse_origin(text: &str) -> Result<String, String> {
    match origin::Origin::parse(text) {
        Some(_) => Ok(text.to_owned()),
        None => Err(format!(
            "`{text}` is not an origin (scheme://host or scheme://host:port)"
        )),
    }
}

/// Serves `server` over streamable HTTP at `http://127.0.0.1:<port>/mcp` (loopback only).
pub async fn serve_http(server: Server, port: u16, options: HttpOptions) -> Result<(), String> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("ruckus-mcp: serving MCP at http://{local}/mcp");
    serve_http_on(listener, server, options).await
}

/// Serves `server` over streamable HTTP at `/mcp` on `listener` until the task is dropped.
pub async fn serve_http_on(
    listener: TcpListener,
    server: Server,
    options: HttpOptions,
) -> Result<(), String> {
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    // Origin and Host are the guard's to check (origin.rs), before the task layer answers.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .disable_allowed_origins()
        .with_max_request_body_bytes(options.max_body_bytes);
    let tasks = Arc::new(tasks::Tasks {
        store: server.spec_tasks(),
        max_body_bytes: options.max_body_bytes,
        extension_sessions: Mutex::default(),
    });
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let gate = Arc::new(guard::Gate {
        token: options.token.clone(),
        allowed: origin::Allowed::new(port, &options.allowed_origins),
    });
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(tasks, tasks::layer))
        .layer(axum::middleware::from_fn_with_state(gate, guard::guard));
    accept::serve(listener, router, &options).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_origin;

    #[test]
    fn origins_are_scheme_and_authority_only() {
        for good in [
            "https://app.example",
            "http://127.0.0.1:3000",
            "http://[::1]:8",
        ] {
            assert_eq!(parse_origin(good).as_deref(), Ok(good));
        }
        for bad in [
            "app.example",
            "https://",
            "https://a/b",
            "http://a:",
            "://a",
            "null",
        ] {
            assert!(parse_origin(bad).is_err(), "{bad}");
        }
    }
}
