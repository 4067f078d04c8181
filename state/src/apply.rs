//! Applying a plan through the runtime: each step sent, its activity waited for, the ids of
//! created objects fed to the steps that refer to them, every step journaled. RUCKUS takes no
//! idempotency key: before a create is sent, the object is looked up by its identity, so a
//! create that an earlier (killed) run may have sent is never sent twice.

use crate::connection::{Connection, Params, Sent, one_or_batch};
use crate::error::Error;
use crate::fields::{self, Env};
use crate::journal::{Entry, Journal, StepState};
use crate::kinds::{self, param_refs};
use crate::model::{Address, State};
use crate::plan::{Action, Plan, Step};
use crate::pointer;
use crate::read;
use ruckus_one_catalog::{ResourceKind, ResourceShape, Resources};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;

/// How a step ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    /// Sent, and its activity (if any) succeeded.
    Done,
    /// A create whose object was found by its identity: not sent again.
    Existing,
    /// Done by an earlier run (the journal says so).
    Skipped,
    /// Accepted by the service, its activity still running when the wait ended: not a
    /// failure.
    Running {
        /// The request id of the write, whose activity tells how it ends.
        #[serde(rename = "requestId")]
        request_id: String,
    },
}

/// One step's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    /// The step of the plan.
    pub step: Step,
    /// How it ended.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The id of the created (or found) object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// What an apply did: each step run, and the step that failed (the apply stops there).
#[derive(Debug, Default)]
pub struct Report {
    /// The steps run (or skipped as done), in plan order.
    pub steps: Vec<StepReport>,
    /// The step that failed and why; the steps after it were not run.
    pub failure: Option<(Step, Error)>,
}

impl Report {
    /// Whether every step ran without failing.
    pub fn succeeded(&self) -> bool {
        self.failure.is_none()
    }
}

/// How an apply runs.
#[derive(Debug, Clone)]
pub struct ApplyOptions {
    /// Where secret values come from.
    pub env: Env,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            env: Env::process(),
        }
    }
}

/// What the steps share.
struct Ctx<'c, 'a> {
    conn: &'c Connection<'a>,
    resources: &'c Resources,
    desired: &'c State,
    live: &'c State,
    ids: HashMap<Address, String>,
    journal: &'c mut Journal,
    env: &'c Env,
    /// Objects created without a deferred reference whose object did not exist yet: set by
    /// an update once every step has run.
    deferred: Vec<Address>,
}

/// Runs the steps of `plan` (made from `desired` and `live`) in order, stopping at the first
/// that fails.
pub async fn apply(
    conn: &Connection<'_>,
    resources: &Resources,
    desired: &State,
    live: &State,
    plan: &Plan,
    journal: &mut Journal,
    options: &ApplyOptions,
) -> Report {
    let ids = live
        .objects
        .values()
        .filter_map(|o| Some((o.address.clone(), o.id.clone()?)))
        .collect();
    let mut ctx = Ctx {
        conn,
        resources,
        desired,
        live,
        ids,
        journal,
        env: &options.env,
        deferred: Vec::new(),
    };
    let mut report = Report::default();
    for step in &plan.steps {
        match run(&mut ctx, step).await {
            Ok((outcome, id)) => report.steps.push(StepReport {
                step: step.clone(),
                outcome,
                id,
            }),
            Err(e) => {
                report.failure = Some((step.clone(), e));
                return report;
            }
        }
    }
    for address in std::mem::take(&mut ctx.deferred) {
        let step = Step {
            action: Action::Update,
            operation: String::new(),
            address,
            object: None,
            patch: None,
        };
        match second_pass(&mut ctx, step.clone()).await {
            Ok(done) => report.steps.push(done),
            Err(e) => {
                report.failure = Some((step, e));
                break;
            }
        }
    }
    report
}

/// The update that sets the deferred references of an object created without them.
async fn second_pass(ctx: &mut Ctx<'_, '_>, mut step: Step) -> Result<StepReport, Error> {
    let kind = kinds::kind(ctx.resources, &step.address.kind)?;
    step.operation = kind.operations.update.clone().ok_or_else(|| {
        Error::Resources(format!(
            "{}: no update to set its deferred references",
            kind.name
        ))
    })?;
    let key = format!("{} (deferred references)", step.key());
    let outcome = match ctx.journal.get(&key).map(|e| e.state) {
        Some(StepState::Done) => Outcome::Skipped,
        _ => change(ctx, kind, &step, &key).await?.0,
    };
    Ok(StepReport {
        step,
        outcome,
        id: None,
    })
}

type Ran = (Outcome, Option<String>);

