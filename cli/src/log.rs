//! What the runtime traces, on standard error: `RUST_LOG` as tracing's `EnvFilter` reads it,
//! `--verbose` for each HTTP exchange (the runtime's `ruckus_one.call` span as it closes: method,
//! URL, status, time, request id), `--debug` for the headers and bodies as well (the runtime's
//! `ruckus_one_runtime::wire` events, masked by its redaction). Nothing is set up without them.

use crate::opts::Opts;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

/// The filter `--verbose` and `--debug` add to `RUST_LOG`.
fn wanted(opts: &Opts) -> Option<&'static str> {
    if opts.debug {
        Some("ruckus_one_runtime=trace")
    } else if opts.verbose {
        Some("ruckus_one_runtime=info")
    } else {
        None
    }
}

/// Sets up the subscriber when `RUST_LOG`, `--verbose` or `--debug` asks for one.
pub(crate) fn start(opts: &Opts) {
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let flags = wanted(opts);
    if from_env.is_none() && flags.is_none() {
        return;
    }
    let mut filter = match &from_env {
        Some(text) => EnvFilter::builder().parse_lossy(text),
        None => EnvFilter::new("off"),
    };
    if let Some(directive) = flags.and_then(|d| d.parse().ok()) {
        filter = filter.add_directive(directive);
    }
    // Spans are shown as they close: a call's span then holds its status, time and request id.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_span_events(FmtSpan::CLOSE)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
