//! Runtime benchmark of the generated client, run by `cargo xtask bench runtime|paging` (build it
//! in release mode). A local HTTP/1.1 server on 127.0.0.1 answers canned JSON; the generated
//! client and hand-written `reqwest` + `serde_json` calls (decoding into the same generated
//! types) make the same calls, alternately, several runs each.
//!
//! Usage: `ruckus-one-bench [runtime] [paging] [--quick] [--runs N]`. Prints tab-separated rows
//! (`row`, benchmark, measure, median, min, max, unit, target) that `cargo xtask bench` turns
//! into its Markdown table; progress goes to stderr. Exits with an error when a correctness
//! check fails (1,000 concurrent first calls must make exactly one token request).

mod clients;
mod server;
mod stats;

use std::future::Future;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use ruckus_one::Client;

use clients::{Failure, Hand};
use server::Server;
use stats::{Spread, percentile_us, row, verdict};

/// Throughput and latency are measured at these numbers of concurrent callers.
const CALLERS: [usize; 3] = [1, 16, 64];

struct Options {
    quick: bool,
    runs: usize,
    runtime: bool,
    paging: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        quick: false,
        runs: 5,
        runtime: false,
        paging: false,
    };
    let mut runs = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => options.quick = true,
            "--runs" => {
                runs = Some(
                    it.next()
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|n| *n > 0)
                        .ok_or("--runs takes a positive number")?,
                )
            }
            "runtime" => options.runtime = true,
            "paging" => options.paging = true,
            other => {
                return Err(format!(
                    "unknown argument `{other}`\nusage: ruckus-one-bench [runtime] [paging] [--quick] [--runs N]"
                ));
            }
        }
    }
    if !options.runtime && !options.paging {
        options.runtime = true;
        options.paging = true;
    }
    options.runs = runs.unwrap_or(if options.quick { 1 } else { 5 });
    Ok(options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let server = server::start();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("client runtime");
    let result = runtime.block_on(async {
        if options.runtime {
            runtime_bench(&server, &options).await?;
        }
        if options.paging {
            paging_bench(&server, &options).await?;
        }
        Ok::<(), Failure>(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("benchmark failed: {e}");
            ExitCode::FAILURE
        }
    }
}

type CallFuture = Pin<Box<dyn Future<Output = Result<usize, Failure>> + Send>>;

/// One call of a scenario by one client; the result is the number of items decoded.
type Call<C> = fn(Arc<C>) -> CallFuture;

/// What one timed run of `callers` concurrent loops gave.
struct Run {
    wall: Duration,
    latencies: Vec<Duration>,
    /// CPU time of the whole process (clients and server) during the run.
    cpu: Duration,
}

impl Run {
    fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.wall.as_secs_f64()
    }

    /// Process CPU time per call, in microseconds: less sensitive than throughput to other
    /// work on the machine.
    fn cpu_us_per_call(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / self.latencies.len() as f64
    }
}

/// CPU time used so far by all threads of this process (the sum of
/// `/proc/self/task/*/schedstat`, nanosecond resolution); zero where /proc is missing.
fn cpu_time() -> Duration {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    let nanos: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| {
            s.split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
        })
        .sum();
    Duration::from_nanos(nanos)
}

/// `callers` tasks, each making `calls` calls one after the other.
async fn load<C: Send + Sync + 'static>(
    client: &Arc<C>,
    call: Call<C>,
    callers: usize,
    calls: usize,
) -> Result<Run, Failure> {
    let cpu = cpu_time();
    let started = Instant::now();
    let tasks: Vec<_> = (0..callers)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(calls);
                for _ in 0..calls {
                    let t = Instant::now();
                    let items = call(client.clone()).await?;
                    latencies.push(t.elapsed());
                    std::hint::black_box(items);
                }
                Ok::<_, Failure>(latencies)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(callers * calls);
    for task in tasks {
        latencies.extend(task.await??);
    }
    Ok(Run {
        wall: started.elapsed(),
        latencies,
        cpu: cpu_time().saturating_sub(cpu),
    })
}

fn generated_page(client: Arc<Client>) -> CallFuture {
    Box::pin(async move {
        let page = clients::generated_page(&client, &clients::page_query(1)).await?;
        Ok(page.data.map_or(0, |d| d.len()))
    })
}

