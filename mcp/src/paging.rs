//! Pages that always parse: a read of a paged operation returns whole rows, each cut to the
//! fields asked for (the operation's usual columns by default), as many as `limit` asks and a
//! character budget allows, and a cursor for the rows that follow. The cursor names the next
//! row, so a page the budget cut short goes on where it stopped: no row twice, none skipped.

use ruckus_one_catalog::{PageStyle, Paging};
use serde_json::{Map, Value, json};

/// Rows returned by default, and at most.
pub(crate) const DEFAULT_ROWS: u64 = 20;
pub(crate) const MAX_ROWS: u64 = 100;
/// Characters of rows a page may hold per row asked for, at least [`MIN_BUDGET`] and at most
/// [`MAX_BUDGET`]: the default page stays near 2,000 tokens.
const BUDGET_PER_ROW: usize = 320;
const MIN_BUDGET: usize = 8_000;
const MAX_BUDGET: usize = 32_000;
/// The furthest row a cursor may point at.
const MAX_OFFSET: u64 = 10_000_000;

/// Which fields of each row a page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fields {
    /// The whole row.
    All,
    /// These fields (`a.b` for nested ones), each shown under its name as given.
    Only(Vec<String>),
}

impl Fields {
    /// The fields asked for (`["*"]`: whole rows), else `columns`, else whole rows.
    pub(crate) fn of(asked: Option<Vec<String>>, columns: &[String]) -> Fields {
        match asked {
            Some(list) if list.iter().any(|f| f == "*") => Fields::All,
            Some(list) => Fields::Only(list),
            None if columns.is_empty() => Fields::All,
            None => Fields::Only(columns.to_vec()),
        }
    }

    fn pick(&self, row: &Value) -> Value {
        let (Fields::Only(names), Some(_)) = (self, row.as_object()) else {
            return row.clone();
        };
        let picked: Map<String, Value> = names
            .iter()
            .filter_map(|name| Some((name.clone(), lookup(row, name)?.clone())))
            .collect();
        Value::Object(picked)
    }
}

/// The field at a dotted path (`address.city`) of `row`.
fn lookup<'v>(row: &'v Value, path: &str) -> Option<&'v Value> {
    if let Some(v) = row.get(path) {
        return Some(v);
    }
    path.split('.').try_fold(row, |v, key| v.get(key))
}

/// Where a paged read starts (a row) and how many rows it asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Page {
    pub offset: u64,
    pub limit: u64,
    pub fields: Fields,
}

impl Page {
    /// The page a call asks for: from its cursor's row (`rows:<offset>:<limit>`), else from
    /// the first; `limit` rows (the cursor's when not given). Arguments are checked against
    /// the tool's schema before.
    pub(crate) fn of(
        limit: Option<u64>,
        cursor: Option<&str>,
        fields: Fields,
    ) -> Result<Page, String> {
        let (offset, limit) = match cursor {
            Some(cursor) => {
                let (offset, size) = parse_cursor(cursor)?;
                (offset, limit.unwrap_or(size))
            }
            None => (0, limit.unwrap_or(DEFAULT_ROWS)),
        };
        if !(1..=MAX_ROWS).contains(&limit) {
            return Err(format!("`limit`: {limit} is not from 1 to {MAX_ROWS}"));
        }
        Ok(Page {
            offset,
            limit,
            fields,
        })
    }

    /// The service's page holding the first row asked for (pages of `limit` rows).
    fn number(&self, paging: &Paging) -> u64 {
        paging.first_page + self.offset / self.limit
    }

    /// The query parameters that select this page (styles that page by query).
    pub(crate) fn query(&self, paging: &Paging) -> Vec<(&'static str, String)> {
        let (number, size) = (self.number(paging).to_string(), self.limit.to_string());
        match paging.style {
            PageStyle::QueryBody => Vec::new(),
            PageStyle::QueryParams => vec![("page", number), ("pageSize", size)],
            PageStyle::Spring => vec![("page", number), ("size", size)],
        }
    }

    /// `body` with this page selected (styles that page in the body).
    pub(crate) fn body(&self, paging: &Paging, body: Option<Value>) -> Option<Value> {
        if paging.style != PageStyle::QueryBody {
            return body;
        }
        let mut body = body.unwrap_or_else(|| json!({}));
        if let Some(obj) = body.as_object_mut() {
            obj.insert("page".into(), json!(self.number(paging)));
            obj.insert("pageSize".into(), json!(self.limit));
        }
        Some(body)
    }

    /// The characters of rows this page may hold.
    fn budget(&self) -> usize {
        (self.limit as usize * BUDGET_PER_ROW).clamp(MIN_BUDGET, MAX_BUDGET)
    }

