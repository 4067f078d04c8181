//! `cargo xtask bench mcp`: the MCP server's figures. Start-up: `ruckus-mcp --local` (built in
//! release mode, dev profile with `--quick`) started again and again, timed from the spawn to
//! its answer to `initialize` on stdio (the simulator started in its process included).
//! Tool list: the `tools` of its answer to `tools/list` with writes and deletes on (every
//! tool listed), in characters and characters / 4 (a tokenizer-free token estimate). Page
//! sizes: `mcp_pages.rs`.

use super::table::Row;
use crate::cli::BenchArgs;
use ruckus_bench_stats::{Spread, verdict};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST_TOOLS: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const SEARCH: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_operations","arguments":{"query":"create a venue"}}}"#;

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let binary = build(root, options.quick)?;
    let runs = options.runs.unwrap_or(if options.quick { 3 } else { 21 });
    let (mut times, mut ready) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let mut tools = 0;
    for _ in 0..runs {
        let run = once(&binary)?;
        times.push(run.initialize);
        ready.push(run.first_search);
        tools = run.tools;
    }
    let millis = |d: &[Duration]| {
        Spread::of(
            &d.iter()
                .map(|t| t.as_secs_f64() * 1000.0)
                .collect::<Vec<_>>(),
        )
    };
    let start = millis(&times);
    rows.push(Row::new(
        "mcp",
        "`ruckus-mcp --local` start to `initialize` answer".into(),
        start,
        "ms",
        verdict(start.median < 100.0, "< 100 ms"),
    ));
    rows.push(Row::new(
        "mcp",
        "start to the first search answer (simulator, tables, index ready)".into(),
        millis(&ready),
        "ms",
        String::new(),
    ));
    let chars = tools as f64;
    rows.push(Row::new(
        "mcp",
        "tool list (every tool)".into(),
        Spread::single(chars),
        "chars",
        String::new(),
    ));
    rows.push(Row::new(
        "mcp",
        "tool list, chars / 4".into(),
        Spread::single(chars / 4.0),
        "tokens",
        verdict(chars / 4.0 < 2000.0, "< 2,000"),
    ));
    super::mcp_pages::run(&binary, rows)
}

/// Builds `ruckus-mcp` and returns its path.
fn build(root: &Path, quick: bool) -> Result<PathBuf, String> {
    eprintln!(
        "mcp: building ruckus-mcp ({})",
        if quick { "dev profile" } else { "release" }
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.args([
        "build",
        "--quiet",
        "-p",
        "ruckus-one-mcp",
        "--bin",
        "ruckus-mcp",
    ]);
    if !quick {
        command.arg("--release");
    }
    command.args(["--message-format", "json-render-diagnostics"]);
    let output = command
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err("building ruckus-mcp failed".into());
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo named no ruckus-mcp executable".into())
}

/// What one start measures.
struct Run {
    initialize: Duration,
    first_search: Duration,
    /// The tool list's size in characters.
    tools: usize,
}

/// One start: the time to the `initialize` answer and to the first search answer, and the
/// size of the tool list.
fn once(binary: &Path) -> Result<Run, String> {
    let start = Instant::now();
    let mut child = Command::new(binary)
        .args(["--local", "--allow-writes", "--allow-deletes"])
        .env_remove("RUCKUS_MCP_TENANTS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let result = talk(&mut child, start);
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn talk(child: &mut Child, start: Instant) -> Result<Run, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let mut send = |text: &str| writeln!(stdin, "{text}").map_err(|e| format!("write: {e}"));
    send(INITIALIZE)?;
    let mut answer = |id: u64| -> Result<serde_json::Value, String> {
        for line in lines.by_ref() {
            let line = line.map_err(|e| format!("read: {e}"))?;
            let value: serde_json::Value =
                serde_json::from_str(&line).map_err(|e| format!("{e}: {line}"))?;
            if value["id"] == id {
                return Ok(value);
            }
        }
        Err("ruckus-mcp closed its output".into())
    };
    let init = answer(1)?;
    let time = start.elapsed();
    if init.get("result").is_none() {
        return Err(format!("initialize failed: {init}"));
    }
    send(INITIALIZED)?;
    send(LIST_TOOLS)?;
    let tools = answer(2)?;
    let tools = tools["result"]["tools"].to_string().len();
    send(SEARCH)?;
    let found = answer(3)?;
    let first_search = start.elapsed();
    if found.get("result").is_none() {
        return Err(format!("search failed: {found}"));
    }
    Ok(Run {
        initialize: time,
        first_search,
        tools,
    })
}
