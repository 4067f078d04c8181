//! `ruckus export | plan | apply`: desired state as YAML files, through the
//! `ruckus-one-state` engine, on the resource layer the catalog carries (`--resources FILE`
//! gives another).

use crate::connect;
use crate::exit::{Exit, Failure};
use crate::opts::{Format, Opts};
use clap::{Arg, ArgAction, ArgMatches, Command};
use ruckus_one_state::{self as state, Action, ApplyOptions, Journal, Plan, PlanOptions, Scope};
use std::path::{Path, PathBuf};

/// Where `--resources` may come from instead of the flag.
const RESOURCES_ENV: &str = "RUCKUS_RESOURCES";

fn resources_arg() -> Arg {
    Arg::new("resources")
        .long("resources")
        .env(RESOURCES_ENV)
        .help("Another resource layer (a resources.json) than the catalog's")
}

fn dir() -> Arg {
    Arg::new("dir")
        .required(true)
        .help("The folder of the desired state")
}

fn prune() -> Arg {
    Arg::new("prune")
        .long("prune")
        .action(ArgAction::SetTrue)
        .help("Delete live objects of the scope that no file describes")
}

/// The `export` command's arguments.
pub(super) fn export_definition() -> Command {
    Command::new("export")
        .about("Write the live state of a tenant (or of venues) as one YAML file per object")
        .arg(
            Arg::new("out")
                .long("out")
                .required(true)
                .help("The folder to write"),
        )
        .arg(
            Arg::new("venue")
                .long("venue")
                .action(ArgAction::Append)
                .help("Only this venue and what it refers to (repeatable)"),
        )
        .arg(resources_arg())
}

/// The `plan` command's arguments.
pub(super) fn plan_definition() -> Command {
    Command::new("plan")
        .about("Show what apply would change; exit 0 when nothing, 10 when there are changes")
        .arg(dir())
        .arg(prune())
        .arg(
            Arg::new("simulate")
                .long("simulate")
                .action(ArgAction::SetTrue)
                .help(
                    "Try the plan on an in-process simulator seeded with the live state, then \
                     plan again (nothing is written to the service)",
                ),
        )
        .arg(resources_arg())
}

/// The `apply` command's arguments.
pub(super) fn apply_definition() -> Command {
    Command::new("apply")
        .about("Make the live state what the files say, journaled")
        .arg(dir())
        .arg(prune())
        .arg(
            Arg::new("resume")
                .long("resume")
                .action(ArgAction::SetTrue)
                .help("Resume a killed apply from its journal"),
        )
        .arg(
            Arg::new("journal")
                .long("journal")
                .help("The journal file (default DIR/.apply-journal.jsonl)"),
        )
        .arg(resources_arg())
}

/// Runs `export`, `plan` or `apply` (`name`) with its matches `m`.
pub(super) fn run(
    name: &str,
    m: &ArgMatches,
    opts: &Opts,
    rt: &tokio::runtime::Runtime,
) -> Result<(), Failure> {
    let resources = load_resources(m)?;
    let code = rt.block_on(async {
        let conn = connect::connect(opts).await?;
        let engine = state::Connection::new(&conn.client, None).map_err(failure)?;
        match name {
            "export" => export(&engine, &resources, m).await,
            "plan" => plan(&engine, &resources, m, opts, true)
                .await
                .map(|(changes, _)| changes),
            _ => apply(&engine, &resources, m, opts).await,
        }
    })?;
    if code {
        return Err(Failure::new(Exit::Changes, ""));
    }
    Ok(())
}

