//! Replacing an AP by another (a hardware swap, an RMA) without losing its configuration.
//!
//! [`prepare`] reads what the old AP has: its venue (found by its serial), AP group, name,
//! description, tags, GPS position and floor-plan position, and each per-AP setting it
//! overrides: of the settings the catalog reads and writes at
//! `/venues/{venueId}/aps/{serialNumber}/<setting>`, those whose answer says
//! `useVenueSettings: false` (or `useVenueOrApGroupSettings: false`). A setting that follows
//! its venue is not copied; the new AP follows it too. Settings whose answer carries no such
//! flag (mesh, network, band mode) cannot say whether they are the AP's own and are not
//! copied.
//!
//! [`steps`] turns that [`Snapshot`] into calls: add the new AP, put it in the group, write
//! each setting, place it on the floor plan, remove the old AP (unless kept). [`run`] sends
//! them with a [`Journal`] (the desired-state engine's), so that a swap stopped at any point
//! resumes without adding the AP twice; the snapshot is saved beside the journal, so a swap
//! resumed after the old AP was removed still knows what to copy.
//!
//! ```no_run
//! # async fn example(client: &ruckus_one_runtime::Client) -> Result<(), ruckus_one_workflows::swap::Error> {
//! use ruckus_one_workflows::swap::{self, Connection, Journal};
//! let conn = Connection::new(client, None)?;
//! let journal_path = std::path::Path::new("swap.journal");
//! let snapshot = swap::prepare(&conn, "111111111111", "222222222222", Some(journal_path)).await?;
//! let steps = swap::steps(&snapshot, false);
//! let mut journal = Journal::resume(journal_path)?;
//! let done = swap::run(&conn, &steps, &mut journal, &mut |_| true).await?;
//! # Ok(()) }
//! ```

mod calls;
mod error;
mod run;
mod snapshot;
mod steps;

pub use calls::Connection;
pub use error::Error;
pub use ruckus_one_state::Journal;
pub use run::{Outcome, StepReport, run};
pub use snapshot::{
    IDENTITY_FIELDS, INHERIT_FLAGS, Position, Setting, Snapshot, overrides, per_ap_settings,
};
pub use steps::{Step, StepKind, steps};

use std::path::{Path, PathBuf};

/// Where the snapshot of the swap journaled at `journal` is kept.
pub fn snapshot_path(journal: &Path) -> PathBuf {
    let mut name = journal.as_os_str().to_owned();
    name.push(".snapshot.json");
    PathBuf::from(name)
}

/// The snapshot of the swap of `old` by `new`: the one saved beside `journal` by an earlier
/// run of the same swap, else read from the service (and saved there, when a journal is
/// given). A saved snapshot of another swap is an error.
pub async fn prepare(
    conn: &Connection<'_>,
    old: &str,
    new: &str,
    journal: Option<&Path>,
) -> Result<Snapshot, Error> {
    let saved = journal.map(snapshot_path);
    if let Some(path) = &saved {
        if let Some(s) = Snapshot::load(path)? {
            if s.old == old && s.new == new {
                return Ok(s);
            }
            return Err(Error::Refused(format!(
                "the journal is of the swap of {} by {}",
                s.old, s.new
            )));
        }
    }
    let snapshot = snapshot::read(conn, old, new).await?;
    if let Some(path) = &saved {
        snapshot.save(path)?;
    }
    Ok(snapshot)
}
