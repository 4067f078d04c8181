//! Reports across a tenant or every customer of an MSP account, read from the query
//! operations and written row by row.
//!
//! - [`Report::Inventory`]: one row per AP and per switch: type, venue, name, serial, model,
//!   MAC, IP, status, firmware.
//! - [`Report::Firmware`]: how many APs and switches run each firmware version, per type and
//!   model.
//! - [`Report::Clients`]: one row per wireless client connected now.
//!
//! Every query is paged and paced by the runtime. A row is handed to the [`Sink`] as soon as
//! its page is read, so the memory a report takes does not grow with its size (the firmware
//! report keeps one count per type, model and version). Across customers, the tenants are
//! read one after another and a `tenant` column comes first; a customer whose calls fail is
//! reported in the [`Summary`] and the others are still read.
//!
//! ```no_run
//! # async fn example(client: &ruckus_one_runtime::Client) -> Result<(), ruckus_one_workflows::report::Error> {
//! use ruckus_one_workflows::report::{self, CsvSink, Report, Scope};
//! let mut sink = CsvSink::new(std::io::stdout());
//! let summary = report::run(client, Report::Inventory, &Scope::AllCustomers, &mut sink).await?;
//! eprintln!("{} rows, {} customers failed", summary.rows, summary.failed.len());
//! # Ok(()) }
//! ```

mod columns;
mod error;
mod query;
mod sink;

pub use error::Error;
pub use query::customers;
pub use sink::{Cell, CsvSink, Format, JsonSink, Sink, XlsxSink, XlsxTarget};

use columns::{AP, CLIENT, Column, SWITCH, cell};
use ruckus_one_runtime::Client;
use serde_json::Value;
use std::collections::BTreeMap;

/// The reports there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// One row per AP and switch.
    Inventory,
    /// Counts per type, model and firmware version.
    Firmware,
    /// One row per connected wireless client.
    Clients,
}

impl Report {
    /// The report named `name` (`inventory`, `firmware`, `clients`).
    pub fn parse(name: &str) -> Option<Report> {
        match name {
            "inventory" => Some(Report::Inventory),
            "firmware" => Some(Report::Firmware),
            "clients" => Some(Report::Clients),
            _ => None,
        }
    }

    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Report::Inventory => "inventory",
            Report::Firmware => "firmware",
            Report::Clients => "clients",
        }
    }

    /// The column headings (without the `tenant` column of a report across customers).
    pub fn columns(self) -> Vec<&'static str> {
        match self {
            Report::Inventory => std::iter::once("type")
                .chain(AP.iter().map(|c| c.name))
                .collect(),
            Report::Firmware => vec!["type", "model", "firmware", "count"],
            Report::Clients => CLIENT.iter().map(|c| c.name).collect(),
        }
    }
}

/// Whose devices a report covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The tenant the client acts for.
    Own,
    /// These customer tenants, in this order (a `tenant` column first).
    Tenants(Vec<String>),
    /// Every customer of the MSP account (a `tenant` column first).
    AllCustomers,
}

/// What a report came to.
#[derive(Debug, Default)]
pub struct Summary {
    /// Rows written.
    pub rows: u64,
    /// Tenants read in full.
    pub tenants: usize,
    /// The customers whose calls failed, with why; their rows read before the failure are
    /// written.
    pub failed: Vec<(String, Error)>,
}

/// Writes `report` of `scope` to `sink`, row by row. A failure of the customer list, of the
/// client's own tenant or of the sink ends the report with an error; a customer's failure is
/// recorded in the summary and the next customer is read.
pub async fn run(
    client: &Client,
    report: Report,
    scope: &Scope,
    sink: &mut (dyn Sink + Send),
) -> Result<Summary, Error> {
    let tenants: Option<Vec<String>> = match scope {
        Scope::Own => None,
        Scope::Tenants(t) => Some(t.clone()),
        Scope::AllCustomers => Some(customers(client).await?),
    };
    let mut headings = report.columns();
    if tenants.is_some() {
        headings.insert(0, "tenant");
    }
    sink.header(&headings)?;
    let mut summary = Summary::default();
    match tenants {
        None => {
            summary.rows = one_tenant(client, report, None, sink).await?;
            summary.tenants = 1;
        }
        Some(tenants) => {
            for tenant in tenants {
                match one_tenant(client, report, Some(&tenant), sink).await {
                    Ok(rows) => {
                        summary.rows += rows;
                        summary.tenants += 1;
                    }
                    Err(e @ Error::Write(_)) => return Err(e),
                    Err(e) => summary.failed.push((tenant, e)),
                }
            }
        }
    }
    sink.finish()?;
    Ok(summary)
}

