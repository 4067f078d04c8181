//! An operation's lifecycle: status, note and removal date.

use super::rules::valid_date;
use super::{At, Validator};
use crate::ir::Lifecycle;
use crate::spec::{self, LifecycleStatus};

impl Validator {
    pub(super) fn lifecycle(&mut self, l: Option<&spec::Lifecycle>, at: &At<'_>) -> Lifecycle {
        let Some(l) = l else { return Lifecycle::Stable };
        let lat = at.with(&["lifecycle:"]);
        if let Some(date) = &l.removal
            && !valid_date(date)
        {
            self.err(
                &lat.with(&["removal:"]),
                format!("removal date `{date}` must be YYYY-MM-DD"),
            );
        }
        match l.status {
            LifecycleStatus::Stable | LifecycleStatus::Experimental if l.removal.is_some() => {
                self.err(
                    &lat.with(&["removal:"]),
                    format!(
                        "a {} operation cannot have a removal date",
                        l.status.as_str()
                    ),
                );
                Lifecycle::Stable
            }
            LifecycleStatus::Stable if l.note.is_some() => {
                self.err(
                    &lat.with(&["note:"]),
                    "a stable operation takes no lifecycle note",
                );
                Lifecycle::Stable
            }
            LifecycleStatus::Stable => Lifecycle::Stable,
            LifecycleStatus::Deprecated => match &l.note {
                Some(note) if !note.trim().is_empty() => Lifecycle::Deprecated {
                    note: note.clone(),
                    removal: l.removal.clone(),
                },
                _ => {
                    self.err(
                        &lat,
                        "a deprecated operation needs a `note` saying what to use instead",
                    );
                    Lifecycle::Stable
                }
            },
            LifecycleStatus::Experimental => Lifecycle::Experimental {
                note: l.note.clone(),
            },
            LifecycleStatus::Removed => Lifecycle::Removed {
                note: l.note.clone(),
                removal: l.removal.clone(),
            },
        }
    }
}