fn hand_page(client: Arc<Hand>) -> CallFuture {
    Box::pin(async move {
        let page = client.page(&clients::page_query(1)).await?;
        Ok(page.data.map_or(0, |d| d.len()))
    })
}

fn generated_ap(client: Arc<Client>) -> CallFuture {
    Box::pin(async move {
        let ap = clients::generated_ap(&client).await?;
        Ok(ap.additional_fields.len())
    })
}

fn hand_ap(client: Arc<Hand>) -> CallFuture {
    Box::pin(async move {
        let ap = client.ap().await?;
        Ok(ap.additional_fields.len())
    })
}

/// Requests per second and latency percentiles of the two clients at 1, 16 and 64 callers,
/// on the 25-AP page and on a single AP; then the token and memory checks.
async fn runtime_bench(server: &Server, options: &Options) -> Result<(), Failure> {
    let base = server.url();
    let generated = Arc::new(clients::generated(&base));
    let hand = Arc::new(Hand::connect(&base).await?);
    eprintln!(
        "runtime: 25-AP page {} bytes, one AP {} bytes, {} run(s)",
        server.state.page_bytes(),
        server.state.ap_bytes(),
        options.runs
    );
    let scenarios: [(&str, Call<Client>, Call<Hand>, usize); 2] = [
        ("25-AP page", generated_page, hand_page, 6400),
        ("one AP", generated_ap, hand_ap, 16000),
    ];
    for (name, generated_call, hand_call, total) in scenarios {
        for callers in CALLERS {
            let calls = if options.quick {
                2
            } else {
                (total / callers).max(20)
            };
            // Warm-up: connections for every caller, the token, allocator pools.
            load(&generated, generated_call, callers, 2).await?;
            load(&hand, hand_call, callers, 2).await?;
            let (mut generated_runs, mut hand_runs) = (Vec::new(), Vec::new());
            for run in 0..options.runs {
                eprintln!("runtime: {name}, {callers} caller(s), run {}", run + 1);
                // Alternate which client goes first, so drift in the machine's load evens out.
                if run % 2 == 0 {
                    generated_runs.push(load(&generated, generated_call, callers, calls).await?);
                    hand_runs.push(load(&hand, hand_call, callers, calls).await?);
                } else {
                    hand_runs.push(load(&hand, hand_call, callers, calls).await?);
                    generated_runs.push(load(&generated, generated_call, callers, calls).await?);
                }
            }
            report_load(name, callers, &mut generated_runs, &mut hand_runs);
        }
    }
    token_single_flight(server, if options.quick { 50 } else { 1000 }).await?;
    memory(server, if options.quick { 200 } else { 10_000 }).await?;
    Ok(())
}

