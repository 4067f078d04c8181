//! The client against the simulator (`ruckus-one-sim`): typed calls, asynchronous writes and
//! their activities, delegated tenants, tokens, rate limits and injected faults, end to end.

mod common;

use common::sim_client;

use ruckus_one::network::common::QueryRequest;
use ruckus_one::network::{Venue, VenueAddress};
use ruckus_one::{Client, Config, Credentials, Method, RetryPolicy, WaitOptions};
use ruckus_one_sim::{Fault, SimConfig, Simulator};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

fn quick() -> WaitOptions {
    WaitOptions::default()
        .initial_interval(Duration::from_millis(5))
        .max_interval(Duration::from_millis(20))
        .timeout(Duration::from_secs(20))
}

fn venue(name: &str) -> Venue {
    Venue::new(
        name.to_owned(),
        VenueAddress::new("Sunnyvale".to_owned(), "United States".to_owned()),
    )
}

async fn sim_with(config: SimConfig) -> Simulator {
    Simulator::start_with(config)
        .await
        .expect("simulator starts")
}

#[tokio::test]
async fn venue_create_read_update_query_delete() {
    let sim = sim_with(SimConfig::default().activity_duration(Duration::ZERO)).await;
    let client = sim_client(&sim);
    let venues = client.network().wireless_venues();
    let done = venues
        .create_venue(&venue("Lobby"))
        .send_and_wait(&quick())
        .await
        .expect("created");
    let id = done.created_id().expect("the new venue's id").to_owned();
    // The venue service's described answer: the created venue as `response`, no top-level id.
    let answer = done.accepted();
    assert_eq!(
        answer.response.as_ref().map(|r| r.name.as_str()),
        Some("Lobby"),
        "the created venue is typed"
    );
    assert!(!answer.additional_fields.contains_key("id"), "{answer:?}");
    assert_eq!(format!("{:?}", done.activity().status), "Some(Success)");
    let read = venues.get_venue(&id).send().await.expect("read");
    assert_eq!(read.name, "Lobby");
    assert_eq!(read.address.city, "Sunnyvale");
    venues
        .update_venue(&id, &venue("Hall"))
        .send_and_wait(&quick())
        .await
        .expect("updated");
    assert_eq!(
        venues.get_venue(&id).send().await.expect("read").name,
        "Hall"
    );
    venues
        .create_venue(&venue("Annex"))
        .send_and_wait(&quick())
        .await
        .expect("created");
    let page = venues
        .query_venues(&QueryRequest::new().with_search_string("hal".to_owned()))
        .send()
        .await
        .expect("query");
    let page = serde_json::to_value(&page).expect("json");
    assert_eq!(page["totalCount"], json!(1), "{page}");
    assert_eq!(page["data"][0]["name"], json!("Hall"), "{page}");
    venues
        .delete_venue(&id)
        .send_and_wait(&quick())
        .await
        .expect("deleted");
    let gone = venues
        .get_venue(&id)
        .send()
        .await
        .expect_err("deleted venues are gone");
    assert_eq!(gone.status(), Some(404));
}

#[tokio::test]
async fn activities_move_on_the_simulator_clock_and_can_fail() {
    let sim = sim_with(SimConfig::default().manual_clock()).await;
    let client = sim_client(&sim);
    let venues = client.network().wireless_venues();
    let accepted = venues
        .create_venue(&venue("Lobby"))
        .send()
        .await
        .expect("accepted");
    let request_id = accepted.request_id().expect("a request id").to_owned();
    let tenant = sim.tenant_id();
    assert_eq!(sim.activity_status(&tenant, &request_id), Some("PENDING"));
    sim.advance(Duration::from_secs(1));
    assert_eq!(
        sim.activity_status(&tenant, &request_id),
        Some("INPROGRESS")
    );
    sim.advance(Duration::from_secs(1));
    let activity = accepted.wait(&quick()).await.expect("finished");
    assert_eq!(format!("{:?}", activity.status), "Some(Success)");

    sim.inject(
        "create_venue",
        Fault::fail_activity("venue name taken").times(1),
    );
    sim.advance(Duration::from_secs(60));
    let accepted = venues
        .create_venue(&venue("Twin"))
        .send()
        .await
        .expect("accepted");
    sim.advance(Duration::from_secs(2));
    let error = accepted
        .wait(&quick())
        .await
        .expect_err("the activity fails");
    assert!(error.to_string().contains("venue name taken"), "{error}");
    assert_eq!(
        sim.objects(&tenant, "/venues").len(),
        1,
        "a failed write changes nothing"
    );
}