/// The rows of one tenant (`None`: the client's own; else its id leads each row).
async fn one_tenant(
    client: &Client,
    report: Report,
    tenant: Option<&str>,
    sink: &mut (dyn Sink + Send),
) -> Result<u64, Error> {
    let lead: Vec<Cell> = tenant
        .map(|t| Cell::Text(t.to_owned()))
        .into_iter()
        .collect();
    match report {
        Report::Inventory => {
            let aps = devices(client, tenant, &lead, Device::Ap, sink).await?;
            Ok(aps + devices(client, tenant, &lead, Device::Switch, sink).await?)
        }
        Report::Clients => {
            let mut write = |row: Value| {
                let mut cells = lead.clone();
                cells.extend(CLIENT.iter().map(|c| Cell::Text(cell(c, &row))));
                sink.row(&cells)
            };
            query::each_row(
                client,
                tenant,
                "query_venue_ap_clients",
                "listing clients",
                &mut write,
            )
            .await
        }
        Report::Firmware => firmware(client, tenant, &lead, sink).await,
    }
}

/// The kinds of device the inventory and firmware reports cover.
#[derive(Debug, Clone, Copy)]
enum Device {
    Ap,
    Switch,
}

impl Device {
    fn word(self) -> &'static str {
        match self {
            Device::Ap => "ap",
            Device::Switch => "switch",
        }
    }

    fn query(self) -> (&'static str, &'static str) {
        match self {
            Device::Ap => ("query_venue_aps", "listing APs"),
            Device::Switch => ("query_venue_switches", "listing switches"),
        }
    }

    fn columns(self) -> &'static [Column] {
        match self {
            Device::Ap => AP,
            Device::Switch => SWITCH,
        }
    }
}

/// Writes one inventory row per device of `kind`.
async fn devices(
    client: &Client,
    tenant: Option<&str>,
    lead: &[Cell],
    kind: Device,
    sink: &mut (dyn Sink + Send),
) -> Result<u64, Error> {
    let (op, context) = kind.query();
    query::each_row(client, tenant, op, context, |row| {
        let mut cells = lead.to_vec();
        cells.push(Cell::Text(kind.word().to_owned()));
        cells.extend(kind.columns().iter().map(|c| Cell::Text(cell(c, &row))));
        sink.row(&cells)
    })
    .await
}

/// Counts devices per type, model and firmware version, then writes one row per count.
async fn firmware(
    client: &Client,
    tenant: Option<&str>,
    lead: &[Cell],
    sink: &mut (dyn Sink + Send),
) -> Result<u64, Error> {
    let mut counts: BTreeMap<(&'static str, String, String), u64> = BTreeMap::new();
    for kind in [Device::Ap, Device::Switch] {
        let (op, context) = kind.query();
        let model = column(kind, "model");
        let version = column(kind, "firmware");
        query::each_row(client, tenant, op, context, |row| {
            let key = (kind.word(), cell(model, &row), cell(version, &row));
            *counts.entry(key).or_default() += 1;
            Ok(())
        })
        .await?;
    }
    let mut rows = 0;
    for ((kind, model, version), n) in counts {
        let mut cells = lead.to_vec();
        cells.extend([
            Cell::Text(kind.to_owned()),
            Cell::Text(model),
            Cell::Text(version),
            Cell::Count(n),
        ]);
        sink.row(&cells)?;
        rows += 1;
    }
    Ok(rows)
}

fn column(kind: Device, name: &str) -> &'static Column {
    let columns = kind.columns();
    columns
        .iter()
        .find(|c| c.name == name)
        .unwrap_or(&columns[0])
}
