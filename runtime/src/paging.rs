//! Walking through paginated list and query operations.
//!
//! Generated code pages with [`Request::pages`] and a [`Paging`]; both are
//! built on [`pages`], which turns a "fetch page number n" function into a stream of pages
//! that ends by itself: after an empty page, after a page shorter than its
//! page size (when no total is stated), after a page that says it is the last, once the stated total
//! number of items has been yielded, when the service repeats the previous
//! page, or after an error.
//!
//! ```
//! use futures_util::StreamExt;
//! use ruckus_one_runtime::{Error, paging::{Page, fingerprint_of, pages}};
//!
//! #[derive(serde::Serialize)]
//! struct Users { page: u32, data: Vec<String> }
//!
//! impl Page for Users {
//!     fn item_count(&self) -> usize { self.data.len() }
//!     fn page_size(&self) -> Option<usize> { Some(2) }
//!     fn fingerprint(&self) -> u64 { fingerprint_of(&self.data) }
//! }
//!
//! // Stands in for a generated list call taking a page number.
//! async fn list_users(page: u32) -> Result<Users, Error> {
//!     let data = match page { 1 => vec!["a".into(), "b".into()], 2 => vec!["c".into()], _ => vec![] };
//!     Ok(Users { page, data })
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Error> {
//! let mut stream = std::pin::pin!(pages(1, list_users));
//! let mut names = Vec::new();
//! while let Some(page) = stream.next().await {
//!     names.extend(page?.data);
//! }
//! assert_eq!(names, ["a", "b", "c"]); // page 2 is short: page 3 is never requested
//! # Ok(()) }
//! ```

use std::future::Future;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::pin::Pin;

use futures_util::Stream;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Error;
use crate::request::Request;
use crate::response::RawResponse;

/// A page of results, as needed by [`pages`] to decide when to stop.
pub trait Page {
    /// Number of items on this page.
    fn item_count(&self) -> usize;

    /// The page size the service applied, if the response states it (or the
    /// size that was requested). A page with fewer items is the last one,
    /// unless the page states a [total](Page::total_items).
    fn page_size(&self) -> Option<usize>;

    /// A value that changes whenever the page content changes; a page whose
    /// fingerprint equals the previous page's is treated as a repetition and
    /// ends the stream. [`fingerprint_of`] computes one from a serializable
    /// value.
    fn fingerprint(&self) -> u64;

    /// Whether the page says it is the last one (for example Spring's
    /// `"last": true`, or a page number reaching `totalPages`). Default:
    /// `false`.
    fn is_last(&self) -> bool {
        false
    }

    /// The total number of items over all pages, if the page states it (for
    /// example Spring's `totalElements`); the stream ends once that many
    /// items have been yielded. Default: `None`.
    fn total_items(&self) -> Option<u64> {
        None
    }
}

/// A fingerprint of a serializable value (hash of its JSON form, stable
/// within one process), for
/// implementations of [`Page::fingerprint`]. Values that cannot be
/// serialized get the fingerprint 0.
pub fn fingerprint_of<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    match serde_json::to_vec(value) {
        Ok(bytes) => bytes.hash(&mut hasher),
        Err(_) => return 0,
    }
    hasher.finish()
}

struct State<F> {
    next: Option<u32>,
    fetch: F,
    previous: Option<u64>,
    /// Items yielded so far.
    seen: u64,
}

