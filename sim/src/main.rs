//! `ruckus-one-sim`: runs the simulator until killed. The first line of standard output is
//! `listening on http://ADDR`.

use clap::Parser;
use ruckus_one_sim::config::{DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, DEFAULT_TENANT_ID};
use ruckus_one_sim::{Seed, SimConfig, Simulator};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// A stateful local simulator of the RUCKUS One APIs.
#[derive(Parser, Debug)]
#[command(name = "ruckus-one-sim", version)]
struct Args {
    /// Address to listen on (port 0: a free port).
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// The client id the token endpoint accepts.
    #[arg(long, default_value = DEFAULT_CLIENT_ID)]
    client_id: String,
    /// The client secret the token endpoint accepts.
    #[arg(long, default_value = DEFAULT_CLIENT_SECRET)]
    client_secret: String,
    /// The tenant that owns the credential.
    #[arg(long, default_value = DEFAULT_TENANT_ID)]
    tenant_id: String,
    /// Initial tenants, credentials and objects (JSON or YAML).
    #[arg(long)]
    seed: Option<PathBuf>,
    /// Seconds an activity takes on the simulator clock.
    #[arg(long, default_value_t = 2.0)]
    activity_seconds: f64,
    /// Answer without rate limits (no 429).
    #[arg(long)]
    no_rate_limits: bool,
}

fn main() {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = runtime.block_on(run(args)) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

async fn run(args: Args) -> Result<(), String> {
    let seed = match &args.seed {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Seed::parse(&text)?
        }
        None => Seed::default(),
    };
    let activity = Duration::try_from_secs_f64(args.activity_seconds)
        .map_err(|e| format!("--activity-seconds: {e}"))?;
    let config = SimConfig {
        listen: args.listen,
        ..SimConfig::default()
    }
    .seed(seed)
    .credential(&args.client_id, &args.client_secret, &args.tenant_id)
    .activity_duration(activity)
    .rate_limits(!args.no_rate_limits);
    let sim = Simulator::start_with(config).await?;
    let mut out = std::io::stdout();
    writeln!(out, "listening on {}", sim.base_url()).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    // Serves until killed.
    std::future::pending::<()>().await;
    Ok(())
}
