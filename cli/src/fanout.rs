//! `--tenants a,b,c` and `--all-customers`: the same call for each customer tenant, a few at
//! once (`--concurrency`), through the runtime's fan-out (one token, shared pacing). The rows of
//! every customer form one table with a `tenant` column first and an `error` column last;
//! a summary line goes to standard error, and the command fails if any customer failed.

use crate::call::{self, io};
use crate::exit::{Failure, class_of};
use crate::ops;
use crate::opts::Opts;
use crate::output::Rows;
use crate::request::Call;
use futures_util::StreamExt;
use ruckus_one_runtime::internal::described;
use ruckus_one_runtime::{Client, Error};
use serde_json::{Map, Value, json};

/// The customer tenant ids of the MSP account (`--all-customers`): every page of its customer
/// query.
pub(crate) async fn customers(client: &Client) -> Result<Vec<String>, Failure> {
    let table = ops::table("network")?;
    let op = ops::by_id(table, "query_msp_ecs")
        .ok_or_else(|| Failure::other("the catalog has no customer query (query_msp_ecs)"))?;
    let call = Call {
        op,
        path: Vec::new(),
        query: Vec::new(),
        body: Some(json!({"fields": ["id", "name"], "pageSize": 100})),
        version: 0,
    };
    let paging = described::paging(op.route)
        .ok_or_else(|| Failure::other("the customer query (query_msp_ecs) is not paged"))?;
    let mut ids = Vec::new();
    let mut items = call::build(client, &call)?.items::<Value>(paging);
    while let Some(item) = items.next().await {
        if let Some(id) = item?.get("id").and_then(Value::as_str) {
            ids.push(id.to_owned());
        }
    }
    Ok(ids)
}

/// Puts ids for the names in `call` as the customer `client` acts for has them (each
/// customer's `HQ` is its own venue).
async fn resolved(client: &Client, mut call: Call) -> Result<Call, Failure> {
    crate::resolve::path(client, &mut call).await?;
    crate::resolve::fields(client, &mut call).await?;
    crate::request::check_path(&call)?;
    Ok(call)
}

/// The rows one customer's call answers (every page with `--all`), its names looked up in
/// its own objects; a name it does not have is the inner failure.
async fn rows_of(
    client: Client,
    call: Call,
    all: bool,
) -> Result<Result<Vec<Value>, Failure>, Error> {
    let call = match resolved(&client, call).await {
        Ok(call) => call,
        Err(f) => return Ok(Err(f)),
    };
    answer_of(client, call, all).await.map(Ok)
}

/// The rows `call` answers as `client`.
async fn answer_of(client: Client, call: Call, all: bool) -> Result<Vec<Value>, Error> {
    let op = call.op;
    if let (Some(p), Some(paging)) = (&op.route.paging, described::paging(op.route)) {
        if all {
            let items: Vec<Result<Value, Error>> = call::build(&client, &call)?
                .items::<Value>(paging)
                .collect()
                .await;
            return items.into_iter().collect();
        }
        let answer: Value = call::build(&client, &call)?.send_json().await?;
        return Ok(answer
            .get(&p.items)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default());
    }
    let answer: Value = call::build(&client, &call)?.send_json().await?;
    Ok(match answer {
        Value::Array(items) => items,
        other => vec![other],
    })
}

pub(crate) async fn run(
    client: &Client,
    call: &Call,
    opts: &Opts,
    tenants: Vec<String>,
) -> Result<(), Failure> {
    let all = opts.all;
    let outcomes =
        ruckus_one_runtime::for_each_tenant(client, tenants, opts.concurrency, |as_customer| {
            rows_of(as_customer, call.clone(), all)
        })
        .await;
    let mut columns = vec!["tenant".to_owned()];
    columns.extend(call::columns(call.op, opts));
    let given = columns.len() > 1;
    let columns = if given {
        with_error(columns)
    } else {
        Vec::new()
    };
    let mut rows = Rows::new(opts.format, columns)
        .framed()
        .with_jq(opts.jq.clone());
    let (mut ok, mut failed) = (0, Vec::new());
    for outcome in outcomes {
        let failure = match outcome.result {
            Ok(Ok(items)) => {
                ok += 1;
                for item in items {
                    let mut row = Map::new();
                    row.insert("tenant".to_owned(), Value::String(outcome.tenant.clone()));
                    if let Value::Object(fields) = item {
                        row.extend(fields);
                    }
                    row.insert("error".to_owned(), Value::Null);
                    rows.row(&Value::Object(row)).map_err(io)?;
                }
                continue;
            }
            Ok(Err(f)) => (f.message, f.exit),
            Err(e) => (e.to_string(), class_of(&e)),
        };
        let row = json!({"tenant": outcome.tenant, "error": failure.0});
        rows.row(&row).map_err(io)?;
        failed.push((outcome.tenant, failure.1));
    }
    rows.finish().map_err(io)?;
    eprintln!(
        "{} customers: {ok} ok, {} failed",
        ok + failed.len(),
        failed.len()
    );
    match failed.first() {
        Some((tenant, class)) => Err(Failure::new(
            *class,
            format!("{} customer(s) failed, first {tenant}", failed.len()),
        )),
        None => Ok(()),
    }
}

fn with_error(mut columns: Vec<String>) -> Vec<String> {
    columns.push("error".to_owned());
    columns
}