/// Fetches pages `first_page`, `first_page + 1`, ... with `fetch` and
/// yields them.
///
/// The stream ends after yielding an empty page, a page with fewer items
/// than its [`page_size`](Page::page_size) (only when the page states no
/// [total](Page::total_items): with one, a short page just means the service caps
/// the page size), a page that
/// [says it is the last](Page::is_last), the page that brings the items
/// yielded to the [stated total](Page::total_items), or an error; a page identical to
/// the previous one (same [`fingerprint`](Page::fingerprint)) is not yielded
/// and ends the stream, so a service that ignores the page number cannot
/// cause an endless loop.
pub fn pages<P, F, Fut>(first_page: u32, fetch: F) -> impl Stream<Item = Result<P, Error>>
where
    P: Page,
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<P, Error>>,
{
    let state = State {
        next: Some(first_page),
        fetch,
        previous: None,
        seen: 0,
    };
    futures_util::stream::unfold(state, |mut state| async move {
        let number = state.next?;
        let page = match (state.fetch)(number).await {
            Ok(page) => page,
            Err(err) => {
                state.next = None;
                return Some((Err(err), state));
            }
        };
        let fingerprint = page.fingerprint();
        if state.previous == Some(fingerprint) {
            return None;
        }
        state.previous = Some(fingerprint);
        let count = page.item_count();
        state.seen = state
            .seen
            .saturating_add(u64::try_from(count).unwrap_or(u64::MAX));
        // With a stated total, a short page only means the service caps the page size:
        // the total decides (a short page ends the stream only when there is none).
        let total = page.total_items();
        let short = total.is_none() && page.page_size().is_some_and(|size| count < size);
        let all_seen = total.is_some_and(|total| state.seen >= total);
        state.next = if count == 0 || short || all_seen || page.is_last() {
            None
        } else {
            number.checked_add(1)
        };
        Some((Ok(page), state))
    })
}

/// The pages (or items) of a paged operation, as returned by [`Request::pages`] and
/// [`Request::items`]: a boxed stream, so it is
/// `Unpin` and `Send` (`while let Some(page) = pages.next().await` works as is).
pub type Pages<'a, T> = Pin<Box<dyn Stream<Item = Result<T, Error>> + Send + 'a>>;

/// How a paged operation selects its pages (generated code passes one per paged operation).
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    /// Where the page number goes.
    pub style: PageStyle,
    /// Field of the response that holds the page's items.
    pub items: &'static str,
    /// Number of the first page.
    pub first_page: u32,
}

/// Where the page number of a paged operation goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStyle {
    /// The `page` query parameter.
    QueryParams,
    /// The `page` field of the JSON request body.
    QueryBody,
    /// A Spring Data page: the page number in the `page` query parameter
    /// (pages usually count from 0), the page size in `size` (a `size` or
    /// `sort` set by the caller is kept). The answer's `last`,
    /// `totalPages`, `totalElements` and `size` also end the stream.
    Spring,
}

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

/// One decoded page and what the stop conditions need.
struct JsonPage<T> {
    value: T,
    count: usize,
    size: Option<usize>,
    fingerprint: u64,
    last: bool,
    total: Option<u64>,
}

impl<T> JsonPage<T> {
    /// Page `number` of a `paging` operation. The body is read once for the paging keys (see
    /// [`Scanned`]), its items field as `X`; `decode` then gives the page's value and its item
    /// count from the body and that `X`.
    fn parse<X: DeserializeOwned>(
        raw: RawResponse,
        paging: &Paging,
        number: u32,
        request_size: Option<usize>,
        decode: impl FnOnce(&[u8], Option<X>) -> Result<(T, usize), serde_json::Error>,
    ) -> Result<Self, Error> {
        let scanned = match Scanned::<X>::read(raw.body(), paging.items) {
            Ok(v) => v,
            Err(e) => return Err(raw.into_decode_error(e)),
        };
        let json = &scanned.keys;
        let (size, last, total) = if paging.style == PageStyle::Spring {
            spring_state(json, number.saturating_sub(paging.first_page))
        } else {
            let paging_block = json.get("paging");
            let stated = |key: &str| {
                json.get(key)
                    .or_else(|| paging_block.and_then(|p| p.get(key)))
                    .and_then(Value::as_u64)
            };
            let size = paging_block
                .and_then(|p| p.get("pageSize"))
                .or_else(|| json.get("pageSize"))
                .and_then(Value::as_u64);
            (size, false, stated("totalCount"))
        };
        let size = size.and_then(|n| usize::try_from(n).ok()).or(request_size);
        // The body's bytes: a service repeating a page repeats its answer.
        let fingerprint = {
            let mut hasher = DefaultHasher::new();
            raw.body().as_ref().hash(&mut hasher);
            hasher.finish()
        };
        match decode(raw.body(), scanned.items) {
            Ok((value, count)) => Ok(JsonPage {
                value,
                count,
                size,
                fingerprint,
                last,
                total,
            }),
            Err(e) => Err(raw.into_decode_error(e)),
        }
    }
}