async fn run(ctx: &mut Ctx<'_, '_>, step: &Step) -> Result<Ran, Error> {
    let kind = kinds::kind(ctx.resources, &step.address.kind)?;
    let key = step.key();
    if let Some(done) = ctx.journal.get(&key).filter(|e| e.state == StepState::Done) {
        let id = done.id.clone();
        if let Some(id) = &id {
            ctx.ids.insert(step.address.clone(), id.clone());
        }
        return Ok((Outcome::Skipped, id));
    }
    match step.action {
        Action::Create => create(ctx, kind, step, &key).await,
        Action::Update | Action::Delete => change(ctx, kind, step, &key).await,
    }
}

impl Ctx<'_, '_> {
    fn params(
        &self,
        kind: &ResourceKind,
        address: &Address,
        own: Option<&str>,
        doc: Option<&Value>,
    ) -> Result<Params, Error> {
        kinds::params(self.resources, kind, address, own, doc, &|a| {
            self.ids.get(a).cloned()
        })
    }

    /// The body of the desired object at `address`: names as ids, secrets from the
    /// environment, an activation's references (its path parameters) left out. With
    /// `defer`, a deferred reference to an object that does not exist yet is left out too
    /// (the `bool`: some were).
    fn body(
        &self,
        kind: &ResourceKind,
        address: &Address,
        defer: bool,
    ) -> Result<(Value, bool), Error> {
        let mut doc = self.desired_doc(address)?.clone();
        let id_of = |k: &str, name: &str| {
            let target = kinds::referenced(self.resources, address, k, name);
            self.ids.get(&target).cloned()
        };
        let mut pending = false;
        for r in kind.references.iter().filter(|r| defer && r.deferred) {
            let Some(field) = &r.field else { continue };
            for at in pointer::expand(&doc, field).iter().rev() {
                let name = doc.pointer(at).and_then(Value::as_str).unwrap_or_default();
                if id_of(&r.kind, name).is_none() {
                    pointer::remove(&mut doc, at);
                    pending = true;
                }
            }
        }
        let mut body = fields::wire(kind, address, &doc, &id_of, self.env)?;
        if let Value::Object(m) = &mut body {
            for (param, _) in param_refs(kind) {
                m.remove(param);
            }
        }
        Ok((body, pending))
    }

    fn desired_doc(&self, address: &Address) -> Result<&Value, Error> {
        self.desired
            .get(address)
            .map(|o| &o.doc)
            .ok_or_else(|| Error::Resources(format!("{address} is not in the desired state")))
    }

    fn record(
        &mut self,
        key: &str,
        state: StepState,
        id: Option<String>,
        request_id: Option<String>,
    ) -> Result<(), Error> {
        self.journal.record(Entry {
            id,
            request_id,
            ..Entry::new(key, state)
        })
    }

    /// Sends the write, journals its acceptance, waits for its activity. With the answer
    /// comes `None` when the write is done, the request id when it was accepted and its
    /// activity still runs.
    async fn send(
        &mut self,
        kind: &ResourceKind,
        op: &str,
        params: &Params,
        body: Option<&Value>,
        key: &str,
    ) -> Result<(Sent, Option<String>), Error> {
        self.record(key, StepState::Started, None, None)?;
        let sent = self.conn.write(&kind.api, op, params, body, key).await?;
        let Some(request_id) = sent.request_id.clone() else {
            return Ok((sent, None));
        };
        self.record(key, StepState::Accepted, None, Some(request_id.clone()))?;
        match self.conn.wait(&kind.api, &request_id).await {
            Ok(()) => Ok((sent, None)),
            Err(ruckus_one_runtime::Error::Activity(a)) if a.is_timeout() => {
                Ok((sent, Some(request_id)))
            }
            Err(source) => Err(Error::Call {
                operation: op.to_owned(),
                context: key.to_owned(),
                source,
            }),
        }
    }
}

