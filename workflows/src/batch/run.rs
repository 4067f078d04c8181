//! Running a batch: waves of rows, each row sent (a few at once, paced by the runtime) and
//! journaled, the accepted writes' activities waited for in bulk as they come in.

use super::{Batch, Prepared};
use crate::error::Error;
use crate::journal::{Journal, step};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use ruckus_one_catalog::{Catalog, Method, ResourceKind, Resources};
use ruckus_one_runtime::internal::{self, described};
use ruckus_one_runtime::{BULK_QUERY_SIZE, Client, PendingActivity, WaitOptions};
use ruckus_one_state::{Entry, StepState};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs::File;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc;

/// Rows in waves: each wave finished, its activities included, before the pause and the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waves {
    /// Rows per wave (at least one).
    pub size: usize,
    /// The pause between two waves.
    pub pause: Duration,
}

/// How a batch runs.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    /// Rows sent at once (at least one; default 8). The runtime paces the calls by the
    /// published limits whatever this is.
    pub concurrency: usize,
    /// Waves, if any (default: every row in one).
    pub waves: Option<Waves>,
    /// How long activities are waited for, and how often asked about (default: the
    /// runtime's, with a first pause of 250 ms: one bulk query covers the many writes sent
    /// meanwhile, so asking sooner costs few calls and ends the run sooner).
    pub wait: WaitOptions,
    /// The resource layer whose identities find a create sent by a killed run (default: the
    /// compiled-in catalog's).
    pub resources: Option<&'a Resources>,
    /// On a resume, how long a create that an earlier run started (and may have sent, its
    /// acceptance unrecorded) is given to appear before it is looked up a second time and then
    /// sent (default 5 s): the service makes the object when the write's activity ends, and
    /// that activity's request id is unknown.
    pub settle: Duration,
    /// On a resume, send again a POST an earlier run started and may have sent when nothing
    /// identifies its object (default: no; the row is [`Outcome::Unsure`]). PUT, PATCH and
    /// DELETE rows are sent again in any case: sending them twice changes nothing more.
    pub resend_unsure: bool,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            concurrency: 8,
            waves: None,
            wait: WaitOptions::default().initial_interval(Duration::from_millis(250)),
            resources: None,
            settle: Duration::from_secs(5),
            resend_unsure: false,
        }
    }
}

/// How a row ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    /// Sent, and its activity (if any) succeeded.
    Done,
    /// A create an earlier run sent, found by its identity: not sent again.
    Existing,
    /// Done by an earlier run (the journal says so).
    Skipped,
    /// The service refused it, or its activity failed.
    Failed {
        /// Why.
        error: String,
    },
    /// Started by an earlier run that stopped before its answer was recorded, so it may have
    /// been sent; a POST with no identity to look its object up by, so not sent again (it
    /// could be done twice). Check it, then resume with `resend_unsure` to send it.
    Unsure,
    /// Accepted, its activity still running when the wait ended (not a failure; a resume
    /// waits for it and looks the object up).
    Running {
        /// The activity's request id.
        #[serde(rename = "requestId")]
        request_id: String,
    },
}

/// One row's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowReport {
    /// The line of the input file.
    pub line: usize,
    /// How it ended.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The id of what it created (or found), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Rows done, those found by identity included.
    pub done: usize,
    /// Of those, creates found by their identity.
    pub existing: usize,
    /// Rows that failed.
    pub failed: usize,
    /// Rows an earlier run did.
    pub skipped: usize,
    /// Rows accepted whose activity still ran when the wait ended.
    pub running: usize,
    /// Rows an earlier run may have sent, not sent again ([`Outcome::Unsure`]).
    pub unsure: usize,
    /// Every row, in file order.
    pub rows: Vec<RowReport>,
}

impl Summary {
    /// No row failed, and none is left unsure.
    pub fn succeeded(&self) -> bool {
        self.failed == 0 && self.unsure == 0
    }

    fn of(mut rows: Vec<RowReport>) -> Summary {
        rows.sort_by_key(|r| r.line);
        let mut s = Summary::default();
        for r in &rows {
            match r.outcome {
                Outcome::Done => s.done += 1,
                Outcome::Existing => {
                    s.done += 1;
                    s.existing += 1;
                }
                Outcome::Skipped => s.skipped += 1,
                Outcome::Failed { .. } => s.failed += 1,
                Outcome::Running { .. } => s.running += 1,
                Outcome::Unsure => s.unsure += 1,
            }
        }
        s.rows = rows;
        s
    }
}

/// A row accepted by the service, its activity to wait for.
struct Accepted {
    line: usize,
    request_id: String,
    tenant: Option<String>,
    created_id: Option<String>,
}

/// What sending a row led to.
enum Sent {
    Ended(RowReport),
    Accepted(Accepted),
}

