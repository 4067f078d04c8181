//! The rows of the query operations users reach for first (APs, venues, switches, switch
//! clients, AP clients) decode into typed fields: `.items()` yields rows whose fields are the row type's,
//! nothing the service sends for a row's own data left in `additional_fields`. The rows here
//! carry the fields the vendor's payloads show for these queries (values of our own).

mod common;

use futures_util::StreamExt;
use ruckus_one::network::QueryRequest;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn network() -> (MockServer, ruckus_one::Client) {
    let server = common::server().await;
    let config = common::config(&server).retry(ruckus_one::RetryPolicy::none());
    (server, ruckus_one::Client::new(config).expect("client"))
}

/// Answers `POST route` with one page holding `rows`.
async fn page_of(server: &MockServer, route: &str, rows: Value) {
    let n = rows.as_array().map_or(0, Vec::len);
    let page = json!({"fields": ["name"], "totalCount": n, "page": 1, "data": rows});
    Mock::given(method("POST"))
        .and(path(route))
        .respond_with(ResponseTemplate::new(200).set_body_json(page))
        .mount(server)
        .await;
}

fn query() -> QueryRequest {
    let mut q = QueryRequest::new();
    q.page_size = Some(100);
    q
}

async fn collect<T>(mut rows: ruckus_one::runtime::Pages<'_, T>) -> Vec<T> {
    let mut out = Vec::new();
    while let Some(row) = rows.next().await {
        out.push(row.expect("a row decodes"));
    }
    out
}

fn ap(serial: &str, name: &str, model: &str, mac: &str) -> Value {
    json!({
        "serialNumber": serial, "name": name, "model": model, "apMac": mac,
        "venueId": "v-1", "venueName": "Lobby", "apGroupId": "g-1",
        "deviceStatus": "2_00_Operational", "fwVersion": "7.0.0.200.1", "tags": ["lobby"]
    })
}

#[tokio::test]
async fn ap_rows_are_typed_and_filter_by_model() {
    let (server, client) = network().await;
    let rows = json!([
        ap("302139001101", "Atrium-1", "R770", "aa:bb:cc:00:00:01"),
        ap("302139001102", "Atrium-2", "R770", "aa:bb:cc:00:00:02"),
        ap("432204002201", "Lab-East", "R670", "aa:bb:cc:00:00:03"),
    ]);
    page_of(&server, "/venues/aps/query", rows).await;
    let q = query();
    let aps = collect(client.network().wireless_aps().query_venue_aps(&q).items()).await;
    assert_eq!(aps.len(), 3);
    let r770: Vec<_> = aps
        .iter()
        .filter(|ap| ap.model.as_deref() == Some("R770"))
        .collect();
    assert_eq!(r770.len(), 2, "two of the three APs are R770s");
    let first = &aps[0];
    assert_eq!(first.serial_number.as_deref(), Some("302139001101"));
    assert_eq!(first.name.as_deref(), Some("Atrium-1"));
    assert_eq!(first.ap_mac.as_deref(), Some("aa:bb:cc:00:00:01"));
    assert_eq!(first.venue_name.as_deref(), Some("Lobby"));
    assert!(
        first.additional_fields.is_empty(),
        "{:?}",
        first.additional_fields
    );
}

#[tokio::test]
async fn venue_rows_are_typed() {
    let (server, client) = network().await;
    let rows = json!([{
        "id": "v-1", "name": "Lobby", "country": "United States", "city": "Sunnyvale",
        "status": "1_InSetupPhase", "clients": 12,
        "aggregatedApStatus": {"2_00_Operational": 3},
        "address": {"city": "Sunnyvale", "country": "United States"}
    }]);
    page_of(&server, "/venues/query", rows).await;
    let q = query();
    let venues = collect(client.network().wireless_venues().query_venues(&q).items()).await;
    let venue = &venues[0];
    assert_eq!(venue.name.as_deref(), Some("Lobby"));
    assert_eq!(venue.status.as_deref(), Some("1_InSetupPhase"));
    // Objects in a row are typed too: the AP count by status is a map, the address its type.
    let by_status = venue
        .aggregated_ap_status
        .as_ref()
        .expect("AP status counts");
    assert_eq!(by_status.get("2_00_Operational"), Some(&3));
    let address = venue.address.as_ref().expect("address");
    assert_eq!(address.city.as_deref(), Some("Sunnyvale"));
    assert!(address.additional_fields.is_empty(), "{address:?}");
    assert!(
        venue.additional_fields.is_empty(),
        "{:?}",
        venue.additional_fields
    );
}

