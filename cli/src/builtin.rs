//! The commands that are not operations: `api`, `auth`, `schema`, `activity`, `completion`
//! and `man`.

use clap::{Arg, ArgAction, Command};

pub(crate) fn commands() -> Vec<Command> {
    vec![
        Command::new("api")
            .about("Call any path: ruckus api METHOD PATH [--json BODY]")
            .arg(Arg::new("method").required(true).value_parser(["GET", "POST", "PUT", "PATCH", "DELETE", "get", "post", "put", "patch", "delete"]))
            .arg(Arg::new("path").required(true).help("Path relative to the API's base URL (`/venues`)"))
            .arg(Arg::new("api-name").long("api").default_value("network").value_parser(["network", "analytics", "resident_portal"]).help("The API whose base URL the path is under"))
            .arg(Arg::new("query").long("query").short('q').action(ArgAction::Append).help("Query parameter NAME=VALUE (repeatable)"))
            .arg(Arg::new("accept").long("accept").help("Accept media type (default application/json)"))
            .arg(Arg::new("content-type").long("content-type").help("Content-Type of the body (default application/json)")),
        Command::new("auth")
            .about("Store, show and remove credentials (profiles)")
            .subcommand_required(true)
            .subcommand(
                Command::new("login")
                    .about("Store a profile: client id, token tenant and region here, the secret in the keychain (or a 0600 file)")
                    .arg(Arg::new("secret-stdin").long("secret-stdin").action(ArgAction::SetTrue).help("Read the secret from standard input (never from a flag)"))
                    .arg(Arg::new("default-tenant").long("default-tenant").help("Delegated tenant the profile acts for by default")),
            )
            .subcommand(Command::new("status").about("Show the profile in use and where its secret is (never the secret)"))
            .subcommand(Command::new("logout").about("Remove the profile's secret and settings")),
        Command::new("schema")
            .about("Machine-readable description of the commands, their arguments, output columns and exit codes")
            .arg(Arg::new("command").num_args(0..).help("Words of one command (`venues list`); all when none")),
        Command::new("activity")
            .about("Asynchronous activities")
            .subcommand_required(true)
            .subcommand(
                Command::new("wait")
                    .about("Wait for activities by request id (one bulk query per round)")
                    .arg(Arg::new("ids").required(true).num_args(1..).help("Request ids")),
            ),
        Command::new("completion")
            .about("Shell completion script")
            .arg(Arg::new("shell").required(true).value_parser(["bash", "zsh", "fish"])),
        Command::new("man").about("Man page (roff) of ruckus"),
    ]
}
