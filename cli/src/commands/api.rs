//! `ruckus api METHOD PATH`: any path of an API, sent through the runtime as a raw request.
//! A path with a `.` or `..` segment (also percent-encoded) is refused: the URL would be
//! normalised into another path than the one written.

use crate::call::io;
use crate::exit::Failure;
use crate::opts::Opts;
use crate::{connect, input, ops, output};
use clap::{Arg, ArgAction, ArgMatches, Command};
use ruckus_one_runtime::{Method, RawRequest};
use serde_json::{Value, json};

/// The `api` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("api")
        .about("Call any path: ruckus api METHOD PATH [--json BODY]")
        .arg(Arg::new("method").required(true).value_parser([
            "GET", "POST", "PUT", "PATCH", "DELETE", "get", "post", "put", "patch", "delete",
        ]))
        .arg(
            Arg::new("path")
                .required(true)
                .help("Path relative to the API's base URL (`/venues`)"),
        )
        .arg(
            Arg::new("api-name")
                .long("api")
                .default_value("network")
                .value_parser(["network", "analytics", "resident_portal"])
                .help("The API whose base URL the path is under"),
        )
        .arg(
            Arg::new("query")
                .long("query")
                .short('q')
                .action(ArgAction::Append)
                .help("Query parameter NAME=VALUE (repeatable)"),
        )
        .arg(
            Arg::new("accept")
                .long("accept")
                .help("Accept media type (default application/json)"),
        )
        .arg(
            Arg::new("content-type")
                .long("content-type")
                .help("Content-Type of the body (default application/json)"),
        )
}

pub(super) async fn run(m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
    let method = match m
        .get_one::<String>("method")
        .map(|s| s.to_uppercase())
        .as_deref()
    {
        Some("GET") => Method::Get,
        Some("POST") => Method::Post,
        Some("PUT") => Method::Put,
        Some("PATCH") => Method::Patch,
        _ => Method::Delete,
    };
    let path = m.get_one::<String>("path").cloned().unwrap_or_default();
    let before_query = path.split(['?', '#']).next().unwrap_or_default();
    if let Some(segment) = before_query
        .split('/')
        .find(|s| crate::request::is_dot_segment(s))
    {
        return Err(Failure::usage(format!(
            "the path `{path}` has the segment `{segment}`: write the path it leads to"
        )));
    }
    let api_name = m
        .get_one::<String>("api-name")
        .cloned()
        .unwrap_or_else(|| "network".to_owned());
    let table = ops::table(&api_name)?;
    let mut body = input::whole_body(opts.json.as_deref())?;
    let given = body.clone().unwrap_or(Value::Null);
    for s in &opts.set {
        let (p, v) = input::parse_set(s)?;
        input::set(body.get_or_insert(Value::Null), &p, v, &given)?;
    }
    let conn = connect::connect(opts).await?;
    let mut req = RawRequest::new(&conn.client, ops::api(table), method, &path);
    for q in m.get_many::<String>("query").into_iter().flatten() {
        let (k, v) = q
            .split_once('=')
            .ok_or_else(|| Failure::usage(format!("--query {q}: expected NAME=VALUE")))?;
        req = req.query(k, v);
    }
    if let Some(b) = &body {
        req = req.json(b);
    }
    if let Some(ct) = m.get_one::<String>("content-type") {
        req = req.content_type(ct);
    }
    if let Some(a) = m.get_one::<String>("accept") {
        req = req.accept(a);
    }
    if opts.dry_run {
        let url = format!("{}{path}", conn.client.base_url(ops::api(table)));
        let v = json!({"method": method.as_str(), "url": url, "body": body});
        return output::value(opts.format, &v).map_err(io);
    }
    let text = req.send_text().await?;
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => output::value(opts.format, &v).map_err(io),
        Err(_) => {
            crate::out::line(format_args!("{text}"))?;
            Ok(())
        }
    }
}