fn report_load(name: &str, callers: usize, generated: &mut [Run], hand: &mut [Run]) {
    let rate = |runs: &[Run]| Spread::of(&runs.iter().map(Run::per_second).collect::<Vec<_>>());
    let pct = |runs: &mut [Run], p: f64| -> Vec<f64> {
        runs.iter_mut()
            .map(|r| percentile_us(&mut r.latencies, p))
            .collect()
    };
    let ratio = |a: &[f64], b: &[f64]| -> Spread {
        Spread::of(&a.iter().zip(b).map(|(x, y)| x / y).collect::<Vec<_>>())
    };
    let per_second = |runs: &[Run]| runs.iter().map(Run::per_second).collect::<Vec<_>>();
    let throughput_ratio = ratio(&per_second(generated), &per_second(hand));
    let (g50, h50) = (pct(generated, 50.0), pct(hand, 50.0));
    let (g99, h99) = (pct(generated, 99.0), pct(hand, 99.0));
    let p99_ratio = ratio(&g99, &h99);
    let at = format!(
        "{name}, {callers} caller{}",
        if callers == 1 { "" } else { "s" }
    );
    let headline = name == "25-AP page" && callers == 64;
    row(
        "runtime",
        &format!("{at}: generated client"),
        rate(generated),
        "req/s",
        "",
    );
    row(
        "runtime",
        &format!("{at}: hand-written reqwest"),
        rate(hand),
        "req/s",
        "",
    );
    row(
        "runtime",
        &format!("{at}: throughput generated / hand-written"),
        throughput_ratio,
        "ratio",
        &if headline {
            verdict(throughput_ratio.median >= 0.95, "≥ 0.95")
        } else {
            String::new()
        },
    );
    let cpu = |runs: &[Run]| runs.iter().map(Run::cpu_us_per_call).collect::<Vec<_>>();
    let (gcpu, hcpu) = (cpu(generated), cpu(hand));
    row(
        "runtime",
        &format!("{at}: CPU per call generated"),
        Spread::of(&gcpu),
        "µs",
        "",
    );
    row(
        "runtime",
        &format!("{at}: CPU per call hand-written"),
        Spread::of(&hcpu),
        "µs",
        "",
    );
    row(
        "runtime",
        &format!("{at}: CPU per call generated / hand-written"),
        ratio(&gcpu, &hcpu),
        "ratio",
        "",
    );
    row(
        "runtime",
        &format!("{at}: p50 latency generated"),
        Spread::of(&g50),
        "µs",
        "",
    );
    row(
        "runtime",
        &format!("{at}: p50 latency hand-written"),
        Spread::of(&h50),
        "µs",
        "",
    );
    row(
        "runtime",
        &format!("{at}: p99 latency generated"),
        Spread::of(&g99),
        "µs",
        "",
    );
    row(
        "runtime",
        &format!("{at}: p99 latency hand-written"),
        Spread::of(&h99),
        "µs",
        "",
    );
    row(
        "runtime",
        &format!("{at}: p99 generated / hand-written"),
        p99_ratio,
        "ratio",
        &if headline {
            verdict(p99_ratio.median <= 1.1, "≤ 1.1")
        } else {
            String::new()
        },
    );
}

/// `callers` concurrent first calls of a fresh client must make exactly one token request.
async fn token_single_flight(server: &Server, callers: usize) -> Result<(), Failure> {
    eprintln!("runtime: {callers} concurrent first calls");
    server.state.take_token_requests();
    let client = Arc::new(clients::generated(&server.url()));
    let barrier = Arc::new(tokio::sync::Barrier::new(callers));
    let started = Instant::now();
    let tasks: Vec<_> = (0..callers)
        .map(|_| {
            let (client, barrier) = (client.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                clients::generated_ap(&client).await.map(drop)
            })
        })
        .collect();
    let mut failed = 0;
    for task in tasks {
        if !matches!(task.await, Ok(Ok(()))) {
            failed += 1;
        }
    }
    let elapsed = started.elapsed();
    let tokens = server.state.take_token_requests();
    let label = format!("{callers} concurrent first calls");
    row(
        "runtime",
        &format!("{label}: token requests"),
        Spread::single(tokens as f64),
        "requests",
        &verdict(tokens == 1 && failed == 0, "exactly 1, every call answered"),
    );
    row(
        "runtime",
        &format!("{label}: wall time"),
        Spread::single(elapsed.as_secs_f64() * 1e3),
        "ms",
        "",
    );
    if tokens != 1 || failed != 0 {
        return Err(format!(
            "{label} made {tokens} token requests ({failed} calls failed); exactly 1 expected"
        )
        .into());
    }
    Ok(())
}

/// Resident memory before and after `calls` sequential calls (25-AP pages).
async fn memory(server: &Server, calls: usize) -> Result<(), Failure> {
    eprintln!("runtime: {calls} sequential calls, resident memory");
    let client = clients::generated(&server.url());
    let query = clients::page_query(1);
    for _ in 0..100 {
        clients::generated_page(&client, &query).await?;
    }
    let start = rss_kib();
    let mut middle = start;
    for i in 0..calls {
        std::hint::black_box(clients::generated_page(&client, &query).await?);
        if i + 1 == calls / 2 {
            middle = rss_kib();
        }
    }
    let end = rss_kib();
    let label = format!("{calls} sequential calls");
    let single = |kib: u64| Spread::single(kib as f64);
    row(
        "runtime",
        &format!("{label}: RSS at start"),
        single(start),
        "KiB",
        "",
    );
    row(
        "runtime",
        &format!("{label}: RSS half way"),
        single(middle),
        "KiB",
        "",
    );
    row(
        "runtime",
        &format!("{label}: RSS at end"),
        single(end),
        "KiB",
        "",
    );
    let growth = end as f64 - start as f64;
    row(
        "runtime",
        &format!("{label}: RSS growth"),
        Spread::single(growth),
        "KiB",
        &verdict(growth <= 1024.0, "no growth (≤ 1 MiB)"),
    );
    Ok(())
}

