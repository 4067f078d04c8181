//! The `msp` part: writes at MSP scale through the generated client's fan-out, pacing and bulk
//! waiting, against the simulator (`ruckus-one-sim`, in process, its rate limits on: the
//! tenant-wide bucket and the services').
//!
//! An MSP token acts for `tenants` customers; each customer gets `writes` CLI-template creations
//! (`POST /cliTemplates`, the switch service: the smallest published budget, 20 calls at once and
//! 10 back each second, so pacing shows after the 20th write of each customer). Every write
//! answers `202 Accepted`; all are then followed with `wait_all`. Every call also counts against
//! the customer's tenant-wide bucket (2000 calls a minute). The figures come from the
//! simulator's request log ([`Figures`]). With `--redis`, the same writes come from four
//! processes sharing one Redis (`msp_redis.rs`).

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use ruckus_one::network::AcxCliTemplate;
use ruckus_one::{Client, Config, Credentials, PendingActivity, WaitOptions};
use ruckus_one_sim::{SimConfig, Simulator};

use crate::clients::Failure;
use crate::msp_figures::Figures;
use crate::options::Options;

/// How long an activity takes on the simulator: the first poll round, after all writes, finds
/// every one finished when the writes took longer than this.
pub const ACTIVITY: Duration = Duration::from_millis(500);

pub const MSP: &str = "msp-tenant";
pub const CLIENT_ID: &str = "msp-client";
pub const SECRET: &str = "msp-secret-0123456789";

/// The run's size: customers and writes per customer.
pub fn size(options: &Options) -> (usize, usize) {
    if options.quick { (3, 30) } else { (100, 100) }
}

/// The customers' ids.
pub fn customers(tenants: usize) -> Vec<String> {
    (0..tenants).map(|i| format!("customer-{i:03}")).collect()
}

/// The simulator, the MSP acting for `tenants` customers.
pub async fn simulator(tenants: usize) -> Result<Simulator, Failure> {
    let mut config = SimConfig::default()
        .credential(CLIENT_ID, SECRET, MSP)
        .activity_duration(ACTIVITY)
        .max_connections(4096);
    for id in customers(tenants) {
        config = config.customer(MSP, &id);
    }
    Simulator::start_with(config)
        .await
        .map_err(|e| -> Failure { format!("simulator: {e}").into() })
}

/// The configuration of a client of the simulator at `base_url`. Idle connections are dropped
/// after 2 s, before the simulator closes them (it closes a connection whose next request has
/// not arrived in 5 s): a write sent on a connection the server is closing fails, and a write
/// is not retried.
pub fn config(base_url: &str) -> Result<Config, Failure> {
    let http = Config::http_client_builder()
        .pool_idle_timeout(Duration::from_secs(2))
        .build()?;
    Ok(Config::new(Credentials::new(CLIENT_ID, SECRET))
        .base_url(base_url)
        .token_tenant_id(MSP)
        .http_client(http))
}

/// What one run of writes did: writes accepted, writes whose call failed, activities that
/// succeeded.
pub struct Written {
    pub accepted: usize,
    pub failed: usize,
    pub succeeded: usize,
    /// Writes whose call failed with `429`.
    pub throttled: usize,
}

/// `writes` creations for each customer, `concurrency` at a time per customer, every customer at
/// once; then one `wait_all` for the writes accepted.
pub async fn write_and_wait(
    client: &Client,
    tenants: usize,
    writes: usize,
    concurrency: usize,
) -> Result<Written, Failure> {
    let outcomes = client
        .for_each_tenant(customers(tenants), tenants, |customer| async move {
            let answers: Vec<Result<Option<PendingActivity>, ruckus_one::Error>> =
                futures_util::stream::iter(0..writes)
                    .map(|i| {
                        let customer = &customer;
                        async move {
                            let template = AcxCliTemplate::new()
                                .with_name(format!("template {i}"))
                                .with_cli("hostname edge".to_owned());
                            let accepted = customer
                                .network()
                                .switch_profiles()
                                .create_cli_template(&template)
                                .send()
                                .await?;
                            Ok(accepted.pending())
                        }
                    })
                    .buffer_unordered(concurrency)
                    .collect()
                    .await;
            Ok(answers)
        })
        .await;
    let (mut pending, mut failed, mut throttled) = (Vec::new(), 0, 0);
    for outcome in outcomes {
        for answer in outcome.result? {
            match answer {
                Ok(p) => pending.extend(p),
                Err(e) => {
                    eprintln!("msp: a write failed: {e}");
                    failed += 1;
                    throttled += usize::from(e.status() == Some(429));
                }
            }
        }
    }
    let accepted = pending.len();
    let wait = WaitOptions::default()
        .initial_interval(ACTIVITY * 2)
        .max_interval(Duration::from_secs(1));
    let finished = client.network().wait_all(pending, &wait).await?;
    Ok(Written {
        accepted,
        failed,
        succeeded: finished.iter().filter(|r| r.is_ok()).count(),
        throttled,
    })
}

pub async fn msp_bench(options: &Options) -> Result<(), Failure> {
    let (tenants, writes) = size(options);
    let sim = simulator(tenants).await?;
    let client = Client::new(config(&sim.base_url())?)?;
    eprintln!(
        "msp: {tenants} tenants × {writes} writes (switch service 20 at once / 10 per second; \
         tenant 2000 at once / 2000 per minute)"
    );
    let started = Instant::now();
    let written = write_and_wait(&client, tenants, writes, 16).await?;
    eprintln!(
        "msp: {} writes accepted, {} failed, {} activities succeeded after {:.1} s",
        written.accepted,
        written.failed,
        written.succeeded,
        started.elapsed().as_secs_f64()
    );
    let figures = Figures::of(&sim.requests());
    figures.report(
        "msp",
        tenants * writes,
        written.accepted,
        written.succeeded,
        1,
    );
    Ok(())
}
