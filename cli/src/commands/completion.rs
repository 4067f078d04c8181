//! Shell completion: `ruckus completion SHELL` prints a short script that hands each completion
//! back to `ruckus` (clap_complete's dynamic completion, the `COMPLETE` variable); `ruckus`
//! then builds only the area named on the line and answers. A static script of the whole tree
//! was 13 MB and took about a second to source in every new shell.

use crate::exit::Failure;
use clap::{Arg, ArgMatches, Command};
use clap_complete::env::{CompleteEnv, Shells};

/// The variable the shell sets when it asks `ruckus` for completions.
const VAR: &str = "COMPLETE";

/// The `completion` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("completion")
        .about("Shell completion script (source it: `source <(ruckus completion bash)`)")
        .arg(
            Arg::new("shell")
                .required(true)
                .value_parser(["bash", "zsh", "fish"]),
        )
}

pub(super) fn run(m: &ArgMatches) -> Result<(), Failure> {
    let name = m.get_one::<String>("shell").map_or("bash", String::as_str);
    let shells = Shells::builtins();
    let shell = shells
        .completer(name)
        .ok_or_else(|| Failure::usage(format!("no completion for the shell {name}")))?;
    // The script calls this very binary, so that completion works before it is on PATH.
    let completer = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| "ruckus".to_owned());
    let mut script = Vec::new();
    shell
        .write_registration(VAR, "ruckus", "ruckus", &completer, &mut script)
        .map_err(crate::call::io)?;
    use std::io::Write;
    crate::out::stdout()
        .write_all(&script)
        .map_err(crate::call::io)
}

/// When the shell asks for completions (`COMPLETE` is set), answers and ends the process;
/// otherwise returns at once.
pub(crate) fn answer_shell() {
    if std::env::var_os(VAR).is_none() {
        return;
    }
    CompleteEnv::with_factory(command_on_line)
        .var(VAR)
        .bin("ruckus")
        .complete();
}

/// The command tree with only the area named on the line being completed built in full.
fn command_on_line() -> Command {
    // The shell calls `ruckus -- ruckus WORDS...`: the words are after `--`.
    let mut words: Vec<String> = std::env::args().skip_while(|a| a != "--").skip(1).collect();
    if words.is_empty() {
        words.push("ruckus".to_owned());
    }
    let area = crate::run::first_word(&words).map(|i| words[i].clone());
    crate::tree::root(area.as_deref())
        .or_else(|_| crate::tree::root(None))
        .unwrap_or_else(|_| Command::new("ruckus"))
}
