//! Printing an audit: Markdown (summary, disagreements by area, unlisted, missing), the summary
//! alone, or TSV (one finding a line).

use super::compare::{Audit, Finding, FindingKind};
use std::fmt::Write;

/// The TSV header.
pub const TSV_HEADER: &str = "area\tid\tmethod\tpath\tkind\tspec\tdescription\tsource";

/// One line per finding: disagreements and unlisted operations by area, then missing ones.
pub fn tsv(audit: &Audit) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = format!("{TSV_HEADER}\n");
    let findings = audit.areas.iter().flat_map(|a| &a.findings);
    for f in findings.chain(&audit.missing) {
        let cells = [
            &f.area,
            &f.id,
            &f.method,
            &f.path,
            f.kind.as_str(),
            &f.spec,
            &f.description,
            &f.source,
        ];
        let cells: Vec<String> = cells.iter().map(|c| clean(c)).collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    }
    out
}

/// The summary table (one row per area, then totals) and what was skipped.
/// Typed bodies per area where the description declares a schema, with the raw ones named.
fn coverage(audit: &Audit) -> String {
    let mut out = String::from(
        "\nTyped bodies where the description declares a schema:\n\n\
         | area | requests typed | responses typed |\n|---|---:|---:|\n",
    );
    let (mut rq, mut rqd, mut rs, mut rsd) = (0, 0, 0, 0);
    let mut raw = Vec::new();
    for area in &audit.areas {
        let c = &area.coverage;
        writeln!(
            out,
            "| {} | {}/{} | {}/{} |",
            area.name, c.request_typed, c.request_declared, c.response_typed, c.response_declared
        )
        .unwrap();
        rq += c.request_typed;
        rqd += c.request_declared;
        rs += c.response_typed;
        rsd += c.response_declared;
        raw.extend(c.raw.iter().cloned());
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    writeln!(
        out,
        "| **total** | {rq}/{rqd} ({:.1} %) | {rs}/{rsd} ({:.1} %) |",
        pct(rq, rqd),
        pct(rs, rsd)
    )
    .unwrap();
    if !raw.is_empty() {
        writeln!(
            out,
            "\nRaw where a schema is declared ({}): {}",
            raw.len(),
            raw.join(", ")
        )
        .unwrap();
    }
    out
}

pub fn summary(audit: &Audit) -> String {
    let mut out = String::from("| area | spec ops | matched | unlisted |");
    for kind in FindingKind::DISAGREEMENTS {
        write!(out, " {} |", kind.as_str()).unwrap();
    }
    out.push_str(" info |\n|---|");
    out.push_str(&"---:|".repeat(FindingKind::DISAGREEMENTS.len() + 4));
    out.push('\n');
    let mut totals = vec![0; FindingKind::DISAGREEMENTS.len() + 4];
    for area in &audit.areas {
        let mut row = vec![area.ops, area.matched, area.count(FindingKind::Unlisted)];
        row.extend(FindingKind::DISAGREEMENTS.iter().map(|k| area.count(*k)));
        row.push(area.infos());
        for (t, n) in totals.iter_mut().zip(&row) {
            *t += n;
        }
        out.push_str(&table_row(&area.name, &row));
    }
    out.push_str(&table_row("**total**", &totals));
    out.push('\n');
    let disagreements: usize = totals[3..3 + FindingKind::DISAGREEMENTS.len()].iter().sum();
    writeln!(
        out,
        "Totals: {} spec operations, {} matched, {} unlisted, {disagreements} disagreements, {} info; \
         {} description operations in {} files, {} missing from the spec.",
        totals[0],
        totals[1],
        totals[2],
        totals[totals.len() - 1],
        audit.desc_ops,
        audit.files,
        audit.missing.len()
    )
    .unwrap();
    let pct = match audit.routes {
        0 => 100.0,
        n => 100.0 * audit.routes_covered as f64 / n as f64,
    };
    writeln!(
        out,
        "Routes: {} of the {} routes the descriptions do not mark deprecated are spec operations ({pct:.1} %).",
        audit.routes_covered, audit.routes
    )
    .unwrap();
    out.push_str(&coverage(audit));
    for (api, ops) in &audit.skipped {
        writeln!(
            out,
            "\nSkipped: `{api}` ({ops} spec operation(s)): no description lists any of its operations."
        )
        .unwrap();
    }
    out
}

fn table_row(name: &str, cells: &[usize]) -> String {
    let cells: Vec<String> = cells.iter().map(usize::to_string).collect();
    format!("| {name} | {} |\n", cells.join(" | "))
}

/// A Markdown table cell: pipes escaped, code spans for media types and paths.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The whole Markdown report.
pub fn markdown(audit: &Audit, dir: &str) -> String {
    let mut out = format!(
        "# Spec audit against the vendor's OpenAPI descriptions\n\nDescriptions: `{dir}`. \
         Operations are matched by method and path (parameter names ignored). Findings are facts \
         to review, not errors: the descriptions are incomplete and have known oddities (see \
         their README).\n\n## Summary\n\n"
    );
    out.push_str(&summary(audit));
    out.push_str("\n## Disagreements\n");
    for area in &audit.areas {
        let rows: Vec<&Finding> = area
            .findings
            .iter()
            .filter(|f| f.kind != FindingKind::Unlisted)
            .collect();
        if rows.is_empty() {
            continue;
        }
        write!(
            out,
            "\n### {}\n\n| id | operation | kind | spec | description | source |\n|---|---|---|---|---|---|\n",
            area.name
        )
        .unwrap();
        for f in rows {
            writeln!(
                out,
                "| {} | `{} {}` | {} | {} | {} | {} |",
                f.id,
                f.method,
                cell(&f.path),
                f.kind.as_str(),
                cell(&f.spec),
                cell(&f.description),
                cell(&f.source)
            )
            .unwrap();
        }
    }
    out.push_str(&unlisted(audit));
    out.push_str(&missing(audit));
    out
}

fn unlisted(audit: &Audit) -> String {
    let mut out = String::from(
        "\n## Unlisted spec operations\n\nNo description lists these (expected for some: the \
         descriptions are incomplete).\n",
    );
    for area in &audit.areas {
        let rows: Vec<&Finding> = area
            .findings
            .iter()
            .filter(|f| f.kind == FindingKind::Unlisted)
            .collect();
        if rows.is_empty() {
            continue;
        }
        write!(out, "\n### {} ({})\n\n", area.name, rows.len()).unwrap();
        for f in rows {
            writeln!(out, "- {} `{} {}`", f.id, f.method, f.path).unwrap();
        }
    }
    out
}

fn missing(audit: &Audit) -> String {
    let mut out = String::from("\n## Description operations missing from the spec\n");
    let mut file = "";
    for f in &audit.missing {
        let this = f.source.split(' ').next().unwrap_or_default();
        if this != file {
            file = this;
            let n = audit
                .missing
                .iter()
                .filter(|m| m.source.split(' ').next() == Some(this))
                .count();
            write!(out, "\n### {file} ({n})\n\n").unwrap();
        }
        writeln!(out, "- `{} {}` {}", f.method, f.path, f.description).unwrap();
    }
    if audit.missing.is_empty() {
        out.push_str("\nNone.\n");
    }
    out
}
