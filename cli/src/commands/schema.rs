//! `ruckus schema [COMMAND]`: every command (or one) with its arguments, output columns and
//! the exit codes, as JSON, for scripts and agents.

use crate::exit::{Exit, Failure};
use crate::fields::{self, Place};
use crate::ops::{self, Op};
use clap::{Arg, Command};
use serde_json::{Value, json};

/// The `schema` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("schema")
            .about("Machine-readable description of the commands, their arguments, output columns and exit codes")
            .arg(Arg::new("command").num_args(0..).help("Words of one command (`venues list`); all when none"))
}

pub(super) fn run(words: &[String]) -> Result<(), Failure> {
    let ops = ops::all()?;
    let selected: Vec<Op> = if words.is_empty() {
        ops
    } else {
        let found: Vec<Op> = ops
            .into_iter()
            .filter(|o| o.route.command.starts_with(words) || o.route.id == words.join(" "))
            .collect();
        if found.is_empty() {
            return Err(Failure::usage(format!("no command `{}`", words.join(" "))));
        }
        found
    };
    let one = !words.is_empty() && selected.len() == 1;
    let doc = json!({
        "program": "ruckus",
        "version": env!("CARGO_PKG_VERSION"),
        "usage": "ruckus [GLOBAL FLAGS] <area> [<resource>] <verb> [FLAGS]",
        "global_flags": crate::opts::globals().iter().map(|a| json!({
            "flag": format!("--{}", a.get_long().unwrap_or_default()),
            "help": a.get_help().map(|h| h.to_string()).unwrap_or_default(),
        })).collect::<Vec<_>>(),
        "exit_codes": Exit::ALL.iter().map(|e| json!({
            "code": e.code(), "class": e.name(), "meaning": e.meaning(),
        })).collect::<Vec<_>>(),
        "commands": selected.iter().map(|o| {
            let mut c = command(*o);
            // One command asked for: its body's JSON Schema, `$ref`s written out.
            if one && let Some(b) = crate::body::json_schema(*o) {
                c["body_schema"] = b;
            }
            c
        }).collect::<Vec<_>>(),
    });
    crate::out::line(format_args!(
        "{}",
        serde_json::to_string_pretty(&doc).map_err(|e| Failure::other(e.to_string()))?
    ))?;
    Ok(())
}

/// One command's description.
pub(crate) fn command(op: Op) -> Value {
    let r = op.route;
    let args: Vec<Value> = fields::flags(op)
        .into_iter()
        .map(|f| {
            json!({
                "flag": format!("--{}", f.long),
                "in": match f.place { Place::Path => "path", Place::Query => "query", Place::Body => "body" },
                "name": f.wire,
                "required": f.required || f.body_required,
                "type": format!("{:?}", f.kind).to_lowercase(),
                "choices": f.choices,
            })
        })
        .collect();
    json!({
        "command": r.command.join(" "),
        "operation": r.id,
        "api": op.table.api.name,
        "summary": r.summary,
        "method": r.method.as_str(),
        "path": format!("{}{}", op.table.api.prefix, r.path),
        "asynchronous": r.asynchronous,
        "paged": r.paging.is_some(),
        "body": r.request.is_some(),
        "media_versions": r.versions.iter().map(|v| v.label.clone()).collect::<Vec<_>>(),
        "service": r.service,
        "lifecycle": r.lifecycle.as_str(),
        "arguments": args,
        "columns": r.columns,
    })
}