/// `VmRSS` of this process, in KiB (0 where /proc is missing).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Items per second through `.pages()` and `.items()` over 100 pages against a hand-written page
/// loop, and the cost of a poll of `wait_for_activity` (zero intervals) against a hand-written
/// poll loop.
async fn paging_bench(server: &Server, options: &Options) -> Result<(), Failure> {
    let base = server.url();
    let generated = clients::generated(&base);
    let hand = Hand::connect(&base).await?;
    // Three ways through the same 100 pages, in a rotating order: `.pages()`, `.items()` and a
    // hand-written page loop.
    let mut rates: [Vec<f64>; 3] = Default::default();
    for run in 0..=options.runs {
        eprintln!("paging: run {run} (0 is warm-up)");
        for k in 0..3 {
            let way = (run + k) % 3;
            let started = Instant::now();
            let items = match way {
                0 => generated_pages(&generated).await?,
                1 => generated_items(&generated).await?,
                _ => hand_pages(&hand).await?,
            };
            let rate = items as f64 / started.elapsed().as_secs_f64();
            if items != server::PAGES * server::PAGE_SIZE {
                return Err(format!(
                    "{items} items paged (way {way}), {} expected",
                    server::PAGES * server::PAGE_SIZE
                )
                .into());
            }
            if run > 0 {
                rates[way].push(rate);
            }
        }
    }
    let [pages_rates, items_rates, hand_rates] = &rates;
    let label = format!("{} pages of {} APs", server::PAGES, server::PAGE_SIZE);
    for (what, values) in [
        (".pages() generated", pages_rates),
        (".items() generated", items_rates),
        ("hand-written page loop", hand_rates),
    ] {
        row(
            "paging",
            &format!("{label}: {what}"),
            Spread::of(values),
            "items/s",
            "",
        );
    }
    let ratio = |a: &[f64], b: &[f64]| -> Spread {
        Spread::of(&a.iter().zip(b).map(|(x, y)| x / y).collect::<Vec<_>>())
    };
    row(
        "paging",
        &format!("{label}: .pages() / hand-written"),
        ratio(pages_rates, hand_rates),
        "ratio",
        "",
    );
    row(
        "paging",
        &format!("{label}: .items() / hand-written"),
        ratio(items_rates, hand_rates),
        "ratio",
        "",
    );

    decode_breakdown(server, options);

    // Activity polling: each activity answers INPROGRESS until its last poll.
    let (activities, polls) = if options.quick { (1, 3) } else { (10, 20) };
    let (mut generated_us, mut hand_us) = (Vec::new(), Vec::new());
    for run in 0..=options.runs {
        for side in if run % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        } {
            let started = Instant::now();
            for i in 0..activities {
                let id = format!("act-{run}-{side}-{i}-{polls}");
                if side {
                    clients::generated_wait(&generated, &id).await?;
                } else {
                    hand.wait(&id).await?;
                }
            }
            let per_poll = started.elapsed().as_secs_f64() * 1e6 / (activities * polls) as f64;
            if run > 0 {
                if side {
                    &mut generated_us
                } else {
                    &mut hand_us
                }
                .push(per_poll);
            }
        }
    }
    let label = format!("activity of {polls} polls, zero intervals");
    // What a zero pause between polls costs: tokio rounds timer deadlines up to the next
    // millisecond tick.
    let sleeps = if options.quick { 3 } else { 100 };
    let started = Instant::now();
    for _ in 0..sleeps {
        tokio::time::sleep(Duration::ZERO).await;
    }
    let sleep_us = started.elapsed().as_secs_f64() * 1e6 / sleeps as f64;
    row(
        "paging",
        &format!("{label}: wait_for_activity per poll"),
        Spread::of(&generated_us),
        "µs",
        "",
    );
    row(
        "paging",
        &format!("{label}: hand-written loop per poll"),
        Spread::of(&hand_us),
        "µs",
        "",
    );
    let ratios: Vec<f64> = generated_us
        .iter()
        .zip(&hand_us)
        .map(|(g, h)| g / h)
        .collect();
    row(
        "paging",
        &format!("{label}: generated / hand-written"),
        Spread::of(&ratios),
        "ratio",
        "",
    );
    row(
        "paging",
        "breakdown: one tokio::time::sleep(Duration::ZERO)",
        Spread::single(sleep_us),
        "µs",
        "",
    );
    Ok(())
}