#[tokio::test]
async fn an_msp_acts_for_its_customers_and_tenants_see_only_their_objects() {
    let config = SimConfig::default()
        .activity_duration(Duration::ZERO)
        .customer("sim-tenant", "customer-a")
        .customer("sim-tenant", "customer-b");
    let sim = sim_with(config).await;
    let client = sim_client(&sim);
    let venues = client.network().wireless_venues();
    venues
        .create_venue(&venue("A's lobby"))
        .tenant("customer-a")
        .send_and_wait(&quick())
        .await
        .expect("created for customer a");
    let count = |tenant: Option<&'static str>| {
        let client = client.clone();
        async move {
            let venues = client.network().wireless_venues();
            let mut q = venues.query_venues(&QueryRequest::new());
            if let Some(t) = tenant {
                q = q.tenant(t);
            }
            let page = serde_json::to_value(q.send().await.expect("query")).expect("json");
            page["totalCount"].clone()
        }
    };
    assert_eq!(count(Some("customer-a")).await, json!(1));
    assert_eq!(count(Some("customer-b")).await, json!(0));
    assert_eq!(
        count(None).await,
        json!(0),
        "the MSP's own venues are apart"
    );
    let refused = venues
        .query_venues(&QueryRequest::new())
        .tenant("not-a-customer")
        .send()
        .await
        .expect_err("no delegation");
    assert_eq!(refused.status(), Some(403));
}

#[tokio::test]
async fn tokens_expire_on_the_simulator_clock_and_bad_credentials_are_refused() {
    let sim = sim_with(SimConfig::default().manual_clock()).await;
    let bad = Client::new(
        Config::new(Credentials::new("sim-client-id", "wrong"))
            .base_url(sim.base_url())
            .retry(RetryPolicy::none()),
    )
    .expect("client");
    let error = bad
        .network()
        .raw(Method::Get, "/venues/x")
        .send_json::<Value>()
        .await
        .expect_err("401");
    assert_eq!(error.status(), Some(401));

    let client = sim_client(&sim);
    let query = |c: Client| async move {
        c.network()
            .raw(Method::Post, "/venues/query")
            .json(&json!({}))
            .send_json::<Value>()
            .await
    };
    query(client.clone()).await.expect("first call");
    sim.advance(Duration::from_secs(7200));
    // The token the client holds has expired on the simulator clock: the call gets a 401, the
    // client fetches a new token and repeats it.
    query(client.clone()).await.expect("after expiry");
    let log = sim.requests();
    let tokens = log
        .iter()
        .filter(|r| r.path.starts_with("/oauth2/token") && r.status == 200)
        .count();
    assert_eq!(tokens, 2, "{log:?}");
    assert!(log.iter().any(|r| r.status == 401));
}

#[tokio::test]
async fn past_the_switch_budget_the_answer_is_429_with_retry_after_and_the_client_recovers() {
    let sim = sim_with(SimConfig::default()).await;
    let client = sim_client(&sim);
    let calls = (0..25).map(|_| {
        let client = client.clone();
        async move {
            // `raw` calls name no service: the client does not pace them.
            client
                .network()
                .raw(Method::Get, "/cliTemplates")
                .send_json::<Value>()
                .await
        }
    });
    for answer in futures_util::future::join_all(calls).await {
        answer.expect("the client's retries recover from 429");
    }
    let log = sim.requests();
    let limited = log.iter().filter(|r| r.status == 429).count();
    assert!(limited >= 5, "20 calls burst, then 429: {limited}");
}

