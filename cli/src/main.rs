//! `ruckus`: every RUCKUS One operation as a command, read from the operation catalog at run
//! time, every call sent through the runtime (auth, pacing, retries, typed errors, redaction).
//!
//! Why a table read at start and not generated command code: the catalog is already built for
//! the simulator, so the binary costs no generated-client build (about 60 CPU-s per spec change
//! for the whole client), and only the area named on the command line is turned into clap
//! commands; the measured start-up times are on the guide's performance page
//! (`docs/src/performance.md`).

#![warn(missing_docs, unreachable_pub)]
mod batch;
mod call;
mod commands;
mod connect;
mod dryrun;
mod exit;
mod fanout;
mod fields;
mod input;
mod jq;
mod ops;
mod opts;
mod output;
mod progress;
mod request;
mod run;
mod table;
mod tree;

use exit::Failure;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let json_errors = wants_json(&args);
    match run::main(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.exit.is_outcome() {
                f.print(json_errors);
            }
            ExitCode::from(f.exit.code())
        }
    }
}

/// `-o json` (or `--output json`, `-ojson`, `--output=json`) is on the command line: errors are
/// JSON too.
fn wants_json(args: &[String]) -> bool {
    args.windows(2)
        .any(|w| (w[0] == "-o" || w[0] == "--output") && w[1] == "json")
        || args.iter().any(|a| a == "-ojson" || a == "--output=json")
}

impl From<clap::Error> for Failure {
    fn from(e: clap::Error) -> Failure {
        Failure::usage(e.to_string())
    }
}