/// The top-level keys of a page that paging reads.
const PAGING_KEYS: [&str; 8] = [
    "paging",
    "pageSize",
    "totalCount",
    "size",
    "number",
    "last",
    "totalPages",
    "totalElements",
];

/// A page body read in one pass without building all of it: its items field (decoded as `X`)
/// and its [`PAGING_KEYS`] (as a JSON object); everything else is skipped. A body that is not
/// an object has neither.
struct Scanned<X> {
    items: Option<X>,
    keys: Value,
}

impl<X: DeserializeOwned> Scanned<X> {
    fn read(body: &[u8], items: &str) -> Result<Scanned<X>, serde_json::Error> {
        use serde::de::DeserializeSeed;
        let mut de = serde_json::Deserializer::from_slice(body);
        let scanned = ScanSeed::<X> {
            items,
            _items: std::marker::PhantomData,
        }
        .deserialize(&mut de)?;
        de.end()?;
        Ok(scanned)
    }
}

struct ScanSeed<'s, X> {
    items: &'s str,
    _items: std::marker::PhantomData<X>,
}

impl<'de, X: DeserializeOwned> serde::de::DeserializeSeed<'de> for ScanSeed<'_, X> {
    type Value = Scanned<X>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Scanned<X>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, X: DeserializeOwned> serde::de::Visitor<'de> for ScanSeed<'_, X> {
    type Value = Scanned<X>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Scanned<X>, A::Error> {
        let mut items = None;
        let mut keys = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == self.items {
                items = Some(map.next_value::<X>()?);
            } else if PAGING_KEYS.contains(&key.as_str()) {
                let value = map.next_value::<Value>()?;
                keys.insert(key, value);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(Scanned {
            items,
            keys: Value::Object(keys),
        })
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Scanned<X>, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Scanned::none())
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }
}

impl<X> Scanned<X> {
    fn none() -> Scanned<X> {
        Scanned {
            items: None,
            keys: Value::Null,
        }
    }
}

/// The number of elements of a JSON array, read without keeping them (0 for any other value).
struct Count(usize);

impl<'de> serde::Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        d.deserialize_any(CountVisitor)
    }
}

struct CountVisitor;

impl<'de> serde::de::Visitor<'de> for CountVisitor {
    type Value = Count;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
        let mut n = 0;
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(Count(n))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Count, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Count(0))
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Count, E> {
        Ok(Count(0))
    }
}

/// What a Spring Data page says: its size, whether it is the last (`last`,
/// or its `number`, else `index`, reaching `totalPages`), and the total
/// number of items (`totalElements`).
fn spring_state(json: &Value, index: u32) -> (Option<u64>, bool, Option<u64>) {
    let number = |key: &str| json.get(key).and_then(Value::as_u64);
    let index = number("number").unwrap_or(u64::from(index));
    let last = json.get("last").and_then(Value::as_bool) == Some(true)
        || number("totalPages").is_some_and(|pages| index.saturating_add(1) >= pages);
    (number("size"), last, number("totalElements"))
}

