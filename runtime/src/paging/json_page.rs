//! One page of a JSON answer: its value and what ends the stream.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::scan::Scanned;
use super::stream::Page;
use super::style::{PageStyle, Paging};
use crate::error::Error;
use crate::response::RawResponse;

/// One decoded page and what the stop conditions need.
pub(super) struct JsonPage<T> {
    pub(super) value: T,
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
    pub(super) fn parse<X: DeserializeOwned>(
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
