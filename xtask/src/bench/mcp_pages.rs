//! `cargo xtask bench mcp`, page sizes: `ruckus-mcp --local` on a simulator seeded with 150
//! venues and 150 APs, and the characters of the text of `invoke_read` pages of each: the
//! default page (20 rows, the usual columns) and a page of 100 rows.

use super::table::Row;
use ruckus_bench_stats::{Spread, verdict};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const ROWS: usize = 150;
const AP_VENUE: &str = "venue-000";

/// The pages measured: what, and the `invoke_read` arguments.
fn pages() -> Vec<(&'static str, Value)> {
    let aps = |limit: Option<u64>| {
        let mut args =
            json!({"operation": "query_venue_aps", "body": {"filters": {"venueId": [AP_VENUE]}}});
        if let Some(limit) = limit {
            args["limit"] = json!(limit);
        }
        args
    };
    vec![
        ("venues, default page", json!({"operation": "query_venues"})),
        (
            "venues, 100-row page",
            json!({"operation": "query_venues", "limit": 100}),
        ),
        ("APs, default page", aps(None)),
        ("APs, 100-row page", aps(Some(100))),
    ]
}

/// A seed of [`ROWS`] venues and APs, with the fields a real answer has.
fn seed() -> Value {
    let venues: Vec<Value> = (0..ROWS)
        .map(|i| {
            json!({"id": format!("venue-{i:03}"), "name": format!("Venue {i:03}"),
                "description": "Headquarters building, second floor and the lobby",
                "address": {"country": "United States", "city": "Sunnyvale",
                    "addressLine": format!("{i} Main Street"), "timezone": "America/Los_Angeles",
                    "latitude": "37.3688", "longitude": "-122.0363"}})
        })
        .collect();
    let aps: Vec<Value> = (0..ROWS)
        .map(|i| {
            json!({"serialNumber": format!("{:012}", 302_000_000_000_u64 + i as u64),
                "name": format!("ap-{i:03}"), "model": "R750", "venueId": AP_VENUE,
                "macAddress": format!("34:20:e3:00:{:02x}:{:02x}", i / 256, i % 256),
                "description": "Ceiling mount, lobby", "tags": ["lobby", "floor-1"]})
        })
        .collect();
    json!({"objects": {"sim-tenant": {"/venues": venues, format!("/venues/{AP_VENUE}/aps"): aps}}})
}

/// Measures each page once (sizes do not vary from run to run).
pub fn run(binary: &Path, rows: &mut Vec<Row>) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
    let seed_path = dir.path().join("seed.json");
    std::fs::write(&seed_path, seed().to_string()).map_err(|e| format!("the seed: {e}"))?;
    let mut child = Command::new(binary)
        .arg("--local")
        .arg("--seed")
        .arg(&seed_path)
        .env_remove("RUCKUS_MCP_TENANTS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let sizes = measure(&mut child);
    let _ = child.kill();
    let _ = child.wait();
    for ((what, _), size) in pages().iter().zip(sizes?) {
        let target = if what.ends_with("default page") {
            verdict(size <= 8_000, "<= 8,000 (2,000 tokens)")
        } else {
            verdict(size <= 40_000, "parses, <= 40,000")
        };
        rows.push(Row::new(
            "mcp",
            format!("{what}, text"),
            Spread::single(size as f64),
            "chars",
            target,
        ));
    }
    Ok(())
}

/// The characters of each page's text, checked to parse as JSON.
fn measure(child: &mut std::process::Child) -> Result<Vec<usize>, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let mut send = |v: Value| writeln!(stdin, "{v}").map_err(|e| format!("write: {e}"));
    let mut answer = |id: u64| -> Result<Value, String> {
        for line in lines.by_ref() {
            let line = line.map_err(|e| format!("read: {e}"))?;
            let value: Value = serde_json::from_str(&line).map_err(|e| format!("{e}: {line}"))?;
            if value["id"] == id {
                return Ok(value);
            }
        }
        Err("ruckus-mcp closed its output".into())
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}}),
    )?;
    answer(1)?;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let mut sizes = Vec::new();
    for (n, (what, args)) in pages().into_iter().enumerate() {
        let id = 10 + n as u64;
        send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "invoke_read", "arguments": args}}),
        )?;
        let got = answer(id)?;
        let text = got["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        let page: Value =
            serde_json::from_str(text).map_err(|e| format!("{what}: not JSON ({e})"))?;
        if got["result"]["isError"] == true || page["rows"].as_array().is_none_or(Vec::is_empty) {
            return Err(format!("{what}: no rows: {text}"));
        }
        sizes.push(text.chars().count());
    }
    Ok(sizes)
}
