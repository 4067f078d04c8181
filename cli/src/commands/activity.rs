//! `ruckus activity wait ID...`: waits for activities by request id, one bulk query per round,
//! for `--timeout` at most. Each id is first looked up on its own: one the service does not know
//! (after a short grace, as a new activity can take a moment to show) is reported as unknown
//! instead of being waited for until the timeout.

use crate::call::io;
use crate::exit::{Exit, Failure, class_of};
use crate::opts::Opts;
use crate::request::Call;
use crate::{connect, ops, output};
use clap::{Arg, ArgMatches, Command};
use ruckus_one_runtime::Client;
use ruckus_one_runtime::{PendingActivity, WaitOptions};
use serde_json::{Value, json};
use std::time::Duration;

/// The `activity` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("activity")
        .about("Asynchronous activities")
        .subcommand_required(true)
        .subcommand(
            Command::new("wait")
                .about("Wait for activities by request id (one bulk query per round)")
                .arg(
                    Arg::new("ids")
                        .required(true)
                        .num_args(1..)
                        .help("Request ids"),
                )
                .arg(
                    Arg::new("timeout")
                        .long("timeout")
                        .default_value("5m")
                        .value_parser(crate::opts::duration)
                        .help("Give up after this long (`30s`, `5m`); unfinished ones fail"),
                ),
        )
}

/// How long an id the service does not know is looked up again before it is called unknown.
const GRACE: Duration = Duration::from_secs(10);
/// Pause between two look-ups of an id not known yet.
const LOOK_AGAIN: Duration = Duration::from_millis(500);

/// Fails for the first of `ids` the service has no activity for, within `grace`.
async fn known(client: &Client, ids: &[String], grace: Duration) -> Result<(), Failure> {
    let table = ops::table("network")?;
    let one = table
        .api
        .activity
        .as_deref()
        .and_then(|id| ops::by_id(table, id))
        .ok_or_else(|| Failure::other("no activity operation in the catalog"))?;
    let started = tokio::time::Instant::now();
    for id in ids {
        let call = Call {
            op: one,
            path: vec![Some(id.clone())],
            query: Vec::new(),
            body: None,
            version: 0,
        };
        loop {
            match crate::call::build(client, &call)?
                .send_json::<Value>()
                .await
            {
                Ok(_) => break,
                Err(e) if e.status() == Some(404) && started.elapsed() < grace => {
                    tokio::time::sleep(LOOK_AGAIN).await;
                }
                Err(e) if e.status() == Some(404) => {
                    return Err(Failure::new(
                        Exit::NotFound,
                        format!(
                            "unknown request id `{id}`: the service has no activity with it \
                             (mistyped, or another tenant's: see --tenant)"
                        ),
                    ));
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// `m` is the matches of `activity wait`.
pub(super) async fn run(m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
    let ids: Vec<String> = m
        .get_many::<String>("ids")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let table = ops::table("network")?;
    let query_id = table
        .api
        .activity_query
        .clone()
        .ok_or_else(|| Failure::other("no activity query in the catalog"))?;
    let query =
        ops::by_id(table, &query_id).ok_or_else(|| Failure::other("activity query missing"))?;
    let timeout = m
        .get_one::<Duration>("timeout")
        .copied()
        .unwrap_or(WaitOptions::default().timeout);
    let conn = connect::connect(opts).await?;
    known(&conn.client, &ids, GRACE.min(timeout)).await?;
    let pending = ids
        .iter()
        .map(|id| PendingActivity::new(id.clone(), None))
        .collect::<Result<Vec<_>, _>>()?;
    let progress = opts
        .tty_err
        .then(|| crate::progress::Progress::start(format!("waiting for {} activities", ids.len())));
    let results = ruckus_one_runtime::internal::wait_all::<Value>(
        &conn.client,
        ops::operation(query),
        pending,
        &WaitOptions::default().timeout(timeout),
    )
    .await?;
    if let Some(p) = progress {
        p.stop();
    }
    let mut rows = output::Rows::new(
        opts.format,
        vec!["requestId".into(), "status".into(), "error".into()],
    );
    let mut first_failure = None;
    for (id, r) in ids.iter().zip(results) {
        let row = match r {
            Ok(a) => {
                json!({"requestId": id, "status": a.get("status").cloned().unwrap_or(Value::Null), "error": null})
            }
            Err(e) => {
                first_failure.get_or_insert((class_of(&e), e.to_string()));
                json!({"requestId": id, "status": "FAIL", "error": e.to_string()})
            }
        };
        rows.row(&row).map_err(io)?;
    }
    rows.finish().map_err(io)?;
    match first_failure {
        Some((class, msg)) => Err(Failure::new(class, msg)),
        None => Ok(()),
    }
}
