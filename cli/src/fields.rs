//! An operation's flags: one per path and query parameter and per field of its JSON body a
//! value can be given to (see [`body`](crate::body); nested ones dotted, `--address.city`),
//! named in kebab case (`venueId` is `--venue-id`); a name taken by a global flag or by another
//! of the operation's flags gets a `param-` or `field-` prefix.

use crate::ops::Op;
use crate::opts::globals;
use serde_json::Value;
use std::collections::BTreeSet;

/// Where a flag's value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Path,
    Query,
    Body,
}

/// How a flag's text becomes a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Text,
    Integer,
    Number,
    Boolean,
}

#[derive(Debug, Clone)]
pub(crate) struct Flag {
    /// clap's id: `<place>:<wire name>`.
    pub id: String,
    pub long: String,
    pub help: String,
    pub value_name: String,
    pub required: bool,
    /// A required body field (given by this flag, `--set` or `--json`).
    pub body_required: bool,
    /// The path parameter naming the object the operation acts on (the path's last segment,
    /// of a resource kind): it may also be given as the command's one positional argument.
    pub positional: bool,
    pub choices: Vec<String>,
    pub place: Place,
    pub wire: String,
    pub kind: Kind,
}

/// The clap id of the positional argument `flag` may also be given as.
pub(crate) fn positional_id(flag: &Flag) -> String {
    format!("positional:{}", flag.wire)
}

/// `venueId` as `venue-id`.
pub(crate) fn kebab(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c == '_' || c == '.' || c == ' ' {
            out.push('-');
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// The flags of `op`, parameters first.
pub(crate) fn flags(op: Op) -> Vec<Flag> {
    let mut taken: BTreeSet<String> = globals()
        .iter()
        .filter_map(|a| a.get_long().map(str::to_owned))
        .chain(
            [
                "help",
                "version",
                crate::tree::SKELETON,
                crate::tree::REPLACE,
            ]
            .map(String::from),
        )
        .chain(crate::batch::NAMES.map(String::from))
        .collect();
    let mut out = Vec::new();
    let r = op.route;
    let params = r
        .path_params
        .iter()
        .map(|p| (Place::Path, p))
        .chain(r.query.iter().map(|p| (Place::Query, p)));
    for (place, p) in params {
        let (kind, choices) = kind_of(op, &p.schema);
        let mut help = if p.description.is_empty() {
            format!("{} parameter `{}`", place_word(place), p.name)
        } else {
            p.description.clone()
        };
        let names = match place {
            Place::Path => crate::resolve::names_taken(op, &p.name),
            _ => None,
        };
        if let Some((takes, left_out)) = names {
            help.push_str(&format!(" Takes {takes}"));
            if left_out {
                help.push_str("; found from the object below it when left out");
            }
        }
        let required =
            p.required && place == Place::Path && !names.is_some_and(|(_, left_out)| left_out);
        let mut flag = named(
            &mut taken, "param", place, &p.name, help, required, kind, choices,
        );
        flag.positional = names.is_some() && r.path.ends_with(&format!("{{{}}}", p.name));
        out.push(flag);
    }
    if let Some(u) = crate::body::union(op) {
        let choices = u.variants.iter().map(|(n, _)| n.clone()).collect();
        let help = "Which kind of body this is (required); each field below names the kinds it \
                    belongs to"
            .to_owned();
        out.push(named(
            &mut taken,
            "field",
            Place::Body,
            &u.property,
            help,
            false,
            Kind::Text,
            choices,
        ));
    }
    let all_variants = crate::body::union(op).map_or(0, |u| u.variants.len());
    let mut body = crate::body::fields(op);
    // Required fields first, as `--help` lists them.
    body.sort_by_key(|f| !f.required);
    for field in body {
        let (kind, _) = kind_of(op, field.schema);
        let choices = field.choices;
        let mut help = format!("Body field `{}`", field.path);
        if field.required {
            help.push_str(" (required)");
        }
        if !field.variants.is_empty() && field.variants.len() < all_variants {
            help.push_str(&format!(" [{}]", field.variants.join(", ")));
        }
        if !field.path.contains('.')
            && let Some(kind) = crate::resolve::field_kind(op, &field.path)
        {
            help.push_str(&format!(
                "; takes the {}'s id or name",
                kind.name.replace('_', " ")
            ));
        }
        let mut flag = named(
            &mut taken,
            "field",
            Place::Body,
            &field.path,
            help,
            false,
            kind,
            choices,
        );
        flag.body_required = field.required;
        out.push(flag);
    }
    out
}

fn place_word(p: Place) -> &'static str {
    match p {
        Place::Path => "Path",
        Place::Query => "Query",
        Place::Body => "Body",
    }
}

#[allow(clippy::too_many_arguments)]
fn named(
    taken: &mut BTreeSet<String>,
    prefix: &str,
    place: Place,
    wire: &str,
    help: String,
    required: bool,
    kind: Kind,
    choices: Vec<String>,
) -> Flag {
    let mut long = flag_name(wire);
    if long.is_empty() || taken.contains(&long) {
        long = format!("{prefix}-{long}");
    }
    while taken.contains(&long) {
        long.push('_');
    }
    taken.insert(long.clone());
    let place_id = match place {
        Place::Path => "path",
        Place::Query => "query",
        Place::Body => "body",
    };
    Flag {
        body_required: false,
        positional: false,
        id: format!("{place_id}:{wire}"),
        value_name: long
            .rsplit('.')
            .next()
            .unwrap_or_default()
            .to_uppercase()
            .replace('-', "_"),
        long,
        help,
        required,
        choices,
        place,
        wire: wire.to_owned(),
        kind,
    }
}

/// The schema `schema` points at (through `$ref`s), else the schema itself.
pub(crate) fn resolve<'a>(op: Op, schema: &'a Value) -> &'a Value
where
    'static: 'a,
{
    op.table.deref(schema)
}

fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// A value set from one flag: a string, number, boolean or enum (`$ref`s followed).
pub(crate) fn is_scalar(schema: &Value) -> bool {
    let ts = types(schema);
    schema.get("enum").is_some()
        || ["string", "integer", "number", "boolean"]
            .iter()
            .any(|t| ts.contains(t))
}

/// The flag of a dotted body path: each part in kebab case (`wlan.wlanSecurity` is
/// `wlan.wlan-security`).
pub(crate) fn flag_name(path: &str) -> String {
    path.split('.').map(kebab).collect::<Vec<_>>().join(".")
}

/// How a value of `schema` is read from a flag, and its choices if it is an enum.
pub(crate) fn kind_of(op: Op, schema: &Value) -> (Kind, Vec<String>) {
    let s = resolve(op, schema);
    let choices: Vec<String> = s
        .get("enum")
        .and_then(Value::as_array)
        .map(|vs| {
            vs.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let ts = types(s);
    let kind = if ts.contains(&"integer") {
        Kind::Integer
    } else if ts.contains(&"number") {
        Kind::Number
    } else if ts.contains(&"boolean") {
        Kind::Boolean
    } else {
        Kind::Text
    };
    (kind, choices)
}

/// A flag's text as JSON of its kind.
pub(crate) fn value_of(kind: Kind, text: &str) -> Result<Value, String> {
    match kind {
        Kind::Text => Ok(Value::String(text.to_owned())),
        Kind::Integer => text
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("`{text}` is not an integer")),
        Kind::Number => text
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
            .ok_or_else(|| format!("`{text}` is not a number")),
        Kind::Boolean => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("`{text}` is not true or false")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::kebab;

    #[test]
    fn kebab_case_of_wire_names() {
        assert_eq!(kebab("venueId"), "venue-id");
        assert_eq!(kebab("serialNumber"), "serial-number");
        assert_eq!(kebab("page_size"), "page-size");
        assert_eq!(kebab("apMAC"), "ap-mac");
    }
}
