//! `ruckus api METHOD PATH` (any path, through the runtime's raw requests) and
//! `ruckus activity wait ID...` (the bulk activity query).

use crate::call::io;
use crate::exit::{Failure, class_of};
use crate::opts::Opts;
use crate::{connect, input, ops, output};
use clap::ArgMatches;
use ruckus_one_runtime::{Method, PendingActivity, RawRequest, WaitOptions};
use serde_json::{Value, json};

pub(crate) async fn api(m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
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
            println!("{text}");
            Ok(())
        }
    }
}

/// `m` is the matches of `activity wait`.
pub(crate) async fn activity_wait(m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
    let ids: Vec<String> = m
        .get_many::<String>("ids")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let table = ops::table("network")?;
    let query_id = table
        .api
        .activity_query
        .clone()
        .ok_or_else(|| Failure::other("no activity query in the catalog"))?;
    let query =
        ops::by_id(table, &query_id).ok_or_else(|| Failure::other("activity query missing"))?;
    let conn = connect::connect(opts).await?;
    let pending = ids
        .iter()
        .map(|id| PendingActivity::new(id.clone(), None))
        .collect::<Result<Vec<_>, _>>()?;
    let progress = opts
        .tty_err
        .then(|| crate::progress::Progress::start(format!("waiting for {} activities", ids.len())));
    let results = ruckus_one_runtime::internal::wait_all::<Value>(
        &conn.client,
        ops::operation(query),
        pending,
        &WaitOptions::default(),
    )
    .await?;
    if let Some(p) = progress {
        p.stop();
    }
    let mut rows = output::Rows::new(
        opts.format,
        vec!["requestId".into(), "status".into(), "error".into()],
    );
    let mut first_failure = None;
    for (id, r) in ids.iter().zip(results) {
        let row = match r {
            Ok(a) => {
                json!({"requestId": id, "status": a.get("status").cloned().unwrap_or(Value::Null), "error": null})
            }
            Err(e) => {
                first_failure.get_or_insert((class_of(&e), e.to_string()));
                json!({"requestId": id, "status": "FAIL", "error": e.to_string()})
            }
        };
        rows.row(&row).map_err(io)?;
    }
    rows.finish().map_err(io)?;
    match first_failure {
        Some((class, msg)) => Err(Failure::new(class, msg)),
        None => Ok(()),
    }
}