#[tokio::test]
async fn a_wifi_network_is_checked_by_its_tag() {
    let sim = sim_with(SimConfig::default()).await;
    let client = sim_client(&sim);
    let post = |kind: &'static str| {
        let client = client.clone();
        async move {
            client
                .network()
                .raw(Method::Post, "/wifiNetworks")
                .json(&json!({
                    "type": kind,
                    "name": "cafe",
                    "wlan": {"ssid": "cafe", "wlanSecurity": "WPA2Personal", "passphrase": "a-long-passphrase"}
                }))
                .send_json::<Value>()
                .await
        }
    };
    // The schema name is no tag of the service's: refused, naming the field.
    let error = post("PskWifiNetwork").await.expect_err("an unknown tag");
    assert_eq!(error.status(), Some(400));
    assert!(error.to_string().contains("`type`"), "{error}");
    post("psk").await.expect("the service's own tag");
    assert_eq!(sim.objects(&sim.tenant_id(), "/wifiNetworks").len(), 1);
}

#[tokio::test]
async fn typed_calls_stay_inside_the_switch_budget_without_a_429() {
    let sim = sim_with(SimConfig::default()).await;
    let client = sim_client(&sim);
    let calls = (0..30).map(|_| {
        let client = client.clone();
        async move {
            client
                .network()
                .switch_profiles()
                .list_cli_templates()
                .send()
                .await
        }
    });
    for answer in futures_util::future::join_all(calls).await {
        answer.expect("paced calls succeed");
    }
    let log = sim.requests();
    let served = log.iter().filter(|r| r.path == "/cliTemplates").count();
    let limited = log.iter().filter(|r| r.status == 429).count();
    assert_eq!(
        (served, limited),
        (30, 0),
        "the client paces by the switch service's 20 / 10"
    );
}

#[tokio::test]
async fn bodies_are_checked_against_the_spec_types() {
    let sim = sim_with(SimConfig::default()).await;
    let client = sim_client(&sim);
    let error = client
        .network()
        .raw(Method::Post, "/venues")
        .json(&json!({"name": 5, "address": {"city": "Sunnyvale", "country": "US"}}))
        .send_json::<Value>()
        .await
        .expect_err("400");
    assert_eq!(error.status(), Some(400));
    assert!(
        error.to_string().contains("/name: expected string"),
        "{error}"
    );
}

#[tokio::test]
async fn injected_faults_are_retried_by_the_client() {
    let sim = sim_with(SimConfig::default().activity_duration(Duration::ZERO)).await;
    let client = sim_client(&sim);
    let venues = client.network().wireless_venues();
    let done = venues
        .create_venue(&venue("Lobby"))
        .send_and_wait(&quick())
        .await
        .expect("created");
    let id = done.created_id().expect("id").to_owned();
    sim.inject("get_venue", Fault::status(503).times(1));
    venues.get_venue(&id).send().await.expect("503 is retried");
    sim.inject("get_venue", Fault::drop_connection().times(1));
    venues
        .get_venue(&id)
        .send()
        .await
        .expect("a dropped connection is retried");
    sim.inject("get_venue", Fault::status(500));
    let error = venues
        .get_venue(&id)
        .send()
        .await
        .expect_err("500 is not retried");
    assert_eq!(error.status(), Some(500));
    let statuses: Vec<u16> = sim
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some("get_venue"))
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses[..2], [503, 200]);

    sim.clear_faults();
    sim.inject("get_venue", Fault::status(429).retry_after(2).times(1));
    let error = venues
        .get_venue(&id)
        .retry(RetryPolicy::none())
        .send()
        .await
        .expect_err("an injected 429");
    assert_eq!(error.status(), Some(429));
    assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
    venues.get_venue(&id).send().await.expect("once only");
}