struct Ctx<'a> {
    batch: &'a Batch,
    client: &'a Client,
    options: &'a Options<'a>,
    kind: Option<&'a ResourceKind>,
    journal: Mutex<&'a mut Journal>,
    /// Syncs the journal's file (none in memory).
    sync_handle: Option<Arc<File>>,
    /// How many entries are synced; held while a sync runs, so that the entries appended
    /// meanwhile share the next one (group commit).
    synced: tokio::sync::Mutex<u64>,
    reports: Mutex<Vec<RowReport>>,
    failure: Mutex<Option<Error>>,
    progress: &'a (dyn Fn(&RowReport) + Sync),
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(super) async fn run(
    batch: &Batch,
    client: &Client,
    journal: &mut Journal,
    options: &Options<'_>,
    progress: &(dyn Fn(&RowReport) + Sync),
) -> Result<Summary, Error> {
    let op = batch.op;
    let resources = options.resources.or_else(|| Catalog::resources().ok());
    let kind = resources.and_then(|r| {
        r.kinds.iter().find(|k| {
            k.api == op.table.api.name && k.operations.create.as_deref() == Some(&op.route.id)
        })
    });
    let mut reports = Vec::new();
    let mut todo: Vec<&Prepared> = Vec::new();
    for row in &batch.rows {
        match journal.get(row.line).filter(|e| e.state == StepState::Done) {
            Some(e) => reports.push(RowReport {
                line: row.line,
                outcome: Outcome::Skipped,
                id: e.id.clone(),
            }),
            None => todo.push(row),
        }
    }
    reports.iter().for_each(progress);
    let sync_handle = journal.sync_handle()?.map(Arc::new);
    let synced = tokio::sync::Mutex::new(journal.appended());
    let ctx = Ctx {
        batch,
        client,
        options,
        kind,
        journal: Mutex::new(journal),
        sync_handle,
        synced,
        reports: Mutex::new(reports),
        failure: Mutex::new(None),
        progress,
    };
    let size = options.waves.map_or(todo.len(), |w| w.size).max(1);
    for (i, wave) in todo.chunks(size).enumerate() {
        if let (Some(w), true) = (options.waves, i > 0) {
            tokio::time::sleep(w.pause).await;
        }
        if ctx.stopped() {
            break;
        }
        run_wave(&ctx, wave).await;
    }
    if let Some(e) = lock(&ctx.failure).take() {
        return Err(e);
    }
    let rows = std::mem::take(&mut *lock(&ctx.reports));
    Ok(Summary::of(rows))
}

/// Sends the rows of a wave and waits for their activities, in bulk, as they are accepted.
async fn run_wave(ctx: &Ctx<'_>, rows: &[&Prepared]) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Accepted>();
    let sender = async move {
        // A plain loop over a FuturesUnordered rather than a stream of mapped rows: a closure
        // held across an await here made the whole run future not `Send`.
        let mut rest = rows.iter();
        let mut sending = FuturesUnordered::new();
        loop {
            while sending.len() < ctx.options.concurrency.max(1) {
                let Some(row) = rest.next() else { break };
                sending.push(send_row(ctx, row));
            }
            let Some(s) = sending.next().await else { break };
            match s {
                Some(Sent::Ended(report)) => ctx.report(report),
                Some(Sent::Accepted(a)) => {
                    let _ = tx.send(a);
                }
                None => {}
            }
        }
    };
    let waiter = async {
        while let Some(first) = rx.recv().await {
            let mut group = vec![first];
            while group.len() < BULK_QUERY_SIZE {
                match rx.try_recv() {
                    Ok(a) => group.push(a),
                    Err(_) => break,
                }
            }
            wait_group(ctx, group).await;
        }
    };
    futures_util::future::join(sender, waiter).await;
}

