//! The schemas of the structured results (`outputSchema`) of the tools that return data:
//! `invoke_read`, `describe_operation` and `search_operations`. Their text content carries
//! the same JSON for clients that read text only.

use serde_json::{Value, json};

/// `invoke_read`: a page (`rows` and its cursor), or the answer itself (`value` when it is
/// not an object).
pub(crate) fn read_schema() -> Value {
    json!({
        "type": "object",
        "description": "A page of rows with its cursor, or the operation's answer (an answer that is not an object comes as `value`)",
        "properties": {
            "rows": {"type": "array", "description": "Whole rows, each with the fields asked for"},
            "fields": {"type": "array", "items": {"type": "string"}},
            "totalCount": {"type": "integer"},
            "nextCursor": {"type": "string", "description": "Pass back as `cursor` for the rows that follow"},
            "value": {}
        }
    })
}

/// `describe_operation`: what a call needs.
pub(crate) fn describe_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "summary": {"type": "string"},
            "method": {"type": "string"},
            "path": {"type": "string"},
            "effect": {"type": "string", "enum": ["read", "write", "delete"]},
            "tool": {"type": "string"},
            "async": {"type": "boolean"},
            "area": {"type": "string"},
            "lifecycle": {"type": "string"},
            "params": {"type": "object"},
            "body": {"type": "object"},
            "paging": {"type": "string"},
            "columns": {"type": "array", "items": {"type": "string"}},
            "example": {"type": "object"}
        },
        "required": ["id", "method", "path", "effect", "tool"]
    })
}

/// `search_operations`: the operations found, best first.
pub(crate) fn search_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "operations": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "summary": {"type": "string"},
                        "effect": {"type": "string", "enum": ["read", "write", "delete"]},
                        "method": {"type": "string"},
                        "path": {"type": "string"},
                        "area": {"type": "string"},
                        "async": {"type": "boolean"},
                        "paged": {"type": "boolean"},
                        "lifecycle": {"type": "string"},
                        "resource": {"type": "string", "description": "The area's index, as a resource"}
                    },
                    "required": ["id", "summary", "effect", "method", "path", "area"]
                }
            }
        },
        "required": ["operations"]
    })
}
