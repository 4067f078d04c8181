//! Start-up figures of the simulator, run by `cargo xtask bench sim` (built in release mode):
//! the first start in a process (which parses the generated tables), then the median, min and
//! max of many starts, each timed until its first answer (a token), and the wall time of 100
//! simulators started at once. Prints the benchmark rows (`row`, part, measure, median, min,
//! max, unit, target) `cargo xtask bench` turns into its table.
//!
//! Usage: `cargo run --release -p ruckus-one-sim --example startup [-- --quick] [--runs N]`.

use ruckus_one_sim::Simulator;
use std::time::{Duration, Instant};

const FORM: &str =
    "grant_type=client_credentials&client_id=sim-client-id&client_secret=sim-client-secret";

/// Starts a simulator and waits for its first answer; the time taken and the simulator.
async fn start(http: &reqwest::Client) -> Result<(Duration, Simulator), String> {
    let t0 = Instant::now();
    let sim = Simulator::start().await?;
    let answer = http
        .post(format!("{}/oauth2/token", sim.base_url()))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(FORM)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !answer.status().is_success() {
        return Err(format!("token answer {}", answer.status()));
    }
    Ok((t0.elapsed(), sim))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn row(measure: &str, mut values: Vec<f64>, target: &str) {
    values.sort_by(f64::total_cmp);
    let median = values.get(values.len() / 2).copied().unwrap_or(f64::NAN);
    let min = values.first().copied().unwrap_or(f64::NAN);
    let max = values.last().copied().unwrap_or(f64::NAN);
    println!("row\tsim\t{measure}\t{median}\t{min}\t{max}\tms\t{target}");
}

async fn run(runs: usize) -> Result<(), String> {
    let http = reqwest::Client::new();
    let (first, _) = start(&http).await?;
    row(
        "first start in a process (tables parsed), to first answer",
        vec![ms(first)],
        "-",
    );
    let mut each = Vec::new();
    for _ in 0..runs {
        let (d, sim) = start(&http).await?;
        each.push(ms(d));
        drop(sim);
    }
    row("one start, to first answer", each, "< 50 ms");
    let mut parallel = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        let sims = futures_util::future::join_all((0..100).map(|_| start(&http))).await;
        let sims: Vec<_> = sims.into_iter().collect::<Result<_, _>>()?;
        parallel.push(ms(t0.elapsed()) / sims.len() as f64);
    }
    row(
        "100 started at once, wall time per simulator",
        parallel,
        "< 50 ms",
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(if quick { 5 } else { 200 });
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("no runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(runs)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sim start-up benchmark failed: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
