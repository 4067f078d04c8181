//! Lists and queries: search, filters, sorting and paging over a collection, answered in the
//! page shape of the operation's paging style (`query_body`: `totalCount`, `page` and the items
//! field; `spring`: `content`, `totalElements`, ...; `page_params`: a `paging` envelope).

use crate::model::{PageStyle, Route, Table};
use serde_json::{Map, Value, json};
use std::cmp::Ordering;

/// What a query asks for.
#[derive(Debug, Default)]
pub struct Ask {
    /// Page number as the operation counts (from `first_page`).
    pub page: Option<u64>,
    /// Rows per page (`pageSize`, or `size`); `None` or 0: 10, or 20 for Spring paging; at
    /// most 10,000.
    pub page_size: Option<u64>,
    /// The row field to sort by (`sortField`, or the first part of `sort=field,desc`);
    /// `None`: creation order.
    pub sort_field: Option<String>,
    /// Sort in descending order (`sortOrder` or the `sort` suffix `desc`, in any case).
    pub descending: bool,
    /// Keep only rows with a string field containing this, ignoring case (`searchString`,
    /// or `search`); empty: no search.
    pub search: Option<String>,
    /// The fields the search looks in (`searchTargetFields`); empty: every field.
    pub search_fields: Vec<String>,
    /// Field -> accepted values.
    pub filters: Vec<(String, Vec<Value>)>,
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

impl Ask {
    /// From a query body (`page`, `pageSize`, `sortField`, `sortOrder`, `searchString`,
    /// `searchTargetFields`, `filters`).
    pub fn from_body(body: Option<&Value>) -> Ask {
        let Some(b) = body.and_then(Value::as_object) else {
            return Ask::default();
        };
        let filters = b
            .get("filters")
            .and_then(Value::as_object)
            .map(|f| {
                f.iter()
                    .map(|(k, v)| match v {
                        Value::Array(vs) => (k.clone(), vs.clone()),
                        other => (k.clone(), vec![other.clone()]),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ask {
            page: b.get("page").and_then(Value::as_u64),
            page_size: b.get("pageSize").and_then(Value::as_u64),
            sort_field: b
                .get("sortField")
                .and_then(Value::as_str)
                .map(str::to_owned),
            descending: b
                .get("sortOrder")
                .and_then(Value::as_str)
                .is_some_and(|o| o.eq_ignore_ascii_case("desc")),
            search: b
                .get("searchString")
                .and_then(Value::as_str)
                .map(str::to_owned),
            search_fields: b
                .get("searchTargetFields")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            filters,
        }
    }

    /// From query parameters (`page`, `pageSize` or `size`, `sort=field,asc`, `search`).
    pub fn from_params(params: &[(String, String)]) -> Ask {
        let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        let sort = get("sort").map(|s| s.split(',').map(str::to_owned).collect::<Vec<_>>());
        Ask {
            page: get("page").and_then(|p| p.parse().ok()),
            page_size: get("pageSize")
                .or_else(|| get("size"))
                .and_then(|p| p.parse().ok()),
            sort_field: sort.as_ref().and_then(|s| s.first().cloned()),
            descending: sort
                .as_ref()
                .and_then(|s| s.get(1))
                .is_some_and(|o| o.eq_ignore_ascii_case("desc")),
            search: get("searchString")
                .or_else(|| get("search"))
                .map(str::to_owned),
            ..Ask::default()
        }
    }

    fn keeps(&self, item: &Value) -> bool {
        let filtered = self.filters.iter().all(|(field, values)| {
            let have = item.get(field).and_then(text);
            values.is_empty() || values.iter().any(|v| text(v).is_some() && text(v) == have)
        });
        let Some(needle) = self.search.as_deref().filter(|s| !s.is_empty()) else {
            return filtered;
        };
        let needle = needle.to_lowercase();
        let found = match item.as_object() {
            Some(m) => m
                .iter()
                .filter(|(k, _)| self.search_fields.is_empty() || self.search_fields.contains(k))
                .filter_map(|(_, v)| v.as_str())
                .any(|v| v.to_lowercase().contains(&needle)),
            None => false,
        };
        filtered && found
    }

    /// The page: items kept, sorted and cut, and the total before cutting.
    pub fn run(
        &self,
        items: Vec<Value>,
        first_page: u64,
        default_size: u64,
    ) -> (Vec<Value>, u64, u64, u64) {
        let mut kept: Vec<Value> = items.into_iter().filter(|i| self.keeps(i)).collect();
        if let Some(field) = &self.sort_field {
            kept.sort_by(|a, b| compare(a.get(field), b.get(field)));
            if self.descending {
                kept.reverse();
            }
        }
        let total = kept.len() as u64;
        let size = self
            .page_size
            .filter(|s| *s > 0)
            .unwrap_or(default_size)
            .min(10_000);
        let page = self.page.unwrap_or(first_page).max(first_page);
        let skip = (page - first_page).saturating_mul(size);
        let items = kept
            .into_iter()
            .skip(usize::try_from(skip).unwrap_or(usize::MAX))
            .take(usize::try_from(size).unwrap_or(usize::MAX))
            .collect();
        (items, total, page, size)
    }
}

fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (Some(Value::Number(x)), Some(Value::Number(y))) => x
            .as_f64()
            .partial_cmp(&y.as_f64())
            .unwrap_or(Ordering::Equal),
        (Some(x), Some(y)) => text(x).cmp(&text(y)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// The answer of a list or query of `items` in the route's page shape (a bare list when the
/// answer is a list and the route has no paging).
pub fn page(table: &Table, route: &Route, ask: &Ask, items: Vec<Value>) -> Value {
    let style = route.paging.as_ref().map(|p| p.style);
    let first = route.paging.as_ref().map_or(1, |p| p.first_page);
    let listed = list_field(table, &route.response.schema);
    let field = route
        .paging
        .as_ref()
        .map(|p| p.items.as_str())
        .or(listed)
        .unwrap_or("data");
    let bare = route.response.schema.get("type").and_then(Value::as_str) == Some("array");
    if route.paging.is_none() && bare {
        let (items, ..) = ask.run(items, 1, 10_000);
        return Value::Array(items);
    }
    let default_size = if style == Some(PageStyle::Spring) {
        20
    } else {
        10
    };
    let (items, total, page, size) = ask.run(items, first, default_size);
    let pages = total.div_ceil(size.max(1));
    let mut out = Map::new();
    match style {
        Some(PageStyle::Spring) => {
            let n = items.len();
            out.insert(field.to_owned(), Value::Array(items));
            for (k, v) in [
                ("totalElements", json!(total)),
                ("totalPages", json!(pages)),
                ("number", json!(page)),
                ("size", json!(size)),
                ("numberOfElements", json!(n)),
                ("first", json!(page == first)),
                ("last", json!(page + 1 >= first + pages)),
                ("empty", json!(n == 0)),
            ] {
                out.insert(k.to_owned(), v);
            }
        }
        Some(PageStyle::QueryParams) => {
            out.insert(
                "paging".to_owned(),
                json!({"totalCount": total, "page": page, "pageSize": size, "pageCount": pages}),
            );
            out.insert(field.to_owned(), Value::Array(items));
        }
        Some(PageStyle::QueryBody) | None => {
            out.insert("totalCount".to_owned(), json!(total));
            out.insert("page".to_owned(), json!(page));
            out.insert(field.to_owned(), Value::Array(items));
        }
    }
    Value::Object(out)
}

/// The one list field of an unpaged answer object (`{"result": [...]}`), where it has exactly
/// one: where a list's rows go when the spec gives no paging.
fn list_field<'t>(table: &'t Table, schema: &'t Value) -> Option<&'t str> {
    let schema = table.deref(schema);
    let props = schema.get("properties")?.as_object()?;
    let mut lists = props.iter().filter(|(_, p)| {
        let ty = p.get("type");
        ty.and_then(Value::as_str) == Some("array")
            || ty
                .and_then(Value::as_array)
                .is_some_and(|t| t.iter().any(|x| x == "array"))
    });
    match (lists.next(), lists.next()) {
        (Some((name, _)), None) => Some(name.as_str()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_search_sort_and_pages() {
        let items: Vec<Value> = (0..25)
            .map(|i| json!({"id": format!("v{i:02}"), "name": if i % 2 == 0 { "even" } else { "odd" }, "n": i}))
            .collect();
        let ask = Ask::from_body(Some(&json!({
            "page": 2, "pageSize": 5, "sortField": "n", "sortOrder": "DESC",
            "searchString": "EVE", "searchTargetFields": ["name"],
        })));
        let (page, total, number, size) = ask.run(items.clone(), 1, 10);
        assert_eq!((total, number, size), (13, 2, 5));
        let ns: Vec<i64> = page.iter().filter_map(|v| v["n"].as_i64()).collect();
        assert_eq!(ns, vec![14, 12, 10, 8, 6]);
        let ask = Ask::from_body(Some(&json!({"filters": {"id": ["v03", "v04"]}})));
        assert_eq!(ask.run(items, 1, 10).1, 2);
    }
}
