//! `Request::items`: the items of every page, and where the stream ends, against a server that
//! may cap the page size below the size asked for.

mod common;

use common::*;
use futures_util::StreamExt;
use ruckus_one_runtime::Error;
use ruckus_one_runtime::internal::{PageStyle, Paging, Request};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Respond, ResponseTemplate};

/// Serves `count` items (`{"id": "i<n>"}`) on `GET /api/things`, at most `cap` per page, page
/// numbers counted from `first`; `envelope(items, page index)` builds each answer.
struct Capped {
    count: usize,
    cap: usize,
    first: usize,
    envelope: fn(Vec<Value>, usize) -> Value,
}

impl Respond for Capped {
    fn respond(&self, request: &wiremock::Request) -> ResponseTemplate {
        let page: usize = request
            .url
            .query_pairs()
            .find(|(k, _)| k == "page")
            .and_then(|(_, v)| v.parse().ok())
            .expect("a page number");
        let start = (page - self.first) * self.cap;
        let items = (start..self.count.max(start))
            .take(self.cap)
            .map(|n| json!({"id": format!("i{n}")}))
            .collect();
        ResponseTemplate::new(200).set_body_json((self.envelope)(items, page - self.first))
    }
}

#[derive(Debug, serde::Deserialize)]
struct Thing {
    id: String,
}

/// Runs `items::<Thing>` with `size_param=asked`; returns the ids (or the error text) and the
/// number of page requests.
async fn run(
    capped: Capped,
    style: PageStyle,
    size_param: &'static str,
    asked: usize,
) -> (Vec<Result<String, String>>, usize) {
    let server = server().await;
    let first_page = u32::try_from(capped.first).unwrap();
    Mock::given(method("GET"))
        .and(path("/api/things"))
        .respond_with(capped)
        .mount(&server)
        .await;
    let ids = collect(&server, style, first_page, size_param, asked).await;
    (ids, received(&server, "/api/things").await.len())
}

async fn collect(
    server: &MockServer,
    style: PageStyle,
    first_page: u32,
    size_param: &'static str,
    asked: usize,
) -> Vec<Result<String, String>> {
    let client = client(server);
    let mut req = Request::new(&client, &GET_THINGS, &[]);
    req.query(size_param, &asked);
    let items = if style == PageStyle::Spring {
        "content"
    } else {
        "data"
    };
    let paging = Paging {
        style,
        items,
        first_page,
    };
    req.items::<Thing>(paging)
        .map(|item: Result<Thing, Error>| item.map(|t| t.id).map_err(|e| e.to_string()))
        .collect()
        .await
}

fn ids(range: std::ops::Range<usize>) -> Vec<Result<String, String>> {
    range.map(|n| Ok(format!("i{n}"))).collect()
}

#[tokio::test]
async fn a_capped_page_size_does_not_truncate_when_the_total_is_stated() {
    // Asked for 10 per page; the server gives at most 5 but says there are 12.
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 1,
        envelope: |items, _| json!({"data": items, "totalCount": 12}),
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 10).await;
    assert_eq!(got, ids(0..12));
    assert_eq!(requests, 3, "5 + 5 + 2 items, then the total is reached");
}

#[tokio::test]
async fn no_request_after_a_full_last_page_that_reaches_the_total() {
    let capped = Capped {
        count: 10,
        cap: 5,
        first: 1,
        envelope: |items, _| json!({"data": items, "totalCount": 10}),
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 5).await;
    assert_eq!(got, ids(0..10));
    assert_eq!(requests, 2, "the second page reaches the total of 10");
}

#[tokio::test]
async fn the_total_may_sit_in_the_paging_block() {
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 0,
        envelope: |items, _| json!({"data": items, "paging": {"totalCount": 12}}),
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 10).await;
    assert_eq!(got, ids(0..12));
    assert_eq!(requests, 3);
}

#[tokio::test]
async fn without_a_total_a_short_page_is_the_last() {
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 1,
        envelope: |items, _| json!({"data": items}),
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 5).await;
    assert_eq!(got, ids(0..12));
    assert_eq!(
        requests, 3,
        "5 + 5 + 2: the short third page ends the stream"
    );

    // With nothing to tell a capped page from the last one, the first short page still ends
    // the stream: this is why the total matters.
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 1,
        envelope: |items, _| json!({"data": items}),
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 10).await;
    assert_eq!(got, ids(0..5));
    assert_eq!(requests, 1);
}

#[tokio::test]
async fn spring_pages_end_on_total_elements_even_when_capped() {
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 0,
        envelope: |items, n| json!({"content": items, "number": n, "totalElements": 12}),
    };
    let (got, requests) = run(capped, PageStyle::Spring, "size", 10).await;
    assert_eq!(got, ids(0..12));
    assert_eq!(requests, 3);
}

#[tokio::test]
async fn an_empty_page_ends_the_items() {
    // The total says 20, but the items run out at 12.
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 1,
        envelope: |items, _| json!({"data": items, "totalCount": 20}),
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 5).await;
    assert_eq!(got, ids(0..12));
    assert_eq!(requests, 4, "the fourth page is empty");
}

#[tokio::test]
async fn items_that_do_not_decode_end_the_stream_with_the_error() {
    let capped = Capped {
        count: 12,
        cap: 5,
        first: 1,
        envelope: |items, n| {
            if n == 1 {
                json!({"data": [{"name": "no id"}], "totalCount": 12})
            } else {
                json!({"data": items, "totalCount": 12})
            }
        },
    };
    let (got, requests) = run(capped, PageStyle::QueryParams, "pageSize", 5).await;
    assert_eq!(got.len(), 6, "{got:?}");
    assert_eq!(got[..5], ids(0..5));
    assert!(got[5].as_ref().unwrap_err().contains("id"), "{got:?}");
    assert_eq!(requests, 2);
}
