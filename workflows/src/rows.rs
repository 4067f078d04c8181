//! The input of a batch run: rows of a CSV file (a header line naming a parameter or a body
//! path per column, `address.city`) or objects of a JSON-lines file, each with the line it
//! is on, and the SHA-256 of the file's bytes (the journal's key).

use crate::error::{Error, Problem};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The two layouts of an input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values with a header line; an empty cell sets nothing.
    Csv,
    /// One JSON object a line (blank lines skipped): a whole body, or fields merged into
    /// the one the command gives.
    JsonLines,
}

impl Format {
    /// The layout a file name says: `.jsonl`, `.ndjson` and `.json` are JSON lines, anything
    /// else CSV.
    pub fn of_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl" | "ndjson" | "json") => Format::JsonLines,
            _ => Format::Csv,
        }
    }
}

/// One row's values as the file gives them.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// A CSV row: each column's name and text (empty cells left out).
    Columns(Vec<(String, String)>),
    /// A JSON-lines object.
    Object(Map<String, Value>),
}

/// One row of the input.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The line of the file it starts on (the first line is 1).
    pub line: usize,
    /// Its values.
    pub values: Values,
}

/// A whole input file, read and parsed.
#[derive(Debug, Clone)]
pub struct Input {
    /// The rows, in file order.
    pub rows: Vec<Row>,
    /// The SHA-256 of the file's bytes, in lowercase hex.
    pub sha256: String,
}

impl Input {
    /// Reads the file at `path` in the layout its name says ([`Format::of_path`]).
    pub fn read(path: &Path) -> Result<Input, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Input::parse(&bytes, Format::of_path(path))
    }

    /// Parses `bytes` as `format`. A line that does not parse is an [`Error::Invalid`] naming
    /// it (every such line, not only the first).
    pub fn parse(bytes: &[u8], format: Format) -> Result<Input, Error> {
        let sha256 = Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let rows = match format {
            Format::Csv => csv_rows(bytes)?,
            Format::JsonLines => json_rows(bytes)?,
        };
        Ok(Input { rows, sha256 })
    }
}

fn csv_rows(bytes: &[u8]) -> Result<Vec<Row>, Error> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| Error::Invalid(vec![csv_problem(1, &e)]))?
        .iter()
        .map(str::to_owned)
        .collect();
    let mut problems = Vec::new();
    if let Some(dup) = header
        .iter()
        .enumerate()
        .find(|(i, h)| header[..*i].contains(h))
    {
        problems.push(Problem {
            line: 1,
            message: format!("column `{}` is named twice", dup.1),
        });
    }
    if header.iter().any(String::is_empty) {
        problems.push(Problem {
            line: 1,
            message: "a column has no name".into(),
        });
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        match record {
            Ok(r) => {
                let line = r.position().map_or(0, |p| line_at(bytes, p.byte()));
                let values = header
                    .iter()
                    .zip(r.iter())
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(h, v)| (h.clone(), v.to_owned()))
                    .collect();
                rows.push(Row {
                    line,
                    values: Values::Columns(values),
                });
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| line_at(bytes, p.byte()));
                problems.push(csv_problem(line, &e));
            }
        }
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(Error::Invalid(problems))
    }
}

/// The line of the first non-blank character at or after `byte` (the csv crate's own line
/// count leaves blank lines out).
fn line_at(bytes: &[u8], byte: u64) -> usize {
    let start = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
    let skip = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let at = bytes[start..start + skip]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(start, |i| start + i + 1);
    1 + bytes[..at].iter().filter(|b| **b == b'\n').count()
}

fn csv_problem(line: usize, e: &csv::Error) -> Problem {
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_owned(),
        _ => e.to_string(),
    };
    Problem { line, message }
}

fn json_rows(bytes: &[u8]) -> Result<Vec<Row>, Error> {
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let line_no = i + 1;
        let text = String::from_utf8_lossy(line);
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(m)) => rows.push(Row {
                line: line_no,
                values: Values::Object(m),
            }),
            Ok(other) => problems.push(Problem {
                line: line_no,
                message: format!("a JSON {} where an object is expected", kind(&other)),
            }),
            Err(e) => problems.push(Problem {
                line: line_no,
                message: format!("not JSON: {e}"),
            }),
        }
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(Error::Invalid(problems))
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_carry_their_line_and_leave_empty_cells_out() {
        let input = Input::parse(b"name,address.city\nA,Paris\n\nB,\n", Format::Csv).unwrap();
        assert_eq!(input.rows.len(), 2);
        assert_eq!(input.rows[0].line, 2);
        assert_eq!(input.rows[1].line, 4);
        assert_eq!(
            input.rows[1].values,
            Values::Columns(vec![("name".into(), "B".into())])
        );
        assert_eq!(input.sha256.len(), 64);
    }

    #[test]
    fn a_short_csv_row_and_a_bad_json_line_are_named_by_line() {
        let Err(Error::Invalid(p)) = Input::parse(b"name,city\nA,Paris\nB\n", Format::Csv) else {
            panic!("a short row is refused");
        };
        assert_eq!(p[0].line, 3);
        let Err(Error::Invalid(p)) =
            Input::parse(b"{\"name\":\"A\"}\n[1]\n{oops\n", Format::JsonLines)
        else {
            panic!("bad lines are refused");
        };
        assert_eq!(p.iter().map(|p| p.line).collect::<Vec<_>>(), [2, 3]);
    }
}
