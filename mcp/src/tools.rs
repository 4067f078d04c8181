//! The few fixed tools: search the operations, describe one, and call one through the invoke
//! tool of its effect. Each invoke tool carries the annotations of the operations it calls,
//! and the write and delete tools are listed only when the policy allows them.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use crate::index::{Effect, INVOKE_DELETE, INVOKE_READ, INVOKE_WRITE};
use crate::policy::Policy;

pub(crate) const SEARCH: &str = "search_operations";
pub(crate) const DESCRIBE: &str = "describe_operation";

/// The tools `policy` allows, in the order they are listed.
pub(crate) fn list(policy: &Policy) -> Vec<Tool> {
    let mut tools = vec![search(), describe(), invoke(Effect::Read)];
    if policy.writes {
        tools.push(invoke(Effect::Write));
        if policy.deletes {
            tools.push(invoke(Effect::Delete));
        }
    }
    tools
}

fn tool(
    name: &'static str,
    description: &'static str,
    schema: Value,
    notes: ToolAnnotations,
) -> Tool {
    let Value::Object(schema) = schema else {
        unreachable!("tool schemas are objects")
    };
    Tool::new(name, description, Arc::new(schema as JsonObject)).with_annotations(notes)
}

fn search() -> Tool {
    tool(
        SEARCH,
        "Find RUCKUS One API operations by words or a path. Returns ranked ids, each with \
         its purpose, effect (read/write/delete), `async` and `paged`. Next: describe_operation.",
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words (\"list APs of a venue\") or a path (/venues/{venueId})"},
                "area": {"type": "string", "description": "Only this area (resource ruckus://areas lists them)"},
                "effect": {"type": "string", "enum": ["read", "write", "delete"]},
                "limit": {"type": "integer", "minimum": 1, "maximum": 25}
            },
            "required": ["query"]
        }),
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true),
    )
}

fn describe() -> Tool {
    tool(
        DESCRIBE,
        "Show one operation: method, path, parameters, body schema and an example call.",
        json!({
            "type": "object",
            "properties": {"operation": {"type": "string", "description": "Id from search_operations"}},
            "required": ["operation"]
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
            INVOKE_READ,
            "Call a read operation (checked against its schema first). Paged reads return \
             at most `limit` rows and a `nextCursor` to pass back as `cursor`.",
            ToolAnnotations::new()
                .read_only(true)
                .destructive(false)
                .idempotent(true),
        ),
        Effect::Write => (
            INVOKE_WRITE,
            "Call a write operation (checked first). Asynchronous ones run as a task until \
             their activity ends.",
            ToolAnnotations::new()
                .read_only(false)
                .destructive(false)
                .idempotent(false),
        ),
        Effect::Delete => (
            INVOKE_DELETE,
            "Call a delete operation. The user is asked to confirm first; declined means \
             nothing is deleted.",
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(true),
        ),
    };
    let mut properties = json!({
        "operation": {"type": "string"},
        "params": {"type": "object", "description": "Path, query and header parameters by name"},
        "tenant": {"type": "string", "description": "Customer tenant id to act for (MSP)"}
    });
    match effect {
        Effect::Read => {
            properties["body"] = json!({"description": "Request body, if the operation has one"});
            properties["limit"] = json!({"type": "integer", "minimum": 1, "maximum": 100});
            properties["cursor"] = json!({"type": "string"});
        }
        Effect::Write => properties["body"] = json!({"description": "Request body"}),
        Effect::Delete => properties["body"] = json!({"description": "Request body, if any"}),
    }
    tool(
        name,
        description,
        json!({"type": "object", "properties": properties, "required": ["operation"]}),
        notes,
    )
}

/// The tool list as the client receives it (JSON), for measuring its size (in the tests).
#[cfg(test)]
pub(crate) fn list_json(policy: &Policy) -> String {
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
        assert_eq!(names(&Policy::default()), [SEARCH, DESCRIBE, INVOKE_READ]);
        let all = Policy {
            writes: true,
            deletes: true,
            tenants: None,
        };
        assert_eq!(names(&all).len(), 5);
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