/// The catalog's resource layer, or the one `--resources` names.
fn load_resources(m: &ArgMatches) -> Result<state::Resources, Failure> {
    let Some(path) = m.get_one::<String>("resources") else {
        return Ok(ruckus_one_catalog::Catalog::resources()?.clone());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("--resources {path}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| Failure::usage(format!("--resources {path}: {e}")))
}

fn failure(e: state::Error) -> Failure {
    e.into()
}

async fn export(
    conn: &state::Connection<'_>,
    resources: &state::Resources,
    m: &ArgMatches,
) -> Result<bool, Failure> {
    let out = PathBuf::from(m.get_one::<String>("out").cloned().unwrap_or_default());
    let venues: Vec<String> = m
        .get_many::<String>("venue")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let scope = if venues.is_empty() {
        Scope::tenant()
    } else {
        Scope::named("venue", venues)
    };
    let written = state::export(conn, resources, &scope, &out)
        .await
        .map_err(failure)?;
    eprintln!("exported {} objects to {}", written.len(), out.display());
    Ok(false)
}

/// Reads the files and the live state, makes the plan and prints it (when `print`); true
/// when it has changes (exit 10).
async fn plan(
    conn: &state::Connection<'_>,
    resources: &state::Resources,
    m: &ArgMatches,
    opts: &Opts,
    print: bool,
) -> Result<(bool, Planned), Failure> {
    let dir = PathBuf::from(m.get_one::<String>("dir").cloned().unwrap_or_default());
    let (scope, desired) = state::document::read(&dir, resources).map_err(failure)?;
    let live = state::live_for(conn, resources, &scope, &desired)
        .await
        .map_err(failure)?;
    let options = PlanOptions {
        prune: m.get_flag("prune"),
        ..PlanOptions::default()
    };
    let plan = state::plan(resources, &desired, &live, &options).map_err(failure)?;
    let code = !plan.is_empty();
    if m.try_get_one::<bool>("simulate").ok().flatten() == Some(&true) {
        let simulation = state::simulate(resources, &scope, &desired, &live, &options)
            .await
            .map_err(failure)?;
        print_simulation(&simulation, opts.format)?;
        if !simulation.converged {
            return Err(Failure::new(Exit::Other, simulation.verdict));
        }
        return Ok((
            code,
            Planned {
                dir,
                desired,
                live,
                plan,
            },
        ));
    }
    if print {
        print_plan(&plan, opts.format)?;
    }
    Ok((
        code,
        Planned {
            dir,
            desired,
            live,
            plan,
        },
    ))
}

/// What `apply` runs.
struct Planned {
    dir: PathBuf,
    desired: state::State,
    live: state::State,
    plan: Plan,
}

fn print_plan(plan: &Plan, format: Format) -> Result<(), Failure> {
    if format != Format::Table {
        let text = serde_json::to_string_pretty(plan).map_err(|e| Failure::other(e.to_string()))?;
        crate::out::line(format_args!("{text}"))?;
        return Ok(());
    }
    for step in &plan.steps {
        let action = match step.action {
            Action::Create => "create",
            Action::Update => "update",
            Action::Delete => "delete",
        };
        let changes = step.patch.as_ref().map(|p| p.0.len()).unwrap_or(0);
        let detail = if changes > 0 {
            format!(" ({changes} change(s))")
        } else {
            String::new()
        };
        crate::out::line(format_args!(
            "{action:<7} {}{detail}  [{}]",
            step.address, step.operation
        ))?;
        for op in step.patch.iter().flat_map(|p| p.0.iter()) {
            let op = serde_json::to_value(op).unwrap_or_default();
            let (verb, path) = (&op["op"], &op["path"]);
            crate::out::line(format_args!(
                "        {} {}",
                verb.as_str().unwrap_or("?"),
                path.as_str().unwrap_or("")
            ))?;
        }
    }
    for note in &plan.notes {
        crate::out::line(format_args!("note: {note}"))?;
    }
    crate::out::line(format_args!(
        "{} to create, {} to update, {} to delete",
        plan.count(Action::Create),
        plan.count(Action::Update),
        plan.count(Action::Delete)
    ))?;
    Ok(())
}

fn print_simulation(simulation: &state::Simulation, format: Format) -> Result<(), Failure> {
    if format != Format::Table {
        let text =
            serde_json::to_string_pretty(simulation).map_err(|e| Failure::other(e.to_string()))?;
        crate::out::line(format_args!("{text}"))?;
        return Ok(());
    }
    for s in &simulation.steps {
        crate::out::line(format_args!("{:<8} {}", outcome_word(s), s.step.key()))?;
    }
    if let Some(f) = &simulation.failure {
        crate::out::line(format_args!("failed   {f}"))?;
    }
    for step in &simulation.remaining.steps {
        crate::out::line(format_args!("remains  {}", step.key()))?;
    }
    crate::out::line(format_args!("verdict: {}", simulation.verdict))?;
    Ok(())
}

async fn apply(
    conn: &state::Connection<'_>,
    resources: &state::Resources,
    m: &ArgMatches,
    opts: &Opts,
) -> Result<bool, Failure> {
    // The plan is shown on a terminal (a table); with JSON, only the report is written.
    let table = Opts {
        format: Format::Table,
        ..opts.clone()
    };
    let (_, planned) = plan(conn, resources, m, &table, opts.format == Format::Table).await?;
    let journal_path = m
        .get_one::<String>("journal")
        .map(PathBuf::from)
        .unwrap_or_else(|| planned.dir.join(".apply-journal.jsonl"));
    if planned.plan.is_empty() {
        return Ok(false);
    }
    if !confirm(opts)? {
        return Err(Failure::new(Exit::Other, "not applied"));
    }
    // Opened only now: a declined apply leaves the journal of a killed one as it was.
    let mut journal = open_journal(&journal_path, m.get_flag("resume"))?;
    let report = state::apply(
        conn,
        resources,
        &planned.desired,
        &planned.live,
        &planned.plan,
        &mut journal,
        &ApplyOptions::default(),
    )
    .await;
    if opts.format != Format::Table {
        let failed = report
            .failure
            .as_ref()
            .map(|(step, e)| format!("{}: {e}", step.key()));
        let v = serde_json::json!({"steps": &report.steps, "failure": failed});
        crate::out::line(format_args!(
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        ))?;
    }
    for s in &report.steps {
        eprintln!("{:<8} {}", outcome_word(s), s.step.key());
    }
    match report.failure {
        Some((step, e)) => Err(Failure::new(
            failure(e).exit,
            format!(
                "{} failed; the journal {} resumes after it",
                step.key(),
                journal_path.display()
            ),
        )),
        None => Ok(false),
    }
}

fn open_journal(path: &Path, resume: bool) -> Result<Journal, Failure> {
    let j = if resume {
        Journal::resume(path)
    } else {
        Journal::create(path)
    };
    j.map_err(failure)
}

/// Asks before applying on a terminal (unless `--yes`); never asks when not on one.
fn confirm(opts: &Opts) -> Result<bool, Failure> {
    crate::input::ask("apply these changes?", opts)
}

/// A step's outcome in one word (`done`, `existing`, `skipped`, `running`).
fn outcome_word(s: &state::StepReport) -> String {
    let outcome = serde_json::to_value(&s.outcome).unwrap_or_default();
    outcome
        .get("outcome")
        .and_then(|v| v.as_str())
        .unwrap_or("done")
        .to_owned()
}
