//! Batch runs: one catalog operation called once per row of a CSV or JSON-lines file.
//!
//! [`Batch::new`] prepares every row before anything is sent (a row that does not fit the
//! operation is reported with its line, and nothing is sent). [`Batch::run`] then sends the
//! rows a few at once (the runtime paces every call by the published limits and retries what
//! may be retried), waits for their activities in bulk (one activity query for many writes),
//! and records each row's outcome in a [`Journal`] as it completes. In waves
//! ([`Waves`]), each wave is finished (its activities included) before the pause and the
//! next one.
//!
//! A resumed run skips the rows the journal calls done. A create that an earlier run sent
//! but did not record as done is first looked up by its resource's identity (the catalog's
//! resource layer; RUCKUS takes no idempotency key), so a run killed at any point and
//! resumed creates each object once.
//!
//! ```no_run
//! # async fn example(client: &ruckus_one_runtime::Client) -> Result<(), ruckus_one_workflows::Error> {
//! use ruckus_one_workflows::batch::{Batch, Operation, Options};
//! use ruckus_one_workflows::journal::Journal;
//! use ruckus_one_workflows::rows::Input;
//! let op = Operation::find("network", "create_venue")?;
//! let input = Input::read("venues.csv".as_ref())?;
//! let batch = Batch::new(op, Default::default(), &input)?;
//! let mut journal = Journal::resume("venues.journal".as_ref(), batch.key())?;
//! let summary = batch.run(client, &mut journal, &Options::default(), &|_| {}).await?;
//! assert!(summary.succeeded());
//! # Ok(()) }
//! ```

mod prepare;
mod run;

pub use prepare::{Prepared, TENANT_COLUMN};
pub use run::{Options, Outcome, RowReport, Summary, Waves};

use crate::error::Error;
use crate::journal::{Journal, Key};
use crate::rows::Input;
use ruckus_one_catalog::{Catalog, Route, Table};
use ruckus_one_runtime::Client;
use ruckus_one_runtime::internal::{self, Preview, described, described::Arguments};
use sha2::{Digest, Sha256};

/// The operation a batch runs, with its API's activity operations (to wait for an
/// asynchronous write).
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    /// Its API's table.
    pub table: &'static Table,
    /// Its route.
    pub route: &'static Route,
    /// The API's `GET .../activities/{requestId}`.
    pub activity: Option<&'static internal::Operation>,
    /// The API's activity query, for waiting in bulk.
    pub activity_query: Option<&'static internal::Operation>,
}

impl Operation {
    /// Operation `id` of API `api` of the compiled-in catalog, with its activity operations.
    pub fn find(api: &str, id: &str) -> Result<Operation, Error> {
        let catalog = Catalog::get().map_err(|e| Error::Operation(e.to_string()))?;
        let (_, table) = catalog
            .api(api)
            .ok_or_else(|| Error::Operation(format!("the catalog has no API `{api}`")))?;
        let route = table
            .route(id)
            .ok_or_else(|| Error::Operation(format!("the {api} API has no operation `{id}`")))?;
        let by_id = |id: &Option<String>| {
            let route = table.route(id.as_deref()?)?;
            Some(described::operation(table, route))
        };
        Ok(Operation {
            table,
            route,
            activity: by_id(&table.api.activity),
            activity_query: by_id(&table.api.activity_query),
        })
    }

    fn id(&self) -> String {
        format!("{} {}", self.table.api.name, self.route.id)
    }
}

/// A batch run: an operation and its rows, each prepared and checked.
#[derive(Debug, Clone)]
pub struct Batch {
    op: Operation,
    rows: Vec<Prepared>,
    key: Key,
}

impl Batch {
    /// Prepares a run of `op` over the rows of `input`, each starting from `template` (path
    /// arguments may hold `{column}`). A row that does not fit is an [`Error::Invalid`] naming
    /// its line (every bad row, up to twenty).
    pub fn new(op: Operation, template: Arguments, input: &Input) -> Result<Batch, Error> {
        let rows = prepare::prepare(&op, &template, input)?;
        let arguments = format!(
            "{:?}\n{:?}\n{}\n{}\n{:?}",
            template.path,
            template.query,
            template
                .body
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            template.version,
            template.tenant
        );
        let arguments = Sha256::digest(arguments.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let key = Key {
            operation: op.id(),
            input: input.sha256.clone(),
            arguments,
        };
        Ok(Batch { op, rows, key })
    }

    /// What a journal of this run is keyed by.
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// The rows, in file order.
    pub fn rows(&self) -> &[Prepared] {
        &self.rows
    }

    /// The operation.
    pub fn operation(&self) -> Operation {
        self.op
    }

    /// The request each row would send, as `client` would send it (secrets masked); nothing
    /// is sent.
    pub fn previews(&self, client: &Client) -> Result<Vec<(usize, Preview)>, Error> {
        self.rows
            .iter()
            .map(|r| {
                let req = described::request(client, self.op.table, self.op.route, &r.arguments)?;
                Ok((r.line, req.preview()?))
            })
            .collect()
    }

    /// Runs the rows the journal does not call done; `progress` hears of each row as it ends.
    /// A row's failure is its outcome (the run goes on); an error is returned only when the
    /// journal cannot be written.
    pub async fn run(
        &self,
        client: &Client,
        journal: &mut Journal,
        options: &Options<'_>,
        progress: &(dyn Fn(&RowReport) + Sync),
    ) -> Result<Summary, Error> {
        run::run(self, client, journal, options, progress).await
    }
}
