//! Spring Data pages: `page`/`size` query parameters, items in `content`,
//! the end told by `last`, `totalPages` or `totalElements`.

mod common;

use common::*;
use futures_util::StreamExt;
use ruckus_one_runtime::internal::{PageStyle, Paging, Request};
use ruckus_one_runtime::{Client, Error};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Respond, ResponseTemplate};

/// Answers `GET /api/things?page=n` with `pages[n]`, and a full page of
/// other items past the end, so that only the stop rules under test can
/// end the stream.
struct SpringPages(Vec<Value>);

impl Respond for SpringPages {
    fn respond(&self, request: &wiremock::Request) -> ResponseTemplate {
        let page: usize = request
            .url
            .query_pairs()
            .find(|(k, _)| k == "page")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(usize::MAX);
        let body = self
            .0
            .get(page)
            .cloned()
            .unwrap_or_else(|| json!({"content": [{"id": "beyond"}, {"id": "the end"}]}));
        ResponseTemplate::new(200).set_body_json(body)
    }
}

/// Three full pages of two items; `extra(n)` adds fields to page `n`.
fn three_pages(extra: impl Fn(usize) -> Value) -> Vec<Value> {
    (0..3)
        .map(|n| {
            let mut page = json!({
                "content": [{"id": format!("{n}a")}, {"id": format!("{n}b")}],
            });
            let fields = extra(n);
            for (k, v) in fields.as_object().unwrap() {
                page[k] = v.clone();
            }
            page
        })
        .collect()
}

const SPRING: Paging = Paging {
    style: PageStyle::Spring,
    items: "content",
    first_page: 0,
};

async fn run(pages: Vec<Value>, paging: Paging) -> (Vec<String>, Vec<Vec<(String, String)>>) {
    let server = server().await;
    Mock::given(method("GET"))
        .and(path("/api/things"))
        .respond_with(SpringPages(pages))
        .mount(&server)
        .await;
    let client = client(&server);
    let ids = collect(&client, paging).await;
    let queries = received(&server, "/api/things")
        .await
        .iter()
        .map(|r| r.url.query_pairs().into_owned().collect())
        .collect();
    (ids, queries)
}

async fn collect(client: &Client, paging: Paging) -> Vec<String> {
    let mut req = Request::new(client, &GET_THINGS, &[]);
    req.query("size", &2);
    req.query("sort", &"name,asc");
    req.query("page", &7); // replaced by the page number
    let mut stream = req.pages::<Value>(paging);
    let mut ids = Vec::new();
    while let Some(page) = stream.next().await {
        let page: Result<Value, Error> = page;
        for item in page.unwrap()["content"].as_array().unwrap() {
            ids.push(item["id"].as_str().unwrap().to_owned());
        }
    }
    ids
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

const IDS: [&str; 6] = ["0a", "0b", "1a", "1b", "2a", "2b"];

#[tokio::test]
async fn stops_after_the_page_that_says_it_is_last() {
    let (ids, queries) = run(three_pages(|n| json!({"last": n == 2})), SPRING).await;
    assert_eq!(ids, IDS);
    assert_eq!(
        queries,
        [
            pairs(&[("size", "2"), ("sort", "name,asc"), ("page", "0")]),
            pairs(&[("size", "2"), ("sort", "name,asc"), ("page", "1")]),
            pairs(&[("size", "2"), ("sort", "name,asc"), ("page", "2")]),
        ],
        "no request after the last page"
    );
}

#[tokio::test]
async fn stops_once_total_elements_were_yielded() {
    let (ids, queries) = run(
        three_pages(|n| json!({"totalElements": 6, "number": n, "size": 2})),
        SPRING,
    )
    .await;
    assert_eq!(ids, IDS);
    assert_eq!(queries.len(), 3, "{queries:?}");
}

#[tokio::test]
async fn stops_at_total_pages() {
    let (ids, queries) = run(
        three_pages(|n| json!({"totalPages": 3, "number": n})),
        SPRING,
    )
    .await;
    assert_eq!(ids, IDS);
    assert_eq!(queries.len(), 3, "{queries:?}");
}

#[tokio::test]
async fn short_page_still_ends_spring_pages() {
    // The answer's `size` (5) is the page size: a page of two is the last.
    let (ids, queries) = run(three_pages(|_| json!({"size": 5})), SPRING).await;
    assert_eq!(ids, ["0a", "0b"]);
    assert_eq!(queries.len(), 1);
}

#[tokio::test]
async fn query_params_style_ignores_spring_fields() {
    // `last` and `totalElements` mean nothing to the existing styles: the
    // stream goes on until the page past the end repeats itself.
    let paging = Paging {
        style: PageStyle::QueryParams,
        items: "content",
        first_page: 0,
    };
    let (ids, queries) = run(
        three_pages(|_| json!({"last": true, "totalElements": 2})),
        paging,
    )
    .await;
    assert_eq!(ids.len(), 8, "{ids:?}");
    assert_eq!(queries.len(), 5, "{queries:?}");
}

#[tokio::test]
async fn errors_end_spring_pages() {
    let server = MockServer::start().await;
    token_mock().mount(&server).await;
    Mock::given(method("GET"))
        .and(path("/api/things"))
        .respond_with(
            ResponseTemplate::new(404).set_body_json(json!({"errors": [{"code": "X-1"}]})),
        )
        .mount(&server)
        .await;
    let client = client(&server);
    let mut stream = Request::new(&client, &GET_THINGS, &[]).pages::<Value>(SPRING);
    let first = stream.next().await.unwrap().unwrap_err();
    assert_eq!(first.code(), Some("X-1"));
    assert!(stream.next().await.is_none());
}