async fn generated_pages(client: &Client) -> Result<usize, Failure> {
    let mut pages = client
        .network()
        .wireless_aps()
        .query_venue_aps(&clients::page_query(1))
        .pages();
    let mut items = 0;
    while let Some(page) = pages.next().await {
        items += page?.data.map_or(0, |d| d.len());
    }
    Ok(items)
}

async fn generated_items(client: &Client) -> Result<usize, Failure> {
    let mut items = client
        .network()
        .wireless_aps()
        .query_venue_aps(&clients::page_query(1))
        .items();
    let mut count = 0;
    while let Some(item) = items.next().await {
        std::hint::black_box(item?);
        count += 1;
    }
    Ok(count)
}

/// What a user writes: pages until the stated total is reached (else a short page), as
/// `.pages()` does.
async fn hand_pages(client: &Hand) -> Result<usize, Failure> {
    let mut items = 0;
    for number in 1.. {
        let page = client.page(&clients::page_query(number)).await?;
        let count = page.data.map_or(0, |d| d.len());
        items += count;
        let done = match page.total_count {
            Some(total) => items as i64 >= total,
            None => count < server::PAGE_SIZE,
        };
        if count == 0 || done {
            break;
        }
    }
    Ok(items)
}

/// Where the time of a page goes: `.pages()` reads the body once for its paging keys (items
/// counted, the rest skipped: about what a pass into `IgnoredAny` costs), hashes the body (the
/// repeated-page check) and decodes it into the page type, as a hand-written loop does. Until
/// this benchmark it built a `serde_json::Value` of the page, hashed its serialization and
/// converted the `Value`: those costs are shown too.
fn decode_breakdown(server: &Server, options: &Options) {
    use ruckus_one::network::common::QueryResult;
    use serde_json::Value;
    use std::hash::{DefaultHasher, Hash, Hasher};
    let bytes = server.state.page(1);
    let rounds = if options.quick { 3 } else { 400 };
    let time = |f: &dyn Fn()| {
        let started = Instant::now();
        for _ in 0..rounds {
            f();
        }
        started.elapsed().as_secs_f64() * 1e6 / rounds as f64
    };
    let direct = time(&|| {
        std::hint::black_box(serde_json::from_slice::<QueryResult>(&bytes).ok());
    });
    let skim = time(&|| {
        std::hint::black_box(serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).ok());
    });
    let hash = time(&|| {
        let mut hasher = DefaultHasher::new();
        bytes.as_ref().hash(&mut hasher);
        std::hint::black_box(hasher.finish());
    });
    let value = serde_json::from_slice::<Value>(&bytes).unwrap_or_default();
    let to_value = time(&|| {
        std::hint::black_box(serde_json::from_slice::<Value>(&bytes).ok());
    });
    let fingerprint = time(&|| {
        std::hint::black_box(ruckus_one::runtime::paging::fingerprint_of(&value));
    });
    let from_value = time(&|| {
        std::hint::black_box(serde_json::from_value::<QueryResult>(value.clone()).ok());
    });
    let clone = time(&|| {
        std::hint::black_box(value.clone());
    });
    let page = "breakdown: one 25-AP page";
    let rows = [
        ("bytes → QueryResult (hand-written and .pages())", direct),
        (
            "one pass skipping everything (≈ the paging-keys pass of .pages())",
            skim,
        ),
        ("hash of the body (.pages() repeated-page check)", hash),
        ("formerly in .pages(): bytes → Value", to_value),
        (
            "formerly in .pages(): fingerprint of the Value",
            fingerprint,
        ),
        (
            "formerly in .pages(): Value → QueryResult",
            (from_value - clone).max(0.0),
        ),
    ];
    for (what, us) in rows {
        row(
            "paging",
            &format!("{page}, {what}"),
            Spread::single(us),
            "µs",
            "",
        );
    }
}
