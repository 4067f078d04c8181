//! Desired state for RUCKUS One: the configuration of a tenant (or of some venues) as YAML
//! files, and the engine that makes the service match them.
//!
//! - [`read()`] reads the live objects of a [`Scope`] through the runtime (paced, retried),
//!   each kind listed under each parent and each object read, made comparable: the fields
//!   the service sets left out, references written as names, secrets as
//!   `${env:RUCKUS_SECRET_...}` placeholders.
//! - [`document`] writes and reads the files: one per object, in a stable layout, the same
//!   bytes for the same state.
//! - [`plan()`] compares the files with the live state: creates, updates (with an RFC 6902
//!   patch) and, when pruning, deletes, parents and referenced kinds first.
//! - [`apply()`] runs a plan: each write sent and its activity waited for, the ids of created
//!   objects fed to the steps that refer to them, each step written to a [`Journal`] so that
//!   a killed run resumes without repeating a step. A create is looked up by its identity
//!   before it is sent (the service takes no idempotency key).
//! - [`simulate()`] tries a plan on an in-process simulator seeded with the live state and
//!   plans again: each step's outcome and whether the state converges, nothing written to
//!   the service.
//!
//! The kinds of objects, their operations, identities, references and field rules come from
//! the catalog's resource layer ([`Resources`]), given to every function.
//!
//! ```no_run
//! # async fn example(client: &ruckus_one_runtime::Client, resources: &ruckus_one_catalog::Resources) -> Result<(), ruckus_one_state::Error> {
//! use ruckus_one_state::*;
//! let conn = Connection::new(client, None)?;
//! export(&conn, resources, &Scope::named("venue", ["Lobby"]), "out".as_ref()).await?;
//! let (scope, desired) = document::read("out".as_ref(), resources)?;
//! let live = live_for(&conn, resources, &scope, &desired).await?;
//! let plan = plan(resources, &desired, &live, &PlanOptions::default())?;
//! let mut journal = Journal::create("apply.journal".as_ref())?;
//! let report = apply(&conn, resources, &desired, &live, &plan, &mut journal, &ApplyOptions::default()).await;
//! assert!(report.succeeded());
//! # Ok(()) }
//! ```

#![warn(missing_docs, unreachable_pub)]

mod apply;
mod connection;
pub mod document;
mod error;
mod fields;
mod journal;
mod kinds;
pub mod lookup;
mod model;
mod plan;
mod pointer;
mod read;
mod scope;
mod simulate;

pub use apply::{ApplyOptions, Outcome, Report, StepReport, apply, find_existing};
pub use connection::Connection;
pub use error::Error;
pub use fields::{Env, placeholder, secret_variable};
pub use journal::{Entry, Journal, StepState};
pub use kinds::SETTINGS_NAME;
pub use model::{Address, Object, Secrets, State};
pub use plan::{Action, Plan, PlanOptions, Step, plan};
pub use read::read;
pub use ruckus_one_catalog::Resources;
pub use scope::Scope;
pub use simulate::{Simulation, simulate};

use std::path::Path;

/// Reads the live state of `scope` and writes it under `dir` (see [`document::write`]);
/// returns what was written. A name of the scope that names no object is an error.
pub async fn export(
    conn: &Connection<'_>,
    resources: &Resources,
    scope: &Scope,
    dir: &Path,
) -> Result<State, Error> {
    let mut live = read(conn, resources, scope).await?;
    scope.retain(resources, &mut live, &Default::default());
    for name in &scope.names {
        let root = Address {
            kind: scope.kind.clone(),
            parents: Vec::new(),
            name: name.clone(),
        };
        if live.get(&root).is_none() {
            return Err(Error::NotFound(root.to_string()));
        }
    }
    document::write(dir, resources, scope, &live)?;
    Ok(live)
}

/// The live state a plan of `desired` compares with: the objects of `scope`, and those of
/// `desired` that exist (a file added for another venue widens the scope to that venue).
pub async fn live_for(
    conn: &Connection<'_>,
    resources: &Resources,
    scope: &Scope,
    desired: &State,
) -> Result<State, Error> {
    let mut scope = scope.clone();
    if !scope.is_tenant() {
        for a in desired.objects.keys() {
            let root = a.kind == scope.kind && a.parents.is_empty();
            if root && !scope.names.contains(&a.name) {
                scope.names.push(a.name.clone());
            }
        }
    }
    let mut live = read(conn, resources, &scope).await?;
    scope.retain(resources, &mut live, &read::addresses(desired));
    Ok(live)
}
