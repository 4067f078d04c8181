//! Tests of paging.

use super::scan::{Count, Scanned};
use super::*;
use crate::error::Error;
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
    let (out, requested) = run(0, vec![Ok(page(&[1, 2], Some(2))), Ok(page(&[3], Some(2)))]).await;
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
    let body =
        br#"{"data":[1,{"a":[2]},"x"],"totalCount":7,"paging":{"pageSize":3},"other":{"b":[1]}}"#;
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
