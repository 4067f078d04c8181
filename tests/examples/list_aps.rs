//! Lists every access point of the account, page by page.
//!
//! `query_venue_aps` (`POST /venues/aps/query`) takes a query body; its builder's `pages()`
//! returns a stream that asks for page 1, 2, ... (the page number goes in the body's `page`
//! field) and ends by itself after an empty or short page.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example list_aps [-- --dry-run]
//! ```

mod support;

use futures_util::StreamExt;
use ruckus_one::network::{QueryRequest, SortOrder};
use serde_json::{Value, json};
use support::Target;
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose().await;
    if let Some(server) = target.fake() {
        fake_ap_pages(server).await;
    }
    let client = target.client()?;

    // Small pages against the fake so that paging shows; the service accepts much larger ones.
    let page_size = if target.fake().is_some() { 2 } else { 100 };
    let mut query = QueryRequest::new();
    query.page_size = Some(page_size);
    query.sort_field = Some("name".to_owned());
    query.sort_order = Some(SortOrder::Asc);
    query.fields = Some(
        ["serialNumber", "name", "model", "venueName", "status"]
            .map(String::from)
            .to_vec(),
    );

    let mut pages = client
        .network()
        .wireless_aps()
        .query_venue_aps(&query)
        .pages();
    let (mut aps, mut page_count) = (0, 0);
    while let Some(page) = pages.next().await {
        // An error ends the stream: `?` returns it.
        let page = page?;
        page_count += 1;
        for ap in page.data.unwrap_or_default() {
            aps += 1;
            // Rows are raw JSON: the spec does not type the fields of an AP row.
            let field = |name: &str| ap.get(name).and_then(Value::as_str).unwrap_or("?");
            println!(
                "  {:<14} {:<12} {:<6} {:<12} {}",
                field("serialNumber"),
                field("name"),
                field("model"),
                field("venueName"),
                field("status"),
            );
        }
    }
    println!("list_aps: {aps} APs on {page_count} pages");

    target.finish().await;
    Ok(())
}

/// Three pages of 2, 2 and 1 APs; each must be asked for exactly once, with its page number.
async fn fake_ap_pages(server: &MockServer) {
    let ap = |serial: &str, name: &str, model: &str, venue: &str| {
        json!({
            "serialNumber": serial,
            "name": name,
            "model": model,
            "venueName": venue,
            "status": "2_00_Operational"
        })
    };
    let pages = [
        vec![
            ap("302139001101", "Atrium-1", "R770", "Head office"),
            ap("302139001102", "Atrium-2", "R770", "Head office"),
        ],
        vec![
            ap("432204002201", "Lab-East", "R670", "Lab"),
            ap("432204002202", "Lab-West", "R670", "Lab"),
        ],
        vec![ap("972301003301", "Warehouse", "T670", "Depot")],
    ];
    for (number, rows) in (1..).zip(pages) {
        Mock::given(method("POST"))
            .and(path("/venues/aps/query"))
            .and(header("authorization", "Bearer example-access-token"))
            .and(header("content-type", "application/vnd.ruckus.v1+json"))
            .and(body_partial_json(json!({"page": number, "pageSize": 2})))
            .respond_with(support::ok_v1(
                json!({"totalCount": 5, "page": number, "data": rows}),
            ))
            .expect(1)
            .named(format!("AP query, page {number}"))
            .mount(server)
            .await;
    }
}