/// The cross-venue AP query (`POST /venues/aps/query`) answers from the APs created under each
/// venue (`POST /venues/{venueId}/aps`): every venue's, paged, each row with its `venueId`, and
/// filtered by it.
#[tokio::test]
async fn the_cross_venue_ap_query_sees_the_aps_of_every_venue() {
    use futures_util::StreamExt;
    use ruckus_one::network::common::ApCreation;

    let sim = sim_with(SimConfig::default().activity_duration(Duration::ZERO)).await;
    let client = sim_client(&sim);
    let aps = client.network().wireless_aps();
    for (venue, serial) in [
        ("v1", "302139000001"),
        ("v2", "302139000002"),
        ("v1", "302139000003"),
    ] {
        let ap = ApCreation::new(format!("AP {serial}"), serial.to_owned());
        aps.create_venue_ap(venue, &ap)
            .send_and_wait(&quick())
            .await
            .expect("AP created");
    }
    let mut query = QueryRequest::new();
    query.page_size = Some(2);
    query.sort_field = Some("serialNumber".to_owned());
    let mut pages = aps.query_venue_aps(&query).pages();
    let mut rows = Vec::new();
    while let Some(page) = pages.next().await {
        let page = page.expect("page");
        assert_eq!(page.total_count, Some(3));
        rows.extend(page.data.unwrap_or_default());
    }
    let seen: Vec<(&str, &str)> = rows
        .iter()
        .map(|row| {
            let field = |name| row.get(name).and_then(Value::as_str).unwrap_or("?");
            (field("serialNumber"), field("venueId"))
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("302139000001", "v1"),
            ("302139000002", "v2"),
            ("302139000003", "v1")
        ]
    );

    query.page_size = Some(10);
    query.filters = Some([("venueId".to_owned(), json!(["v2"]))].into());
    let page = aps.query_venue_aps(&query).send().await.expect("filtered");
    let data = page.data.unwrap_or_default();
    assert_eq!(data.len(), 1, "{data:?}");
    assert_eq!(data[0]["serialNumber"], "302139000002");
}

