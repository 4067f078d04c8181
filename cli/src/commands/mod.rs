//! The commands that are not operations, one file each, listed once in [`ALL`] (top-level) or
//! [`IN_AREAS`] (beside an area's operations, `aps swap`): the command tree takes their
//! definitions from them, dispatch their runs, and the full tree (completion, man page) their
//! names.

mod activity;
mod api;
mod auth;
pub(crate) mod completion;
mod man;
mod report;
pub(crate) mod schema;
mod state;
mod swap;
mod whoami;

use crate::exit::Failure;
use crate::opts::Opts;
use crate::tree;
use clap::{ArgMatches, Command};

/// What a built-in command is run with.
pub(crate) struct Invocation<'a> {
    /// The matches of the whole command line.
    pub(crate) matches: &'a ArgMatches,
    /// The matches of the deepest subcommand chosen (`wait` of `activity wait`).
    pub(crate) leaf: &'a ArgMatches,
    pub(crate) opts: &'a Opts,
    pub(crate) rt: &'a tokio::runtime::Runtime,
}

/// A command that is not an operation: its word, its definition, and what runs it.
pub(crate) struct BuiltIn {
    pub(crate) name: &'static str,
    pub(crate) command: fn() -> Command,
    pub(crate) run: fn(&Invocation<'_>) -> Result<(), Failure>,
}

/// Every built-in command, in the order `--help` lists them.
pub(crate) const ALL: &[BuiltIn] = &[
    BuiltIn {
        name: "api",
        command: api::definition,
        run: |i| i.rt.block_on(api::run(i.leaf, i.opts)),
    },
    BuiltIn {
        name: "auth",
        command: auth::definition,
        run: |i| auth::run(i.matches.subcommand().map_or(i.matches, |(_, m)| m), i.opts),
    },
    BuiltIn {
        name: "schema",
        command: schema::definition,
        run: |i| {
            let words: Vec<String> = i
                .leaf
                .get_many::<String>("command")
                .map(|v| v.cloned().collect())
                .unwrap_or_default();
            schema::run(&words)
        },
    },
    BuiltIn {
        name: "activity",
        command: activity::definition,
        run: |i| i.rt.block_on(activity::run(i.leaf, i.opts)),
    },
    BuiltIn {
        name: "whoami",
        command: whoami::definition,
        run: |i| i.rt.block_on(whoami::run(i.opts)),
    },
    BuiltIn {
        name: "completion",
        command: completion::definition,
        run: |i| completion::run(i.leaf),
    },
    BuiltIn {
        name: "man",
        command: man::definition,
        run: |_| man::run(),
    },
    BuiltIn {
        name: "export",
        command: state::export_definition,
        run: |i| state::run("export", i.leaf, i.opts, i.rt),
    },
    BuiltIn {
        name: "plan",
        command: state::plan_definition,
        run: |i| state::run("plan", i.leaf, i.opts, i.rt),
    },
    BuiltIn {
        name: "apply",
        command: state::apply_definition,
        run: |i| state::run("apply", i.leaf, i.opts, i.rt),
    },
    BuiltIn {
        name: "report",
        command: report::definition,
        run: |i| report::run(i.leaf, i.opts, i.rt),
    },
];

/// Built-in commands that live in an area, beside its operations: `(area, command)`.
pub(crate) const IN_AREAS: &[(&str, BuiltIn)] = &[(
    swap::AREA,
    BuiltIn {
        name: "swap",
        command: swap::definition,
        run: |i| swap::run(i.leaf, i.opts, i.rt),
    },
)];

/// The built-in command `word` of `area`.
pub(crate) fn find_in_area(area: &str, word: &str) -> Option<&'static BuiltIn> {
    IN_AREAS
        .iter()
        .find(|(a, b)| *a == area && b.name == word)
        .map(|(_, b)| b)
}

/// The definitions of the built-in commands of `area`.
pub(crate) fn area_definitions(area: &str) -> Vec<Command> {
    IN_AREAS
        .iter()
        .filter(|(a, _)| *a == area)
        .map(|(_, b)| (b.command)())
        .collect()
}

/// The built-in command named `word`.
pub(crate) fn find(word: &str) -> Option<&'static BuiltIn> {
    ALL.iter().find(|b| b.name == word)
}

/// Whether `word` names a built-in command (not an area).
pub(crate) fn is_built_in(word: &str) -> bool {
    find(word).is_some()
}

/// Every built-in command's definition.
pub(crate) fn definitions() -> Vec<Command> {
    ALL.iter().map(|b| (b.command)()).collect()
}

/// The root with every area built in full (completion and man pages need all commands).
fn full_tree() -> Result<Command, Failure> {
    let mut root = tree::root(None)?;
    let areas: Vec<String> = root
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .filter(|n| !is_built_in(n))
        .collect();
    for area in areas {
        let built = tree::root(Some(&area))?;
        if let Some(full) = built.find_subcommand(&area) {
            root = root.mut_subcommand(&area, |_| full.clone());
        }
    }
    Ok(root)
}
