//! A plan: the steps that make the live state what the files say. Creates and updates come
//! in the layer's order (parents and referenced kinds first), deletes (only when pruning)
//! after them in the reverse order.

use crate::error::Error;
use crate::fields::{self, Env};
use crate::kinds;
use crate::model::{Address, Object, State};
use crate::pointer;
use ruckus_one_catalog::{FieldFlag, ResourceShape, Resources};
use serde::Serialize;
use serde_json::Value;

/// What a step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Create the object (or activate it, for an activation).
    Create,
    /// Change the object (or a parent's settings) by the step's patch.
    Update,
    /// Delete the object (only when pruning).
    Delete,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What the step does.
    pub action: Action,
    /// The operation id that makes it.
    pub operation: String,
    /// The object.
    pub address: Address,
    /// The document of the object to create (references as names, secrets as placeholders).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<Value>,
    /// For an update: the RFC 6902 patch from the live document to the desired one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<json_patch::Patch>,
}

impl Step {
    /// The step's key in a journal (`create venue Lobby`).
    pub fn key(&self) -> String {
        let action = match self.action {
            Action::Create => "create",
            Action::Update => "update",
            Action::Delete => "delete",
        };
        format!("{action} {}", self.address)
    }
}

/// The steps, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    /// Parents and referenced objects first; deletes last, children first.
    pub steps: Vec<Step>,
    /// What the plan cannot do (a change to a kind without an update operation).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Plan {
    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The number of steps of `action`.
    pub fn count(&self, action: Action) -> usize {
        self.steps.iter().filter(|s| s.action == action).count()
    }
}

/// How a plan is made.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    /// Delete live objects (of the scope) that no file describes.
    pub prune: bool,
    /// Where secrets come from: a secret is compared when its variable is set and the
    /// service shows its value.
    pub env: Env,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            prune: false,
            env: Env::process(),
        }
    }
}

/// The plan that makes `live` what `desired` says.
pub fn plan(
    resources: &Resources,
    desired: &State,
    live: &State,
    options: &PlanOptions,
) -> Result<Plan, Error> {
    let mut plan = Plan::default();
    for want in desired.objects.values() {
        let kind = kinds::kind(resources, &want.address.kind)?;
        let doc = fields::desired(kind, &want.doc);
        let ops = &kind.operations;
        let Some(have) = live.get(&want.address) else {
            let (action, op) = match kind.shape {
                ResourceShape::Settings => (Action::Update, ops.update.clone()),
                _ => (Action::Create, ops.create.clone()),
            };
            let step = Step {
                action,
                operation: op.unwrap_or_default(),
                address: want.address.clone(),
                object: (action == Action::Create).then(|| doc.clone()),
                patch: (action == Action::Update).then(|| json_patch::diff(&Value::Null, &doc)),
            };
            push(&mut plan, step, kind.name.as_str());
            continue;
        };
        if kind.shape == ResourceShape::Activation {
            continue;
        }
        let from = with_secret_changes(kind, have, &doc, &options.env);
        let patch = json_patch::diff(&from, &doc);
        if patch.0.is_empty() {
            continue;
        }
        let step = Step {
            action: Action::Update,
            operation: ops.update.clone().unwrap_or_default(),
            address: want.address.clone(),
            object: None,
            patch: Some(patch),
        };
        push(&mut plan, step, kind.name.as_str());
    }
    if options.prune {
        for have in live.objects.values() {
            let kind = kinds::kind(resources, &have.address.kind)?;
            if desired.get(&have.address).is_some() || kind.shape == ResourceShape::Settings {
                continue;
            }
            let step = Step {
                action: Action::Delete,
                operation: kind.operations.delete.clone().unwrap_or_default(),
                address: have.address.clone(),
                object: None,
                patch: None,
            };
            push(&mut plan, step, kind.name.as_str());
        }
    }
    plan.steps.sort_by_cached_key(|s| order(resources, s));
    Ok(plan)
}

/// Adds `step`, or a note when its kind has no operation for it.
fn push(plan: &mut Plan, step: Step, kind: &str) {
    if step.operation.is_empty() {
        plan.notes.push(format!(
            "{}: the kind {kind} has no operation to {:?} it",
            step.address, step.action
        ));
    } else {
        plan.steps.push(step);
    }
}

/// Creates and updates by rank, then deletes by reverse rank; then by address.
fn order(resources: &Resources, s: &Step) -> (bool, i64, Address) {
    let rank = i64::try_from(kinds::rank(resources, &s.address.kind)).unwrap_or(i64::MAX);
    let deleting = s.action == Action::Delete;
    (
        deleting,
        if deleting { -rank } else { rank },
        s.address.clone(),
    )
}

/// The live document as compared: each secret of the desired one taken as equal, unless its
/// variable is set to a value other than the service shows (then marked changed; the value
/// itself never enters the plan).
fn with_secret_changes(
    kind: &ruckus_one_catalog::ResourceKind,
    have: &Object,
    want: &Value,
    env: &Env,
) -> Value {
    let mut doc = have.doc.clone();
    for rule in kind.fields.iter().filter(|f| f.flag == FieldFlag::Secret) {
        for at in pointer::expand(want, &rule.path) {
            let Some(variable) = want.pointer(&at).and_then(fields::placeholder_variable) else {
                continue;
            };
            let changed = match (env.get(variable), have.secrets.0.get(&at)) {
                (Some(value), Some(live)) => live.as_str() != Some(value.as_str()),
                _ => false,
            };
            let shown = match changed {
                true => Value::String("(changed)".to_owned()),
                false => want.pointer(&at).cloned().unwrap_or(Value::Null),
            };
            pointer::set(&mut doc, &at, shown);
        }
    }
    doc
}
