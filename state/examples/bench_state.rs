//! Export and plan of a large tenant against the simulator, with the published rate limits
//! enforced, run by `cargo xtask bench state` (release build): wall time, calls made, the least
//! time those calls can take under the published limits, the plan's own compute time, and the
//! process's peak memory (the simulator's included: it runs in the same process). Prints the
//! benchmark rows (`row`, part, measure, median, min, max, unit, target).
//!
//! Usage: `cargo run --release -p ruckus-one-state --example bench_state [-- --quick]`.
//! The full size is 100 venues, 2,000 APs and 500 Wi-Fi networks; `--quick` seeds 4 venues,
//! 20 APs and 5 networks.

use std::collections::BTreeMap;
use std::time::Instant;

use ruckus_one_catalog::Catalog;
use ruckus_one_runtime::internal::described;
use ruckus_one_runtime::{Client, Config, Credentials};
use ruckus_one_sim::{SimConfig, Simulator};
use ruckus_one_state::{self as state, PlanOptions, Scope};
use serde_json::json;

struct Size {
    venues: usize,
    aps: usize,
    networks: usize,
}

fn row(measure: &str, value: f64, unit: &str, target: &str) {
    println!("row\tstate\t{measure}\t{value}\t{value}\t{value}\t{unit}\t{target}");
}

fn seed(sim: &Simulator, size: &Size) -> Result<(), String> {
    let tenant = sim.tenant_id();
    for v in 0..size.venues {
        let venue = json!({"id": format!("venue-{v}"), "name": format!("Venue {v:03}"),
            "address": {"city": "Lyon", "country": "France"}});
        sim.insert(&tenant, "/venues", venue)?;
    }
    for a in 0..size.aps {
        let venue = format!("venue-{}", a % size.venues);
        let ap = json!({"serialNumber": format!("{:012}", 300_000_000_000_u64 + a as u64),
            "name": format!("AP {a:04}"), "venueId": venue});
        sim.insert(&tenant, &format!("/venues/{venue}/aps"), ap)?;
    }
    for n in 0..size.networks {
        let network = json!({"id": format!("network-{n}"), "name": format!("Network {n:03}"),
            "type": "open", "wlan": {"ssid": format!("ssid-{n}")}});
        sim.insert(&tenant, "/wifiNetworks", network)?;
    }
    Ok(())
}

/// The least time `calls` (by service) can take under the published limits: for each limit,
/// the calls beyond its burst at its rate; the tenant-wide limit over every call.
fn least_seconds(calls: &BTreeMap<String, usize>) -> Result<f64, String> {
    let catalog = Catalog::get().map_err(|e| e.to_string())?;
    let (_, table) = catalog.api("network").ok_or("no network API")?;
    let mut least: f64 = 0.0;
    for limit in &table.api.rate_limits {
        let n = calls.get(&limit.service).copied().unwrap_or(0) as f64;
        least = least.max((n - f64::from(limit.max)).max(0.0) / f64::from(limit.per_second));
    }
    if let Some(t) = &table.api.tenant_limit {
        let n: f64 = calls.values().sum::<usize>() as f64;
        least = least.max((n - f64::from(t.max)).max(0.0) * 60.0 / f64::from(t.per_minute));
    }
    Ok(least)
}

/// The calls `sim` answered, by the service of their operation.
fn calls_by_service(sim: &Simulator) -> Result<BTreeMap<String, usize>, String> {
    let catalog = Catalog::get().map_err(|e| e.to_string())?;
    let (_, table) = catalog.api("network").ok_or("no network API")?;
    let mut by = BTreeMap::new();
    for logged in sim.requests() {
        let Some(op) = logged.operation.as_deref() else {
            continue;
        };
        let service = table.route(op).map_or("-", |r| r.service.as_str());
        *by.entry(service.to_owned()).or_insert(0) += 1;
    }
    Ok(by)
}

/// The process's peak resident memory (`VmHWM`), in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

async fn run(size: Size) -> Result<(), String> {
    let sim = Simulator::start_with(SimConfig::default().rate_limits(true)).await?;
    seed(&sim, &size)?;
    let catalog = Catalog::get().map_err(|e| e.to_string())?;
    let (_, table) = catalog.api("network").ok_or("no network API")?;
    let (id, secret) = sim.credentials();
    let config = Config::new(Credentials::new(id, secret)).base_url(sim.base_url());
    let client = Client::new(config, described::auth_settings(table)).map_err(|e| e.to_string())?;
    let resources = Catalog::resources().map_err(|e| e.to_string())?;
    let conn = state::Connection::new(&client, None).map_err(|e| e.to_string())?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;

    let t0 = Instant::now();
    let live = state::export(&conn, resources, &Scope::tenant(), dir.path())
        .await
        .map_err(|e| e.to_string())?;
    let export_s = t0.elapsed().as_secs_f64();
    let export_calls = calls_by_service(&sim)?;
    let objects = live.len() as f64;

    let t1 = Instant::now();
    let (scope, desired) =
        state::document::read(dir.path(), resources).map_err(|e| e.to_string())?;
    let again = state::live_for(&conn, resources, &scope, &desired)
        .await
        .map_err(|e| e.to_string())?;
    let read_s = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    let plan = state::plan(resources, &desired, &again, &PlanOptions::default())
        .map_err(|e| e.to_string())?;
    let plan_s = t2.elapsed().as_secs_f64();
    let all_calls = calls_by_service(&sim)?;
    let plan_calls: usize =
        all_calls.values().sum::<usize>() - export_calls.values().sum::<usize>();

    row("objects exported", objects, "objects", "-");
    row("export, wall", export_s, "s", "-");
    row(
        "export, calls",
        export_calls.values().sum::<usize>() as f64,
        "calls",
        "-",
    );
    row(
        "export, least time the published limits allow",
        least_seconds(&export_calls)?,
        "s",
        "-",
    );
    row(
        "plan: read the files and the live state, wall",
        read_s,
        "s",
        "-",
    );
    row("plan: live reads, calls", plan_calls as f64, "calls", "-");
    row(
        "plan: compute (files and live state in memory)",
        plan_s,
        "s",
        "< 1 s",
    );
    row(
        "plan: steps (an export planned again)",
        plan.steps.len() as f64,
        "steps",
        "0",
    );
    row(
        "peak memory of the process (simulator included)",
        peak_mib(),
        "MiB",
        "-",
    );
    Ok(())
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let size = if quick {
        Size {
            venues: 4,
            aps: 20,
            networks: 5,
        }
    } else {
        Size {
            venues: 100,
            aps: 2_000,
            networks: 500,
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    if let Err(e) = rt.block_on(run(size)) {
        eprintln!("bench state: {e}");
        std::process::exit(1);
    }
}
