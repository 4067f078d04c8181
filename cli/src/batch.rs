//! `--each FILE`: any operation command run once per row of a CSV or JSON-lines file, through
//! the workflows library (rows checked before the first call, a journal, waves, activities
//! waited for in bulk). The command's own flags are every row's starting point; `{column}`
//! in a path flag takes the row's value, and a path flag left out is filled from the column
//! of its name.

use crate::exit::{Exit, Failure};
use crate::ops::{self, Op};
use crate::opts::{Format, Opts};
use crate::output::{self, Rows};
use crate::request;
use clap::{Arg, ArgAction, ArgMatches};
use ruckus_one_workflows::batch::{Batch, Operation, Options, Outcome, RowReport, Summary, Waves};
use ruckus_one_workflows::journal::Journal;
use ruckus_one_workflows::rows::Input;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The flag that turns a command into a batch run.
pub(crate) const EACH: &str = "each";

/// The long names of the batch flags (an operation's own flags do not take them).
pub(crate) const NAMES: [&str; 6] = [EACH, "journal", "resume", RESEND_UNSURE, "wave", "pause"];

/// The flag that sends again, on a resume, the POST rows an earlier run may have sent.
const RESEND_UNSURE: &str = "resend-unsure";

const HEADING: &str = "Batch options";

/// The batch flags of an operation command.
pub(crate) fn args() -> Vec<Arg> {
    let value = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .help(help)
            .num_args(1)
            .help_heading(HEADING)
    };
    vec![
        value(
            EACH,
            "Run the command once per row of FILE (CSV with a header, or .jsonl)",
        )
        .value_name("FILE"),
        value(
            "journal",
            "Record each row's outcome in FILE as it ends (with --each)",
        )
        .value_name("FILE")
        .requires(EACH),
        Arg::new("resume")
            .long("resume")
            .help("Skip the rows the journal calls done; find creates a killed run sent")
            .action(ArgAction::SetTrue)
            .requires("journal")
            .help_heading(HEADING),
        Arg::new(RESEND_UNSURE)
            .long(RESEND_UNSURE)
            .help("With --resume: send the rows left unsure too (check them first)")
            .action(ArgAction::SetTrue)
            .requires("resume")
            .help_heading(HEADING),
        value(
            "wave",
            "Rows per wave; each wave ends before the next starts (with --each)",
        )
        .value_name("N")
        .value_parser(clap::value_parser!(u32).range(1..))
        .requires(EACH),
        value(
            "pause",
            "Pause between waves: 90s, 5m, 1h, 500ms (with --wave)",
        )
        .value_name("DURATION")
        .requires("wave"),
    ]
}

/// What a path flag left out of a batch command is: the column of its name.
pub(crate) fn placeholder(m: &ArgMatches, name: &str) -> Option<String> {
    m.try_get_one::<String>(EACH)
        .ok()
        .flatten()
        .map(|_| format!("{{{name}}}"))
}

/// The file of `--each`, when given.
pub(crate) fn requested(m: &ArgMatches) -> Option<String> {
    m.try_get_one::<String>(EACH).ok().flatten().cloned()
}

