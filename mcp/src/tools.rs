//! The few fixed tools: search the operations, describe one, and call one through the invoke
//! tool of its effect. Each invoke tool carries the annotations of the operations it calls,
//! and the write and delete tools are listed only when the policy allows them.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use crate::index::{Effect, INVOKE_DELETE, INVOKE_READ, INVOKE_WRITE};
use crate::policy::Policy;

pub(crate) const SEARCH: &str = "search_operations";
pub(crate) const PLAN: &str = "plan";
pub(crate) const DESCRIBE: &str = "describe_operation";

/// The tools `policy` allows, in the order they are listed.
pub(crate) fn list(policy: &Policy) -> Vec<Tool> {
    let mut tools = vec![search(), describe(), invoke(Effect::Read), plan()];
    if policy.writes {
        tools.push(invoke(Effect::Write));
        if policy.deletes {
            tools.push(invoke(Effect::Delete));
        }
    }
    tools
}

/// Every tool the server has, allowed or not (arguments are checked against these schemas).
pub(crate) fn find(name: &str) -> Option<Tool> {
    let all = [
        search(),
        describe(),
        invoke(Effect::Read),
        plan(),
        invoke(Effect::Write),
        invoke(Effect::Delete),
    ];
    all.into_iter().find(|t| t.name == name)
}

/// A tool whose arguments are exactly `properties` (no other argument is accepted).
fn tool(
    (name, title): (&'static str, &'static str),
    description: &'static str,
    mut schema: Value,
    mut notes: ToolAnnotations,
) -> Tool {
    schema["additionalProperties"] = Value::Bool(false);
    notes.title = Some(title.to_owned());
    Tool::new(name, description, Arc::new(object(schema)))
        .with_title(title)
        .with_annotations(notes)
}

fn object(schema: Value) -> JsonObject {
    match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn search() -> Tool {
    let found = tool(
        (SEARCH, "Search RUCKUS One operations"),
        "Find RUCKUS One API operations by words or a path. Returns ranked ids, each with \
         its purpose, effect (read/write/delete), `async` and `paged`. Next: describe_operation.",
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "maxLength": 1000, "description": "Words (\"list APs of a venue\") or a path (/venues/{venueId})"},
                "area": {"type": "string", "maxLength": 200, "description": "Only this area (resource ruckus://areas lists them)"},
                "effect": {"type": "string", "enum": ["read", "write", "delete"]},
                "limit": {"type": "integer", "minimum": 1, "maximum": 25}
            },
            "required": ["query"]
        }),
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true),
    );
    found.with_raw_output_schema(Arc::new(object(crate::structured::search_schema())))
}

fn describe() -> Tool {
    let described = tool(
        (DESCRIBE, "Describe a RUCKUS One operation"),
        "Show one operation: method, path, parameters, body schema and an example call.",
        json!({
            "type": "object",
            "properties": {"operation": {"type": "string", "maxLength": 300, "description": "Id from search_operations"}},
            "required": ["operation"]
        }),
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true),
    );
    described.with_raw_output_schema(Arc::new(object(crate::structured::describe_schema())))
}

fn plan() -> Tool {
    tool(
        (PLAN, "Plan a desired state"),
        "What `ruckus apply` would change to make a tenant match a desired state (files of \
         `ruckus export`: a folder, or `documents` given inline), and the verdict of trying it \
         on a simulator seeded with the live state. Changes nothing.",
        json!({
            "type": "object",
            "properties": {
                "dir": {"type": "string", "description": "Folder of the desired state on the server's machine"},
                "documents": {"type": "object", "additionalProperties": {"type": "string"}, "description": "File path (as ruckus export lays them out) -> YAML text"},
                "tenant": {"type": "string", "maxLength": 200, "description": "Customer tenant id to plan for (MSP)"},
                "prune": {"type": "boolean", "description": "Also plan deletes of objects no file describes"}
            }
        }),
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true),
    )
}

/// The invoke tool of `effect`, with its annotations.
fn invoke(effect: Effect) -> Tool {
    let (name, description, notes) = match effect {
        Effect::Read => (
            (INVOKE_READ, "Read from RUCKUS One"),
            "Call a read operation (checked against its schema first). Paged reads return \
             whole rows (`limit`, at most 100, fewer when they would not fit) with the \
             operation's usual `fields`, and a `nextCursor` to pass back as `cursor`.",
            ToolAnnotations::new()
                .read_only(true)
                .destructive(false)
                .idempotent(true),
        ),
        Effect::Write => (
            (INVOKE_WRITE, "Change RUCKUS One"),
            "Call a write operation (checked first). Asynchronous ones run as a task until \
             their activity ends.",
            ToolAnnotations::new()
                .read_only(false)
                .destructive(false)
                .idempotent(false),
        ),
        Effect::Delete => (
            (INVOKE_DELETE, "Delete from RUCKUS One"),
            "Call a delete operation. The user is asked to confirm first; declined means \
             nothing is deleted.",
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(true),
        ),
    };
    let mut properties = json!({
        "operation": {"type": "string", "maxLength": 300},
        "params": {"type": "object", "description": "Path, query and header parameters by name"},
        "tenant": {"type": "string", "maxLength": 200, "description": "Customer tenant id to act for (MSP)"}
    });
    match effect {
        Effect::Read => {
            properties["body"] = json!({"description": "Request body, if the operation has one"});
            properties["limit"] = json!({"type": "integer", "minimum": 1, "maximum": 100});
            properties["cursor"] = json!({"type": "string", "maxLength": 100});
            properties["fields"] = json!({
                "type": "array", "maxItems": 50,
                "items": {"type": "string", "minLength": 1, "maxLength": 200},
                "description": "Row fields to return (`a.b` for nested ones; [\"*\"]: whole rows); default: the operation's usual columns"
            });
        }
        Effect::Write => properties["body"] = json!({"description": "Request body"}),
        Effect::Delete => properties["body"] = json!({"description": "Request body, if any"}),
    }
    let tool = tool(
        name,
        description,
        json!({"type": "object", "properties": properties, "required": ["operation"]}),
        notes,
    );
    match effect {
        Effect::Read => {
            tool.with_raw_output_schema(Arc::new(object(crate::structured::read_schema())))
        }
        _ => tool,
    }
}

/// The tool list as the client receives it (JSON), for measuring its size.
#[cfg(test)]
fn list_json(policy: &Policy) -> String {
    serde_json::to_string(&list(policy)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_lists_no_write_tool_and_annotations_follow_the_effect() {
        let names = |p: &Policy| {
            list(p)
                .iter()
                .map(|t| t.name.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&Policy::default()),
            [SEARCH, DESCRIBE, INVOKE_READ, PLAN]
        );
        let all = Policy {
            writes: true,
            deletes: true,
            tenants: None,
        };
        assert_eq!(names(&all).len(), 6);
        let delete = list(&all).pop().unwrap();
        let notes = delete.annotations.unwrap();
        assert_eq!(notes.destructive_hint, Some(true));
        assert_eq!(notes.read_only_hint, Some(false));
    }

    #[test]
    fn the_tool_list_stays_small() {
        let all = Policy {
            writes: true,
            deletes: true,
            tenants: None,
        };
        // Characters / 4 as the token estimate; the target is under 2,000 tokens.
        assert!(
            list_json(&all).len() / 4 < 2_000,
            "{}",
            list_json(&all).len()
        );
    }
}
