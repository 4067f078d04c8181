//! Lists the customers a managed-service provider (MSP) manages, then reads something in each
//! customer's account.
//!
//! `query_msp_ecs` (`POST /mspecs/query`) runs as the MSP itself. `client.with_tenant(id)`
//! returns a client that acts for the customer `id` on every call (it sends the
//! `x-rks-tenantid` header), sharing the MSP client's access token and connections; here it
//! reads the customer's own tenant with `get_self_tenant` (`GET /tenants/self`).
//!
//! ```text
//! cargo run -p ruckus-one-tests --example delegated_customers [-- --dry-run]
//! ```

mod support;

use futures_util::StreamExt;
use ruckus_one::network::QueryRequest;
use serde_json::{Value, json};
use support::Target;
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, Request};

/// The customers of the fake MSP: tenant id and name.
const FAKE_CUSTOMERS: [(&str, &str); 2] = [
    ("8a1b2c3d4e5f40718293a4b5c6d7e8f9", "Harbor Hotel"),
    ("1f2e3d4c5b6a47988776655443322110", "City Library"),
];

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::choose().await;
    if let Some(server) = target.fake() {
        fake_msp(server).await;
    }
    let client = target.client()?;

    // The MSP's end customers, every page.
    let mut query = QueryRequest::new();
    query.page_size = Some(100);
    query.fields = Some(["id", "name", "tenantType"].map(String::from).to_vec());
    query.filters = Some(json!({"tenantType": ["MSP_EC"]}));
    let mut pages = client.network().msp().query_msp_ecs(&query).pages();
    let mut customers = Vec::new();
    while let Some(page) = pages.next().await {
        customers.extend(page?.data.unwrap_or_default());
    }

    for customer in &customers {
        let Some(id) = customer.id.as_deref() else {
            continue;
        };
        // Everything sent through `as_customer` acts on the customer's account.
        let as_customer = client.with_tenant(id)?;
        let tenant = as_customer
            .network()
            .tenants()
            .get_self_tenant()
            .send()
            .await?;
        println!(
            "  {id}: {} ({})",
            tenant.name.as_deref().unwrap_or("?"),
            // A field the description does not list stays in `additional_fields`.
            tenant
                .additional_fields
                .get("tenantType")
                .and_then(Value::as_str)
                .unwrap_or("?"),
        );
    }
    println!(
        "delegated_customers: read the own tenant of {} managed customers",
        customers.len()
    );

    target.finish().await;
    Ok(())
}

/// One page of two customers, asked for without a tenant header; then one `GET /tenants/self`
/// per customer, each with that customer's id in `x-rks-tenantid`.
async fn fake_msp(server: &MockServer) {
    let rows: Vec<Value> = FAKE_CUSTOMERS
        .iter()
        .map(|(id, name)| json!({"id": id, "name": name, "tenantType": "MSP_EC"}))
        .collect();
    Mock::given(method("POST"))
        .and(path("/mspecs/query"))
        .and(|req: &Request| !req.headers.contains_key("x-rks-tenantid"))
        .and(body_partial_json(json!({"page": 1, "pageSize": 100})))
        .respond_with(support::ok_v1(
            json!({"totalCount": rows.len(), "page": 1, "data": rows}),
        ))
        .expect(1)
        .named("MSP customer query")
        .mount(server)
        .await;

    for (id, name) in FAKE_CUSTOMERS {
        Mock::given(method("GET"))
            .and(path("/tenants/self"))
            .and(header("x-rks-tenantid", id))
            .respond_with(support::ok_v1(json!({
                "id": id,
                "name": name,
                "externalId": format!("ext-{id}"),
                "tenantType": "MSP_EC",
                "status": "active"
            })))
            .expect(1)
            .named(format!("own tenant of {name}"))
            .mount(server)
            .await;
    }
}