impl Ctx<'_> {
    fn stopped(&self) -> bool {
        lock(&self.failure).is_some()
    }

    fn fail(&self, e: Error) -> bool {
        lock(&self.failure).get_or_insert(e);
        false
    }

    /// Appends `entry` unsynced; the count to sync to, `None` (and the run stops) when the
    /// journal cannot be written.
    fn append(&self, entry: Entry) -> Option<u64> {
        let appended = lock(&self.journal).append(entry);
        appended.map_err(|e| self.fail(e)).ok()
    }

    /// Makes the first `upto` entries durable: one sync for every entry appended by then,
    /// on a blocking thread; `false` (and the run stops) when it fails.
    async fn sync(&self, upto: u64) -> bool {
        let Some(file) = &self.sync_handle else {
            return true;
        };
        let mut synced = self.synced.lock().await;
        if *synced >= upto {
            return true;
        }
        let target = lock(&self.journal).appended();
        let file = Arc::clone(file);
        match tokio::task::spawn_blocking(move || file.sync_data()).await {
            Ok(Ok(())) => {
                *synced = target;
                true
            }
            Ok(Err(e)) => self.fail(Error::Journal(format!("cannot sync: {e}"))),
            Err(e) => self.fail(Error::Journal(format!("cannot sync: {e}"))),
        }
    }

    /// Journals `entry`, durable before it returns; `false` (and the run stops) when the
    /// journal cannot be written.
    async fn record(&self, entry: Entry) -> bool {
        match self.append(entry) {
            Some(upto) => self.sync(upto).await,
            None => false,
        }
    }

    fn report(&self, report: RowReport) {
        (self.progress)(&report);
        lock(&self.reports).push(report);
    }

    /// Journals (durably) the end of the row on `line`.
    async fn end(&self, line: usize, outcome: Outcome, id: Option<String>) -> Option<Sent> {
        let report = self.finish(line, outcome, id)?;
        let upto = lock(&self.journal).appended();
        self.sync(upto).await.then_some(Sent::Ended(report))
    }

    /// Appends the end of the row on `line` to the journal, unsynced.
    fn finish(&self, line: usize, outcome: Outcome, id: Option<String>) -> Option<RowReport> {
        let entry = match &outcome {
            Outcome::Failed { error } => Entry {
                error: Some(error.clone()),
                ..Entry::new(step(line), StepState::Failed)
            },
            _ => Entry {
                id: id.clone(),
                ..Entry::new(step(line), StepState::Done)
            },
        };
        self.append(entry)?;
        Some(RowReport { line, outcome, id })
    }
}

fn failed(e: impl ToString) -> Outcome {
    Outcome::Failed {
        error: e.to_string(),
    }
}

/// Sends one row (after looking up a create an earlier run may have sent); `None` when the
/// run stopped.
async fn send_row(ctx: &Ctx<'_>, row: &Prepared) -> Option<Sent> {
    if ctx.stopped() {
        return None;
    }
    let line = row.line;
    let prior = lock(&ctx.journal).get(line).cloned();
    if let (None, Some(prior)) = (ctx.kind, &prior)
        && let Some(resumed) = resume_unidentified(ctx, row, prior)
    {
        return resumed;
    }
    if let (Some(kind), Some(prior)) = (ctx.kind, prior) {
        let mut found = find(ctx, kind, row, prior.request_id.as_deref()).await;
        let unknown = prior.state == StepState::Started && prior.request_id.is_none();
        if unknown && matches!(found, Ok(None)) {
            tokio::time::sleep(ctx.options.settle).await;
            found = find(ctx, kind, row, None).await;
        }
        match found {
            Ok(Some(id)) => return ctx.end(line, Outcome::Existing, Some(id)).await,
            Ok(None) => {}
            Err(e) => return ctx.end(line, failed(e), None).await,
        }
    }
    if !ctx.record(Entry::new(step(line), StepState::Started)).await {
        return None;
    }
    let op = ctx.batch.op;
    let req = match described::request(ctx.client, op.table, op.route, &row.arguments) {
        Ok(r) => r,
        Err(e) => return ctx.end(line, failed(e), None).await,
    };
    if let (true, Some(activity)) = (op.route.asynchronous, op.activity) {
        let accepted = match req.send_accepted::<Value, Value>(activity).await {
            Ok(a) => a,
            Err(e) => return ctx.end(line, failed(e), None).await,
        };
        let created_id = accepted.created_id().map(str::to_owned);
        let Some(request_id) = accepted.request_id().map(str::to_owned) else {
            return ctx.end(line, Outcome::Done, created_id).await;
        };
        let entry = Entry {
            request_id: Some(request_id.clone()),
            ..Entry::new(step(line), StepState::Accepted)
        };
        let tenant = accepted.tenant().map(str::to_owned);
        return ctx.record(entry).await.then_some(Sent::Accepted(Accepted {
            line,
            request_id,
            tenant,
            created_id,
        }));
    }
    match req.send_raw().await {
        Ok(raw) => {
            let answer: Value = serde_json::from_slice(raw.body()).unwrap_or(Value::Null);
            let id = answer
                .get("id")
                .or_else(|| answer.pointer("/response/id"))
                .and_then(id_text);
            ctx.end(line, Outcome::Done, id).await
        }
        Err(e) => ctx.end(line, failed(e), None).await,
    }
}

