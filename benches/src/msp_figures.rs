//! What the simulator's log shows of an MSP run: 429 answers per limit, the budget used per
//! limit (the tenant's and the switch service's), token requests and activity poll rounds.

use std::collections::BTreeMap;

use ruckus_one::network::SERVICE_SWITCH;
use ruckus_one_sim::Logged;

use crate::stats::{Spread, row, verdict};

/// The limit a figure is about: its name in the simulator's log, its bucket, and which calls
/// it counts.
struct Limit {
    name: &'static str,
    /// As the simulator logs the 429s it refuses (`(tenant)`, or the service's name).
    logged: &'static str,
    max: f64,
    per_second: f64,
    /// Counted: every call of the tenant, or only the switch-service writes.
    writes_only: bool,
}

/// The two limits of the run: the network API's tenant-wide one and the switch service's.
fn limits() -> Vec<Limit> {
    let switch = SERVICE_SWITCH
        .rate_limit
        .expect("the switch service has a limit");
    let tenant = ruckus_one::network::API
        .tenant_limit
        .expect("the network API has a tenant limit");
    vec![
        Limit {
            name: "tenant",
            logged: "(tenant)",
            max: f64::from(tenant.max),
            per_second: f64::from(tenant.per_minute) / 60.0,
            writes_only: false,
        },
        Limit {
            name: "switch service",
            logged: "switch",
            max: f64::from(switch.max),
            per_second: f64::from(switch.per_second),
            writes_only: true,
        },
    ]
}

/// Per limit: the 429s it refused and, per customer, what the customer got out of its bucket.
struct PerLimit {
    name: &'static str,
    refused: usize,
    /// Per customer: calls accepted / what the bucket allowed from the customer's first call to
    /// its last (the burst and the refill over that time), in percent.
    used: Vec<f64>,
}

pub struct Figures {
    calls: usize,
    refused: usize,
    token_requests: usize,
    limits: Vec<PerLimit>,
    /// Activity queries in each poll round.
    rounds: Vec<usize>,
    /// Whether the run paced at the fallback share for a while (Redis stopped): the budget
    /// used is shown, not held to the target.
    fallback: bool,
}

fn is_token(l: &Logged) -> bool {
    l.path.starts_with("/oauth2/token")
}

impl Figures {
    pub fn of(log: &[Logged]) -> Figures {
        dump(log);
        let limits = limits()
            .into_iter()
            .map(|limit| per_limit(log, &limit))
            .collect();
        Figures {
            calls: log.iter().filter(|l| !is_token(l)).count(),
            refused: log.iter().filter(|l| l.status == 429).count(),
            token_requests: log.iter().filter(|l| is_token(l)).count(),
            limits,
            rounds: rounds(log),
            fallback: false,
        }
    }

    /// The run's processes paced locally at their fallback share for part of it: each one at
    /// a fixed share of every budget, its bucket starting empty, so the budget falls short of
    /// the target by design (a process done with its writes leaves its share unused).
    pub fn with_fallback(mut self) -> Figures {
        self.fallback = true;
        self
    }

    /// The rows of `bench`; `tokens` is the number of token requests expected (one per
    /// process).
    pub fn report(
        &self,
        bench: &str,
        writes: usize,
        pending: usize,
        succeeded: usize,
        tokens: usize,
    ) {
        let one = Spread::single;
        let share = |n: usize| 100.0 * n as f64 / self.calls.max(1) as f64;
        let all = share(self.refused);
        row(
            bench,
            "429 answers / calls",
            one(all),
            "%",
            &verdict(all <= 0.1, "≤ 0.1 %"),
        );
        for limit in &self.limits {
            let measure = format!("429 answers of the {} limit / calls", limit.name);
            row(bench, &measure, one(share(limit.refused)), "%", "");
        }
        // The binding limit: the one whose bucket the customers used the most of.
        let medians: Vec<f64> = self
            .limits
            .iter()
            .map(|l| Spread::of(&l.used).median)
            .collect();
        let binding = (0..self.limits.len())
            .filter(|i| medians[*i].is_finite())
            .max_by(|a, b| medians[*a].total_cmp(&medians[*b]));
        for (i, limit) in self.limits.iter().enumerate() {
            let used = Spread::of(&limit.used);
            let measure = format!(
                "budget used of the {} limit (per customer: calls / (burst + refill over their time))",
                limit.name
            );
            let target = if Some(i) == binding && self.fallback {
                "binding limit; no target while paced at the fallback share".to_owned()
            } else if Some(i) == binding {
                verdict(used.median >= 90.0, "binding limit: ≥ 90 %")
            } else {
                String::new()
            };
            row(bench, &measure, used, "%", &target);
        }
        let met = self.token_requests == tokens;
        row(
            bench,
            "token requests",
            one(self.token_requests as f64),
            "requests",
            &verdict(met, &format!("exactly {tokens}")),
        );
        let ratio = succeeded as f64 / writes.max(1) as f64;
        row(
            bench,
            "activities succeeded / writes",
            one(ratio),
            "ratio",
            &verdict(succeeded == writes, "all"),
        );
        // `wait_all` sends one activity query per tenant and round for up to 500 pending ids.
        let first = self.rounds.first().copied().unwrap_or(0);
        let per_hundred = 100.0 * first as f64 / pending.max(1) as f64;
        let target = verdict(per_hundred <= tokens as f64, &format!("≤ {tokens}"));
        row(
            bench,
            "activity queries per 100 pending activities (first poll round)",
            one(per_hundred),
            "requests",
            &target,
        );
        let unit = format!("rounds ({} queries)", self.rounds.iter().sum::<usize>());
        row(
            bench,
            "poll rounds (activity queries in all)",
            one(self.rounds.len() as f64),
            &unit,
            "",
        );
    }
}

