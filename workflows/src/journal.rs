//! The journal of a batch run: the desired-state engine's journal (append-only JSON lines,
//! each synced to disk before the run goes on) with a header line naming the operation, the
//! SHA-256 of the input file and of the command's own arguments. A resume with another
//! operation, file or arguments is refused, so the rows a journal calls done are the rows of
//! this input.
//!
//! One entry per change of a row's state, keyed `row <line>`: `started` before the call is
//! sent, `accepted` with the activity's request id, `done` with the created id, `failed`
//! with the error.

use crate::error::Error;
use ruckus_one_state::{Entry, Journal as Lines, StepState};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::Path;

/// What a journal was written for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key {
    /// The API and operation id (`network create_venue`).
    pub operation: String,
    /// The SHA-256 of the input file.
    pub input: String,
    /// The SHA-256 of the arguments every row starts from (path templates, query, body).
    pub arguments: String,
}

impl Key {
    fn header(&self) -> Value {
        json!({ "batch": self })
    }
}

/// A batch run's journal.
#[derive(Debug, Default)]
pub struct Journal {
    lines: Lines,
    /// Entries appended so far.
    appended: u64,
}

/// The journal's step name of the row on `line`.
pub fn step(line: usize) -> String {
    format!("row {line}")
}

impl Journal {
    /// A journal in memory only (a run that cannot be resumed).
    pub fn none() -> Journal {
        Journal::default()
    }

    /// A new journal at `path` for `key`. A file that is already there and not empty is
    /// refused (resume it, or remove it).
    pub fn create(path: &Path, key: &Key) -> Result<Journal, Error> {
        match std::fs::metadata(path) {
            Ok(m) if m.len() > 0 => {
                return Err(Error::Journal(format!(
                    "{} is there already: resume from it, or remove it",
                    path.display()
                )));
            }
            _ => {}
        }
        Ok(Journal {
            lines: Lines::create_with_header(path, &key.header())?,
            appended: 0,
        })
    }

    /// The journal at `path`, to resume the run `key` names (an absent file: a new journal).
    /// A journal of another operation, input file or arguments is refused.
    pub fn resume(path: &Path, key: &Key) -> Result<Journal, Error> {
        if !path.exists() {
            return Journal::create(path, key);
        }
        let header = Lines::header(path)?;
        let theirs = header
            .as_ref()
            .and_then(|h| h.get("batch"))
            .and_then(|b| serde_json::from_value::<Key>(b.clone()).ok());
        match theirs {
            Some(k) if k == *key => Ok(Journal {
                lines: Lines::resume(path)?,
                appended: 0,
            }),
            Some(k) => Err(Error::Journal(format!(
                "{} was written for {}",
                path.display(),
                mismatch(&k, key)
            ))),
            None => Err(Error::Journal(format!(
                "{} is not the journal of a batch run",
                path.display()
            ))),
        }
    }

    /// The last entry of the row on `line`.
    pub fn get(&self, line: usize) -> Option<&Entry> {
        self.lines.get(&step(line))
    }

    /// Whether the row on `line` is done.
    pub fn is_done(&self, line: usize) -> bool {
        self.get(line).is_some_and(|e| e.state == StepState::Done)
    }

    /// Records `entry`, synced to disk before it returns.
    pub fn record(&mut self, entry: Entry) -> Result<(), Error> {
        self.appended += 1;
        Ok(self.lines.record(entry)?)
    }

    /// Appends `entry` unsynced; returns how many entries were appended so far (sync at
    /// least that far through [`Journal::sync_handle`] before relying on it).
    pub fn append(&mut self, entry: Entry) -> Result<u64, Error> {
        self.lines.append(entry)?;
        self.appended += 1;
        Ok(self.appended)
    }

    /// How many entries were appended so far.
    pub fn appended(&self) -> u64 {
        self.appended
    }

    /// A handle that syncs the journal's file from any thread (`None` in memory).
    pub fn sync_handle(&self) -> Result<Option<std::fs::File>, Error> {
        Ok(self.lines.sync_handle()?)
    }
}

fn mismatch(theirs: &Key, ours: &Key) -> String {
    if theirs.operation != ours.operation {
        format!(
            "operation {}, not {}: use another journal",
            theirs.operation, ours.operation
        )
    } else if theirs.input != ours.input {
        "another input file (its SHA-256 differs): use another journal".to_owned()
    } else {
        "other arguments (path, query or body flags differ): use another journal".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(input: &str) -> Key {
        Key {
            operation: "network create_venue".into(),
            input: input.into(),
            arguments: "a".into(),
        }
    }

    #[test]
    fn a_resume_keeps_the_rows_done_and_refuses_another_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let mut j = Journal::create(&path, &key("1")).unwrap();
        j.record(Entry {
            id: Some("v-1".into()),
            ..Entry::new(step(2), StepState::Done)
        })
        .unwrap();
        j.record(Entry::new(step(3), StepState::Started)).unwrap();
        let j = Journal::resume(&path, &key("1")).unwrap();
        assert!(j.is_done(2));
        assert!(!j.is_done(3));
        assert_eq!(j.get(3).map(|e| e.state), Some(StepState::Started));
        let e = Journal::resume(&path, &key("2")).unwrap_err().to_string();
        assert!(e.contains("another input file"), "{e}");
        let e = Journal::create(&path, &key("1")).unwrap_err().to_string();
        assert!(e.contains("is there already"), "{e}");
    }
}