/// A row of an operation without identity that an earlier run left half-way and that must
/// not be sent again: accepted (its activity is waited for again), or started with no answer
/// recorded when it is a POST (unsure, unless `resend_unsure`). `None`: send it.
fn resume_unidentified(ctx: &Ctx<'_>, row: &Prepared, prior: &Entry) -> Option<Option<Sent>> {
    match (&prior.state, &prior.request_id) {
        (StepState::Accepted, Some(request_id)) => Some(Some(Sent::Accepted(Accepted {
            line: row.line,
            request_id: request_id.clone(),
            tenant: row.arguments.tenant.clone(),
            created_id: prior.id.clone(),
        }))),
        (StepState::Started, None)
            if ctx.batch.op.route.method == Method::Post && !ctx.options.resend_unsure =>
        {
            let report = RowReport {
                line: row.line,
                outcome: Outcome::Unsure,
                id: None,
            };
            Some(Some(Sent::Ended(report)))
        }
        _ => None,
    }
}

fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The object an earlier run's create of `row` made, found by its identity (after its
/// activity, when the journal has one, has ended).
async fn find(
    ctx: &Ctx<'_>,
    kind: &ResourceKind,
    row: &Prepared,
    request_id: Option<&str>,
) -> Result<Option<String>, Error> {
    let tenant = row.arguments.tenant.as_deref();
    if let (Some(id), Some(activity)) = (request_id, ctx.batch.op.activity) {
        // Its outcome does not matter: the lookup says whether the object is there.
        let _ = internal::wait_for_activity_as::<Value>(
            ctx.client,
            activity,
            id,
            tenant,
            &ctx.options.wait,
        )
        .await;
    }
    let conn = ruckus_one_state::Connection::new(ctx.client, tenant)?;
    let params: BTreeMap<String, String> = ctx
        .batch
        .op
        .route
        .path_params
        .iter()
        .zip(&row.arguments.path)
        .map(|(p, v)| (p.name.clone(), v.clone()))
        .collect();
    let doc = match &row.arguments.body {
        Some(Value::Array(items)) => items.first().cloned(),
        other => other.clone(),
    }
    .unwrap_or(Value::Null);
    Ok(ruckus_one_state::find_existing(&conn, kind, &doc, &params).await?)
}

/// Waits for the activities of `group` in one bulk wait (one activity query per tenant and
/// 500 writes), and journals each row's end.
async fn wait_group(ctx: &Ctx<'_>, group: Vec<Accepted>) {
    let results: Vec<Result<Value, ruckus_one_runtime::Error>> = match ctx.batch.op.activity_query {
        Some(query) => {
            let mut pending = Vec::new();
            let mut bad = Vec::new();
            for (i, a) in group.iter().enumerate() {
                match PendingActivity::new(a.request_id.clone(), a.tenant.as_deref()) {
                    Ok(p) => pending.push(p),
                    Err(e) => bad.push((i, e)),
                }
            }
            if let Some((_, e)) = bad.into_iter().next() {
                // A tenant id the runtime refuses: every row of the group ends with it.
                let e = e.to_string();
                let ended: Vec<RowReport> = group
                    .into_iter()
                    .filter_map(|a| ctx.finish(a.line, failed(&e), None))
                    .collect();
                ctx.sync_and_report(ended).await;
                return;
            }
            internal::wait_all::<Value>(ctx.client, query, pending, &ctx.options.wait)
                .await
                .unwrap_or_default()
        }
        None => one_by_one(ctx, &group).await,
    };
    let mut ended = Vec::new();
    for (a, result) in group.into_iter().zip(results) {
        let outcome = match result {
            Ok(_) => Outcome::Done,
            Err(ruckus_one_runtime::Error::Activity(e)) if e.is_timeout() => {
                ctx.report(RowReport {
                    line: a.line,
                    outcome: Outcome::Running {
                        request_id: a.request_id,
                    },
                    id: a.created_id,
                });
                continue;
            }
            Err(e) => failed(e),
        };
        ended.extend(ctx.finish(a.line, outcome, a.created_id));
    }
    ctx.sync_and_report(ended).await;
}

impl Ctx<'_> {
    /// One sync for the ends of a bulk wait, then their reports.
    async fn sync_and_report(&self, ended: Vec<RowReport>) {
        let upto = lock(&self.journal).appended();
        if self.sync(upto).await {
            ended.into_iter().for_each(|r| self.report(r));
        }
    }
}

/// The waits of an API without an activity query: one poll loop per write.
async fn one_by_one(
    ctx: &Ctx<'_>,
    group: &[Accepted],
) -> Vec<Result<Value, ruckus_one_runtime::Error>> {
    let Some(activity) = ctx.batch.op.activity else {
        return group.iter().map(|_| Ok(Value::Null)).collect();
    };
    let waits = group.iter().map(|a| {
        internal::wait_for_activity_as::<Value>(
            ctx.client,
            activity,
            &a.request_id,
            a.tenant.as_deref(),
            &ctx.options.wait,
        )
    });
    futures_util::future::join_all(waits).await
}
