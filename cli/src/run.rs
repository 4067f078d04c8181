//! From the command line to the call: which area to build, parsing, and dispatch.

use crate::connect::{self, Connection};
use crate::exit::{Exit, Failure};
use crate::ops::{self, Op};
use crate::opts::Opts;
use crate::{call, commands, dryrun, fanout, request, resolve, tree, update};
use clap::ArgMatches;
use ruckus_one_state::lookup;

pub(crate) fn main(mut args: Vec<String>) -> Result<(), Failure> {
    let area = first_word(&args);
    if let Some(i) = area {
        rewrite_alias(&mut args, i)?;
    }
    let area_name = area.map(|i| args[i].clone());
    let root = tree::root(area_name.as_deref())?;
    let matches = match root.clone().try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) if !e.use_stderr() => {
            // --help and --version: printed as asked, exit 0.
            let _ = e.print();
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let (words, leaf) = leaf(&matches);
    let opts = Opts::read(leaf)?;
    crate::log::start(&opts);
    // `export --out DIR` has a flag of its own by that name: the folder it writes.
    if let Some(path) = opts.out.as_ref().filter(|_| !own_out(&root, &words)) {
        crate::out::into_file(path)?;
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::other(e.to_string()))?;
    if opts.format == crate::opts::Format::Xlsx
        && words.first().map(String::as_str) != Some("report")
    {
        return Err(Failure::usage("-o xlsx is for `ruckus report`"));
    }
    let in_area = match words.as_slice() {
        [area, word] => commands::find_in_area(area, word),
        _ => None,
    };
    if let Some(built_in) = words.first().and_then(|w| commands::find(w)).or(in_area) {
        let invocation = commands::Invocation {
            matches: &matches,
            leaf,
            opts: &opts,
            rt: &rt,
        };
        return (built_in.run)(&invocation);
    }
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let op = ops::by_words(&refs)?
        .ok_or_else(|| Failure::usage(format!("no command `{}`", words.join(" "))))?;
    rt.block_on(operation(op, leaf, &opts))
}

/// Whether the command `words` defines an `--out` of its own (not the global one).
fn own_out(root: &clap::Command, words: &[String]) -> bool {
    let mut at = root;
    for w in words {
        match at.find_subcommand(w) {
            Some(sub) => at = sub,
            None => return false,
        }
    }
    at.get_arguments()
        .any(|a| a.get_id() == "out" && !a.is_global_set())
}

/// The words of the subcommands chosen, and the deepest one's matches.
fn leaf(m: &ArgMatches) -> (Vec<String>, &ArgMatches) {
    let mut words = Vec::new();
    let mut at = m;
    while let Some((name, sub)) = at.subcommand() {
        words.push(name.to_owned());
        at = sub;
    }
    (words, at)
}

/// The index of the first word that is not a global flag or its value.
pub(crate) fn first_word(args: &[String]) -> Option<usize> {
    let takes_value: Vec<String> = crate::opts::globals()
        .iter()
        .filter(|a| a.get_action().takes_values())
        .flat_map(|a| {
            let mut names: Vec<String> =
                a.get_long().map(|l| format!("--{l}")).into_iter().collect();
            names.extend(a.get_short().map(|s| format!("-{s}")));
            names
        })
        .collect();
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if takes_value.contains(a) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return Some(i);
        }
    }
    None
}

/// `ruckus venues query_venues` is `ruckus venues list`: an operation id after the area is
/// replaced by its command words.
fn rewrite_alias(args: &mut Vec<String>, area_at: usize) -> Result<(), Failure> {
    let Some(next) = args.get(area_at + 1).cloned() else {
        return Ok(());
    };
    let area = &args[area_at];
    let found = ops::area(area)?
        .into_iter()
        .find(|o| o.route.id == next || o.route.id.replace('_', "-") == next);
    if let Some(op) = found {
        let words = op.route.command[1..].to_vec();
        args.splice(area_at + 1..area_at + 2, words);
    }
    Ok(())
}

