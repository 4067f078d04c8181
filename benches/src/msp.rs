//! The `msp` part: writes at MSP scale through the generated client's fan-out, pacing and bulk
//! waiting, against the simulator (`ruckus-one-sim`, in process, its rate limits on).
//!
//! An MSP token acts for `tenants` customers; each customer gets `writes` CLI-template creations
//! (`POST /cliTemplates`, the switch service: the smallest published budget, 20 calls at once and
//! 10 back each second, so pacing shows after the 20th write of each customer). Every write
//! answers `202 Accepted`; all are then followed with `wait_all`. The figures come from the
//! simulator's request log: 429 share, budget used per customer (its writes against what its
//! bucket allowed from the first to the last: the burst and the refill over that time), token
//! requests, activity queries per poll round.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use ruckus_one::network::{AcxCliTemplate, SERVICE_SWITCH};
use ruckus_one::{Client, Config, Credentials, WaitOptions};
use ruckus_one_sim::{Logged, SimConfig, Simulator};

use crate::clients::Failure;
use crate::options::Options;
use crate::stats::{Spread, row, verdict};

/// How long an activity takes on the simulator: the first poll round, after all writes, finds
/// every one finished when the writes took longer than this.
const ACTIVITY: Duration = Duration::from_millis(500);

pub async fn msp_bench(options: &Options) -> Result<(), Failure> {
    let (tenants, writes) = if options.quick { (3, 30) } else { (100, 100) };
    let msp = "msp-tenant";
    let mut config = SimConfig::default()
        .credential("msp-client", "msp-secret-0123456789", msp)
        .activity_duration(ACTIVITY);
    let ids: Vec<String> = (0..tenants).map(|i| format!("customer-{i:03}")).collect();
    for id in &ids {
        config = config.customer(msp, id);
    }
    let sim = Simulator::start_with(config)
        .await
        .map_err(|e| -> Failure { format!("simulator: {e}").into() })?;
    let client = Client::new(
        Config::new(Credentials::new("msp-client", "msp-secret-0123456789"))
            .base_url(sim.base_url())
            .token_tenant_id(msp),
    )?;
    let limit = SERVICE_SWITCH
        .rate_limit
        .ok_or("the switch service has a limit")?;
    eprintln!(
        "msp: {tenants} tenants × {writes} writes, switch service {} at once / {} per second",
        limit.max, limit.per_second
    );
    let started = Instant::now();
    let outcomes = client
        .for_each_tenant(ids, tenants, |customer| async move {
            let answers: Vec<_> = futures_util::stream::iter(0..writes)
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
                        Ok::<_, ruckus_one::Error>(accepted.pending())
                    }
                })
                .buffer_unordered(16)
                .collect()
                .await;
            answers.into_iter().collect::<Result<Vec<_>, _>>()
        })
        .await;
    let wrote = started.elapsed();
    let mut pending = Vec::new();
    for outcome in outcomes {
        pending.extend(outcome.result?.into_iter().flatten());
    }
    let expected = pending.len();
    let wait = WaitOptions::default()
        .initial_interval(ACTIVITY * 2)
        .max_interval(Duration::from_secs(1));
    let finished = client.network().wait_all(pending, &wait).await?;
    let succeeded = finished.iter().filter(|r| r.is_ok()).count();
    eprintln!(
        "msp: {expected} writes in {:.1} s, {succeeded} activities succeeded after {:.1} s",
        wrote.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    let figures = Figures::of(&sim.requests(), limit.max, limit.per_second);
    figures.report(tenants * writes, expected, succeeded);
    Ok(())
}

/// What the simulator's log shows.
struct Figures {
    calls: usize,
    refused: usize,
    token_requests: usize,
    /// Per customer: accepted writes / what its bucket allowed while they came (the burst
    /// and the refill), in percent.
    budget_used: Vec<f64>,
    /// Activity queries in each poll round.
    rounds: Vec<usize>,
}

impl Figures {
    fn of(log: &[Logged], max: u32, per_second: u32) -> Figures {
        let mut per_tenant: std::collections::BTreeMap<&str, (u64, u64, usize)> =
            Default::default();
        for l in log
            .iter()
            .filter(|l| l.status == 202 && l.operation.as_deref() == Some("create_cli_template"))
        {
            let tenant = l.tenant.as_deref().unwrap_or("");
            let e = per_tenant.entry(tenant).or_insert((l.at_ms, l.at_ms, 0));
            e.0 = e.0.min(l.at_ms);
            e.1 = e.1.max(l.at_ms);
            e.2 += 1;
        }
        // What the bucket allowed from a customer's first write to its last: the burst and the
        // refill over that time; what the customer got out of it.
        let budget_used = per_tenant
            .values()
            .filter(|(_, _, n)| *n > max as usize)
            .map(|(first, last, n)| {
                let seconds = (last - first) as f64 / 1000.0;
                100.0 * *n as f64 / (f64::from(max) + seconds * f64::from(per_second))
            })
            .collect();
        // Poll rounds: the activity queries sent together (a gap of 100 ms starts a round).
        let mut at: Vec<u64> = log
            .iter()
            .filter(|l| l.path == "/activities/query")
            .map(|l| l.at_ms)
            .collect();
        at.sort_unstable();
        let mut rounds: Vec<usize> = Vec::new();
        for (i, t) in at.iter().enumerate() {
            if i == 0 || t - at[i - 1] > 100 {
                rounds.push(0);
            }
            if let Some(last) = rounds.last_mut() {
                *last += 1;
            }
        }
        Figures {
            calls: log
                .iter()
                .filter(|l| !l.path.starts_with("/oauth2/token"))
                .count(),
            refused: log.iter().filter(|l| l.status == 429).count(),
            token_requests: log
                .iter()
                .filter(|l| l.path.starts_with("/oauth2/token"))
                .count(),
            budget_used,
            rounds,
        }
    }

    fn report(&self, writes: usize, pending: usize, succeeded: usize) {
        let one = |v: f64| Spread {
            median: v,
            min: v,
            max: v,
        };
        let share = 100.0 * self.refused as f64 / self.calls.max(1) as f64;
        row(
            "msp",
            "429 answers / calls",
            one(share),
            "%",
            &verdict(share <= 0.1, "≤ 0.1 %"),
        );
        let used = Spread::of(&self.budget_used);
        row(
            "msp",
            "budget used (per tenant: writes / (burst + refill over their time))",
            used,
            "%",
            &verdict(used.median >= 90.0, "≥ 90 %"),
        );
        row(
            "msp",
            "token requests",
            one(self.token_requests as f64),
            "requests",
            &verdict(self.token_requests == 1, "exactly 1"),
        );
        row(
            "msp",
            "activities succeeded / writes",
            one(succeeded as f64 / writes.max(1) as f64),
            "ratio",
            &verdict(succeeded == writes, "all"),
        );
        // `wait_all` sends one activity query per tenant and round for up to 500 pending ids;
        // the first round asks for every write.
        let first = self.rounds.first().copied().unwrap_or(0);
        let per_hundred = 100.0 * first as f64 / pending.max(1) as f64;
        row(
            "msp",
            "activity queries per 100 pending activities (first poll round)",
            one(per_hundred),
            "requests",
            &verdict(per_hundred <= 1.0, "≤ 1"),
        );
        row(
            "msp",
            "poll rounds (activity queries in all)",
            one(self.rounds.len() as f64),
            &format!("rounds ({} queries)", self.rounds.iter().sum::<usize>()),
            "",
        );
    }
}
