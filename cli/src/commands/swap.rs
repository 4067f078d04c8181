//! `ruckus aps swap OLD_SERIAL NEW_SERIAL`: the `ruckus-one-workflows` AP swap, each step
//! journaled (`--journal`, default `swap-OLD-NEW.journal` in the current folder) so that
//! running the same command again resumes it; the removal of the old AP asked first.

use crate::connect;
use crate::exit::{Exit, Failure, class_of};
use crate::opts::{Format, Opts};
use clap::{Arg, ArgAction, ArgMatches, Command};
use ruckus_one_workflows::swap::{self, Error, Journal, Outcome, Step};
use std::path::PathBuf;

/// The area the command is added to.
pub(super) const AREA: &str = "aps";

/// The `swap` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("swap")
        .about("Replace an AP by another, keeping its venue, group, name, tags, position and own settings")
        .arg(Arg::new("old").required(true).value_name("OLD_SERIAL"))
        .arg(Arg::new("new").required(true).value_name("NEW_SERIAL"))
        .arg(
            Arg::new("keep-old")
                .long("keep-old")
                .action(ArgAction::SetTrue)
                .help("Leave the old AP in the venue"),
        )
        .arg(
            Arg::new("journal")
                .long("journal")
                .value_name("FILE")
                .help("The journal (default swap-OLD-NEW.journal); the same command resumes from it"),
        )
        .after_help(
            "Per-AP settings are copied when the old AP overrides its venue's \
             (useVenueSettings: false). --dry-run reads the old AP and lists the steps; \
             --yes removes the old AP without asking.",
        )
}

/// Runs the swap `m` describes.
pub(super) fn run(
    m: &ArgMatches,
    opts: &Opts,
    rt: &tokio::runtime::Runtime,
) -> Result<(), Failure> {
    let arg = |id: &str| m.get_one::<String>(id).cloned().unwrap_or_default();
    let (old, new) = (arg("old"), arg("new"));
    let journal = m
        .get_one::<String>("journal")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(format!("swap-{old}-{new}.journal")));
    rt.block_on(async {
        let conn = connect::connect(opts).await?;
        let sw = swap::Connection::new(&conn.client, None).map_err(failure)?;
        if opts.dry_run {
            let snapshot = match swap::Snapshot::load(&swap::snapshot_path(&journal)) {
                Ok(Some(s)) => s,
                _ => swap::prepare(&sw, &old, &new, None)
                    .await
                    .map_err(failure)?,
            };
            return print_steps(&swap::steps(&snapshot, m.get_flag("keep-old")), opts);
        }
        let snapshot = swap::prepare(&sw, &old, &new, Some(&journal))
            .await
            .map_err(failure)?;
        let steps = swap::steps(&snapshot, m.get_flag("keep-old"));
        let mut book = Journal::resume(&journal).map_err(|e| failure(e.into()))?;
        let yes = opts.yes;
        let mut ask =
            |step: &Step| crate::input::confirm(&format!("{}?", step.key), yes).unwrap_or(false);
        let done = swap::run(&sw, &steps, &mut book, &mut ask).await;
        let reports = done.map_err(|e| {
            let f = failure(e);
            let message = format!(
                "{}; run it again to resume ({})",
                f.message,
                journal.display()
            );
            Failure::new(f.exit, message)
        })?;
        for r in &reports {
            let word = serde_json::to_value(r.outcome).unwrap_or_default();
            eprintln!("{:<12} {}", word.as_str().unwrap_or(""), r.step);
        }
        if reports.iter().any(|r| r.outcome == Outcome::Declined) {
            return Err(Failure::new(Exit::Other, format!("{old} not removed")));
        }
        Ok(())
    })
}

fn print_steps(steps: &[Step], opts: &Opts) -> Result<(), Failure> {
    if opts.format == Format::Table {
        for s in steps {
            println!("{}  [{}]", s.key, s.operation);
        }
        return Ok(());
    }
    let text = serde_json::to_string_pretty(steps).map_err(|e| Failure::other(e.to_string()))?;
    println!("{text}");
    Ok(())
}

fn failure(e: Error) -> Failure {
    let exit = match &e {
        Error::Call { source, .. } => class_of(source),
        Error::NotFound(_) => Exit::NotFound,
        Error::Refused(_) => Exit::Usage,
        _ => Exit::Other,
    };
    Failure::new(exit, e.to_string())
}
