//! `plan --simulate`: the plan tried on an in-process simulator seeded with the live state,
//! then planned again. Nothing is written to the service: the live state is only read.

use crate::apply::{ApplyOptions, StepReport, apply};
use crate::connection::Connection;
use crate::error::Error;
use crate::fields::Env;
use crate::journal::Journal;
use crate::model::State;
use crate::plan::{Plan, PlanOptions, plan};
use crate::scope::Scope;
use ruckus_one_catalog::{Catalog, Resources};
use ruckus_one_runtime::internal::described;
use ruckus_one_runtime::{Client, Config, Credentials, WaitOptions};
use ruckus_one_sim::{SimConfig, Simulator};
use serde::Serialize;
use std::time::Duration;

/// What a simulated apply did.
#[derive(Debug, Clone, Serialize)]
pub struct Simulation {
    /// The plan as made against the seeded simulator.
    pub plan: Plan,
    /// Each step run there, with its outcome.
    pub steps: Vec<StepReport>,
    /// The step that failed there, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// What a second plan still finds to do (empty when the apply converges).
    pub remaining: Plan,
    /// Whether every step succeeded and the second plan is empty.
    pub converged: bool,
    /// One line: what to expect of the real apply.
    pub verdict: String,
}

/// Seeds a new simulator with `live` (the objects of `scope`), plans `desired` against it,
/// applies that plan there and plans again.
pub async fn simulate(
    resources: &Resources,
    scope: &Scope,
    desired: &State,
    live: &State,
    options: &PlanOptions,
) -> Result<Simulation, Error> {
    let config = SimConfig::default()
        .activity_duration(Duration::from_millis(20))
        .rate_limits(false);
    let sim = Simulator::start_with(config).await.map_err(Error::Answer)?;
    let client = sim_client(&sim)?;
    let wait = WaitOptions::default()
        .initial_interval(Duration::from_millis(25))
        .max_interval(Duration::from_millis(100));
    let conn = Connection::new(&client, None)?.wait_options(wait);
    seed(&conn, resources, live).await?;
    let before = crate::live_for(&conn, resources, scope, desired).await?;
    let planned = plan(resources, desired, &before, options)?;
    let apply_options = ApplyOptions {
        env: options.env.clone(),
    };
    let report = apply(
        &conn,
        resources,
        desired,
        &before,
        &planned,
        &mut Journal::none(),
        &apply_options,
    )
    .await;
    let after = crate::live_for(&conn, resources, scope, desired).await?;
    let remaining = plan(resources, desired, &after, options)?;
    let failure = report
        .failure
        .as_ref()
        .map(|(step, e)| format!("{}: {e}", step.key()));
    let converged = failure.is_none() && remaining.is_empty();
    let verdict = match (&failure, converged) {
        (Some(f), _) => format!("the apply would fail: {f}"),
        (None, true) => format!(
            "{} step(s) succeed and the state converges",
            report.steps.len()
        ),
        (None, false) => format!(
            "the steps succeed but {} change(s) remain after them",
            remaining.steps.len()
        ),
    };
    Ok(Simulation {
        plan: planned,
        steps: report.steps,
        failure,
        remaining,
        converged,
        verdict,
    })
}

fn sim_client(sim: &Simulator) -> Result<Client, Error> {
    let catalog = Catalog::get().map_err(|e| Error::Resources(e.to_string()))?;
    let table = catalog
        .apis
        .first()
        .ok_or_else(|| Error::Resources("the catalog has no API".into()))?;
    let (id, secret) = sim.credentials();
    let config = Config::new(Credentials::new(id, secret)).base_url(sim.base_url());
    Client::new(config, described::auth_settings(table)).map_err(|source| Error::Call {
        operation: "-".into(),
        context: "starting the simulator's client".into(),
        source,
    })
}

/// Creates the `live` objects in the simulator (as an apply to an empty tenant does), with
/// the live values of their secrets.
async fn seed(conn: &Connection<'_>, resources: &Resources, live: &State) -> Result<(), Error> {
    let env = Env::of_secrets(live);
    let options = PlanOptions {
        prune: false,
        env: env.clone(),
    };
    let empty = State::default();
    let seeding = plan(resources, live, &empty, &options)?;
    let report = apply(
        conn,
        resources,
        live,
        &empty,
        &seeding,
        &mut Journal::none(),
        &ApplyOptions { env },
    )
    .await;
    match report.failure {
        Some((step, e)) => Err(Error::Answer(format!(
            "the simulator could not be seeded with the live state ({}: {e})",
            step.key()
        ))),
        None => Ok(()),
    }
}