    /// The service's page as this page: whole rows from the first asked for, with their
    /// fields, up to `limit` and the budget (at least one), and the cursor of the next row
    /// when there may be more: `{rows, fields?, totalCount?, nextCursor?}`.
    pub(crate) fn shape(&self, paging: &Paging, answer: Value) -> Result<Value, String> {
        let Some(rows) = answer.get(&paging.items).and_then(Value::as_array) else {
            return Ok(answer);
        };
        let total = answer
            .get("totalCount")
            .or_else(|| answer.get("totalElements"))
            .and_then(Value::as_u64);
        if let Some(total) = total
            && self.offset > 0
            && self.offset >= total
        {
            return Err(format!(
                "`cursor`: row {} is past the end (the answer has {total} rows); nothing to read",
                self.offset
            ));
        }
        let skip = (self.offset % self.limit) as usize;
        let available = rows.len().saturating_sub(skip);
        let (mut out_rows, mut used) = (Vec::new(), 0);
        for row in rows.iter().skip(skip).take(self.limit as usize) {
            let picked = self.fields.pick(row);
            let size = picked.to_string().len() + 1;
            if !out_rows.is_empty() && used + size > self.budget() {
                break;
            }
            used += size;
            out_rows.push(picked);
        }
        let next = self.offset + out_rows.len() as u64;
        let more = match total {
            Some(total) => next < total,
            None => {
                out_rows.len() < available
                    || (rows.len() as u64 >= self.limit && answer.get("last") != Some(&json!(true)))
            }
        };
        let mut out = json!({ "rows": out_rows });
        if let Fields::Only(names) = &self.fields {
            out["fields"] = json!(names);
        }
        if let Some(total) = total {
            out["totalCount"] = json!(total);
        }
        if more {
            out["nextCursor"] = json!(format!("rows:{next}:{}", self.limit));
        }
        Ok(out)
    }
}

/// The row and page size of a cursor this server gave; anything else is refused.
fn parse_cursor(cursor: &str) -> Result<(u64, u64), String> {
    let refused = || {
        format!(
            "`cursor`: `{cursor}` is not a cursor this server gave (pass back a `nextCursor` as it came)"
        )
    };
    let mut parts = cursor.strip_prefix("rows:").ok_or_else(refused)?.split(':');
    let mut number = || -> Result<u64, String> {
        let text = parts.next().ok_or_else(refused)?;
        text.parse().map_err(|_| refused())
    };
    let (offset, size) = (number()?, number()?);
    if parts.next().is_some() || !(1..=MAX_ROWS).contains(&size) {
        return Err(refused());
    }
    if offset > MAX_OFFSET {
        return Err(format!(
            "`cursor`: row {offset} is beyond any answer (at most {MAX_OFFSET}); pass back a `nextCursor` as it came"
        ));
    }
    Ok((offset, size))
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

    fn rows(from: u64, to: u64) -> Vec<Value> {
        (from..to)
            .map(|i| json!({"id": i, "name": format!("row {i}"), "blob": "x".repeat(500)}))
            .collect()
    }

    /// The service: pages of `size` rows of 250 rows.
    fn answer(page: &Page) -> Value {
        let number = page.number(&paging()) - 1;
        let from = (number * page.limit).min(250);
        let to = (from + page.limit).min(250);
        json!({"data": rows(from, to), "totalCount": 250})
    }

    #[test]
    fn pages_chain_by_cursor_with_no_gap_and_no_duplicate() {
        for fields in [Fields::All, Fields::Only(vec!["id".into(), "name".into()])] {
            let mut page = Page::of(Some(100), None, fields.clone()).unwrap();
            let mut seen = Vec::new();
            loop {
                let out = page.shape(&paging(), answer(&page)).unwrap();
                assert!(
                    out.to_string().len() < MAX_BUDGET + 200,
                    "{}",
                    out.to_string().len()
                );
                seen.extend(
                    out["rows"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|r| r["id"].as_u64().unwrap()),
                );
                match out["nextCursor"].as_str() {
                    Some(cursor) => page = Page::of(None, Some(cursor), fields.clone()).unwrap(),
                    None => break,
                }
            }
            assert_eq!(seen, (0..250).collect::<Vec<_>>(), "{fields:?}");
        }
    }

    #[test]
    fn the_body_selects_the_page_and_fields_pick_nested_values() {
        let page = Page::of(Some(2), None, Fields::Only(vec!["address.city".into()])).unwrap();
        assert_eq!(
            page.body(&paging(), None).unwrap(),
            json!({"page": 1, "pageSize": 2})
        );
        let out = page
            .shape(
                &paging(),
                json!({"data": [{"address": {"city": "A"}}, {}, {}], "totalCount": 3}),
            )
            .unwrap();
        assert_eq!(
            out,
            json!({"rows": [{"address.city": "A"}, {}], "fields": ["address.city"], "totalCount": 3, "nextCursor": "rows:2:2"})
        );
    }

    #[test]
    fn cursors_are_checked() {
        let all = || Fields::All;
        for bad in [
            "bogus",
            "rows:1",
            "rows:x:2",
            "rows:1:0",
            "rows:1:101",
            "rows:1:2:3",
            "page:2:20",
        ] {
            assert!(Page::of(None, Some(bad), all()).is_err(), "{bad}");
        }
        let huge = format!("rows:{}:20", u64::MAX);
        assert!(
            Page::of(None, Some(&huge), all())
                .unwrap_err()
                .contains("beyond")
        );
        let past = Page::of(None, Some("rows:300:20"), all()).unwrap();
        let err = past
            .shape(&paging(), json!({"data": [], "totalCount": 250}))
            .unwrap_err();
        assert!(err.contains("past the end"), "{err}");
    }
}
