//! Calls an endpoint by method and path, without its typed operation.
//!
//! `client.network().raw(method, path)` sends a request to any path of the network management
//! API with the same access token, tenant header, retries and typed errors as the generated
//! operations: the way to reach an endpoint the vendor added after this release of the client,
//! or a media-type version its spec does not list. Shown here on an endpoint every tenant can
//! read, the RADIUS attribute list (`GET /radiusAttributes`, Spring-style paging with `page`,
//! `size` and `sort`), which this release also has typed as
//! `client.network().radius_attribute_groups().get_all_radius_attribute()`. The path is sent
//! as given; query values are encoded. With `--dry-run` a fake checks the exact request: path,
//! query, token and `Accept`.
//!
//! ```text
//! cargo run -p ruckus-one-tests --example raw_request [-- --dry-run]
//! ```

mod support;

use ruckus_one::Method;
use serde_json::{Value, json};
use support::Target;
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose().await;
    if let Some(server) = target.fake() {
        fake_radius_attributes(server).await;
    }
    let client = target.client()?;

    // No typed answer for this endpoint: decode it as `serde_json::Value` (or into a struct of
    // your own that derives `Deserialize`).
    let page: Value = client
        .network()
        .raw(Method::Get, "/radiusAttributes")
        .query("page", 0)
        .query("size", 5)
        .query("sort", "name,asc")
        .send_json()
        .await?;

    let attributes = page
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for attribute in attributes {
        let field = |name: &str| attribute.get(name).and_then(Value::as_str).unwrap_or("?");
        println!(
            "  {:<20} {:<8} {}",
            field("name"),
            field("vendorName"),
            field("dataType")
        );
    }
    println!(
        "raw_request: GET /radiusAttributes returned {} of {} attributes",
        attributes.len(),
        page.get("totalElements")
            .and_then(Value::as_u64)
            .unwrap_or(0)
    );

    target.finish().await;
    Ok(())
}

/// The first page of RADIUS attributes, sorted by name, in the Spring page shape.
async fn fake_radius_attributes(server: &MockServer) {
    fn attribute(id: u32, name: &str, vendor: &str, data_type: &str) -> Value {
        json!({"id": id, "name": name, "vendorName": vendor, "dataType": data_type})
    }
    Mock::given(method("GET"))
        .and(path("/radiusAttributes"))
        .and(query_param("page", "0"))
        .and(query_param("size", "5"))
        .and(query_param("sort", "name,asc"))
        .and(header("authorization", "Bearer example-access-token"))
        .and(header("accept", "application/json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "content": [
                attribute(25, "Class", "IETF", "OCTETS"),
                attribute(11, "Filter-Id", "IETF", "STRING"),
                attribute(8, "Framed-IP-Address", "IETF", "IPADDR"),
                attribute(27, "Session-Timeout", "IETF", "INTEGER"),
                attribute(64, "Tunnel-Type", "IETF", "INTEGER")
            ],
            "totalElements": 143,
            "totalPages": 29,
            "number": 0,
            "size": 5,
            "first": true,
            "last": false
        })))
        .expect(1)
        .named("RADIUS attribute list")
        .mount(server)
        .await;
}
