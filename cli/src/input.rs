//! The request body: `--json` (inline, `@FILE` or `-` for standard input) as the whole body,
//! `--set a.b=VALUE` for nested fields, and the operation's body flags. A body flag or `--set`
//! that contradicts a field `--json` gave is a usage error; one that agrees is accepted.
//! Both are bounded before they are used: a body of at most [`MAX_BODY_BYTES`] nested at most
//! [`MAX_DEPTH`] deep, a `--set` path of at most [`MAX_DEPTH`] names and [`MAX_PATH_BYTES`]
//! bytes; anything larger is a usage error (never a stack overflow on a hostile input).

use crate::exit::Failure;
use crate::opts::Opts;
use serde_json::{Map, Value};
use std::io::{BufRead, IsTerminal, Read, Write};

/// Largest `--json` body, in bytes (the service takes far smaller ones).
pub(crate) const MAX_BODY_BYTES: usize = 8 << 20;
/// Deepest nesting of a body, and most names in a `--set` path.
pub(crate) const MAX_DEPTH: usize = 64;
/// Longest `--set` path, in bytes.
pub(crate) const MAX_PATH_BYTES: usize = 1024;

/// The whole body given with `--json`, if any.
pub(crate) fn whole_body(arg: Option<&str>) -> Result<Option<Value>, Failure> {
    let Some(arg) = arg else {
        return Ok(None);
    };
    let text = if arg == "-" {
        read_bounded(std::io::stdin(), "--json -")?
    } else if let Some(path) = arg.strip_prefix('@') {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::usage(format!("--json @{path}: {e}")))?;
        read_bounded(file, &format!("--json @{path}"))?
    } else {
        arg.to_owned()
    };
    if text.len() > MAX_BODY_BYTES {
        return Err(too_large("--json"));
    }
    // serde_json stops at 128 levels itself; the body's own bound is checked after.
    let body: Value = serde_json::from_str(&text)
        .map_err(|e| Failure::usage(format!("--json: not JSON: {e}")))?;
    if depth(&body) > MAX_DEPTH {
        return Err(Failure::usage(format!(
            "--json: nested deeper than {MAX_DEPTH} levels"
        )));
    }
    Ok(Some(body))
}

fn too_large(what: &str) -> Failure {
    Failure::usage(format!("{what}: larger than {} MiB", MAX_BODY_BYTES >> 20))
}

/// At most [`MAX_BODY_BYTES`] (and one more, to tell a larger input) read from `from`.
fn read_bounded(from: impl Read, what: &str) -> Result<String, Failure> {
    let mut text = String::new();
    from.take(MAX_BODY_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(|e| Failure::usage(format!("{what}: cannot read it: {e}")))?;
    if text.len() > MAX_BODY_BYTES {
        return Err(too_large(what));
    }
    Ok(text)
}

/// How many arrays and objects deep `v` nests (a scalar: 0), without recursion.
fn depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut open = vec![(v, 0)];
    while let Some((at, above)) = open.pop() {
        let d = above + 1;
        match at {
            Value::Array(items) => open.extend(items.iter().map(|i| (i, d))),
            Value::Object(map) => open.extend(map.values().map(|i| (i, d))),
            _ => continue,
        }
        deepest = deepest.max(d);
    }
    deepest
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
    let shown: String = path.chars().take(40).collect();
    if path.len() > MAX_PATH_BYTES || path.split('.').nth(MAX_DEPTH).is_some() {
        return Err(Failure::usage(format!(
            "--set {shown}…: a path has at most {MAX_DEPTH} names and {MAX_PATH_BYTES} bytes"
        )));
    }
    if text.len() > MAX_BODY_BYTES {
        return Err(too_large(&format!("--set {shown}")));
    }
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
    confirm(question, opts.yes)
}

/// [`ask`] with `--yes` given as `yes` (for a question asked where the options are not at
/// hand, such as inside a workflow that may run on another thread).
pub(crate) fn confirm(question: &str, yes: bool) -> Result<bool, Failure> {
    if yes || !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
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

    #[test]
    fn deep_paths_and_bodies_are_usage_errors() {
        let deep = format!("{}=1", vec!["a"; MAX_DEPTH + 1].join("."));
        assert_eq!(parse_set(&deep).unwrap_err().exit, crate::exit::Exit::Usage);
        let fits = format!("{}=1", vec!["a"; MAX_DEPTH].join("."));
        assert!(parse_set(&fits).is_ok());
        let nested = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(whole_body(Some(&nested)).is_ok());
        let deeper = format!("[{nested}]");
        assert_eq!(
            whole_body(Some(&deeper)).unwrap_err().exit,
            crate::exit::Exit::Usage
        );
    }
}
