//! `msp --redis`: the `msp` writes from four client processes (this binary, `msp-worker`) that
//! share one Redis (a real `redis-server` on a free loopback port, started here) against one
//! simulator in this process: each process writes a quarter of every customer's writes, so each
//! customer's budgets are paced by four processes at once. Then the same with the Redis server
//! stopped a third of the way through: no call may fail, and each process says once (WARN) that
//! it paces locally. Then with the server restarted empty a third of the way through, the
//! writes not retried: the `429`s left to the caller (none: each process resumes from its own
//! view of the buckets). Last, two tenants of their own on one Redis (`msp_tenants.rs`).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ruckus_one::{Client, Pacing, PacingStore, RedisStore, RetryPolicy};

use crate::clients::Failure;
use crate::msp::{config, simulator, size, write_and_wait};
use crate::msp_figures::Figures;
use crate::options::Options;
use crate::redis_server::RedisServer;
use crate::stats::{Spread, row, verdict};
use crate::warns::{FALLBACK_WARNS, Warns};

/// Client processes sharing the Redis server.
const PROCESSES: usize = 4;

pub async fn msp_redis_bench(options: &Options) -> Result<(), Failure> {
    run(options, Outage::None).await?;
    run(options, Outage::Stopped).await?;
    run(options, Outage::Restarted).await?;
    crate::msp_tenants::bench(options).await
}

/// What happens to the Redis server a third of the way through a run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outage {
    None,
    /// Stopped for good: the processes pace locally from then on.
    Stopped,
    /// Stopped and started again empty; the writes are not retried.
    Restarted,
}

/// One run: four workers, the Redis server stopped or restarted on the way.
async fn run(options: &Options, outage: Outage) -> Result<(), Failure> {
    let bench = match outage {
        Outage::None => "msp redis ×4",
        Outage::Stopped => "msp redis stopped",
        Outage::Restarted => "msp redis restarted empty",
    };
    let (tenants, writes) = size(options);
    let redis = RedisServer::start()?;
    let sim = simulator(tenants).await?;
    let exe = std::env::current_exe()?;
    let each = writes / PROCESSES;
    eprintln!("{bench}: {PROCESSES} processes × {tenants} tenants × {each} writes, one Redis");
    let started = Instant::now();
    let children = (0..PROCESSES)
        .map(|_| {
            Command::new(&exe)
                .args(["msp-worker", &sim.base_url(), &redis.url])
                .args([tenants.to_string(), each.to_string()])
                .args((outage == Outage::Restarted).then_some("no-retry"))
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Kept until the workers are done.
    let _redis = interrupt(redis, outage, writes, bench, started).await?;
    let (totals, warns) = collect(children).await?;
    let [accepted, failed, succeeded, _, throttled] = totals;
    eprintln!(
        "{bench}: {accepted} writes accepted, {failed} failed, {succeeded} activities succeeded after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let mut figures = Figures::of(&sim.requests());
    if outage != Outage::None {
        figures = figures.with_fallback();
    }
    figures.report(
        bench,
        tenants * each * PROCESSES,
        accepted,
        succeeded,
        PROCESSES,
    );
    let none = verdict(failed == 0, "none");
    row(
        bench,
        "failed calls",
        Spread::single(failed as f64),
        "calls",
        &none,
    );
    if outage == Outage::Restarted {
        row(
            bench,
            "429 answers left to the caller (writes not retried)",
            Spread::single(throttled as f64),
            "calls",
            &verdict(throttled == 0, "0"),
        );
    }
    let warned = Spread::of(&warns);
    let target = if outage != Outage::None {
        verdict(
            warned.min == 1.0 && warned.max == 1.0,
            "exactly 1 per process",
        )
    } else {
        verdict(warned.max == 0.0, "none")
    };
    row(
        bench,
        "fallback WARNs per process",
        warned,
        "events",
        &target,
    );
    Ok(())
}

/// Stops or restarts `redis` a third of the way through the writes, as `outage` says; the server
/// to keep until the workers are done.
async fn interrupt(
    redis: RedisServer,
    outage: Outage,
    writes: usize,
    bench: &str,
    started: Instant,
) -> Result<RedisServer, Failure> {
    if outage == Outage::None {
        return Ok(redis);
    }
    let stop = outage == Outage::Stopped;
    // A third of the writes' time: the switch budget lets 10 writes a second per customer.
    let third = Duration::from_secs_f64(writes as f64 / 10.0 / 3.0);
    tokio::time::sleep(third).await;
    let redis = tokio::task::spawn_blocking(move || {
        let mut redis = redis;
        if stop {
            redis.stop();
        } else {
            redis.restart_empty()?;
        }
        Ok::<_, String>(redis)
    })
    .await??;
    eprintln!(
        "{bench}: Redis {} after {:.1} s",
        if stop { "stopped" } else { "restarted empty" },
        started.elapsed().as_secs_f64()
    );
    Ok(redis)
}

/// The workers' figures added up (accepted, failed, succeeded, WARNs, failed with `429`), and
/// each worker's fallback WARNs.
async fn collect(children: Vec<Child>) -> Result<([usize; 5], Vec<f64>), Failure> {
    let outputs = tokio::task::spawn_blocking(move || {
        children
            .into_iter()
            .map(Child::wait_with_output)
            .collect::<Result<Vec<_>, _>>()
    })
    .await??;
    let mut totals = [0usize; 5];
    let mut warns = Vec::new();
    for output in &outputs {
        let text = String::from_utf8_lossy(&output.stdout);
        let line = text.lines().find_map(|l| l.strip_prefix("worker\t"));
        let figures: Vec<usize> = line
            .ok_or("a worker printed no figures")?
            .split('\t')
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        for (total, figure) in totals.iter_mut().zip(&figures) {
            *total += figure;
        }
        warns.push(figures.get(3).copied().unwrap_or(0) as f64);
    }
    Ok((totals, warns))
}

/// `msp-worker SIM_URL REDIS_URL TENANTS WRITES [no-retry]`: one client process of
/// [`msp_redis_bench`]. Prints `worker`, writes accepted, writes failed, activities succeeded,
/// fallback WARNs and writes that failed with `429`.
pub fn worker(args: &[String]) -> Result<(), Failure> {
    let (no_retry, args) = match args.split_last() {
        Some((last, rest)) if last == "no-retry" => (true, rest),
        _ => (false, args),
    };
    let [sim_url, redis_url, tenants, writes] = args else {
        return Err("usage: msp-worker SIM_URL REDIS_URL TENANTS WRITES [no-retry]".into());
    };
    let (tenants, writes): (usize, usize) = (tenants.parse()?, writes.parse()?);
    tracing::subscriber::set_global_default(Warns)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let written = runtime.block_on(async {
        // Two seconds for Redis to answer: on a loaded machine (load averages of 10 on two
        // cores) the default 500 ms passed now and then, and a process paced locally for 5 s.
        let store = RedisStore::open(redis_url)?
            .key_prefix("ruckus-one-bench")
            .timeout(Duration::from_secs(2));
        let pacing = Pacing::default().store(PacingStore::redis(store));
        let mut config = config(sim_url)?.pacing(pacing);
        if no_retry {
            config = config.retry(RetryPolicy::none());
        }
        let client = Client::new(config)?;
        write_and_wait(&client, tenants, writes, 4).await
    })?;
    let warns = FALLBACK_WARNS.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "worker\t{}\t{}\t{}\t{warns}\t{}",
        written.accepted, written.failed, written.succeeded, written.throttled
    );
    Ok(())
}
