//! `ruckus completion SHELL`: the shell completion script of the whole command tree.

use crate::exit::Failure;
use clap::{Arg, ArgMatches, Command};

/// The `completion` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("completion")
        .about("Shell completion script")
        .arg(
            Arg::new("shell")
                .required(true)
                .value_parser(["bash", "zsh", "fish"]),
        )
}

pub(super) fn run(m: &ArgMatches) -> Result<(), Failure> {
    use clap_complete::Shell;
    let shell = match m.get_one::<String>("shell").map(String::as_str) {
        Some("zsh") => Shell::Zsh,
        Some("fish") => Shell::Fish,
        _ => Shell::Bash,
    };
    let mut root = super::full_tree()?;
    clap_complete::generate(shell, &mut root, "ruckus", &mut std::io::stdout());
    Ok(())
}
