//! A tool's arguments checked against the input schema it declares, before anything else is
//! done: a value of the wrong type, out of range or unknown is a tool error naming the
//! argument and what it takes, never replaced by a default; and the arguments of one call
//! are bounded in size, whatever the transport.

use rmcp::model::Tool;
use ruckus_one_catalog::Table;
use serde_json::{Map, Value};

/// The most bytes the arguments of one call may take (as JSON).
pub(crate) const MAX_ARGUMENTS: usize = 1024 * 1024;
/// Problems reported per call.
const MAX_PROBLEMS: usize = 10;

/// Why `args` do not fit `tool`'s input schema, if they do not. `table` only lends the
/// catalog's validator (the tool schemas have no references).
pub(crate) fn check(tool: &Tool, args: &Map<String, Value>, table: &Table) -> Result<(), String> {
    let size = serde_json::to_string(args).map_or(usize::MAX, |t| t.len());
    if size > MAX_ARGUMENTS {
        return Err(format!(
            "nothing was sent: the arguments take {size} bytes, more than the {MAX_ARGUMENTS} allowed"
        ));
    }
    let schema = Value::Object(tool.input_schema.as_ref().clone());
    let value = Value::Object(args.clone());
    let problems = table.problems(&value, &schema, MAX_PROBLEMS);
    if problems.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = problems.iter().map(|p| line(&schema, p)).collect();
    Err(format!(
        "nothing was sent; the arguments of {} do not fit its input schema:\n- {}",
        tool.name,
        lines.join("\n- ")
    ))
}

/// One problem: the argument it is in, what is wrong, and what the argument takes.
fn line(schema: &Value, problem: &ruckus_one_catalog::Problem) -> String {
    let mut parts = problem.pointer.trim_start_matches('/').splitn(2, '/');
    let name = parts.next().unwrap_or_default();
    let rest = parts.next().map(|r| format!("/{r}")).unwrap_or_default();
    if name.is_empty() {
        return format!("arguments: {}", problem.message);
    }
    let expected = schema["properties"]
        .get(name)
        .map(expects)
        .filter(|e| !e.is_empty());
    match expected {
        Some(e) if rest.is_empty() => format!("`{name}`: {} (expected {e})", problem.message),
        _ if problem.message == "no such field" => {
            format!("`{name}`: not an argument of this tool")
        }
        _ => format!("`{name}`{rest}: {}", problem.message),
    }
}

/// What an argument's schema takes, in words: `a string of at most 200 characters`.
fn expects(schema: &Value) -> String {
    let num = |k: &str| schema.get(k).and_then(Value::as_f64);
    let ty = schema.get("type").and_then(Value::as_str).unwrap_or("");
    if let Some(Value::Array(members)) = schema.get("enum") {
        let names: Vec<String> = members.iter().map(Value::to_string).collect();
        return format!("one of {}", names.join(", "));
    }
    match (ty, num("minimum"), num("maximum")) {
        ("integer", Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
        ("string", ..) => match num("maxLength") {
            Some(max) => format!("a string of at most {max} characters"),
            None => "a string".to_owned(),
        },
        ("array", ..) => "an array of strings".to_owned(),
        ("object", ..) => "an object".to_owned(),
        ("boolean", ..) => "true or false".to_owned(),
        (other, ..) => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Effect;
    use ruckus_one_catalog::Catalog;
    use serde_json::json;

    fn problems(tool: &str, args: Value) -> Result<(), String> {
        let (_, table) = Catalog::get().unwrap().api("network").unwrap();
        let tool = crate::tools::find(tool).unwrap();
        check(&tool, args.as_object().unwrap(), table)
    }

    #[test]
    fn every_mistyped_argument_is_named_with_what_it_takes() {
        let read = Effect::Read.tool();
        let cases = [
            (
                json!({"operation": "get_venue", "tenant": ["customer-a"]}),
                "`tenant`: expected string, got array",
            ),
            (
                json!({"operation": "get_venue", "tenant": {}}),
                "`tenant`: expected string",
            ),
            (
                json!({"operation": "get_venue", "tenant": 7}),
                "`tenant`: expected string",
            ),
            (
                json!({"operation": "query_venues", "limit": "5"}),
                "`limit`: expected integer",
            ),
            (
                json!({"operation": "query_venues", "limit": -1}),
                "(expected an integer from 1 to 100)",
            ),
            (
                json!({"operation": "query_venues", "cursor": 2}),
                "`cursor`: expected string",
            ),
            (json!({"operation": 42}), "`operation`: expected string"),
            (
                json!({"operation": "x", "page": 2}),
                "`page`: not an argument",
            ),
        ];
        for (args, expected) in cases {
            let err = problems(read, args.clone()).unwrap_err();
            assert!(err.contains(expected), "{args}: {err}");
        }
        assert!(problems(read, json!({"operation": "get_venue", "tenant": "c"})).is_ok());
        let err =
            problems("search_operations", json!({"query": "x", "effect": "run"})).unwrap_err();
        assert!(err.contains("`effect`"), "{err}");
    }

    #[test]
    fn big_arguments_are_refused_whatever_their_shape() {
        let body = json!({"searchString": "x".repeat(8 * 1024 * 1024)});
        let err = problems(
            Effect::Read.tool(),
            json!({"operation": "query_venues", "body": body}),
        )
        .unwrap_err();
        assert!(err.contains("more than the 1048576 allowed"), "{err}");
    }
}