/// `5m`, `90s`, `500ms`, `1h`; a bare number is seconds.
pub(crate) fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{text}` is not a duration"))?;
    let secs = match unit {
        "ms" => return Ok(Duration::from_millis(n)),
        "" | "s" => n,
        "m" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        _ => return Err(format!("`{text}`: the unit is ms, s, m or h")),
    };
    Ok(Duration::from_secs(secs))
}

fn usage(e: ruckus_one_workflows::Error) -> Failure {
    let exit = match e {
        ruckus_one_workflows::Error::Invalid(_) | ruckus_one_workflows::Error::Journal(_) => {
            Exit::Usage
        }
        _ => Exit::Other,
    };
    Failure::new(exit, e.to_string())
}

fn operation(op: Op) -> Operation {
    let by = |id: &Option<String>| id.as_deref().and_then(|id| ops::by_id(op.table, id));
    Operation {
        table: op.table,
        route: op.route,
        activity: by(&op.table.api.activity).map(ops::operation),
        activity_query: by(&op.table.api.activity_query).map(ops::operation),
    }
}

/// Runs `op` once per row of `--each`.
pub(crate) async fn run(op: Op, m: &ArgMatches, opts: &Opts, file: &str) -> Result<(), Failure> {
    if opts.tenants.is_some() || opts.all_customers {
        return Err(Failure::usage(
            "--each runs as one tenant: name each row's customer in an `@tenant` column",
        ));
    }
    let call = request::read(op, m, opts)?;
    let input = Input::read(Path::new(file)).map_err(usage)?;
    let batch = Batch::new(operation(op), call.arguments(), &input).map_err(usage)?;
    if opts.dry_run {
        let conn = crate::run::dry_connection(opts).await?;
        return print_previews(&batch, &conn.client, opts);
    }
    let r = op.route;
    if r.method == ruckus_one_catalog::Method::Delete {
        let question = format!(
            "{} for {} rows ({} {})?",
            r.summary,
            batch.rows().len(),
            r.method.as_str(),
            r.path
        );
        if !crate::input::ask(&question, opts)? {
            return Err(Failure::new(Exit::Other, "not deleted"));
        }
    }
    let mut journal = match m.try_get_one::<String>("journal").ok().flatten() {
        Some(path) if flag(m, "resume") => Journal::resume(Path::new(path), batch.key()),
        Some(path) => Journal::create(Path::new(path), batch.key()),
        None => Ok(Journal::none()),
    }
    .map_err(usage)?;
    let options = Options {
        concurrency: opts.concurrency,
        waves: waves(m)?,
        resend_unsure: flag(m, RESEND_UNSURE),
        ..Options::default()
    };
    let conn = crate::connect::connect(opts).await?;
    let bar = crate::progress::Rows::new(batch.rows().len(), opts.tty_err);
    let failed = AtomicUsize::new(0);
    let progress = |report: &RowReport| {
        if matches!(report.outcome, Outcome::Failed { .. }) {
            failed.fetch_add(1, Ordering::Relaxed);
        }
        bar.ended(failed.load(Ordering::Relaxed));
    };
    let summary = batch
        .run(&conn.client, &mut journal, &options, &progress)
        .await
        .map_err(usage)?;
    bar.finish();
    report(&summary, opts)
}

fn flag(m: &ArgMatches, name: &str) -> bool {
    m.try_get_one::<bool>(name)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

fn waves(m: &ArgMatches) -> Result<Option<Waves>, Failure> {
    let Some(size) = m.try_get_one::<u32>("wave").ok().flatten() else {
        return Ok(None);
    };
    let pause = match m.try_get_one::<String>("pause").ok().flatten() {
        Some(t) => duration(t).map_err(|e| Failure::usage(format!("--pause: {e}")))?,
        None => Duration::ZERO,
    };
    Ok(Some(Waves {
        size: usize::try_from(*size).unwrap_or(usize::MAX),
        pause,
    }))
}

/// Every row's outcome on standard output, the counts on standard error; a failed row fails
/// the command.
fn report(summary: &Summary, opts: &Opts) -> Result<(), Failure> {
    let columns = ["line", "outcome", "id", "requestId", "error"].map(String::from);
    let mut rows = Rows::new(opts.format, columns.to_vec()).with_jq(opts.jq.clone());
    for r in &summary.rows {
        let v = serde_json::to_value(r).unwrap_or(Value::Null);
        rows.row(&v).map_err(crate::call::io)?;
    }
    rows.finish().map_err(crate::call::io)?;
    eprintln!(
        "{} rows: {} done ({} found by identity), {} failed, {} skipped, {} still running, {} unsure",
        summary.rows.len(),
        summary.done,
        summary.existing,
        summary.failed,
        summary.skipped,
        summary.running,
        summary.unsure
    );
    if let Some(first) = summary
        .rows
        .iter()
        .find(|r| matches!(r.outcome, Outcome::Failed { .. }))
    {
        return Err(Failure::new(
            Exit::Other,
            format!(
                "{} row(s) failed, the first on line {}",
                summary.failed, first.line
            ),
        ));
    }
    if let Some(first) = summary
        .rows
        .iter()
        .find(|r| matches!(r.outcome, Outcome::Unsure))
    {
        return Err(Failure::new(
            Exit::Other,
            format!(
                "{} row(s) may have been sent by the run that stopped (the first on line {}) and nothing \
                 identifies them: check them, then resume with --resend-unsure to send them",
                summary.unsure, first.line
            ),
        ));
    }
    if summary.running > 0 {
        return Err(Failure::new(
            Exit::ActivityFailed,
            format!(
                "{} row(s) still running: resume to follow them",
                summary.running
            ),
        ));
    }
    Ok(())
}

/// `--dry-run`: every row's request, nothing sent.
fn print_previews(
    batch: &Batch,
    client: &ruckus_one_runtime::Client,
    opts: &Opts,
) -> Result<(), Failure> {
    let previews = batch
        .previews(client)
        .map_err(|e| Failure::other(e.to_string()))?;
    let body = |b: &Option<String>| {
        b.as_deref()
            .map(|t| serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.to_owned())))
    };
    if opts.format == Format::Table {
        for (line, p) in &previews {
            println!("# line {line}");
            println!("{} {}", p.method.as_str(), p.url);
            if let Some(b) = body(&p.body) {
                println!("{}", serde_json::to_string_pretty(&b).unwrap_or_default());
            }
            println!();
        }
        return Ok(());
    }
    let all: Vec<Value> = previews
        .iter()
        .map(|(line, p)| {
            json!({
                "line": line,
                "method": p.method.as_str(),
                "url": p.url,
                "headers": p.headers.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
                "body": body(&p.body).unwrap_or(Value::Null),
            })
        })
        .collect();
    output::value(opts.format, &Value::Array(all)).map_err(crate::call::io)
}

#[cfg(test)]
mod tests {
    use super::duration;
    use std::time::Duration;

    #[test]
    fn durations_in_their_units() {
        assert_eq!(duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("1h"), Ok(Duration::from_secs(3600)));
        assert!(duration("soon").is_err());
        assert!(duration("5d").is_err());
    }
}
