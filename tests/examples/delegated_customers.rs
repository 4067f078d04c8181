//! Lists the customers a managed-service provider (MSP) manages, then reads something in each
//! customer's account.
//!
//! `query_msp_ecs` (`POST /mspecs/query`) runs as the MSP itself. `client.for_each_tenant`
//! then runs the same work for every customer with bounded concurrency, each run with a client
//! acting for that customer (it sends the `x-rks-tenantid` header), all sharing the MSP client's
//! access token, connections and pacing; here each reads the customer's own tenant with
//! `get_self_tenant` (`GET /tenants/self`).
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

    // The same work for every customer, 8 at a time: each run gets a client acting for its
    // customer (the `x-rks-tenantid` header), all sharing one access token and the pacing
    // buckets; every customer's outcome comes back, in order, failures included.
    let ids = customers.iter().filter_map(|c| c.id.clone());
    let outcomes = client
        .for_each_tenant(ids, 8, |as_customer| async move {
            as_customer
                .network()
                .tenants()
                .get_self_tenant()
                .send()
                .await
        })
        .await;
    for outcome in &outcomes {
        match &outcome.result {
            Ok(tenant) => println!(
                "  {}: {} ({})",
                outcome.tenant,
                tenant.name.as_deref().unwrap_or("?"),
                // A field the description does not list stays in `additional_fields`.
                tenant
                    .additional_fields
                    .get("tenantType")
                    .and_then(Value::as_str)
                    .unwrap_or("?"),
            ),
            Err(e) => println!("  {}: failed: {e}", outcome.tenant),
        }
    }
    if let Some(failed) = outcomes.iter().find(|o| o.result.is_err()) {
        return Err(format!("customer {} failed", failed.tenant).into());
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
