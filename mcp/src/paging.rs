//! Bounded pages: a read of a paged operation returns at most `limit` rows and a cursor for
//! the next ones, whatever page size the model asked for.

use ruckus_one_catalog::{PageStyle, Paging};
use serde_json::{Value, json};

/// Rows returned by default, and at most.
pub(crate) const DEFAULT_ROWS: u64 = 20;
pub(crate) const MAX_ROWS: u64 = 100;

/// Where a paged read starts: the page number and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    pub number: u64,
    pub size: u64,
}

impl Page {
    /// The page a call asks for: its cursor's (`page:<n>:<size>`), else the first with
    /// `limit` rows.
    pub(crate) fn of(
        paging: &Paging,
        limit: Option<u64>,
        cursor: Option<&str>,
    ) -> Result<Page, String> {
        if let Some(cursor) = cursor {
            let mut parts = cursor.strip_prefix("page:").unwrap_or("").split(':');
            let number = parts.next().and_then(|n| n.parse().ok());
            let size = parts.next().and_then(|n| n.parse().ok());
            return match (number, size) {
                (Some(number), Some(size)) if size <= MAX_ROWS => Ok(Page { number, size }),
                _ => Err(format!("cursor `{cursor}` is not one this server gave")),
            };
        }
        let size = limit.unwrap_or(DEFAULT_ROWS).clamp(1, MAX_ROWS);
        Ok(Page {
            number: paging.first_page,
            size,
        })
    }

    /// The query parameters that select this page (styles that page by query).
    pub(crate) fn query(&self, paging: &Paging) -> Vec<(&'static str, String)> {
        match paging.style {
            PageStyle::QueryBody => Vec::new(),
            PageStyle::QueryParams => vec![
                ("page", self.number.to_string()),
                ("pageSize", self.size.to_string()),
            ],
            PageStyle::Spring => vec![
                ("page", self.number.to_string()),
                ("size", self.size.to_string()),
            ],
        }
    }

    /// `body` with this page selected (styles that page in the body).
    pub(crate) fn body(&self, paging: &Paging, body: Option<Value>) -> Option<Value> {
        if paging.style != PageStyle::QueryBody {
            return body;
        }
        let mut body = body.unwrap_or_else(|| json!({}));
        if let Some(obj) = body.as_object_mut() {
            obj.insert("page".into(), json!(self.number));
            obj.insert("pageSize".into(), json!(self.size));
        }
        Some(body)
    }

    /// The answer cut to this page's rows, with the cursor of the next page when there may be
    /// more: `{rows, totalCount?, nextCursor?}`.
    pub(crate) fn shape(&self, paging: &Paging, answer: Value) -> Value {
        let Some(rows) = answer.get(&paging.items).and_then(Value::as_array) else {
            return answer;
        };
        let mut rows = rows.clone();
        let full = rows.len() as u64 >= self.size;
        rows.truncate(self.size as usize);
        let total = answer
            .get("totalCount")
            .or_else(|| answer.get("totalElements"))
            .and_then(Value::as_u64);
        let seen = (self.number + 1 - paging.first_page) * self.size;
        let more = match total {
            Some(total) => seen < total,
            None => full && answer.get("last") != Some(&Value::Bool(true)),
        };
        let mut out = json!({ "rows": rows });
        if let Some(total) = total {
            out["totalCount"] = json!(total);
        }
        if more {
            out["nextCursor"] = json!(format!("page:{}:{}", self.number + 1, self.size));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paging() -> Paging {
        Paging {
            style: PageStyle::QueryBody,
            items: "data".into(),
            first_page: 1,
            row: None,
        }
    }

    #[test]
    fn pages_are_bounded_and_chain_by_cursor() {
        let page = Page::of(&paging(), Some(1000), None).unwrap();
        assert_eq!(
            page,
            Page {
                number: 1,
                size: MAX_ROWS
            }
        );
        let page = Page::of(&paging(), Some(2), None).unwrap();
        let body = page.body(&paging(), None).unwrap();
        assert_eq!(body, json!({"page": 1, "pageSize": 2}));
        let shaped = page.shape(&paging(), json!({"data": [1, 2, 3], "totalCount": 5}));
        assert_eq!(
            shaped,
            json!({"rows": [1, 2], "totalCount": 5, "nextCursor": "page:2:2"})
        );
        let next = Page::of(&paging(), None, Some("page:3:2")).unwrap();
        let last = next.shape(&paging(), json!({"data": [5], "totalCount": 5}));
        assert_eq!(last.get("nextCursor"), None);
        assert!(Page::of(&paging(), None, Some("bogus")).is_err());
    }
}