/// Per tenant: the budget of the switch service's limit it used (as in [`Figures`], in percent).
pub fn switch_budget_used(log: &[Logged]) -> BTreeMap<String, f64> {
    let switch = limits()
        .into_iter()
        .find(|l| l.writes_only)
        .expect("the switch limit");
    per_tenant(log, &switch)
        .into_iter()
        .map(|(tenant, (first, last, n))| {
            let seconds = (last - first) as f64 / 1000.0;
            let used = 100.0 * n as f64 / (switch.max + seconds * switch.per_second);
            (tenant.to_owned(), used)
        })
        .collect()
}

/// Per tenant: its first and last call counted by `limit` (simulator clock, ms) and how many.
fn per_tenant<'a>(log: &'a [Logged], limit: &Limit) -> BTreeMap<&'a str, (u64, u64, usize)> {
    let counted = |l: &&Logged| {
        !is_token(l)
            && l.status != 429
            && l.tenant.is_some()
            && (!limit.writes_only || l.operation.as_deref() == Some("create_cli_template"))
    };
    let mut per_tenant: BTreeMap<&str, (u64, u64, usize)> = BTreeMap::new();
    for l in log.iter().filter(counted) {
        let tenant = l.tenant.as_deref().unwrap_or("");
        let e = per_tenant.entry(tenant).or_insert((l.at_ms, l.at_ms, 0));
        e.0 = e.0.min(l.at_ms);
        e.1 = e.1.max(l.at_ms);
        e.2 += 1;
    }
    per_tenant
}

fn per_limit(log: &[Logged], limit: &Limit) -> PerLimit {
    let per_tenant = per_tenant(log, limit);
    // A service's limit: the customers that used more than its burst (the refill over their
    // time counts). The tenant's: every customer, however little of it they used.
    let used = per_tenant
        .values()
        .filter(|(_, _, n)| !limit.writes_only || *n as f64 > limit.max)
        .map(|(first, last, n)| {
            let seconds = (last - first) as f64 / 1000.0;
            100.0 * *n as f64 / (limit.max + seconds * limit.per_second)
        })
        .collect();
    PerLimit {
        name: limit.name,
        refused: log
            .iter()
            .filter(|l| l.limited_by.as_deref() == Some(limit.logged))
            .count(),
        used,
    }
}

/// Poll rounds: the activity queries sent together (a gap of 100 ms starts a round).
fn rounds(log: &[Logged]) -> Vec<usize> {
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
    rounds
}

/// With `RUCKUS_BENCH_MSP_LOG` set, appends the simulator's log to that file (arrival on the
/// simulator clock in ms, tenant, operation, status, limit that refused): a closer look at a run.
fn dump(log: &[Logged]) {
    let Some(path) = std::env::var_os("RUCKUS_BENCH_MSP_LOG") else {
        return;
    };
    let mut text = String::new();
    for l in log {
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\n",
            l.at_ms,
            l.tenant.as_deref().unwrap_or("-"),
            l.operation.as_deref().unwrap_or(&l.path),
            l.status,
            l.limited_by.as_deref().unwrap_or("-"),
        ));
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path);
    if let Err(e) = file.and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes())) {
        eprintln!(
            "msp: cannot write the log to {}: {e}",
            path.to_string_lossy()
        );
    }
}
