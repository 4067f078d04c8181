//! `msp --redis`, two tenants: two client processes with credentials of their own tenants
//! (`tenant-worker`, this binary) share one Redis and one simulator, each writing to its own
//! tenant. Each tenant's budget of the switch service is its own: the share of it each uses
//! beside the other is compared with the share it uses alone (target: within 5 %).

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::StreamExt;
use ruckus_one::network::AcxCliTemplate;
use ruckus_one::{Client, Config, Credentials, Pacing, PacingStore, RedisStore};
use ruckus_one_sim::{SimConfig, Simulator};

use crate::clients::Failure;
use crate::msp_figures::switch_budget_used;
use crate::options::Options;
use crate::redis_server::RedisServer;
use crate::stats::{Spread, row, verdict};

/// The two tenants: client id and tenant id.
const TENANTS: [(&str, &str); 2] = [
    ("tenant-a-client", "tenant-a"),
    ("tenant-b-client", "tenant-b"),
];

const SECRET: &str = "tenant-secret-0123456789";

pub async fn bench(options: &Options) -> Result<(), Failure> {
    let writes = if options.quick { 40 } else { 200 };
    let bench = "msp redis two tenants";
    let mut alone = BTreeMap::new();
    for pair in TENANTS {
        let used = run(&[pair], writes).await?;
        alone.insert(pair.1, used.get(pair.1).copied().unwrap_or(f64::NAN));
    }
    let together = run(&TENANTS, writes).await?;
    for (_, tenant) in TENANTS {
        let (by_itself, beside) = (alone[tenant], together.get(tenant).copied());
        let beside = beside.unwrap_or(f64::NAN);
        let measure = format!("{tenant}: switch budget used alone");
        row(bench, &measure, Spread::single(by_itself), "%", "");
        let measure = format!("{tenant}: switch budget used beside the other tenant");
        row(bench, &measure, Spread::single(beside), "%", "");
        let ratio = 100.0 * beside / by_itself;
        let measure = format!("{tenant}: budget used beside / alone");
        let target = verdict((ratio - 100.0).abs() <= 5.0, "within 5 %");
        row(bench, &measure, Spread::single(ratio), "%", &target);
    }
    Ok(())
}

/// One run of `tenants` on a fresh Redis and simulator: each tenant's switch budget used.
async fn run(tenants: &[(&str, &str)], writes: usize) -> Result<BTreeMap<String, f64>, Failure> {
    let redis = RedisServer::start()?;
    let (first_client, first_tenant) = tenants[0];
    let mut config = SimConfig::default()
        .credential(first_client, SECRET, first_tenant)
        .max_connections(1024);
    for (client, tenant) in &tenants[1..] {
        config = config.other_credential(client, SECRET, tenant);
    }
    let sim = Simulator::start_with(config)
        .await
        .map_err(|e| -> Failure { format!("simulator: {e}").into() })?;
    let exe = std::env::current_exe()?;
    let names: Vec<&str> = tenants.iter().map(|t| t.1).collect();
    eprintln!("msp redis two tenants: {names:?} × {writes} writes, one Redis");
    let children = tenants
        .iter()
        .map(|(client, tenant)| {
            Command::new(&exe)
                .args(["tenant-worker", &sim.base_url(), &redis.url, client, tenant])
                .arg(writes.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let outputs = tokio::task::spawn_blocking(move || {
        children
            .into_iter()
            .map(Child::wait_with_output)
            .collect::<Result<Vec<_>, _>>()
    })
    .await??;
    for output in &outputs {
        let text = String::from_utf8_lossy(&output.stdout);
        if !text.lines().any(|l| l == format!("worker\t{writes}\t0")) {
            return Err(format!("a tenant worker did not write everything: {text}").into());
        }
    }
    Ok(switch_budget_used(&sim.requests()))
}

/// `tenant-worker SIM_URL REDIS_URL CLIENT_ID TENANT WRITES`: one process of [`bench`], writing
/// to its own tenant 16 at a time. Prints `worker`, writes accepted and writes failed.
pub fn worker(args: &[String]) -> Result<(), Failure> {
    let [sim_url, redis_url, client_id, tenant, writes] = args else {
        return Err("usage: tenant-worker SIM_URL REDIS_URL CLIENT_ID TENANT WRITES".into());
    };
    let writes: usize = writes.parse()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let (accepted, failed) = runtime.block_on(async {
        let store = RedisStore::open(redis_url)?
            .key_prefix("ruckus-one-bench")
            .timeout(Duration::from_secs(2));
        let config = Config::new(Credentials::new(client_id.as_str(), SECRET))
            .base_url(sim_url)
            .token_tenant_id(tenant)
            .pacing(Pacing::default().store(PacingStore::redis(store)));
        let client = Client::new(config)?;
        let answers: Vec<bool> = futures_util::stream::iter(0..writes)
            .map(|i| {
                let client = &client;
                async move {
                    let template = AcxCliTemplate::new()
                        .with_name(format!("template {i}"))
                        .with_cli("hostname edge".to_owned());
                    let profiles = client.network().switch_profiles();
                    let sent = profiles.create_cli_template(&template).send().await;
                    if let Err(e) = &sent {
                        eprintln!("tenant worker: a write failed: {e}");
                    }
                    sent.is_ok()
                }
            })
            .buffer_unordered(16)
            .collect()
            .await;
        let accepted = answers.iter().filter(|ok| **ok).count();
        Ok::<_, Failure>((accepted, writes - accepted))
    })?;
    println!("worker\t{accepted}\t{failed}");
    Ok(())
}