impl<T> Page for JsonPage<T> {
    fn item_count(&self) -> usize {
        self.count
    }
    fn page_size(&self) -> Option<usize> {
        self.size
    }
    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    fn is_last(&self) -> bool {
        self.last
    }
    fn total_items(&self) -> Option<u64> {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    use std::cell::RefCell;

    #[derive(Debug, Clone, PartialEq, serde::Serialize)]
    struct TestPage {
        items: Vec<u32>,
        size: Option<usize>,
    }

    impl Page for TestPage {
        fn item_count(&self) -> usize {
            self.items.len()
        }
        fn page_size(&self) -> Option<usize> {
            self.size
        }
        fn fingerprint(&self) -> u64 {
            fingerprint_of(self)
        }
    }

    fn page(items: &[u32], size: Option<usize>) -> TestPage {
        TestPage {
            items: items.to_vec(),
            size,
        }
    }

    /// Runs `pages` over canned answers; returns the yielded items and the
    /// page numbers requested.
    async fn run(
        first: u32,
        answers: Vec<Result<TestPage, Error>>,
    ) -> (Vec<Result<TestPage, String>>, Vec<u32>) {
        let requested = RefCell::new(Vec::new());
        let answers = RefCell::new(answers.into_iter());
        let stream = pages(first, |n| {
            requested.borrow_mut().push(n);
            let next = answers.borrow_mut().next();
            async move { next.unwrap_or_else(|| panic!("page {n} fetched past the canned answers")) }
        });
        let out = stream.map(|r| r.map_err(|e| e.to_string())).collect().await;
        (out, requested.into_inner())
    }

    #[tokio::test]
    async fn stops_after_empty_page() {
        let (out, requested) = run(
            1,
            vec![
                Ok(page(&[1, 2], None)),
                Ok(page(&[3], None)),
                Ok(page(&[], None)),
            ],
        )
        .await;
        assert_eq!(requested, vec![1, 2, 3]);
        assert_eq!(out.len(), 3);
        assert_eq!(out[2], Ok(page(&[], None)));
    }

    #[tokio::test]
    async fn stops_after_short_page() {
        let (out, requested) =
            run(0, vec![Ok(page(&[1, 2], Some(2))), Ok(page(&[3], Some(2)))]).await;
        assert_eq!(requested, vec![0, 1]);
        assert_eq!(
            out,
            vec![Ok(page(&[1, 2], Some(2))), Ok(page(&[3], Some(2)))]
        );
    }

    #[tokio::test]
    async fn stops_on_repeated_page() {
        let (out, requested) = run(
            1,
            vec![
                Ok(page(&[1, 2], Some(2))),
                Ok(page(&[3, 4], Some(2))),
                Ok(page(&[3, 4], Some(2))),
            ],
        )
        .await;
        assert_eq!(requested, vec![1, 2, 3]);
        assert_eq!(
            out,
            vec![Ok(page(&[1, 2], Some(2))), Ok(page(&[3, 4], Some(2)))]
        );
    }

    #[tokio::test]
    async fn stops_after_error() {
        let (out, requested) = run(1, vec![Ok(page(&[1], Some(1))), Err(Error::Timeout)]).await;
        assert_eq!(requested, vec![1, 2]);
        assert_eq!(out.len(), 2);
        assert!(out[1].is_err());
    }

    #[tokio::test]
    async fn stops_at_last_page_number() {
        let (out, requested) = run(u32::MAX, vec![Ok(page(&[1], Some(1)))]).await;
        assert_eq!(requested, vec![u32::MAX]);
        assert_eq!(out.len(), 1);
    }

    /// A page that states whether it is the last and the total item count.
    struct Stated {
        items: usize,
        last: bool,
        total: Option<u64>,
        n: u32,
    }

    impl Page for Stated {
        fn item_count(&self) -> usize {
            self.items
        }
        fn page_size(&self) -> Option<usize> {
            None
        }
        fn fingerprint(&self) -> u64 {
            u64::from(self.n)
        }
        fn is_last(&self) -> bool {
            self.last
        }
        fn total_items(&self) -> Option<u64> {
            self.total
        }
    }

    async fn requested(page: impl Fn(u32) -> Stated) -> Vec<u32> {
        let requested = RefCell::new(Vec::new());
        let stream = pages(0, |n| {
            requested.borrow_mut().push(n);
            assert!(n < 10, "runaway paging");
            let answer = page(n);
            async move { Ok::<_, Error>(answer) }
        });
        let _: Vec<_> = stream.collect().await;
        requested.into_inner()
    }

    #[tokio::test]
    async fn stops_after_a_page_that_says_it_is_last() {
        let got = requested(|n| Stated {
            items: 2,
            last: n == 2,
            total: None,
            n,
        })
        .await;
        assert_eq!(got, [0, 1, 2]);
    }

    #[tokio::test]
    async fn stops_once_the_stated_total_was_yielded() {
        let got = requested(|n| Stated {
            items: 2,
            last: false,
            total: Some(5),
            n,
        })
        .await;
        assert_eq!(got, [0, 1, 2]);
        // Without the statements, only the runaway guard would stop it.
        let got = requested(|n| Stated {
            items: 2,
            last: false,
            total: None,
            n: n.min(4),
        })
        .await;
        assert_eq!(got, [0, 1, 2, 3, 4, 5]);
    }

    /// A page of `items` items out of `total`, which says its size is 5.
    struct Capped {
        items: usize,
        total: Option<u64>,
        n: u32,
    }

    impl Page for Capped {
        fn item_count(&self) -> usize {
            self.items
        }
        fn page_size(&self) -> Option<usize> {
            Some(5)
        }
        fn fingerprint(&self) -> u64 {
            u64::from(self.n)
        }
        fn total_items(&self) -> Option<u64> {
            self.total
        }
    }

    #[tokio::test]
    async fn a_stated_total_outweighs_short_pages() {
        let requested = RefCell::new(Vec::new());
        let stream = pages(0, |n| {
            requested.borrow_mut().push(n);
            assert!(n < 10, "runaway paging");
            let answer = Capped {
                items: 2,
                total: Some(6),
                n,
            };
            async move { Ok::<_, Error>(answer) }
        });
        let _: Vec<_> = stream.collect().await;
        assert_eq!(requested.into_inner(), [0, 1, 2]);
    }

    #[test]
    fn a_page_is_read_for_its_items_and_paging_keys_only() {
        let body = br#"{"data":[1,{"a":[2]},"x"],"totalCount":7,"paging":{"pageSize":3},"other":{"b":[1]}}"#;
        let page = Scanned::<Count>::read(body, "data").expect("reads");
        assert_eq!(page.items.map(|c| c.0), Some(3));
        assert_eq!(
            page.keys,
            serde_json::json!({"totalCount": 7, "paging": {"pageSize": 3}})
        );
        let null = Scanned::<Option<Vec<u32>>>::read(br#"{"data":null}"#, "data").expect("reads");
        assert!(matches!(null.items, Some(None)));
        assert!(Scanned::<Option<Vec<u32>>>::read(br#"{"data":"no"}"#, "data").is_err());
        let not_object = Scanned::<Count>::read(b"[1,2]", "data").expect("reads");
        assert!(not_object.items.is_none() && not_object.keys.is_null());
        let object = Scanned::<Count>::read(br#"{"data":{"a":1}}"#, "data").expect("reads");
        assert_eq!(object.items.map(|c| c.0), Some(0));
        assert!(Scanned::<Count>::read(br#"{"data":[1]} x"#, "data").is_err());
    }

    #[test]
    fn fingerprint_is_stable_and_content_sensitive() {
        assert_eq!(
            fingerprint_of(&page(&[1], None)),
            fingerprint_of(&page(&[1], None))
        );
        assert_ne!(
            fingerprint_of(&page(&[1], None)),
            fingerprint_of(&page(&[2], None))
        );
    }
}
