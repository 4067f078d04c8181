//! One operation's call as the command line gives it: path and query values, body, media
//! version; checked before anything is sent.

use crate::exit::Failure;
use crate::fields::{self, Place};
use crate::input;
use crate::ops::Op;
use crate::opts::Opts;
use clap::ArgMatches;
use ruckus_one_runtime::internal::described::Arguments;
use serde_json::Value;

/// What to send.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub op: Op,
    /// Path parameter values in template order (as given: an object's name until
    /// [`resolve`](crate::resolve) puts its id; `None` until found from a child).
    pub path: Vec<Option<String>>,
    pub query: Vec<(&'static str, String)>,
    pub body: Option<Value>,
    /// Index into the route's versions.
    pub version: usize,
}

impl Call {
    /// The call's arguments as the runtime's request builder takes them.
    pub(crate) fn arguments(&self) -> Arguments {
        Arguments {
            path: self
                .path
                .iter()
                .map(|p| p.clone().unwrap_or_default())
                .collect(),
            query: self
                .query
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.clone()))
                .collect(),
            headers: Vec::new(),
            body: self.body.clone(),
            version: self.version,
            tenant: None,
        }
    }
}

impl std::fmt::Debug for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.route.id)
    }
}

/// Reads the call of `op` from its matches and the global flags.
pub(crate) fn read(op: Op, m: &ArgMatches, opts: &Opts) -> Result<Call, Failure> {
    let r = op.route;
    let from_json = input::whole_body(opts.json.as_deref())?;
    let given = from_json.clone().unwrap_or(Value::Null);
    let mut body = from_json;
    let mut path = Vec::new();
    let mut query = Vec::new();
    for flag in fields::flags(op) {
        let value_of = |id: &str| m.try_get_one::<String>(id).ok().flatten();
        let Some(text) = value_of(&flag.id).or_else(|| value_of(&fields::positional_id(&flag)))
        else {
            continue;
        };
        match flag.place {
            Place::Path => path.push((flag.wire.clone(), text.clone())),
            Place::Query => {
                let name = r
                    .query
                    .iter()
                    .find(|p| p.name == flag.wire)
                    .map(|p| p.name.as_str());
                query.push((name.unwrap_or(""), text.clone()));
            }
            Place::Body => {
                let v = fields::value_of(flag.kind, text)
                    .map_err(|e| Failure::usage(format!("--{}: {e}", flag.long)))?;
                input::set(body.get_or_insert(Value::Null), &flag.wire, v, &given)?;
            }
        }
    }
    for s in &opts.set {
        let (p, v) = input::parse_set(s)?;
        input::set(body.get_or_insert(Value::Null), &p, v, &given)?;
    }
    if body.is_some() && r.request.is_none() {
        return Err(Failure::usage(format!("{} takes no request body", r.id)));
    }
    if body.is_none() && r.request.as_ref().is_some_and(|b| b.required) {
        body = Some(default_body(op));
    }
    let path = r
        .path_params
        .iter()
        .map(|p| {
            path.iter()
                .find(|(w, _)| w == &p.name)
                .map(|(_, v)| v.clone())
                .or_else(|| crate::batch::placeholder(m, &p.name))
        })
        .collect();
    let version = version_index(op, opts.version_media.as_deref())?;
    Ok(Call {
        op,
        path,
        query,
        body,
        version,
    })
}

/// Fails when a path parameter has no value (none given, none found from a child object).
pub(crate) fn check_path(call: &Call) -> Result<(), Failure> {
    check_dots(call)?;
    let missing = call
        .op
        .route
        .path_params
        .iter()
        .zip(&call.path)
        .find(|(_, v)| v.is_none());
    match missing {
        Some((p, _)) => Err(Failure::usage(format!(
            "--{} is required",
            fields::kebab(&p.name)
        ))),
        None => Ok(()),
    }
}

/// Refuses a path value that is `.` or `..`: the URL would point somewhere else than written.
pub(crate) fn check_dots(call: &Call) -> Result<(), Failure> {
    let params = call.op.route.path_params.iter().zip(&call.path);
    let mut given = params.filter_map(|(p, v)| Some((p, v.as_deref()?)));
    match given.find(|(_, v)| is_dot_segment(v)) {
        Some((p, v)) => Err(Failure::usage(format!(
            "--{}: `{v}` is a dot segment, which would change the URL's path",
            fields::kebab(&p.name)
        ))),
        None => Ok(()),
    }
}

/// `.` or `..`, percent-encoded or not (`%2e`, `.%2E`, ...).
pub(crate) fn is_dot_segment(segment: &str) -> bool {
    let plain = segment.to_ascii_lowercase().replace("%2e", ".");
    plain == "." || plain == ".."
}

/// The body a required body starts as when none is given: `{}` (a query with the service's
/// defaults).
fn default_body(_op: Op) -> Value {
    Value::Object(serde_json::Map::new())
}

fn version_index(op: Op, label: Option<&str>) -> Result<usize, Failure> {
    let Some(label) = label else {
        return Ok(0);
    };
    let versions = &op.route.versions;
    versions
        .iter()
        .position(|v| v.label == label || v.accept == label)
        .ok_or_else(|| {
            let offered: Vec<&str> = versions.iter().map(|v| v.label.as_str()).collect();
            Failure::usage(if offered.len() <= 1 {
                format!(
                    "{} offers one media version; --version-media does not apply",
                    op.route.id
                )
            } else {
                format!(
                    "--version-media {label}: offered are {}",
                    offered.join(", ")
                )
            })
        })
}
