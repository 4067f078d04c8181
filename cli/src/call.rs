//! Sending a call through the runtime and writing its answer: rows of paged operations (every
//! page with `--all`, streamed), asynchronous writes waited for, other answers as they come.

use crate::exit::{Exit, Failure};
use crate::ops::{self, Op};
use crate::opts::{Format, Opts};
use crate::output::{self, Rows};
use crate::progress::Progress;
use crate::request::Call;
use futures_util::StreamExt;
use ruckus_one_catalog::ResponseKind;
use ruckus_one_runtime::internal::{Paging, Request, described};
use ruckus_one_runtime::{Client, Error, WaitOptions};
use serde_json::Value;

/// The runtime request of `call`, acting as `client` does: the runtime's one road from a
/// catalog entry to a request (`described::request`), which `--dry-run` previews.
pub(crate) fn build<'a>(client: &'a Client, call: &Call) -> Result<Request<'a>, Error> {
    described::request(client, call.op.table, call.op.route, &call.arguments())
}

fn paging(op: Op) -> Option<Paging> {
    described::paging(op.route)
}

/// The columns rows are shown with: `--columns`, else the operation's.
pub(crate) fn columns(op: Op, opts: &Opts) -> Vec<String> {
    opts.columns
        .clone()
        .unwrap_or_else(|| op.route.columns.clone())
}

/// Runs `call` and writes its answer.
pub(crate) async fn run(client: &Client, call: &Call, opts: &Opts) -> Result<(), Failure> {
    let op = call.op;
    if let (Some(p), true) = (paging(op), opts.all) {
        let mut rows = Rows::new(opts.format, columns(op, opts)).with_jq(opts.jq.clone());
        let mut items = build(client, call)?.items::<Value>(p);
        while let Some(item) = items.next().await {
            rows.row(&item?).map_err(io)?;
        }
        return rows.finish().map_err(io);
    }
    match op.route.response.kind {
        ResponseKind::Empty => {
            build(client, call)?.send_empty().await?;
            eprintln!("done: {} {}", op.route.method.as_str(), op.route.path);
            Ok(())
        }
        ResponseKind::Text => {
            crate::out::line(format_args!("{}", build(client, call)?.send_text().await?))?;
            Ok(())
        }
        ResponseKind::Binary => {
            let bytes = build(client, call)?.send_bytes().await?;
            use std::io::Write;
            crate::out::stdout().write_all(&bytes).map_err(io)
        }
        ResponseKind::Json => {
            let answer: Value = build(client, call)?.send_json().await?;
            answer_json(client, call, opts, answer).await
        }
    }
}

async fn answer_json(
    client: &Client,
    call: &Call,
    opts: &Opts,
    answer: Value,
) -> Result<(), Failure> {
    let op = call.op;
    if let Some(p) = &op.route.paging
        && let Some(items) = answer.get(&p.items).and_then(Value::as_array)
    {
        let mut rows = Rows::new(opts.format, columns(op, opts)).with_jq(opts.jq.clone());
        for item in items {
            rows.row(item).map_err(io)?;
        }
        return rows.finish().map_err(io);
    }
    if op.route.asynchronous
        && let Some(id) = answer.get("requestId").and_then(Value::as_str)
    {
        let created = crate::created::id_in(&answer);
        if opts.no_wait {
            return print_request_id(opts, id, created);
        }
        let activity = wait(client, op, id, opts.tty_err).await?;
        if let Some(kind) = crate::created::kind(op) {
            return crate::created::show(client, call, opts, kind, created, &activity).await;
        }
        // An update shows the object as it now is; other writes their activity.
        let updated = crate::update::read_back(client, call).await;
        return single(opts, updated.as_ref().unwrap_or(&activity));
    }
    if let Value::Array(items) = &answer {
        let mut rows = Rows::new(opts.format, columns(op, opts)).with_jq(opts.jq.clone());
        for item in items {
            rows.row(item).map_err(io)?;
        }
        return rows.finish().map_err(io);
    }
    single(opts, &answer)
}

/// A single answer: through `--jq` when given, else in the output format.
pub(crate) fn single(opts: &Opts, v: &Value) -> Result<(), Failure> {
    match &opts.jq {
        Some(jq) => jq.print(v),
        None => output::value(opts.format, v).map_err(io),
    }
}

/// A write not waited for: its request id, and the id of what it creates when the answer
/// names it (with `--quiet`, that id, else the request id).
fn print_request_id(opts: &Opts, id: &str, created: Option<String>) -> Result<(), Failure> {
    let mut v = serde_json::json!({ "requestId": id });
    if let Some(c) = created {
        v["id"] = Value::String(c);
    }
    if opts.format == Format::Table && opts.jq.is_none() && v.get("id").is_none() {
        crate::out::line(format_args!("{id}"))?;
        return Ok(());
    }
    single(opts, &v)
}

/// Waits for the activity `id` of a write of `op` (as the client acts), with a progress line on
/// a terminal. A failed activity is an [`Exit::ActivityFailed`] with its error.
pub(crate) async fn wait(
    client: &Client,
    op: Op,
    id: &str,
    progress: bool,
) -> Result<Value, Failure> {
    let activity = activity_op(op)?;
    let progress = progress.then(|| Progress::start(format!("waiting for activity {id}")));
    let result = ruckus_one_runtime::internal::wait_for_activity::<Value>(
        client,
        activity,
        id,
        &WaitOptions::default(),
    )
    .await;
    if let Some(p) = progress {
        p.stop();
    }
    Ok(result?)
}

fn activity_op(op: Op) -> Result<&'static ruckus_one_runtime::internal::Operation, Failure> {
    let id = op.table.api.activity.as_deref().ok_or_else(|| {
        Failure::new(
            Exit::Other,
            format!("the {} API has no activities", op.table.api.name),
        )
    })?;
    let activity = ops::by_id(op.table, id).ok_or_else(|| {
        Failure::other(format!("activity operation `{id}` is not in the catalog"))
    })?;
    Ok(ops::operation(activity))
}

pub(crate) fn io(e: std::io::Error) -> Failure {
    Failure::other(format!("writing the answer: {e}"))
}
