//! Where a report's rows go: CSV and JSON written to any `Write` row by row (nothing kept),
//! XLSX through `rust_xlsxwriter` in its constant-memory mode (each row goes to a temporary
//! file as it is written; the workbook is put together at the end).

use super::Error;
use rust_xlsxwriter::{Workbook, Worksheet};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// One cell of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// Text (empty when the service gave no value).
    Text(String),
    /// A count (the firmware report's).
    Count(u64),
}

/// The formats a report is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values with a heading line.
    Csv,
    /// A JSON array of objects keyed by column, one row a line.
    Json,
    /// An Excel workbook of one sheet.
    Xlsx,
}

/// What receives a report: its headings once, then its rows, then the end.
pub trait Sink {
    /// The column headings, before any row.
    fn header(&mut self, columns: &[&str]) -> Result<(), Error>;
    /// One row, as many cells as headings.
    fn row(&mut self, cells: &[Cell]) -> Result<(), Error>;
    /// The end of the report: what is buffered is written.
    fn finish(&mut self) -> Result<(), Error>;
}

/// CSV to `out`, flushed after each row (the first row shows as soon as it is read).
pub struct CsvSink<W: Write> {
    out: csv::Writer<W>,
}

impl<W: Write> CsvSink<W> {
    /// A CSV writer to `out`.
    pub fn new(out: W) -> CsvSink<W> {
        CsvSink {
            out: csv::Writer::from_writer(out),
        }
    }
}

impl<W: Write> Sink for CsvSink<W> {
    fn header(&mut self, columns: &[&str]) -> Result<(), Error> {
        self.out.write_record(columns).map_err(Error::write)
    }

    fn row(&mut self, cells: &[Cell]) -> Result<(), Error> {
        let texts = cells.iter().map(|c| match c {
            Cell::Text(t) => t.clone(),
            Cell::Count(n) => n.to_string(),
        });
        self.out.write_record(texts).map_err(Error::write)?;
        self.out.flush().map_err(Error::write)
    }

    fn finish(&mut self) -> Result<(), Error> {
        self.out.flush().map_err(Error::write)
    }
}

/// A JSON array to `out`, one object a line, written as the rows come.
pub struct JsonSink<W: Write> {
    out: W,
    columns: Vec<String>,
    rows: u64,
}

impl<W: Write> JsonSink<W> {
    /// A JSON writer to `out`.
    pub fn new(out: W) -> JsonSink<W> {
        JsonSink {
            out,
            columns: Vec::new(),
            rows: 0,
        }
    }
}

impl<W: Write> Sink for JsonSink<W> {
    fn header(&mut self, columns: &[&str]) -> Result<(), Error> {
        self.columns = columns.iter().map(|c| (*c).to_owned()).collect();
        Ok(())
    }

    fn row(&mut self, cells: &[Cell]) -> Result<(), Error> {
        // Written field by field, so that the keys keep the columns' order.
        let mut line = String::from("{");
        for (i, (name, cell)) in self.columns.iter().zip(cells).enumerate() {
            let value = match cell {
                Cell::Text(t) => Value::String(t.clone()),
                Cell::Count(n) => Value::from(*n),
            };
            if i > 0 {
                line.push(',');
            }
            line.push_str(&Value::String(name.clone()).to_string());
            line.push(':');
            line.push_str(&value.to_string());
        }
        line.push('}');
        let lead = if self.rows == 0 { "[\n  " } else { ",\n  " };
        self.rows += 1;
        write!(self.out, "{lead}{line}")
            .and_then(|()| self.out.flush())
            .map_err(Error::write)
    }

    fn finish(&mut self) -> Result<(), Error> {
        let end = if self.rows == 0 { "[]\n" } else { "\n]\n" };
        self.out
            .write_all(end.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(Error::write)
    }
}

/// Where a workbook goes once it is complete.
pub enum XlsxTarget {
    /// A file, written by the XLSX writer itself.
    File(PathBuf),
    /// A stream (standard output that is not a terminal): the workbook is put together in
    /// memory at the end and written there.
    Stream(Box<dyn Write + Send>),
}

/// An XLSX workbook of one sheet, rows streamed to a temporary file until [`Sink::finish`].
pub struct XlsxSink {
    book: Workbook,
    target: Option<XlsxTarget>,
    row: u32,
}

impl XlsxSink {
    /// A workbook with one sheet named `sheet`, written to `target` at the end.
    pub fn new(sheet: &str, target: XlsxTarget) -> Result<XlsxSink, Error> {
        let mut book = Workbook::new();
        book.add_worksheet_with_constant_memory()
            .set_name(sheet)
            .map_err(Error::write)?;
        Ok(XlsxSink {
            book,
            target: Some(target),
            row: 0,
        })
    }

    fn sheet(&mut self) -> Result<&mut Worksheet, Error> {
        self.book.worksheet_from_index(0).map_err(Error::write)
    }
}

impl Sink for XlsxSink {
    fn header(&mut self, columns: &[&str]) -> Result<(), Error> {
        let sheet = self.sheet()?;
        for (i, c) in (0u16..).zip(columns) {
            sheet.write_string(0, i, *c).map_err(Error::write)?;
        }
        self.row = 1;
        Ok(())
    }

    fn row(&mut self, cells: &[Cell]) -> Result<(), Error> {
        let row = self.row;
        let sheet = self.sheet()?;
        for (i, cell) in (0u16..).zip(cells) {
            match cell {
                Cell::Text(t) => sheet.write_string(row, i, t),
                Cell::Count(n) => sheet.write_number(row, i, *n as f64),
            }
            .map_err(Error::write)?;
        }
        self.row = row
            .checked_add(1)
            .ok_or_else(|| Error::Write("more rows than a sheet holds".to_owned()))?;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), Error> {
        match self.target.take() {
            Some(XlsxTarget::File(path)) => self.book.save(&path).map_err(Error::write),
            Some(XlsxTarget::Stream(mut out)) => {
                let bytes = self.book.save_to_buffer().map_err(Error::write)?;
                out.write_all(&bytes)
                    .and_then(|()| out.flush())
                    .map_err(Error::write)
            }
            None => Ok(()),
        }
    }
}
