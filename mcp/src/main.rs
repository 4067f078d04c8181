//! `ruckus-mcp`: the RUCKUS One MCP server (see the crate's README).

use clap::Parser;
use ruckus_one_mcp::http::BearerToken;
use ruckus_one_mcp::policy::{self, Policy};
use ruckus_one_mcp::{HttpOptions, Server, connect};
use ruckus_one_profiles::Store;

/// An MCP server over the RUCKUS One APIs. Read-only unless told otherwise.
#[derive(Debug, Parser)]
#[command(name = "ruckus-mcp", version)]
struct Args {
    /// Run against an in-process simulator instead of RUCKUS One (no credentials needed).
    #[arg(long)]
    local: bool,
    /// With --local: the simulator's objects and tenants from this file (JSON or YAML, as
    /// `ruckus-sim --seed`).
    #[arg(long, value_name = "FILE", requires = "local")]
    seed: Option<std::path::PathBuf>,
    /// Allow operations that create or change things (also RUCKUS_MCP_ALLOW_WRITES=1).
    #[arg(long)]
    allow_writes: bool,
    /// Also allow deletes, each confirmed by the user (also RUCKUS_MCP_ALLOW_DELETES=1).
    #[arg(long)]
    allow_deletes: bool,
    /// Act only for these customer tenant ids, comma-separated (also RUCKUS_MCP_TENANTS).
    #[arg(long, value_name = "ID,ID")]
    tenants: Option<String>,
    /// The saved profile (`ruckus auth login`) whose credentials are used where the
    /// environment sets none.
    #[arg(long, env = "RUCKUS_PROFILE", default_value = "default")]
    profile: String,
    /// Serve streamable HTTP on 127.0.0.1:PORT instead of standard input and output.
    #[arg(long, value_name = "PORT")]
    http: Option<u16>,
    /// Also accept HTTP requests from this browser origin (scheme://host[:port]; repeatable).
    /// The server's own loopback origins are always accepted, any other `Origin` gets 403.
    #[arg(long, value_name = "ORIGIN", requires = "http", value_parser = ruckus_one_mcp::http::parse_origin)]
    allow_origin: Vec<String>,
    /// Require `Authorization: Bearer <token>` on HTTP, the token read from this environment
    /// variable.
    #[arg(long, value_name = "VAR", requires = "http")]
    http_token_env: Option<String>,
}

impl Args {
    fn policy(&self) -> Policy {
        let env = |name: &str| std::env::var(name).ok();
        let flag = |name: &str| env(name).is_some_and(|v| policy::flag_on(&v));
        let tenants = self.tenants.clone().or_else(|| env(policy::TENANTS_VAR));
        Policy {
            writes: self.allow_writes || flag(policy::WRITES_VAR),
            deletes: self.allow_deletes || flag(policy::DELETES_VAR),
            tenants: tenants.as_deref().and_then(policy::parse_tenants),
        }
    }

    /// The HTTP transport's options; an error when the token's variable is unset or empty.
    fn http_options(&self) -> Result<HttpOptions, String> {
        let token = match &self.http_token_env {
            None => None,
            Some(var) => {
                let value = std::env::var(var).unwrap_or_default();
                let token = BearerToken::new(&value).ok_or_else(|| {
                    format!("--http-token-env: the variable {var} is not set or empty")
                })?;
                Some(token)
            }
        };
        Ok(HttpOptions {
            allowed_origins: self.allow_origin.clone(),
            token,
            ..HttpOptions::default()
        })
    }
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    ruckus_one_mcp::logs::init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(&format!("cannot start the async runtime: {e}")),
    };
    match runtime.block_on(run(args)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

async fn run(args: Args) -> Result<(), String> {
    let policy = args.policy();
    let http = args.http_options()?;
    // The environment is read before serving (a missing variable stops here); the simulator,
    // the tables and the index are made ready while the client's handshake goes on.
    let server = if args.local {
        let seed = match &args.seed {
            Some(path) => Some(connect::seed_file(path)?),
            None => None,
        };
        Server::start(policy, async move {
            let connection = connect::local(seed).await?;
            let own = connection.local.as_ref().map(|sim| sim.tenant_id());
            Ok((connection, own))
        })
    } else {
        let (connection, own) = connect::from_profile(&Store::from_env(), &args.profile)?;
        Server::start(policy, async move { Ok((connection, Some(own))) })
    };
    match args.http {
        Some(port) => ruckus_one_mcp::serve_http(server, port, http).await,
        None => ruckus_one_mcp::serve_stdio(server).await,
    }
}

fn fail(message: &str) -> std::process::ExitCode {
    eprintln!("ruckus-mcp: {message}");
    std::process::ExitCode::FAILURE
}
