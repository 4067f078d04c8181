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
mod body;
mod call;
mod colour;
mod commands;
mod connect;
mod created;
mod dryrun;
mod exit;
mod fanout;
mod fields;
mod input;
mod jq;
mod log;
mod ops;
mod opts;
mod out;
mod output;
mod progress;
mod request;
mod resolve;
mod run;
mod skeleton;
mod table;
mod tree;
mod update;
mod watch;

use exit::Failure;
use std::process::ExitCode;

fn main() -> ExitCode {
    commands::completion::answer_shell();
    let args: Vec<String> = std::env::args().collect();
    let json_errors = wants_json(&args);
    let result = run::main(args).and_then(|()| out::commit());
    // A failed command leaves the `--out` file as it was.
    out::discard();
    if out::closed() {
        // The reader of standard output went away (`| head -1`): nothing more to say.
        return ExitCode::from(exit::Exit::Closed.code());
    }
    match result {
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
