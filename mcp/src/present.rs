//! What the search and describe tools and the resources answer, as compact text and JSON.

use rmcp::model::{CallToolResult, ContentBlock, Resource};
use ruckus_one_catalog::Param;
use serde_json::{Map, Value, json};

use crate::index::{Index, Op};
use crate::schema;

/// One line of a search result or of an area's index:
/// `query_venue_aps: Query APs [read, paged] POST /venues/aps/query`.
pub(crate) fn line(op: &Op) -> String {
    let mut flags = vec![op.effect().as_str()];
    if op.route.asynchronous {
        flags.push("async");
    }
    if op.route.paging.is_some() {
        flags.push("paged");
    }
    if op.route.lifecycle != ruckus_one_catalog::LifecycleStatus::Stable {
        flags.push(op.route.lifecycle.as_str());
    }
    format!(
        "{}: {} [{}] {} {}",
        op.id(),
        op.route.summary,
        flags.join(", "),
        op.route.method.as_str(),
        op.route.path
    )
}

/// The answer of `search_operations`: one line per operation (text), the same as structured
/// content, and a link to the index of each area found.
pub(crate) fn search_result(found: &[Op]) -> CallToolResult {
    let operations: Vec<Value> = found.iter().map(entry).collect();
    let text = if found.is_empty() {
        "no operation matches; try other words, or read ruckus://areas".to_owned()
    } else {
        found.iter().map(line).collect::<Vec<_>>().join("\n")
    };
    let mut content = vec![ContentBlock::text(text)];
    let mut linked: Vec<&str> = Vec::new();
    for op in found {
        let area = op.route.area.as_str();
        if !linked.contains(&area) {
            linked.push(area);
            let link = Resource::new(area_uri(area), format!("{}/{area}", op.table.api.name))
                .with_description(format!("Every operation of the area {area}"))
                .with_mime_type("text/plain");
            content.push(ContentBlock::resource_link(link));
        }
    }
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(json!({ "operations": operations }));
    result
}

/// The resource listing the operations of `area`.
pub(crate) fn area_uri(area: &str) -> String {
    format!("ruckus://operations/{area}")
}

/// One operation found, as structured content.
fn entry(op: &Op) -> Value {
    let mut out = json!({
        "id": op.id(),
        "summary": op.route.summary,
        "effect": op.effect().as_str(),
        "method": op.route.method.as_str(),
        "path": op.route.path,
        "area": op.route.area,
        "async": op.route.asynchronous,
        "paged": op.route.paging.is_some(),
        "resource": area_uri(&op.route.area),
    });
    if op.route.lifecycle != ruckus_one_catalog::LifecycleStatus::Stable {
        out["lifecycle"] = json!(op.route.lifecycle.as_str());
    }
    out
}

/// The description of one operation: what the model needs to call it.
pub(crate) fn describe(op: &Op) -> Value {
    let route = op.route;
    let mut out = json!({
        "id": op.id(),
        "summary": route.summary,
        "method": route.method.as_str(),
        "path": route.path,
        "effect": op.effect().as_str(),
        "tool": op.effect().tool(),
        "async": route.asynchronous,
        "area": route.area,
    });
    if route.lifecycle != ruckus_one_catalog::LifecycleStatus::Stable {
        out["lifecycle"] = json!(route.lifecycle.as_str());
    }
    let params: Map<String, Value> = route
        .path_params
        .iter()
        .map(|p| param(op, p, "path"))
        .chain(route.query.iter().map(|p| param(op, p, "query")))
        .chain(route.headers.iter().map(|p| param(op, p, "header")))
        .collect();
    if !params.is_empty() {
        out["params"] = Value::Object(params);
    }
    if let Some(request) = &route.request {
        out["body"] = json!({
            "required": request.required,
            "schema": schema::trim(&request.schema, op.table, 0),
        });
    }
    if let Some(paging) = &route.paging {
        out["paging"] = json!(format!(
            "rows from `{}`; pass `limit`, `fields` (default: `columns`) and the answer's `nextCursor` as `cursor`",
            paging.items
        ));
        if !route.columns.is_empty() {
            out["columns"] = json!(route.columns);
        }
    }
    out["example"] = example(op);
    out
}

fn param(op: &Op, p: &Param, place: &str) -> (String, Value) {
    let mut v = json!({"in": place, "schema": schema::trim(&p.schema, op.table, 1)});
    if p.required {
        v["required"] = json!(true);
    }
    if !p.description.is_empty() {
        v["description"] = json!(p.description);
    }
    (p.name.clone(), v)
}

/// An example of the invoke tool's arguments for `op`.
fn example(op: &Op) -> Value {
    let route = op.route;
    let mut params = Map::new();
    for p in route
        .path_params
        .iter()
        .chain(route.query.iter().filter(|q| q.required))
    {
        params.insert(p.name.clone(), json!(format!("<{}>", p.name)));
    }
    let mut call = json!({"operation": op.id()});
    if !params.is_empty() {
        call["params"] = Value::Object(params);
    }
    if let Some(request) = &route.request
        && (route.paging.is_none() || request.required)
    {
        call["body"] = schema::example(&request.schema, op.table, 0);
    }
    if route.paging.is_some() {
        call["limit"] = json!(10);
    }
    call
}

/// The areas, one line each: `network/wireless_venues: 23 operations`.
pub(crate) fn areas(index: &Index) -> String {
    let mut out =
        String::from("API/area: operations (read each with ruckus://operations/<area>)\n");
    for (api, area, count) in index.areas() {
        out.push_str(&format!("{api}/{area}: {count}\n"));
    }
    out
}

/// Every operation of `area` (or of every area when `None`), one line each.
pub(crate) fn area_index(index: &Index, area: Option<&str>) -> Option<String> {
    let lines: Vec<String> = index
        .ops
        .iter()
        .filter(|op| area.is_none_or(|a| a == op.route.area))
        .map(line)
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruckus_one_catalog::Catalog;

    #[test]
    fn a_description_has_what_a_call_needs() {
        let index = Index::new(Catalog::get().unwrap());
        let op = index.get("create_venue").unwrap();
        let d = describe(&op);
        assert_eq!(d["tool"], "invoke_write");
        assert_eq!(d["async"], true);
        assert_eq!(d["body"]["schema"]["required"], json!(["name", "address"]));
        assert!(d["example"]["body"]["name"].is_string(), "{d}");
        // Bounded: even the largest body schema stays small.
        let largest = index
            .ops
            .iter()
            .map(|op| describe(op).to_string().len())
            .max()
            .unwrap();
        assert!(largest < 60_000, "{largest}");
        let line = line(&index.get("query_venue_aps").unwrap());
        assert_eq!(
            line,
            "query_venue_aps: Query APs [read, paged] POST /venues/aps/query"
        );
    }
}