#[tokio::test]
async fn the_msp_customer_query_lists_the_configured_and_the_created_customers() {
    let config = SimConfig::default()
        .activity_duration(Duration::ZERO)
        .customer("sim-tenant", "customer-a")
        .customer("sim-tenant", "customer-b");
    let sim = sim_with(config).await;
    // The MSP's record of customer a, with its name.
    sim.insert(
        "sim-tenant",
        "/tenants",
        json!({"id": "customer-a", "name": "Alpha"}),
    )
    .expect("seeded");
    let client = sim_client(&sim);
    let body: ruckus_one::network::AddTenantRequestHolder =
        serde_json::from_value(json!({"data": [{"name": "Gamma"}]})).expect("body");
    client
        .network()
        .tenants()
        .create_tenant(&body)
        .send_and_wait(&quick())
        .await
        .expect("created a tenant");
    let created = sim.objects("sim-tenant", "/tenants");
    let created_id = created
        .iter()
        .filter_map(|t| t["id"].as_str())
        .find(|id| *id != "customer-a")
        .expect("the created tenant")
        .to_owned();

    let query = |filters: Option<BTreeMap<String, Value>>, page: i64, page_size: i64| {
        let client = client.clone();
        async move {
            let mut q = QueryRequest::new();
            q.page = Some(page);
            q.page_size = Some(page_size);
            q.filters = filters;
            let page = client
                .network()
                .msp()
                .query_msp_ecs(&q)
                .send()
                .await
                .expect("customer query");
            let rows = page.data.unwrap_or_default();
            let ids: Vec<String> = rows.iter().filter_map(|r| r.id.clone()).collect();
            (page.total_count, ids, rows)
        }
    };
    let (total, ids, rows) = query(None, 1, 10).await;
    assert_eq!(total, Some(3));
    assert_eq!(ids, ["customer-a", "customer-b", created_id.as_str()]);
    assert_eq!(rows[0].name.as_deref(), Some("Alpha"), "the MSP's record");
    assert_eq!(rows[2].name.as_deref(), Some("Gamma"), "the created tenant");
    let (total, ids, _) = query(
        Some([("id".to_owned(), json!(["customer-b"]))].into()),
        1,
        10,
    )
    .await;
    assert_eq!((total, ids), (Some(1), vec!["customer-b".to_owned()]));
    let (total, ids, _) = query(
        Some([("tenantType".to_owned(), json!(["MSP_EC"]))].into()),
        2,
        2,
    )
    .await;
    assert_eq!(
        (total, ids),
        (Some(3), vec![created_id.clone()]),
        "page 2 of 2"
    );

    // Every listed customer can be acted for: its own tenant is itself (with the name the MSP's
    // record gives), and it has no customers of its own.
    let customers = ["customer-a", "customer-b", created_id.as_str()];
    let outcomes = client
        .for_each_tenant(customers, 2, |c| async move {
            let own = c.network().tenants().get_self_tenant().send().await?;
            let page = c
                .network()
                .msp()
                .query_msp_ecs(&QueryRequest::new())
                .send()
                .await?;
            Ok::<_, ruckus_one::Error>((own, page))
        })
        .await;
    for outcome in outcomes {
        let (own, page) = outcome.result.expect("acting for a listed customer");
        assert_eq!(own.id.as_deref(), Some(outcome.tenant.as_str()));
        match outcome.tenant.as_str() {
            "customer-a" => assert_eq!(own.name.as_deref(), Some("Alpha")),
            "customer-b" => {}
            _ => assert_eq!(own.name.as_deref(), Some("Gamma"), "the created tenant"),
        }
        assert_eq!(page.total_count, Some(0), "{}", outcome.tenant);
    }
    let own = client
        .network()
        .tenants()
        .get_self_tenant()
        .send()
        .await
        .expect("own tenant");
    assert_eq!(
        own.id.as_deref(),
        Some("sim-tenant"),
        "the MSP's own tenant"
    );
}

/// One create request for several customers answers each created tenant by id, with the
/// activity's request id (`ResponseBov2`), and each is then a customer of the caller.
#[tokio::test]
async fn creating_several_customers_at_once_names_each_created_tenant() {
    let sim = sim_with(SimConfig::default().activity_duration(Duration::ZERO)).await;
    let client = sim_client(&sim);
    let body: ruckus_one::network::AddTenantRequestHolder =
        serde_json::from_value(json!({"data": [{"name": "Gamma"}, {"name": "Delta"}]}))
            .expect("body");
    let accepted = client
        .network()
        .tenants()
        .create_tenant(&body)
        .send()
        .await
        .expect("accepted");
    let request_id = accepted.request_id().expect("a request id").to_owned();
    let named: Vec<(String, Option<String>)> = accepted
        .data
        .iter()
        .map(|r| (r.request_id.clone(), r.tenant_id.clone()))
        .collect();
    assert_eq!(named.len(), 2, "{named:?}");
    let stored = sim.objects("sim-tenant", "/tenants");
    for ((rid, tenant), name) in named.iter().zip(["Gamma", "Delta"]) {
        assert_eq!(rid, &request_id);
        let tenant = tenant.as_deref().expect("a tenant id");
        let record = stored
            .iter()
            .find(|t| t["id"] == tenant)
            .unwrap_or_else(|| panic!("{tenant} not stored: {stored:?}"));
        assert_eq!(record["name"], name);
        // A customer of the caller: the client may act for it.
        let own = client
            .with_tenant(tenant)
            .expect("tenant id")
            .network()
            .tenants()
            .get_self_tenant()
            .send()
            .await
            .expect("the customer reads itself");
        assert_eq!(own.id.as_deref(), Some(tenant));
    }
    accepted
        .wait(&quick())
        .await
        .expect("the activity succeeds");
}
