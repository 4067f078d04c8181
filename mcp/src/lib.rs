//! `ruckus-mcp`: an MCP server over every RUCKUS One operation, on the official `rmcp` SDK.
//!
//! A few fixed tools instead of one per operation: `search_operations` (ranked ids, each with
//! its purpose and effect), `describe_operation` (parameters, a trimmed body schema, an
//! example) and one invoke tool per effect (`invoke_read`, `invoke_write`, `invoke_delete`),
//! with the operation index as resources. Driven by the tables of `ruckus-one-catalog`; every
//! call goes through `ruckus-one-runtime` (auth, pacing, retries, activities, redaction).
//!
//! Safe by construction: read-only unless writes are turned on, deletes apart and each
//! confirmed by the user, an allow-list of customer tenants, no credential in any result.

#![warn(missing_docs, unreachable_pub)]
mod args;
mod call;
mod confirm;
pub mod connect;
pub mod http;
mod index;
mod invoke;
pub mod logs;
mod ops;
mod output;
mod paging;
mod plan;
pub mod policy;
mod poller;
mod present;
mod schema;
mod search;
mod server;
mod spec_tasks;
mod stdio_tasks;
mod structured;
mod task_methods;
mod tasks;
mod toolargs;
mod tools;

pub use http::{HttpOptions, serve_http};
pub use server::Server;

use rmcp::ServiceExt;
use std::sync::Arc;

/// Serves `server` on standard input and output until the client closes them.
/// MCP 2025-11-25 tasks are served by an adapter between the client's lines and the SDK's.
pub async fn serve_stdio(server: Server) -> Result<(), String> {
    let (ours, sdk) = tokio::io::duplex(1 << 20);
    let adapter = Arc::new(stdio_tasks::Adapter::new(server.spec_tasks()));
    let lines = tokio::spawn(stdio_tasks::run(
        adapter,
        tokio::io::stdin(),
        tokio::io::stdout(),
        ours,
    ));
    let running = server
        .serve(sdk)
        .await
        .map_err(|e| format!("MCP start-up failed: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("MCP session ended: {e}"))?;
    let _ = lines.await;
    Ok(())
}