async fn operation(op: Op, m: &ArgMatches, opts: &Opts) -> Result<(), Failure> {
    if let Some(file) = crate::batch::requested(m) {
        return crate::batch::run(op, m, opts, &file).await;
    }
    if on(m, tree::SKELETON) {
        let variant = crate::body::union(op).and_then(|u| {
            m.try_get_one::<String>(&format!("body:{}", u.property))
                .ok()?
                .cloned()
        });
        let json = m.value_source("output") == Some(clap::parser::ValueSource::CommandLine)
            && opts.format == crate::opts::Format::Json;
        return crate::skeleton::print(&crate::skeleton::of(op, variant.as_deref())?, json);
    }
    let mut call = request::read(op, m, opts)?;
    let many = opts.tenants.is_some() || opts.all_customers;
    let merges = !on(m, tree::REPLACE) && update::read_of(op).is_some();
    if opts.dry_run {
        // A preview still shows a body the command would refuse, with why.
        if let (false, Err(f)) = (merges, check_body(&call)) {
            eprintln!("ruckus: not sent as is: {}", f.message);
        }
        request::check_path(&call)?;
        let conn = dry_connection(opts).await?;
        return dryrun::print(&conn.client, &call, opts);
    }
    if !merges {
        check_body(&call)?;
    }
    if op.route.method == ruckus_one_catalog::Method::Delete && !confirm(op, opts)? {
        return Err(Failure::new(Exit::Other, "not deleted"));
    }
    // `.` and `..` are refused as written, before any name is looked up.
    request::check_dots(&call)?;
    let conn = connect::connect(opts).await?;
    if many {
        // Names are looked up in each customer's own objects (fanout.rs); a value missing
        // that no name given can find is refused here, once.
        if !call
            .path
            .iter()
            .flatten()
            .any(|v| !lookup::looks_like_id(v))
        {
            request::check_path(&call)?;
        }
        let tenants = match &opts.tenants {
            Some(t) => t.clone(),
            None => fanout::customers(&conn.client).await?,
        };
        return fanout::run(&conn.client, &call, opts, tenants).await;
    }
    resolve::path(&conn.client, &mut call).await?;
    resolve::fields(&conn.client, &mut call).await?;
    request::check_path(&call)?;
    if merges {
        update::prepare(&conn.client, &mut call).await?;
        check_body(&call)?;
    }
    let result = match opts.watch {
        Some(every) => crate::watch::run(&conn.client, &call, opts, every).await,
        None => call::run(&conn.client, &call, opts).await,
    };
    drop(conn);
    result
}

/// A body missing a required field is a usage error, before anything is sent.
fn check_body(call: &request::Call) -> Result<(), Failure> {
    match &call.body {
        Some(b) => crate::body::check(call.op, b),
        None => Ok(()),
    }
}

fn on(m: &ArgMatches, id: &str) -> bool {
    m.try_get_one::<bool>(id)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

/// The client of a dry run: the real settings when there are some (for the URL), else the
/// region's defaults with placeholder credentials; nothing is sent either way.
pub(crate) async fn dry_connection(opts: &Opts) -> Result<Connection, Failure> {
    match connect::connect(opts).await {
        Ok(c) => Ok(c),
        Err(_) => {
            let mut o = opts.clone();
            o.client_id = Some("dry-run".to_owned());
            o.token_tenant = Some("dry-run".to_owned());
            // SAFETY of intent: only a placeholder secret, read nowhere.
            let config = ruckus_one_runtime::Config::new(ruckus_one_runtime::Credentials::new(
                "dry-run", "dry-run",
            ))
            .token_tenant_id("dry-run");
            let config = match &o.base_url {
                Some(u) => config.base_url(u.clone()),
                None => config,
            };
            let mut client = ruckus_one_runtime::Client::new(config, ops::auth_settings()?)?;
            if let Some(t) = &o.tenant {
                client = client.with_tenant(t)?;
            }
            Ok(Connection {
                client,
                _sim: None,
                token_tenant: "dry-run".to_owned(),
            })
        }
    }
}

/// Asks before a delete on a terminal (unless `--yes`); never asks when not on one.
fn confirm(op: Op, opts: &Opts) -> Result<bool, Failure> {
    let r = op.route;
    let question = format!("{} ({} {})?", r.summary, r.method.as_str(), r.path);
    crate::input::ask(&question, opts)
}
