//! `ruckus activity wait ID...`: waits for activities by request id, one bulk query per round.

//! `ruckus activity wait ID...` (the bulk activity query).

use crate::call::io;
use crate::exit::{Failure, class_of};
use crate::opts::Opts;
use crate::{connect, ops, output};
use clap::{Arg, ArgMatches, Command};
use ruckus_one_runtime::{PendingActivity, WaitOptions};
use serde_json::{Value, json};

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
                ),
        )
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
    let conn = connect::connect(opts).await?;
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
        &WaitOptions::default(),
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
