//! `ruckus report inventory|firmware|clients`: the `ruckus-one-workflows` reports of the
//! tenant acted for, of `--tenants`, or of `--all-customers`, written as CSV (also on a
//! terminal), JSON or XLSX, to standard output or `--out FILE`.

use crate::connect;
use crate::exit::{Exit, Failure, class_of};
use crate::opts::{Format, Opts};
use clap::{Arg, ArgMatches, Command};
use ruckus_one_workflows::report::{
    self, CsvSink, Error, JsonSink, Report, Scope, Sink, XlsxSink, XlsxTarget,
};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;

/// The `report` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("report")
        .about("Inventory, firmware or client report of a tenant or of every customer (-o csv|json|xlsx)")
        .arg(
            Arg::new("report")
                .required(true)
                .value_parser(["inventory", "firmware", "clients"])
                .help(
                    "inventory: one row per AP and switch; firmware: counts per model and \
                     version; clients: one row per connected client",
                ),
        )
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("FILE")
                .help("Write to FILE instead of standard output (needed for XLSX on a terminal)"),
        )
}

/// Runs the report `m` names.
pub(super) fn run(
    m: &ArgMatches,
    opts: &Opts,
    rt: &tokio::runtime::Runtime,
) -> Result<(), Failure> {
    let name = m.get_one::<String>("report").map_or("", String::as_str);
    let report =
        Report::parse(name).ok_or_else(|| Failure::usage(format!("no report `{name}`")))?;
    let out = m.get_one::<String>("out").map(PathBuf::from);
    let mut sink = sink(opts.format, report, out)?;
    let scope = match (&opts.tenants, opts.all_customers) {
        (_, true) => Scope::AllCustomers,
        (Some(t), false) => Scope::Tenants(t.clone()),
        (None, false) => Scope::Own,
    };
    let summary = rt.block_on(async {
        let conn = connect::connect(opts).await?;
        report::run(&conn.client, report, &scope, sink.as_mut())
            .await
            .map_err(failure)
    })?;
    if scope != Scope::Own {
        eprintln!(
            "{} rows; {} customers read, {} failed",
            summary.rows,
            summary.tenants,
            summary.failed.len()
        );
    }
    for (tenant, e) in &summary.failed {
        eprintln!("{tenant}: {e}");
    }
    match summary.failed.into_iter().next() {
        Some((tenant, e)) => Err(Failure::new(
            failure(e).exit,
            format!("the report misses customer {tenant} (and any listed above)"),
        )),
        None => Ok(()),
    }
}

/// The writer of `format` to `out` (standard output when `None`).
fn sink(
    format: Format,
    report: Report,
    out: Option<PathBuf>,
) -> Result<Box<dyn Sink + Send>, Failure> {
    let stream = |out: &Option<PathBuf>| -> Result<Box<dyn Write + Send>, Failure> {
        Ok(match out {
            Some(path) => Box::new(BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|e| Failure::usage(format!("--out {}: {e}", path.display())))?,
            )),
            None => Box::new(std::io::stdout()),
        })
    };
    Ok(match format {
        Format::Csv | Format::Table => Box::new(CsvSink::new(stream(&out)?)),
        Format::Json => Box::new(JsonSink::new(stream(&out)?)),
        Format::Xlsx => {
            let target = match out {
                Some(path) => XlsxTarget::File(path),
                None if std::io::stdout().is_terminal() => {
                    return Err(Failure::usage(
                        "-o xlsx on a terminal: give --out FILE (or redirect standard output)",
                    ));
                }
                None => XlsxTarget::Stream(Box::new(std::io::stdout())),
            };
            Box::new(XlsxSink::new(report.name(), target).map_err(failure)?)
        }
        Format::Yaml | Format::Jsonl => {
            return Err(Failure::usage("a report is written as csv, json or xlsx"));
        }
    })
}

fn failure(e: Error) -> Failure {
    let exit = match &e {
        Error::Call { source, .. } => class_of(source),
        Error::Write(_) | Error::Catalog(_) => Exit::Other,
    };
    Failure::new(exit, e.to_string())
}
