//! The request body: `--json` (inline, `@FILE` or `-` for standard input) as the whole body,
//! `--set a.b=VALUE` for nested fields, and the operation's body flags. A body flag or `--set`
//! that contradicts a field `--json` gave is a usage error; one that agrees is accepted.

use crate::exit::Failure;
use crate::opts::Opts;
use serde_json::{Map, Value};
use std::io::{BufRead, IsTerminal, Read, Write};

/// The whole body given with `--json`, if any.
pub(crate) fn whole_body(arg: Option<&str>) -> Result<Option<Value>, Failure> {
    let Some(arg) = arg else {
        return Ok(None);
    };
    let text = if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Failure::usage(format!("--json -: cannot read standard input: {e}")))?;
        s
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| Failure::usage(format!("--json @{path}: {e}")))?
    } else {
        arg.to_owned()
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| Failure::usage(format!("--json: not JSON: {e}")))
}

/// Sets `path` (dotted) in `body` to `value`; a value already there from `--json` that differs
/// is a contradiction.
pub(crate) fn set(
    body: &mut Value,
    path: &str,
    value: Value,
    from_json: &Value,
) -> Result<(), Failure> {
    if let Some(given) = lookup(from_json, path)
        && given != &value
    {
        return Err(Failure::usage(format!(
            "`{path}` is {given} in --json but {value} by flag: give it once"
        )));
    }
    let mut at = body;
    let parts: Vec<&str> = path.split('.').collect();
    for (i, part) in parts.iter().enumerate() {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let Value::Object(map) = at else {
            unreachable!("made an object above")
        };
        if i + 1 == parts.len() {
            map.insert((*part).to_owned(), value);
            return Ok(());
        }
        at = map
            .entry((*part).to_owned())
            .or_insert(Value::Object(Map::new()));
    }
    Ok(())
}

/// `a.b=VALUE` split, VALUE read as JSON where it is JSON, else as text.
pub(crate) fn parse_set(arg: &str) -> Result<(String, Value), Failure> {
    let (path, text) = arg
        .split_once('=')
        .ok_or_else(|| Failure::usage(format!("--set {arg}: expected PATH=VALUE")))?;
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(Failure::usage(format!("--set {arg}: empty field name")));
    }
    let value = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()));
    Ok((path.to_owned(), value))
}

/// The value at a dotted path.
pub(crate) fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |at, part| at.get(part))
}

/// Asks `question` with `[y/N]` on a terminal, unless `--yes`; true when not on one (a script
/// asked for the command).
pub(crate) fn ask(question: &str, opts: &Opts) -> Result<bool, Failure> {
    if opts.yes || !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Ok(true);
    }
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| Failure::other(e.to_string()))?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_builds_nested_objects() {
        let mut body = json!({"name": "a"});
        let given = body.clone();
        set(&mut body, "address.city", json!("Paris"), &given).unwrap();
        assert_eq!(body, json!({"name": "a", "address": {"city": "Paris"}}));
    }

    #[test]
    fn a_contradicting_flag_is_a_usage_error() {
        let given = json!({"name": "a"});
        let mut body = given.clone();
        let err = set(&mut body, "name", json!("b"), &given).unwrap_err();
        assert_eq!(err.exit, crate::exit::Exit::Usage);
        set(&mut body, "name", json!("a"), &given).unwrap();
    }

    #[test]
    fn set_values_are_json_or_text() {
        assert_eq!(parse_set("a.b=3").unwrap(), ("a.b".to_owned(), json!(3)));
        assert_eq!(parse_set("a=x y").unwrap(), ("a".to_owned(), json!("x y")));
        assert!(parse_set("novalue").is_err());
    }
}
