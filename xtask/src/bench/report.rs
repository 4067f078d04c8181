//! `cargo xtask bench report`: `ruckus report inventory` over 1,000 and 10,000 APs seeded into
//! a simulator process (no rate limits, so that the figures are the command's own): time to
//! the first row and peak memory (VmHWM, polled) as CSV, whose rows stream, and the peak
//! memory of the same report as XLSX (rows go to a temporary file, the workbook is put
//! together at the end). Flat memory: the 10,000-AP peak close to the 1,000-AP one. Built in
//! release mode (dev profile with `--quick`, which also lists 100 and 1,000 APs).

use super::cli::{Lister, build, list_aps, ms, target_dir};
use super::table::Row;
use crate::cli::BenchArgs;
use ruckus_bench_stats::Spread;
use std::path::Path;

const CSV: Lister = Lister {
    args: &["report", "inventory", "-o", "csv"],
    headings: 1,
    lines: true,
};

const XLSX: Lister = Lister {
    args: &["report", "inventory", "-o", "xlsx"],
    headings: 0,
    lines: false,
};

pub fn run(root: &Path, options: &BenchArgs, rows: &mut Vec<Row>) -> Result<(), String> {
    let release = !options.quick;
    build(root, release)?;
    let dir = target_dir(root).join(if release { "release" } else { "debug" });
    let (ruckus, sim) = (dir.join("ruckus"), dir.join("ruckus-one-sim"));
    let counts: [usize; 2] = if options.quick {
        [100, 1_000]
    } else {
        [1_000, 10_000]
    };
    for count in counts {
        let csv = list_aps(root, &sim, &ruckus, count, &CSV)?;
        let label = format!("`report inventory` of {count} APs");
        rows.push(Row::new(
            "report",
            format!("{label}, CSV: time to first row"),
            Spread::single(ms(csv.first_row)),
            "ms",
            String::new(),
        ));
        rows.push(Row::new(
            "report",
            format!("{label}, CSV: whole report"),
            Spread::single(ms(csv.total)),
            "ms",
            String::new(),
        ));
        rows.push(Row::new(
            "report",
            format!("{label}, CSV: peak memory (VmHWM)"),
            Spread::single(csv.peak_kib as f64 / 1024.0),
            "MiB",
            String::new(),
        ));
        let xlsx = list_aps(root, &sim, &ruckus, count, &XLSX)?;
        rows.push(Row::new(
            "report",
            format!("{label}, XLSX: peak memory (VmHWM)"),
            Spread::single(xlsx.peak_kib as f64 / 1024.0),
            "MiB",
            String::new(),
        ));
    }
    Ok(())
}
