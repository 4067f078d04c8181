//! Runtime benchmark of the generated client, run by `cargo xtask bench runtime|paging` (build it
//! in release mode). A local HTTP/1.1 server on 127.0.0.1 answers canned JSON; the generated
//! client and hand-written `reqwest` + `serde_json` calls (decoding into the same generated
//! types) make the same calls, alternately, several runs each.
//!
//! Usage: `ruckus-one-bench [runtime] [paging] [msp] [--redis] [--quick] [--runs N]` (or
//! `profile`, see `options.rs`). Prints tab-separated rows
//! (`row`, benchmark, measure, median, min, max, unit, target) that `cargo xtask bench` turns
//! into its Markdown table; progress goes to stderr. Exits with an error when a correctness
//! check fails (1,000 concurrent first calls must make exactly one token request).

mod alloc;
mod clients;
mod msp;
mod msp_figures;
mod msp_redis;
mod msp_tenants;
mod options;
mod paging;
mod redis_server;
mod runtime;
mod server;
mod stats;
mod warns;

use std::process::ExitCode;

use clients::Failure;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // One client process of `msp --redis` (started by it).
    if args.first().map(String::as_str) == Some("msp-worker") {
        return match msp_redis::worker(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("msp worker failed: {e}");
                ExitCode::FAILURE
            }
        };
    }
    // One tenant's process of `msp --redis` (started by it).
    if args.first().map(String::as_str) == Some("tenant-worker") {
        return match msp_tenants::worker(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tenant worker failed: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let options = match options::parse(&args) {
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
        if let Some(profile) = &options.profile {
            return runtime::profile(&server, profile).await;
        }
        if options.runtime {
            runtime::runtime_bench(&server, &options).await?;
        }
        if options.paging {
            paging::paging_bench(&server, &options).await?;
        }
        if options.msp && !options.redis {
            msp::msp_bench(&options).await?;
        }
        if options.msp && options.redis {
            msp_redis::msp_redis_bench(&options).await?;
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
