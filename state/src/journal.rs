//! The apply journal: an append-only file of JSON lines, one per change of a step's state
//! (`started`, `accepted` with the activity's request id, `done` with the created id), each
//! written and synced to disk before the engine goes on. A resumed apply skips the steps
//! that are done and, for a create that was started, waits for its activity and looks the
//! object up by its identity before sending it again.
//!
//! A journal may start with a header line (a JSON object that is not an entry) naming what it
//! was written for; [`Journal::create_with_header`] writes it and [`Journal::header`] reads it
//! back, so that a resume can refuse a journal of other work (a batch run keys it by its
//! operation and input file).

use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// The state of a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepState {
    /// About to be sent (it may have been).
    Started,
    /// Sent and accepted; its activity may still run.
    Accepted,
    /// Finished.
    Done,
    /// Ended with an error (a batch row the service refused); tried again on a resume.
    Failed,
}

/// One line of the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The step's key ([`Step::key`](crate::Step::key)).
    pub step: String,
    /// How far the step got.
    pub state: StepState,
    /// The created object's id (`done` of a create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The activity's request id (`accepted`).
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "requestId")]
    pub request_id: Option<String>,
    /// Why the step failed (`failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Entry {
    /// An entry of `step` in `state`, with no id, request id or error.
    pub fn new(step: impl Into<String>, state: StepState) -> Entry {
        Entry {
            step: step.into(),
            state,
            id: None,
            request_id: None,
            error: None,
        }
    }
}

/// A journal: in memory only, or kept in a file.
#[derive(Debug, Default)]
pub struct Journal {
    path: Option<PathBuf>,
    file: Option<File>,
    last: HashMap<String, Entry>,
}

impl Journal {
    /// A journal kept in memory only (nothing to resume from).
    pub fn none() -> Journal {
        Journal::default()
    }

    /// A new journal at `path` (an existing file is replaced).
    pub fn create(path: &Path) -> Result<Journal, Error> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        Ok(Journal {
            path: Some(path.to_owned()),
            file: Some(file),
            last: HashMap::new(),
        })
    }

    /// A new journal at `path` (an existing file is replaced) whose first line is `header`,
    /// synced to disk before it returns.
    pub fn create_with_header(path: &Path, header: &serde_json::Value) -> Result<Journal, Error> {
        let mut journal = Journal::create(path)?;
        if let (Some(file), Some(path)) = (&mut journal.file, &journal.path) {
            let mut line = header.to_string();
            line.push('\n');
            file.write_all(line.as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(|e| Error::io(path, e))?;
        }
        Ok(journal)
    }

    /// The header line of the journal at `path` (see [`Journal::create_with_header`]): its
    /// first line when that is a JSON object and not an entry; `None` for an absent or empty
    /// file or a journal without one.
    pub fn header(path: &Path) -> Result<Option<serde_json::Value>, Error> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(path, e)),
        };
        let mut first = String::new();
        BufReader::new(file)
            .read_line(&mut first)
            .map_err(|e| Error::io(path, e))?;
        if serde_json::from_str::<Entry>(&first).is_ok() {
            return Ok(None);
        }
        Ok(serde_json::from_str::<serde_json::Value>(&first)
            .ok()
            .filter(serde_json::Value::is_object))
    }

    /// The journal at `path`, read for a resume (an absent file is an empty journal); new
    /// entries are appended to it. A last line cut short by a kill is ignored.
    pub fn resume(path: &Path) -> Result<Journal, Error> {
        let mut last = HashMap::new();
        match File::open(path) {
            Ok(f) => {
                for line in BufReader::new(f).lines() {
                    let line = line.map_err(|e| Error::io(path, e))?;
                    if let Ok(entry) = serde_json::from_str::<Entry>(&line) {
                        last.insert(entry.step.clone(), entry);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        // A line cut short by a kill is ended, so that the next entry starts a line of its own.
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        if bytes.last().is_some_and(|b| *b != b'\n') {
            file.write_all(b"\n")
                .and_then(|()| file.sync_data())
                .map_err(|e| Error::io(path, e))?;
        }
        Ok(Journal {
            path: Some(path.to_owned()),
            file: Some(file),
            last,
        })
    }

    /// The last entry of `step`.
    pub fn get(&self, step: &str) -> Option<&Entry> {
        self.last.get(step)
    }

    /// Records `entry`: appended and synced to disk before it returns.
    pub fn record(&mut self, entry: Entry) -> Result<(), Error> {
        self.append(entry)?;
        if let (Some(file), Some(path)) = (&self.file, &self.path) {
            file.sync_data().map_err(|e| Error::io(path, e))?;
        }
        Ok(())
    }

    /// Appends `entry` without syncing it: it is durable once the file is synced (by a later
    /// [`Journal::record`], or through [`Journal::sync_handle`]). Many entries synced at once
    /// cost one sync (a batch run's rows running together).
    pub fn append(&mut self, entry: Entry) -> Result<(), Error> {
        if let (Some(file), Some(path)) = (&mut self.file, &self.path) {
            let mut line =
                serde_json::to_string(&entry).map_err(|e| Error::Journal(e.to_string()))?;
            line.push('\n');
            file.write_all(line.as_bytes())
                .map_err(|e| Error::io(path, e))?;
        }
        self.last.insert(entry.step.clone(), entry);
        Ok(())
    }

    /// A handle on the journal's file that syncs what was appended, from any thread (`None`
    /// for a journal in memory).
    pub fn sync_handle(&self) -> Result<Option<File>, Error> {
        match (&self.file, &self.path) {
            (Some(file), Some(path)) => file.try_clone().map(Some).map_err(|e| Error::io(path, e)),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_cut_short_is_skipped_and_the_next_entry_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        std::fs::write(
            &path,
            "{\"step\":\"create venue A\",\"state\":\"done\",\"id\":\"1\"}\n{\"step\":\"cre",
        )
        .unwrap();
        let mut j = Journal::resume(&path).unwrap();
        assert_eq!(
            j.get("create venue A").map(|e| e.state),
            Some(StepState::Done)
        );
        j.record(Entry::new("create venue B", StepState::Started))
            .unwrap();
        let j = Journal::resume(&path).unwrap();
        assert_eq!(
            j.get("create venue B").map(|e| e.state),
            Some(StepState::Started)
        );
        assert_eq!(
            j.get("create venue A").and_then(|e| e.id.as_deref()),
            Some("1")
        );
    }

    #[test]
    fn a_header_is_read_back_and_is_not_an_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let header = serde_json::json!({"batch": {"operation": "network create_venue"}});
        let mut j = Journal::create_with_header(&path, &header).unwrap();
        j.record(Entry::new("row 2", StepState::Failed)).unwrap();
        assert_eq!(Journal::header(&path).unwrap(), Some(header));
        let j = Journal::resume(&path).unwrap();
        assert_eq!(j.get("row 2").map(|e| e.state), Some(StepState::Failed));
        let plain = dir.path().join("plain");
        Journal::create(&plain)
            .unwrap()
            .record(Entry::new("row 2", StepState::Done))
            .unwrap();
        assert_eq!(Journal::header(&plain).unwrap(), None);
        assert_eq!(Journal::header(&dir.path().join("absent")).unwrap(), None);
    }
}
