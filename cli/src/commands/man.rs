//! `ruckus man`: the man page (roff) of the whole command tree.

use crate::exit::Failure;
use clap::Command;

/// The `man` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("man").about("Man page (roff) of ruckus")
}

pub(super) fn run() -> Result<(), Failure> {
    let full = super::full_tree()?;
    clap_mangen::Man::new(full)
        .render(&mut crate::out::stdout())
        .map_err(crate::call::io)
}
