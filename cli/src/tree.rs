//! The command tree, built with clap's builder from the catalog at run time. Only the area
//! named on the command line is built in full (its operations and their flags, from its routes
//! alone); the others are one line each, from the catalog's index, so `ruckus --help` and a call
//! of one operation parse little.

use crate::exit::Exit;
use crate::fields::{self, Flag};
use crate::ops::{self, Op};
use crate::opts::globals;
use clap::{Arg, Command};
use std::collections::BTreeMap;

/// The root command; `area`, when given, is built in full.
pub(crate) fn root(area: Option<&str>) -> Result<Command, crate::exit::Failure> {
    let mut root = Command::new("ruckus")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Every RUCKUS One operation as a command: `ruckus <area> [<resource>] <verb>`")
        .after_help(format!(
            "Start without an account: `ruckus --local venues list`.\n\n{}",
            Exit::help_text()
        ))
        .subcommand_required(true)
        .args(globals())
        .subcommands(crate::commands::definitions());
    let mut areas = ops::areas()?;
    // Listed by name, as `--help` and completion show them.
    areas.sort_by_key(|a| a.command);
    for a in areas {
        let about = format!(
            "{} operations ({} API, area {})",
            a.operations, a.api, a.area
        );
        let mut cmd = Command::new(a.command)
            .about(about)
            .subcommand_required(true);
        if area == Some(a.command) {
            cmd = area_commands(cmd, &ops::area(a.command)?)
                .subcommands(crate::commands::area_definitions(a.command));
        }
        root = root.subcommand(cmd);
    }
    Ok(root)
}

/// `cmd` with the commands of its operations, grouped by resource.
fn area_commands(mut cmd: Command, ops: &[Op]) -> Command {
    let mut groups: BTreeMap<&str, Vec<Op>> = BTreeMap::new();
    for op in ops {
        match op.route.command.len() {
            3 => groups
                .entry(op.route.command[1].as_str())
                .or_default()
                .push(*op),
            _ => cmd = cmd.subcommand(op_command(*op)),
        }
    }
    for (resource, ops) in groups {
        let about = ops
            .iter()
            .map(|o| o.route.command[2].as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let group = Command::new(resource)
            .about(about)
            .subcommand_required(true)
            .subcommands(ops.into_iter().map(op_command));
        cmd = cmd.subcommand(group);
    }
    cmd
}

/// One operation's command: its flags and the help that says where it goes.
pub(crate) fn op_command(op: Op) -> Command {
    let r = op.route;
    let verb = r.command.last().map_or("", String::as_str);
    let mut cmd = Command::new(verb)
        .about(r.summary.clone())
        .after_help(op_help(op));
    let flags = fields::flags(op);
    // Long dotted flags leave no room for help beside them: help goes under each.
    if flags.iter().any(|f| f.long.len() > 36) {
        cmd = cmd.next_line_help(true);
    }
    for flag in flags {
        cmd = cmd.args(flag_args(&flag));
    }
    if r.request.is_some() {
        cmd = cmd.arg(
            Arg::new(SKELETON)
                .long(SKELETON)
                .action(clap::ArgAction::SetTrue)
                .help("Print a body to fill in (YAML; JSON with -o json), required fields first, and send nothing"),
        );
    }
    if crate::update::read_of(op).is_some() {
        cmd = cmd.arg(
            Arg::new(REPLACE)
                .long(REPLACE)
                .action(clap::ArgAction::SetTrue)
                .help("Send exactly the body given (without it, the object is read and the fields given are changed)"),
        );
    }
    cmd.args(crate::batch::args())
}

/// The flag that prints a body to fill in.
pub(crate) const SKELETON: &str = "skeleton";
/// The flag that sends a whole-object write's body as given.
pub(crate) const REPLACE: &str = "replace";

/// A flag's argument, and the positional argument it may be given as (either, not both).
fn flag_args(flag: &Flag) -> Vec<Arg> {
    let mut arg = Arg::new(flag.id.clone())
        .long(flag.long.clone())
        .help(flag.help.clone())
        .num_args(1)
        .value_name(flag.value_name.clone());
    if !flag.choices.is_empty() {
        arg = arg.value_parser(flag.choices.clone());
    }
    if !flag.positional {
        if flag.required {
            arg = arg.required_unless_present(crate::batch::EACH);
        }
        return vec![arg];
    }
    let position = fields::positional_id(flag);
    let mut positional = Arg::new(position.clone())
        .index(1)
        .value_name(flag.value_name.clone())
        .help(format!("Same as --{}", flag.long))
        .conflicts_with(flag.id.clone());
    if flag.required {
        positional = positional
            .required_unless_present_any([flag.id.clone(), crate::batch::EACH.to_owned()]);
    }
    vec![arg, positional]
}

/// The lines after an operation's help: where it goes and how it behaves.
pub(crate) fn op_help(op: Op) -> String {
    let r = op.route;
    let versions = if r.versions.len() <= 1 {
        "one (no --version-media)".to_owned()
    } else {
        r.versions
            .iter()
            .map(|v| v.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let limit = op
        .table
        .api
        .rate_limits
        .iter()
        .find(|l| l.service == r.service)
        .map_or("no published limit".to_owned(), |l| {
            format!(
                "{} calls, {}/s back, per {}",
                l.max,
                l.per_second,
                l.scope.as_str()
            )
        });
    let paging = r.paging.as_ref().map_or("no".to_owned(), |p| {
        format!(
            "{} (rows in `{}`; --all for every page)",
            p.style.as_str(),
            p.items
        )
    });
    format!(
        "Operation:      {} ({} API)\nRequest:        {} {}{}\nMedia versions: {}\nAsynchronous:   {}\nPaged:          {}\nRate limit:     service `{}`: {}\nLifecycle:      {}\nProvenance:     {}",
        r.id,
        op.table.api.name,
        r.method.as_str(),
        op.table.api.prefix,
        r.path,
        versions,
        if r.asynchronous {
            "yes: waits for the activity (--no-wait prints its request id)"
        } else {
            "no"
        },
        paging,
        r.service,
        limit,
        r.lifecycle.as_str(),
        r.provenance,
    )
}
