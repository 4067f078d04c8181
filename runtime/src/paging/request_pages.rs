//! `Request::pages` and `Request::items`: the pages of a generated paged
//! operation.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::json_page::JsonPage;
use super::scan::Count;
use super::stream::{Pages, pages};
use super::style::{PageStyle, Paging};
use crate::request::Request;

impl<'a> Request<'a> {
    /// Every page of a paged operation, from `paging.first_page`, each decoded into `T`.
    ///
    /// The page number goes into the query string (`page=`) or the JSON body's `page` field,
    /// as `paging.style` says. The stream ends after an empty page, a page identical to the
    /// previous one, an error (yielded last), once the response's `totalCount` (or
    /// `paging.totalCount`) items have been yielded, or, when the response states no total,
    /// after a page with fewer items than the page size (the response's `paging.pageSize` or
    /// `pageSize`, else the request's). With a total, shorter pages than asked (a service
    /// capping the page size) do not end the stream, and no request follows the page that
    /// reaches the total.
    ///
    /// With [`PageStyle::Spring`] the page size is the response's `size`, else the request's
    /// `size` query parameter, and the total is `totalElements`; the stream also ends after a
    /// page with `"last": true` or a page whose `number` (else its position from `first_page`)
    /// reaches `totalPages`.
    pub fn pages<T: DeserializeOwned + Send + 'a>(self, paging: Paging) -> Pages<'a, T> {
        // The page is read twice: once for what the stop conditions need (items counted, not
        // kept), once into `T`; no `serde_json::Value` of the whole page is built.
        self.page_stream(paging, |body: &[u8], count: Option<Count>| {
            Ok((serde_json::from_slice::<T>(body)?, count.map_or(0, |c| c.0)))
        })
    }

    /// Every item of every page of a paged operation: the elements of each page's
    /// `paging.items` array, each decoded into `I`, in order. Pages are fetched and end as
    /// for [`pages`](Self::pages); a page whose items do not decode ends the stream with
    /// that error. A page without the items field has no items.
    pub fn items<I: DeserializeOwned + Send + 'a>(self, paging: Paging) -> Pages<'a, I> {
        // One read of the page: its items decoded, the paging keys kept, the rest skipped.
        let pages = self.page_stream(paging, |_: &[u8], items: Option<Option<Vec<I>>>| {
            let items = items.flatten().unwrap_or_default();
            let count = items.len();
            Ok((items, count))
        });
        let items = futures_util::StreamExt::flat_map(pages, |page| {
            futures_util::stream::iter(match page {
                Ok(items) => items.into_iter().map(Ok).collect::<Vec<_>>(),
                Err(err) => vec![Err(err)],
            })
        });
        Box::pin(items)
    }

    /// The pages of `paging`, each turned into `T` and its item count by `decode`, given the
    /// page's body and its items field read as `X` (see [`JsonPage::parse`]).
    fn page_stream<T, X, D>(self, paging: Paging, decode: D) -> Pages<'a, T>
    where
        T: Send + 'a,
        X: DeserializeOwned,
        D: Fn(&[u8], Option<X>) -> Result<(T, usize), serde_json::Error> + Send + Copy + 'a,
    {
        let request_size = requested_page_size(&self, paging.style);
        let stream = pages(paging.first_page, move |number| {
            let request = with_page(self.clone(), paging.style, number);
            async move {
                let raw = request.send_raw().await?;
                JsonPage::parse(raw, &paging, number, request_size, decode)
            }
        });
        Box::pin(futures_util::StreamExt::map(stream, |page| {
            page.map(|p: JsonPage<T>| p.value)
        }))
    }
}

/// `request` asking for page `number`.
fn with_page(mut request: Request<'_>, style: PageStyle, number: u32) -> Request<'_> {
    match style {
        PageStyle::QueryParams | PageStyle::Spring => {
            request.remove_query("page");
            request.query("page", &number);
        }
        PageStyle::QueryBody => {
            let mut body = request
                .json_body()
                .filter(Value::is_object)
                .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
            if let Some(map) = body.as_object_mut() {
                map.insert("page".to_owned(), number.into());
            }
            request.json(&body);
        }
    }
    request
}

/// The request's own page size (`pageSize` in the query or the JSON body;
/// `size` in the query for Spring pages).
fn requested_page_size(request: &Request<'_>, style: PageStyle) -> Option<usize> {
    if style == PageStyle::Spring {
        return request.query_value("size").and_then(|v| v.parse().ok());
    }
    let from_query = request.query_value("pageSize").and_then(|v| v.parse().ok());
    from_query.or_else(|| {
        request
            .json_body()?
            .get("pageSize")?
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
    })
}
