//! Running a swap's steps, each recorded in the journal: `started` before it is sent,
//! `accepted` with the activity's request id, `done` once the activity finished. A resumed
//! swap skips what is done, waits for what was accepted and, for an add that was started but
//! not recorded, looks the new AP up before sending it again (the service takes no
//! idempotency key). The other steps write a whole setting or remove an AP: sending one again
//! changes nothing.

use super::Error;
use super::calls::Connection;
use super::steps::{Step, StepKind};
use ruckus_one_state::{Entry, Journal, StepState};
use serde::Serialize;

/// What became of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Sent now, and its activity finished.
    Done,
    /// Done by an earlier run (the journal says so).
    AlreadyDone,
    /// An add an earlier run sent without recording it: the new AP was there.
    Found,
    /// The removal was not confirmed: the old AP stays.
    Declined,
}

/// One step and its outcome.
#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    /// The step's journal key.
    pub step: String,
    /// What became of it.
    pub outcome: Outcome,
}

/// Runs `steps` in order, recording each in `journal`. Before the removal of the old AP,
/// `confirm` is asked; `false` ends the run there (the new AP is ready, the old one stays).
/// The first failing step ends the run with its error; the journal resumes after the steps
/// that were done.
pub async fn run(
    conn: &Connection<'_>,
    steps: &[Step],
    journal: &mut Journal,
    confirm: &mut (dyn FnMut(&Step) -> bool + Send),
) -> Result<Vec<StepReport>, Error> {
    let mut reports = Vec::new();
    for step in steps {
        let outcome = one(conn, step, journal, confirm).await?;
        reports.push(StepReport {
            step: step.key.clone(),
            outcome,
        });
        if outcome == Outcome::Declined {
            break;
        }
    }
    Ok(reports)
}

async fn one(
    conn: &Connection<'_>,
    step: &Step,
    journal: &mut Journal,
    confirm: &mut (dyn FnMut(&Step) -> bool + Send),
) -> Result<Outcome, Error> {
    let last = journal.get(&step.key).cloned();
    match last.as_ref().map(|e| (e.state, e.request_id.as_deref())) {
        Some((StepState::Done, _)) => return Ok(Outcome::AlreadyDone),
        Some((StepState::Accepted, Some(request_id))) => {
            conn.wait(request_id, &step.key).await?;
            record(journal, step, StepState::Done, None)?;
            return Ok(Outcome::AlreadyDone);
        }
        Some((StepState::Started, _)) if step.kind == StepKind::Add => {
            let (venue, new) = (&step.path[0], serial_of(step));
            if conn.read("get_venue_ap", &[venue, new]).await?.is_some() {
                record(journal, step, StepState::Done, None)?;
                return Ok(Outcome::Found);
            }
        }
        _ => {}
    }
    if step.kind == StepKind::Remove && !confirm(step) {
        return Ok(Outcome::Declined);
    }
    record(journal, step, StepState::Started, None)?;
    let path: Vec<&str> = step.path.iter().map(String::as_str).collect();
    let sent = conn
        .write(&step.operation, &path, step.body.as_ref(), &step.key)
        .await?;
    if let Some(request_id) = sent {
        record(journal, step, StepState::Accepted, Some(request_id.clone()))?;
        conn.wait(&request_id, &step.key).await?;
    }
    record(journal, step, StepState::Done, None)?;
    Ok(Outcome::Done)
}

/// The new AP's serial of an add step (its body's `serialNumber`).
fn serial_of(step: &Step) -> &str {
    step.body
        .as_ref()
        .and_then(|b| b.get("serialNumber"))
        .and_then(|s| s.as_str())
        .unwrap_or_default()
}

fn record(
    journal: &mut Journal,
    step: &Step,
    state: StepState,
    request_id: Option<String>,
) -> Result<(), Error> {
    journal
        .record(Entry {
            request_id,
            ..Entry::new(step.key.clone(), state)
        })
        .map_err(Error::from)
}