#[tokio::test]
async fn switch_rows_are_typed_and_filter_by_model() {
    let (server, client) = network().await;
    let switch = |serial: &str, name: &str, model: &str, mac: &str| {
        json!({
            "id": mac, "serialNumber": serial, "name": name, "switchName": name, "model": model,
            "switchMac": mac, "venueId": "v-1", "venueName": "Lobby", "isStack": false,
            "uptime": "2 days", "configReady": true, "syncedSwitchConfig": true
        })
    };
    let rows = json!([
        switch("FEK3230S0A1", "Core-1", "ICX7650-48P", "c0:c5:20:00:00:01"),
        switch("FEK3230S0A2", "Edge-1", "ICX7150-24P", "c0:c5:20:00:00:02"),
        switch("FEK3230S0A3", "Edge-2", "ICX7150-24P", "c0:c5:20:00:00:03"),
    ]);
    page_of(&server, "/venues/switches/query", rows).await;
    let q = query();
    let switches = collect(client.network().switches().query_venue_switches(&q).items()).await;
    let edge: Vec<_> = switches
        .iter()
        .filter(|s| s.model.as_deref() == Some("ICX7150-24P"))
        .collect();
    assert_eq!(edge.len(), 2, "two of the three switches are ICX7150s");
    let core = &switches[0];
    assert_eq!(core.serial_number.as_deref(), Some("FEK3230S0A1"));
    assert_eq!(core.name.as_deref(), Some("Core-1"));
    assert_eq!(core.switch_mac.as_deref(), Some("c0:c5:20:00:00:01"));
    assert!(
        core.additional_fields.is_empty(),
        "{:?}",
        core.additional_fields
    );
}

#[tokio::test]
async fn switch_client_rows_are_typed() {
    let (server, client) = network().await;
    let rows = json!([{
        "id": "c-1", "clientMac": "00:11:22:33:44:55", "clientIpv4Addr": "10.0.1.7",
        "switchId": "s-1", "switchName": "Core", "switchPort": "1/1/7", "venueId": "v-1",
        "venueName": "Lobby", "clientVlan": "10", "vlanName": "staff"
    }]);
    page_of(&server, "/venues/switches/clients/query", rows).await;
    let q = query();
    let switches = client.network().switches();
    let clients = collect(switches.query_venue_switch_clients(&q).items()).await;
    let c = &clients[0];
    assert_eq!(c.client_mac.as_deref(), Some("00:11:22:33:44:55"));
    assert_eq!(c.switch_name.as_deref(), Some("Core"));
    assert_eq!(c.switch_port.as_deref(), Some("1/1/7"));
    assert!(c.additional_fields.is_empty(), "{:?}", c.additional_fields);
}

#[tokio::test]
async fn ap_client_rows_are_typed() {
    let (server, client) = network().await;
    let rows = json!([{
        "macAddress": "66:77:88:99:aa:bb", "ipAddress": "10.0.2.9", "hostname": "laptop-7",
        "osType": "Windows", "deviceType": "Laptop", "username": "ana"
    }]);
    page_of(&server, "/venues/aps/clients/query", rows).await;
    let q = query();
    let aps = client.network().wireless_aps();
    let clients = collect(aps.query_venue_ap_clients(&q).items()).await;
    let c = &clients[0];
    assert_eq!(c.mac_address.as_deref(), Some("66:77:88:99:aa:bb"));
    assert_eq!(c.ip_address.as_deref(), Some("10.0.2.9"));
    assert_eq!(c.username.as_deref(), Some("ana"));
    assert!(c.additional_fields.is_empty(), "{:?}", c.additional_fields);
}
