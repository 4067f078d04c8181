//! The stream of pages and the rules that end it.

use std::future::Future;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::pin::Pin;

use futures_util::Stream;

use crate::error::Error;

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

/// The pages (or items) of a paged operation, as returned by its request's `pages()` and
/// `items()`: a boxed stream, so it is
/// `Unpin` and `Send` (`while let Some(page) = pages.next().await` works as is).
pub type Pages<'a, T> = Pin<Box<dyn Stream<Item = Result<T, Error>> + Send + 'a>>;
