//! `msp --redis`: the `msp` writes from four client processes (this binary, `msp-worker`) that
//! share one Redis (a real `redis-server` on a free loopback port, started here) against one
//! simulator in this process: each process writes a quarter of every customer's writes, so each
//! customer's budgets are paced by four processes at once. Then the same with the Redis server
//! stopped a third of the way through: no call may fail, and each process says once (WARN) that
//! it paces locally.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ruckus_one::{Client, Pacing, PacingStore, RedisStore};

use crate::clients::Failure;
use crate::msp::{config, simulator, size, write_and_wait};
use crate::msp_figures::Figures;
use crate::options::Options;
use crate::stats::{Spread, row, verdict};
use crate::warns::{FALLBACK_WARNS, Warns};

/// Client processes sharing the Redis server.
const PROCESSES: usize = 4;

/// A `redis-server` on a free loopback port, stopped when dropped.
struct RedisServer {
    child: Child,
    url: String,
    dir: std::path::PathBuf,
}

impl RedisServer {
    fn start() -> Result<RedisServer, Failure> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let dir = std::env::temp_dir().join(format!("ruckus-bench-redis-{port}"));
        std::fs::create_dir_all(&dir)?;
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
            ])
            .args(["--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start redis-server (install it): {e}"))?;
        let url = format!("redis://127.0.0.1:{port}/");
        let mut server = RedisServer { child, url, dir };
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(server);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        server.stop();
        Err(format!("redis-server did not listen on port {port}").into())
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub async fn msp_redis_bench(options: &Options) -> Result<(), Failure> {
    run(options, false).await?;
    run(options, true).await
}

/// One run: four workers, the Redis server stopped on the way when `stop`.
async fn run(options: &Options, stop: bool) -> Result<(), Failure> {
    let bench = if stop {
        "msp redis stopped"
    } else {
        "msp redis ×4"
    };
    let (tenants, writes) = size(options);
    let mut redis = RedisServer::start()?;
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
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    if stop {
        // A third of the writes' time: the switch budget lets 10 writes a second per customer.
        let third = Duration::from_secs_f64(writes as f64 / 10.0 / 3.0);
        tokio::time::sleep(third).await;
        redis.stop();
        eprintln!(
            "{bench}: Redis stopped after {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let outputs = tokio::task::spawn_blocking(move || {
        children
            .into_iter()
            .map(Child::wait_with_output)
            .collect::<Result<Vec<_>, _>>()
    })
    .await??;
    let mut totals = [0usize; 4];
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
    let [accepted, failed, succeeded, _] = totals;
    eprintln!(
        "{bench}: {accepted} writes accepted, {failed} failed, {succeeded} activities succeeded after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let mut figures = Figures::of(&sim.requests());
    if stop {
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
    let warned = Spread::of(&warns);
    let target = if stop {
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

/// `msp-worker SIM_URL REDIS_URL TENANTS WRITES`: one client process of [`msp_redis_bench`].
/// Prints `worker`, writes accepted, writes failed, activities succeeded and fallback WARNs.
pub fn worker(args: &[String]) -> Result<(), Failure> {
    let [sim_url, redis_url, tenants, writes] = args else {
        return Err("usage: msp-worker SIM_URL REDIS_URL TENANTS WRITES".into());
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
        let client = Client::new(config(sim_url)?.pacing(pacing))?;
        write_and_wait(&client, tenants, writes, 4).await
    })?;
    let warns = FALLBACK_WARNS.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "worker\t{}\t{}\t{}\t{warns}",
        written.accepted, written.failed, written.succeeded
    );
    Ok(())
}
