//! `--watch DURATION`: a read sent again every DURATION, its answer drawn again (the screen is
//! cleared first on a terminal), until the command is interrupted. A failed round is told on
//! standard error and the watch goes on, unless the failure is one that will not pass by itself
//! (a bad command line, refused credentials).

use crate::call;
use crate::exit::{Exit, Failure};
use crate::opts::Opts;
use crate::request::Call;
use ruckus_one_runtime::Client;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// Clears a terminal and puts the cursor at its top left.
const CLEAR: &str = "\x1b[2J\x1b[H";

pub(crate) async fn run(
    client: &Client,
    call: &Call,
    opts: &Opts,
    every: Duration,
) -> Result<(), Failure> {
    if !call.op.route.reads {
        return Err(Failure::usage(format!(
            "--watch repeats reads only; `{}` writes",
            call.op.route.command.join(" ")
        )));
    }
    if crate::out::to_file() {
        return Err(Failure::usage("--watch redraws on the screen: drop --out"));
    }
    let clear = std::io::stdout().is_terminal();
    let every = every.max(Duration::from_millis(100));
    loop {
        if clear {
            write!(crate::out::stdout(), "{CLEAR}").map_err(call::io)?;
        }
        if let Err(f) = call::run(client, call, opts).await {
            if matches!(f.exit, Exit::Usage | Exit::Auth | Exit::Closed) || crate::out::closed() {
                return Err(f);
            }
            f.print(false);
        }
        if opts.tty_err {
            eprintln!("(every {}; Ctrl-C ends)", humantime::format_duration(every));
        }
        tokio::time::sleep(every).await;
    }
}