async fn create(
    ctx: &mut Ctx<'_, '_>,
    kind: &ResourceKind,
    step: &Step,
    key: &str,
) -> Result<Ran, Error> {
    let address = &step.address;
    if let Some(request_id) = ctx.journal.get(key).and_then(|e| e.request_id.clone()) {
        // Sent by an earlier run: let it finish before looking for what it made.
        let _ = ctx.conn.wait(&kind.api, &request_id).await;
    }
    let doc = ctx.desired_doc(address)?.clone();
    let params = ctx.params(kind, address, None, Some(&doc))?;
    if let Some(id) = find(ctx.conn, kind, &doc, &params).await? {
        ctx.record(key, StepState::Done, Some(id.clone()), None)?;
        ctx.ids.insert(address.clone(), id.clone());
        return Ok((Outcome::Existing, Some(id)));
    }
    let (body, pending) = ctx.body(kind, address, true)?;
    let (table, route) = ctx.conn.route(&kind.api, &step.operation)?;
    let body = one_or_batch(table, route, body);
    let body = route.request.is_some().then_some(&body);
    let (sent, running) = ctx.send(kind, &step.operation, &params, body, key).await?;
    if let Some(request_id) = running {
        // Still running, but perhaps already there: its id for the steps that refer to it.
        let id = find(ctx.conn, kind, &doc, &params).await?;
        if let Some(id) = &id {
            ctx.ids.insert(address.clone(), id.clone());
        }
        return Ok((Outcome::Running { request_id }, id));
    }
    let id = match (kind.shape, sent.created_id) {
        (ResourceShape::Collection, Some(id)) => Some(id),
        _ => find(ctx.conn, kind, &doc, &params).await?,
    };
    ctx.record(key, StepState::Done, id.clone(), None)?;
    if let Some(id) = &id {
        ctx.ids.insert(address.clone(), id.clone());
    }
    if pending {
        ctx.deferred.push(address.clone());
    }
    Ok((Outcome::Done, id))
}

async fn change(
    ctx: &mut Ctx<'_, '_>,
    kind: &ResourceKind,
    step: &Step,
    key: &str,
) -> Result<Ran, Error> {
    let address = &step.address;
    let live = ctx.live.get(address);
    let own = live
        .and_then(|o| o.id.clone())
        .or_else(|| ctx.ids.get(address).cloned());
    let (doc, body) = match step.action {
        Action::Delete => (live.map(|o| o.doc.clone()), None),
        _ => (
            Some(ctx.desired_doc(address)?.clone()),
            Some(ctx.body(kind, address, false)?.0),
        ),
    };
    let params = ctx.params(kind, address, own.as_deref(), doc.as_ref())?;
    match ctx
        .send(kind, &step.operation, &params, body.as_ref(), key)
        .await
    {
        Ok((_, Some(request_id))) => return Ok((Outcome::Running { request_id }, None)),
        Ok(_) => {}
        // Deleted meanwhile: what the step wanted.
        Err(Error::Call { source, .. })
            if step.action == Action::Delete && source.status() == Some(404) => {}
        Err(e) => return Err(e),
    }
    ctx.record(key, StepState::Done, None, None)?;
    Ok((Outcome::Done, None))
}

/// The id of the live object of `kind` that `doc` names by its identity fields, under the
/// parent whose id `params` gives (its `parent_param`); `None` when there is none, or when the
/// kind has no list operation. A caller that sent a create without an idempotency key (RUCKUS
/// takes none) asks this before sending it again.
pub async fn find_existing(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    doc: &Value,
    params: &std::collections::BTreeMap<String, String>,
) -> Result<Option<String>, Error> {
    find(conn, kind, doc, params).await
}

/// The id of the live object the desired `doc` describes, found by its identity under the
/// parent of `params` (an activation: whether the object it activates is listed).
async fn find(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    doc: &Value,
    params: &Params,
) -> Result<Option<String>, Error> {
    if kind.operations.list.is_none() {
        return Ok(None);
    }
    let rows = read::list(conn, kind, params).await?;
    let row_id = |r: &Value| {
        r.pointer(kind.id_field.as_deref().unwrap_or("/id"))
            .and_then(crate::connection::id_text)
    };
    match kind.shape {
        ResourceShape::Settings => Ok(None),
        ResourceShape::Activation => {
            let wanted: Vec<&String> = param_refs(kind)
                .filter_map(|(p, _)| params.get(p))
                .collect();
            Ok(rows
                .iter()
                .filter_map(row_id)
                .find(|id| wanted.contains(&id)))
        }
        ResourceShape::Collection => {
            let want = kinds::name_of(kind, doc);
            for row in &rows {
                let Some(id) = row_id(row) else { continue };
                let name = match kinds::name_of(kind, row) {
                    Some(n) => Some(n),
                    None => read_one(conn, kind, params, &id)
                        .await?
                        .and_then(|d| kinds::name_of(kind, &d)),
                };
                if name.is_some() && name == want {
                    return Ok(Some(id));
                }
            }
            Ok(None)
        }
    }
}

async fn read_one(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    params: &Params,
    id: &str,
) -> Result<Option<Value>, Error> {
    let (Some(read), Some(param)) = (&kind.operations.read, &kind.id_param) else {
        return Ok(None);
    };
    let mut own = params.clone();
    own.insert(param.clone(), id.to_owned());
    conn.read(&kind.api, read, &own).await
}
