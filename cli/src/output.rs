//! Writing answers: rows (of a paged or list answer) as a table, JSON, JSON lines, YAML or CSV,
//! each row written as it arrives; a single object as JSON, YAML or a two-column table.

use crate::opts::Format;
use crate::table::Table;
use serde_json::Value;
use std::io::Write;

/// Rows being written in one format.
pub(crate) struct Rows {
    format: Format,
    columns: Vec<String>,
    /// Columns are chosen from the first row when none were given.
    choose: bool,
    /// Rows of several tenants: `tenant` first and `error` last around chosen columns.
    framed: bool,
    /// Rows of several tenants held until the end, when columns are chosen for a table or CSV:
    /// the columns are then those of every row (a failed tenant's row has only `error`).
    held: Option<Vec<Value>>,
    count: usize,
    /// `--jq`: each row goes through the filter instead of the format.
    jq: Option<std::rc::Rc<crate::jq::Jq>>,
    table: Option<Table>,
    csv: Option<csv::Writer<crate::out::Out>>,
}

impl Rows {
    pub(crate) fn new(format: Format, columns: Vec<String>) -> Rows {
        let choose = columns.is_empty();
        Rows {
            format,
            columns,
            choose,
            framed: false,
            held: None,
            count: 0,
            jq: None,
            table: None,
            csv: None,
        }
    }

    /// Rows go through `jq` instead of the format.
    pub(crate) fn with_jq(mut self, jq: Option<std::rc::Rc<crate::jq::Jq>>) -> Rows {
        if jq.is_some() {
            self.held = None;
        }
        self.jq = jq;
        self
    }

    /// Rows of several tenants (see `framed`).
    pub(crate) fn framed(mut self) -> Rows {
        self.framed = true;
        if self.choose && self.jq.is_none() && matches!(self.format, Format::Table | Format::Csv) {
            self.held = Some(Vec::new());
        }
        self
    }

    /// The held rows written under the columns of them all.
    fn release(&mut self) -> std::io::Result<()> {
        let Some(held) = self.held.take() else {
            return Ok(());
        };
        let mut columns = vec!["tenant".to_owned()];
        for row in &held {
            for c in default_columns(row) {
                if c != "tenant" && c != "error" && !columns.contains(&c) {
                    columns.push(c);
                }
            }
        }
        columns.push("error".to_owned());
        self.columns = columns;
        self.choose = false;
        for row in &held {
            self.row(row)?;
        }
        Ok(())
    }

    /// Writes one row.
    pub(crate) fn row(&mut self, row: &Value) -> std::io::Result<()> {
        if let Some(held) = &mut self.held {
            held.push(row.clone());
            return Ok(());
        }
        if let Some(jq) = &self.jq {
            self.count += 1;
            return jq.print(row).map_err(|f| std::io::Error::other(f.message));
        }
        if self.count == 0 && self.choose {
            self.columns = default_columns(row);
            if self.framed {
                self.columns.retain(|c| c != "tenant" && c != "error");
                self.columns.insert(0, "tenant".to_owned());
                self.columns.push("error".to_owned());
            }
        }
        let first = self.count == 0;
        self.count += 1;
        let mut out = crate::out::stdout();
        match self.format {
            // xlsx is refused before any command but `report` runs.
            Format::Json | Format::Xlsx => {
                let sep = if first { "[\n  " } else { ",\n  " };
                write!(out, "{sep}{row}")?;
            }
            Format::Jsonl => writeln!(out, "{row}")?,
            Format::Yaml => {
                let text = serde_yaml::to_string(&vec![row]).map_err(std::io::Error::other)?;
                out.write_all(text.as_bytes())?;
            }
            Format::Csv => {
                let w = self
                    .csv
                    .get_or_insert_with(|| csv::Writer::from_writer(crate::out::stdout()));
                if first {
                    w.write_record(&self.columns)
                        .map_err(std::io::Error::other)?;
                }
                let cells: Vec<String> = self.columns.iter().map(|c| cell(row, c)).collect();
                w.write_record(&cells).map_err(std::io::Error::other)?;
                w.flush()?;
                return Ok(());
            }
            Format::Table => {
                let columns = self.columns.clone();
                let t = self.table.get_or_insert_with(|| Table::new(columns));
                let cells: Vec<String> = t.columns().iter().map(|c| cell(row, c)).collect();
                return t.row(cells);
            }
        }
        out.flush()
    }

    /// Ends the output (closes the JSON array, flushes a table that is still measuring).
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        self.release()?;
        if self.jq.is_some() {
            return Ok(());
        }
        let mut out = crate::out::stdout();
        match self.format {
            Format::Json if self.count == 0 => writeln!(out, "[]")?,
            Format::Json => writeln!(out, "\n]")?,
            Format::Yaml if self.count == 0 => writeln!(out, "[]")?,
            Format::Table => {
                match self.table.take() {
                    Some(t) => t.finish()?,
                    None => eprintln!("(no rows)"),
                }
                return Ok(());
            }
            _ => {}
        }
        out.flush()
    }
}

/// A single answer (not rows).
pub(crate) fn value(format: Format, v: &Value) -> std::io::Result<()> {
    let mut out = crate::out::stdout();
    match format {
        Format::Json | Format::Xlsx => writeln!(out, "{}", serde_json::to_string_pretty(v)?),
        Format::Jsonl => writeln!(out, "{v}"),
        Format::Yaml => out.write_all(
            serde_yaml::to_string(v)
                .map_err(std::io::Error::other)?
                .as_bytes(),
        ),
        Format::Csv | Format::Table => {
            let mut t = Table::new(vec!["field".to_owned(), "value".to_owned()]);
            match v {
                Value::Object(map) => {
                    for (k, v) in map {
                        t.row(vec![k.clone(), scalar_text(v)])?;
                    }
                }
                other => t.row(vec![String::new(), scalar_text(other)])?,
            }
            t.finish()
        }
    }
}

/// The text of the field at `column` (dotted for nested fields) of `row`.
pub(crate) fn cell(row: &Value, column: &str) -> String {
    crate::input::lookup(row, column).map_or(String::new(), scalar_text)
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Columns for rows whose operation names none: name-like scalar fields, then ids, then other
/// scalars, at most six (the generator's rule for the catalog, applied to an answer).
pub(crate) fn default_columns(row: &Value) -> Vec<String> {
    let Some(map) = row.as_object() else {
        return vec!["value".to_owned()];
    };
    let scalars: Vec<&String> = map
        .iter()
        .filter(|(_, v)| !v.is_object() && !v.is_array())
        .map(|(k, _)| k)
        .collect();
    let is_name = |k: &&&String| k.as_str() == "name" || k.ends_with("Name");
    let is_id = |k: &&&String| k.as_str() == "id" || k.ends_with("Id");
    let names = scalars.iter().filter(is_name);
    let ids = scalars.iter().filter(|k| is_id(k) && !is_name(k));
    let rest = scalars.iter().filter(|k| !is_id(k) && !is_name(k));
    names
        .chain(ids)
        .chain(rest)
        .take(6)
        .map(|k| (*k).clone())
        .collect()
}
