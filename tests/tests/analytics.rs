//! The generated analytics client against a local HTTP server: one test per operation
//! (exact request on the wire, decoding of a realistic answer), then forward-compatible
//! decoding, error answers, path encoding, delegated tenants and redaction.

mod common;

use common::{BEARER, analytics, call, expect_once, ok};
use ruckus_one::analytics::*;
use ruckus_one_runtime::ErrorBody as RuntimeErrorBody;
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path_regex, query_param, query_param_is_missing};
use wiremock::{Mock, ResponseTemplate};

fn s(text: &str) -> Option<String> {
    Some(text.to_owned())
}

fn license_json() -> Value {
    json!({
        "licenseId": 42,
        "tenantId": "t-1",
        "tenantName": "Acme",
        "count": 100,
        "used": 37,
        "withinGracePeriod": false,
        "assignments": [
            {"deviceId": "dev-1", "deviceName": "SZ-1", "apMacList": ["AA:BB:CC:00:00:01", "AA:BB:CC:00:00:02"]}
        ],
        "orphanedAPs": [{"deviceId": "dev-2", "deviceName": "SZ-2", "apMac": "AA:BB:CC:00:00:09"}]
    })
}

fn assert_license(license: &License) {
    assert_eq!(license.license_id, Some(42));
    assert_eq!(license.tenant_id, s("t-1"));
    assert_eq!(license.tenant_name, s("Acme"));
    assert_eq!(license.count, Some(100));
    assert_eq!(license.used, Some(37));
    assert_eq!(license.within_grace_period, Some(false));
    let assignments = license.assignments.as_ref().expect("assignments");
    assert_eq!(assignments[0].device_id, s("dev-1"));
    assert_eq!(assignments[0].device_name, s("SZ-1"));
    assert_eq!(
        assignments[0].ap_mac_list.as_deref(),
        Some(
            &[
                "AA:BB:CC:00:00:01".to_owned(),
                "AA:BB:CC:00:00:02".to_owned()
            ][..]
        )
    );
    let orphans = license.orphaned_aps.as_ref().expect("orphaned APs");
    assert_eq!(orphans[0].ap_mac, s("AA:BB:CC:00:00:09"));
    assert_eq!(orphans[0].device_name, s("SZ-2"));
}

fn filter_json() -> Value {
    json!({"networkNodes": [[{"type": "system", "name": "SZ-1"}]], "switchNodes": []})
}

fn filter() -> ResourceGroupFilter {
    let mut step = NodePathElement::new();
    step.type_ = s("system");
    step.name = s("SZ-1");
    ResourceGroupFilter::new(vec![vec![step]], vec![])
}

fn resource_group_json() -> Value {
    json!({
        "id": "3f2b8c1e-0000-4000-8000-000000000001",
        "name": "HQ",
        "description": null,
        "filter": filter_json(),
        "isDefault": false
    })
}

fn assert_resource_group(group: &ResourceGroup) {
    assert_eq!(group.id, s("3f2b8c1e-0000-4000-8000-000000000001"));
    assert_eq!(group.name, "HQ");
    assert_eq!(group.description, None);
    assert_eq!(group.filter, filter());
    assert_eq!(group.is_default, Some(false));
}

fn user_json() -> Value {
    json!({
        "id": "u-1",
        "firstName": "Ada",
        "lastName": "Lovelace",
        "email": "ada@example.com",
        "tenantId": "t-1",
        "isSupport": false,
        "preferences": {"theme": "dark"},
        "userResourceMappings": [{
            "role": "report-only",
            "resourceGroup": {"id": "rg-1", "name": "HQ", "filter": filter_json(), "tenantId": "t-1"}
        }]
    })
}

fn assert_user(user: &User, role: UserRole) {
    assert_eq!(user.id, s("u-1"));
    assert_eq!(user.first_name, s("Ada"));
    assert_eq!(user.last_name, s("Lovelace"));
    assert_eq!(user.email, s("ada@example.com"));
    assert_eq!(user.is_support, Some(false));
    assert_eq!(user.preferences, Some(json!({"theme": "dark"})));
    let mapping = &user.user_resource_mappings.as_ref().expect("mappings")[0];
    assert_eq!(mapping.role, Some(role));
    let group = mapping.resource_group.as_ref().expect("resource group");
    assert_eq!(group.name, "HQ");
    assert_eq!(group.tenant_id, s("t-1"));
}

fn token_json(secret: &str) -> Value {
    json!({
        "id": "at-1",
        "name": "ci token",
        "clientId": "cid-1",
        "clientSecret": secret,
        "accessTokenTtl": 7200
    })
}

fn assert_token(token: &ApplicationToken, secret: &str) {
    assert_eq!(token.id, s("at-1"));
    assert_eq!(token.name, s("ci token"));
    assert_eq!(token.client_id, s("cid-1"));
    assert_eq!(
        token.client_secret.as_ref().map(|s| s.expose()),
        Some(secret)
    );
    assert_eq!(token.access_token_ttl, Some(7200));
}

// ---------------------------------------------------------------- application tokens

#[tokio::test]
async fn list_application_tokens() {
    let (server, client) = analytics().await;
    let answer = json!([{"id": "at-1", "name": "ci token", "clientId": "cid-1"}]);
    expect_once(
        &server,
        call("GET", "/ai/applicationTokens", None),
        ok(answer),
    )
    .await;
    let tokens = client
        .analytics()
        .application_tokens()
        .list_application_tokens()
        .send()
        .await
        .unwrap();
    assert_eq!(tokens.len(), 1);
    assert_eq!(tokens[0]["id"], "at-1");
    assert_eq!(tokens[0]["clientId"], "cid-1");
}

#[tokio::test]
async fn create_application_token() {
    let (server, client) = analytics().await;
    let mock = call(
        "POST",
        "/ai/applicationTokens",
        Some(json!({"name": "ci token"})),
    );
    expect_once(&server, mock, ok(token_json("sec-created"))).await;
    let body = CreateApplicationTokenRequest::new("ci token".to_owned());
    let token = client
        .analytics()
        .application_tokens()
        .create_application_token(&body)
        .send()
        .await
        .unwrap();
    assert_token(&token, "sec-created");
}

#[tokio::test]
async fn delete_application_token() {
    let (server, client) = analytics().await;
    let mock = call("DELETE", "/ai/applicationTokens/at-1", None);
    expect_once(&server, mock, ok(json!({"requestId": "r-del"}))).await;
    let answer = client
        .analytics()
        .application_tokens()
        .delete_application_token("at-1")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.request_id, s("r-del"));
    assert_eq!(answer.errors, None);
}

#[tokio::test]
async fn get_application_token() {
    let (server, client) = analytics().await;
    let mock = call("GET", "/ai/applicationTokens/at%201", None);
    expect_once(&server, mock, ok(token_json("sec-read"))).await;
    let token = client
        .analytics()
        .application_tokens()
        .get_application_token("at 1")
        .send()
        .await
        .unwrap();
    assert_token(&token, "sec-read");
}

#[tokio::test]
async fn rotate_application_token_secret() {
    let (server, client) = analytics().await;
    let mock = call("POST", "/ai/applicationTokens/at-1/rotateSecret", None);
    expect_once(&server, mock, ok(token_json("sec-rotated"))).await;
    let token = client
        .analytics()
        .application_tokens()
        .rotate_application_token_secret("at-1")
        .send()
        .await
        .unwrap();
    assert_token(&token, "sec-rotated");
}

// ---------------------------------------------------------------- licenses

#[tokio::test]
async fn query_licenses_and_hierarchy() {
    let (server, client) = analytics().await;
    let request = json!({"path": [{"type": "network", "name": "Root"}]});
    let answer = json!({
        "children": [{"type": "system", "name": "SZ-1", "apCount": 12, "licensesAssigned": 10}],
        "aps": [{"apMac": "AA:BB:CC:00:00:01", "apName": "lobby", "deviceId": "dev-1",
                 "deviceName": "SZ-1", "licenseId": 42}]
    });
    expect_once(
        &server,
        call("POST", "/ai/licenses/query", Some(request)),
        ok(answer),
    )
    .await;
    let mut step = NodePathElement::new();
    step.type_ = s("network");
    step.name = s("Root");
    let mut body = LicenseHierarchyQuery::new();
    body.path = Some(vec![step]);
    let tree = client
        .analytics()
        .licenses()
        .query_licenses_and_hierarchy(&body)
        .send()
        .await
        .unwrap();
    let child = &tree.children.as_ref().expect("children")[0];
    assert_eq!(child.type_, s("system"));
    assert_eq!(child.name, s("SZ-1"));
    assert_eq!(child.ap_count, Some(12));
    assert_eq!(child.licenses_assigned, Some(10));
    let ap = &tree.aps.as_ref().expect("aps")[0];
    assert_eq!(ap.ap_mac, s("AA:BB:CC:00:00:01"));
    assert_eq!(ap.ap_name, s("lobby"));
    assert_eq!(ap.device_id, s("dev-1"));
    assert_eq!(ap.device_name, s("SZ-1"));
    assert_eq!(ap.license_id, Some(42));
}

#[tokio::test]
async fn list_licenses() {
    let (server, client) = analytics().await;
    expect_once(
        &server,
        call("GET", "/ai/licenses", None),
        ok(json!([license_json()])),
    )
    .await;
    let licenses = client
        .analytics()
        .licenses()
        .list_licenses()
        .send()
        .await
        .unwrap();
    assert_eq!(licenses.len(), 1);
    assert_license(&licenses[0]);
}

#[tokio::test]
async fn refresh_licenses() {
    let (server, client) = analytics().await;
    let mock = call("POST", "/ai/licenses/refresh", None);
    expect_once(&server, mock, ok(json!([license_json()]))).await;
    let licenses = client
        .analytics()
        .licenses()
        .refresh_licenses()
        .send()
        .await
        .unwrap();
    assert_eq!(licenses.len(), 1);
    assert_license(&licenses[0]);
}

#[tokio::test]
async fn delete_orphaned_aps() {
    let (server, client) = analytics().await;
    let request = json!([{"apMac": "AA:BB:CC:00:00:09", "deviceId": "dev-2"}]);
    let mock = call("DELETE", "/ai/licenses/42/orphanedAps", Some(request));
    expect_once(&server, mock, ok(json!({"requestId": "r-orphans"}))).await;
    let body = vec![OrphanedApDeletion::new(
        "AA:BB:CC:00:00:09".to_owned(),
        "dev-2".to_owned(),
    )];
    let answer = client
        .analytics()
        .licenses()
        .delete_orphaned_aps("42", &body)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.request_id, s("r-orphans"));
}

#[tokio::test]
async fn get_license() {
    let (server, client) = analytics().await;
    expect_once(
        &server,
        call("GET", "/ai/licenses/42", None),
        ok(license_json()),
    )
    .await;
    let license = client
        .analytics()
        .licenses()
        .get_license("42")
        .send()
        .await
        .unwrap();
    assert_license(&license);
}

#[tokio::test]
async fn update_license() {
    let (server, client) = analytics().await;
    let request = json!([{"deviceId": "dev-1", "apMacList": ["AA:BB:CC:00:00:03"]}]);
    let answer = json!({
        "licenseId": 42, "count": 100, "used": 38,
        "assignments": [{"deviceId": "dev-1", "deviceName": "SZ-1", "apMacList": ["AA:BB:CC:00:00:03"]}]
    });
    expect_once(
        &server,
        call("PUT", "/ai/licenses/42", Some(request)),
        ok(answer),
    )
    .await;
    let body = vec![LicenseAssignmentUpdate::new(
        "dev-1".to_owned(),
        vec!["AA:BB:CC:00:00:03".to_owned()],
    )];
    let result = client
        .analytics()
        .licenses()
        .update_license("42", &body)
        .send()
        .await
        .unwrap();
    assert_eq!(result.license_id, Some(42));
    assert_eq!(result.count, Some(100));
    assert_eq!(result.used, Some(38));
    let assignment = &result.assignments.as_ref().expect("assignments")[0];
    assert_eq!(assignment.device_name, s("SZ-1"));
    assert_eq!(
        assignment.ap_mac_list,
        Some(vec!["AA:BB:CC:00:00:03".to_owned()])
    );
}

// ---------------------------------------------------------------- onboarded systems

fn system_json() -> Value {
    json!({
        "deviceId": "dev-1",
        "deviceName": "SZ-1",
        "tenantId": "t-1",
        "tenantName": "Acme",
        "state": "ONLINE",
        "createdAt": "2024-03-01T10:00:00Z",
        "status": "ongoing"
    })
}

#[tokio::test]
async fn list_onboarded_systems() {
    let (server, client) = analytics().await;
    expect_once(
        &server,
        call("GET", "/ai/onboardedSystems", None),
        ok(json!([system_json()])),
    )
    .await;
    let systems = client
        .analytics()
        .onboarded_systems()
        .list_onboarded_systems()
        .send()
        .await
        .unwrap();
    assert_eq!(systems.len(), 1);
    let system = &systems[0];
    assert_eq!(system.device_id, s("dev-1"));
    assert_eq!(system.device_name, s("SZ-1"));
    assert_eq!(system.tenant_name, s("Acme"));
    assert_eq!(system.state, s("ONLINE"));
    assert_eq!(system.created_at, s("2024-03-01T10:00:00Z"));
    assert_eq!(system.status, s("ongoing"));
    assert_eq!(system.can_delete, None);
}

#[tokio::test]
async fn delete_onboarded_system() {
    let (server, client) = analytics().await;
    let mock = call("DELETE", "/ai/onboardedSystems/dev-1", None);
    expect_once(&server, mock, ok(json!({"requestId": "r-sys"}))).await;
    let answer = client
        .analytics()
        .onboarded_systems()
        .delete_onboarded_system("dev-1")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.request_id, s("r-sys"));
}

#[tokio::test]
async fn get_onboarded_system() {
    let (server, client) = analytics().await;
    let mut answer = system_json();
    answer["canDelete"] = json!(true);
    answer["deviceMetadata"] = json!({
        "serialNumber": "SN-123",
        "clusterName": "cluster-a",
        "controllerVersion": "6.1.2",
        "onboarder": {"userId": "u-9", "tenantId": "t-1", "tenantName": "Acme"}
    });
    expect_once(
        &server,
        call("GET", "/ai/onboardedSystems/dev-1", None),
        ok(answer),
    )
    .await;
    let system = client
        .analytics()
        .onboarded_systems()
        .get_onboarded_system("dev-1")
        .send()
        .await
        .unwrap();
    assert_eq!(system.device_id, s("dev-1"));
    assert_eq!(system.can_delete, Some(true));
    let meta = system.device_metadata.expect("metadata");
    assert_eq!(meta.serial_number, s("SN-123"));
    assert_eq!(meta.cluster_name, s("cluster-a"));
    assert_eq!(meta.controller_version, s("6.1.2"));
    let onboarder = meta.onboarder.expect("onboarder");
    assert_eq!(onboarder.user_id, s("u-9"));
    assert_eq!(onboarder.tenant_name, s("Acme"));
}

// ---------------------------------------------------------------- resource groups

#[tokio::test]
async fn list_resource_groups() {
    let (server, client) = analytics().await;
    let answer = json!([resource_group_json()]);
    expect_once(&server, call("GET", "/ai/resourceGroups", None), ok(answer)).await;
    let groups = client
        .analytics()
        .resource_groups()
        .list_resource_groups()
        .send()
        .await
        .unwrap();
    assert_eq!(groups.len(), 1);
    assert_resource_group(&groups[0]);
}

#[tokio::test]
async fn create_resource_group() {
    let (server, client) = analytics().await;
    let request = json!({"name": "HQ", "description": "Head office", "filter": filter_json()});
    let mock = call("POST", "/ai/resourceGroups", Some(request));
    expect_once(&server, mock, ok(resource_group_json())).await;
    let mut body = ResourceGroupInput::new("HQ".to_owned(), filter());
    body.description = s("Head office");
    let group = client
        .analytics()
        .resource_groups()
        .create_resource_group(&body)
        .send()
        .await
        .unwrap();
    assert_resource_group(&group);
}

#[tokio::test]
async fn query_resource_group_filters() {
    let (server, client) = analytics().await;
    let request = json!({"searchString": "SZ", "searchType": "networkHierarchies"});
    let answer = json!({
        "networkNodes": [[{"type": "system", "name": "dev-1"}]],
        "switchNodes": [],
        "idToSystemNameMapping": {"dev-1": "SZ-1"}
    });
    let mock = call("POST", "/ai/resourceGroups/filters/query", Some(request));
    expect_once(&server, mock, ok(answer)).await;
    let body = ResourceGroupFilterQuery::new("SZ".to_owned(), FilterSearchType::NetworkHierarchies);
    let found = client
        .analytics()
        .resource_groups()
        .query_resource_group_filters(&body)
        .send()
        .await
        .unwrap();
    let nodes = found.network_nodes.expect("network nodes");
    assert_eq!(nodes[0][0].name, s("dev-1"));
    assert_eq!(found.switch_nodes, Some(vec![]));
    let names = found.id_to_system_name_mapping.expect("mapping");
    assert_eq!(names.get("dev-1").map(String::as_str), Some("SZ-1"));
}

#[tokio::test]
async fn get_resource_group() {
    let (server, client) = analytics().await;
    let mock = call("GET", "/ai/resourceGroups/rg-1", None);
    expect_once(&server, mock, ok(resource_group_json())).await;
    let group = client
        .analytics()
        .resource_groups()
        .get_resource_group("rg-1")
        .send()
        .await
        .unwrap();
    assert_resource_group(&group);
}

#[tokio::test]
async fn update_resource_group() {
    let (server, client) = analytics().await;
    let request = json!({"name": "HQ", "filter": filter_json()});
    let mock = call("PUT", "/ai/resourceGroups/rg-1", Some(request));
    expect_once(&server, mock, ok(resource_group_json())).await;
    let body = ResourceGroupInput::new("HQ".to_owned(), filter());
    let group = client
        .analytics()
        .resource_groups()
        .update_resource_group("rg-1", &body)
        .send()
        .await
        .unwrap();
    assert_resource_group(&group);
}

// ---------------------------------------------------------------- schedules

fn schedule_json() -> Value {
    json!({
        "id": "s-1",
        "name": "Monthly APs",
        "reportName": "Access Points",
        "owner": "ada@example.com",
        "recipients": {"emails": ["ops@example.com"]},
        "frequency": "monthly",
        "granularity": "P1D",
        "format": "pdf",
        "timezone": "Europe/Paris",
        "description": "AP report",
        "executedAt": "2024-05-01T00:00:00Z",
        "status": "On Grace",
        "isActive": true,
        "pdfCoverPage": false
    })
}

fn assert_schedule(schedule: &Schedule) {
    assert_eq!(schedule.id, s("s-1"));
    assert_eq!(schedule.name, s("Monthly APs"));
    assert_eq!(schedule.report_name, Some(ReportName::AccessPoints));
    assert_eq!(schedule.owner, s("ada@example.com"));
    assert_eq!(
        schedule.recipients,
        Some(json!({"emails": ["ops@example.com"]}))
    );
    assert_eq!(schedule.frequency, Some(ReportFrequency::Monthly));
    assert_eq!(schedule.granularity, Some(ReportGranularity::P1d));
    assert_eq!(schedule.format, Some(ReportFormat::Pdf));
    assert_eq!(schedule.timezone, s("Europe/Paris"));
    assert_eq!(schedule.executed_at, s("2024-05-01T00:00:00Z"));
    assert_eq!(schedule.status, Some(ScheduleStatus::OnGrace));
    assert_eq!(schedule.is_active, Some(true));
    assert_eq!(schedule.pdf_cover_page, Some(false));
}

#[tokio::test]
async fn retry_failed_report_schedules() {
    let (server, client) = analytics().await;
    let mock = call(
        "POST",
        "/ai/schedules/retry",
        Some(json!({"ids": ["s-1", "s-2"]})),
    );
    expect_once(&server, mock, ok(json!({"result": {"retried": 2}}))).await;
    let body = ScheduleIds::new(vec!["s-1".to_owned(), "s-2".to_owned()]);
    let answer = client
        .analytics()
        .schedules()
        .retry_failed_report_schedules(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.result, Some(json!({"retried": 2})));
}

#[tokio::test]
async fn delete_schedules() {
    let (server, client) = analytics().await;
    let mock = call("DELETE", "/ai/schedules", Some(json!({"ids": ["s-1"]})));
    expect_once(&server, mock, ok(json!({"result": {"deleted": ["s-1"]}}))).await;
    let body = ScheduleIds::new(vec!["s-1".to_owned()]);
    let answer = client
        .analytics()
        .schedules()
        .delete_schedules(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.result, Some(json!({"deleted": ["s-1"]})));
}

#[tokio::test]
async fn list_schedules_with_and_without_status_filter() {
    let (server, client) = analytics().await;
    let unfiltered = call("GET", "/ai/schedules", None).and(query_param_is_missing("status"));
    expect_once(
        &server,
        unfiltered,
        ok(json!({"result": [schedule_json()]})),
    )
    .await;
    let filtered = call("GET", "/ai/schedules", None).and(query_param("status", "Not triggered"));
    expect_once(&server, filtered, ok(json!({"result": []}))).await;

    let all = client
        .analytics()
        .schedules()
        .list_schedules()
        .send()
        .await
        .unwrap();
    assert_schedule(&all.result.expect("result")[0]);
    let none = client
        .analytics()
        .schedules()
        .list_schedules()
        .status(ScheduleStatus::NotTriggered)
        .send()
        .await
        .unwrap();
    assert_eq!(none.result, Some(vec![]));

    let requests = common::api_requests(&server).await;
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].url.query(), None);
    // The space is percent-encoded (`+` would also be a valid query encoding).
    let query = requests[1].url.query().expect("a query string");
    assert!(
        query == "status=Not%20triggered" || query == "status=Not+triggered",
        "{query}"
    );
}

#[tokio::test]
async fn create_schedule() {
    let (server, client) = analytics().await;
    let request = json!({
        "name": "Monthly APs",
        "reportName": "Access Points",
        "description": "AP report",
        "frequency": "monthly",
        "granularity": "P1D",
        "format": "csv",
        "timezone": "Europe/Paris",
        "recipients": {"emails": ["ops@example.com"]},
        "pdfCoverPage": false,
        "active": true
    });
    let answer = json!({"id": "s-1", "active": true, "name": "Monthly APs", "format": "csv",
                        "timezone": "Europe/Paris"});
    expect_once(
        &server,
        call("POST", "/ai/schedules", Some(request)),
        ok(answer),
    )
    .await;
    // Eight required fields: built with named setters instead of eight positional arguments.
    let body = CreateScheduleRequest::builder()
        .name("Monthly APs")
        .report_name(ReportName::AccessPoints)
        .description("AP report")
        .frequency(ReportFrequency::Monthly)
        .granularity(ReportGranularity::P1d)
        .format(ReportFormat::Csv)
        .timezone("Europe/Paris")
        .recipients(json!({"emails": ["ops@example.com"]}))
        .pdf_cover_page(false)
        .active(true)
        .build()
        .unwrap();
    let created = client
        .analytics()
        .schedules()
        .create_schedule(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(created.id, s("s-1"));
    assert_eq!(created.active, Some(true));
    assert_eq!(created.name, s("Monthly APs"));
    assert_eq!(created.format, Some(ReportFormat::Csv));
    assert_eq!(created.timezone, s("Europe/Paris"));
}

#[test]
fn schedule_builder_names_a_missing_required_field_by_its_wire_name() {
    let err = CreateScheduleRequest::builder()
        .name("Monthly APs")
        .description("AP report")
        .build()
        .unwrap_err();
    assert_eq!(err.model(), "CreateScheduleRequest");
    assert_eq!(err.field(), "reportName", "the first unset required field");
    assert!(err.to_string().contains("`reportName`"), "{err}");
}

#[tokio::test]
async fn get_schedule_execution_logs() {
    let (server, client) = analytics().await;
    let answer = json!([{"executedAt": "2024-05-01T00:00:00Z", "status": "Success"}]);
    expect_once(
        &server,
        call("GET", "/ai/schedules/s-1/logs", None),
        ok(answer),
    )
    .await;
    let logs = client
        .analytics()
        .schedules()
        .get_schedule_execution_logs("s-1")
        .send()
        .await
        .unwrap();
    assert_eq!(logs.len(), 1);
    assert_eq!(logs[0]["status"], "Success");
    assert_eq!(logs[0]["executedAt"], "2024-05-01T00:00:00Z");
}

#[tokio::test]
async fn get_schedule() {
    let (server, client) = analytics().await;
    expect_once(
        &server,
        call("GET", "/ai/schedules/s-1", None),
        ok(schedule_json()),
    )
    .await;
    let schedule = client
        .analytics()
        .schedules()
        .get_schedule("s-1")
        .send()
        .await
        .unwrap();
    assert_schedule(&schedule);
}

/// Analytics response objects are open, like the network API's: a field the spec does not name
/// is kept in `additional_fields` and serialized back unchanged.
#[tokio::test]
async fn response_objects_keep_fields_the_spec_does_not_name() {
    let (server, client) = analytics().await;
    let mut answer = schedule_json();
    answer["nextRunAt"] = json!("2024-06-01T00:00:00Z");
    answer["createdBy"] = json!({"id": "u-1"});
    expect_once(
        &server,
        call("GET", "/ai/schedules/s-1", None),
        ok(answer.clone()),
    )
    .await;
    let schedule = client
        .analytics()
        .schedules()
        .get_schedule("s-1")
        .send()
        .await
        .unwrap();
    assert_schedule(&schedule);
    assert_eq!(
        schedule.additional_fields["nextRunAt"],
        json!("2024-06-01T00:00:00Z")
    );
    assert_eq!(
        schedule.additional_fields["createdBy"],
        json!({"id": "u-1"})
    );
    assert_eq!(serde_json::to_value(&schedule).unwrap(), answer);
}

#[tokio::test]
async fn update_schedule() {
    let (server, client) = analytics().await;
    let request = json!({"name": "Renamed", "active": false});
    let answer = json!({
        "id": "s-1", "name": "Renamed", "reportName": "Wireless Airtime", "format": "pdf",
        "timezone": "UTC", "active": false, "pdfCoverPage": true, "description": "AP report",
        "frequency": "monthly", "granularity": "P1D", "recipients": {"emails": []},
        "filter": {"zone": "z-1"}
    });
    let mock = call("PATCH", "/ai/schedules/s-1", Some(request));
    expect_once(&server, mock, ok(answer)).await;
    let mut body = UpdateScheduleRequest::new();
    body.name = s("Renamed");
    body.active = Some(false);
    let updated = client
        .analytics()
        .schedules()
        .update_schedule("s-1", &body)
        .send()
        .await
        .unwrap();
    assert_eq!(updated.id, s("s-1"));
    assert_eq!(updated.name, s("Renamed"));
    assert_eq!(updated.report_name, Some(ReportName::WirelessAirtime));
    assert_eq!(updated.active, Some(false));
    assert_eq!(updated.pdf_cover_page, Some(true));
    assert_eq!(updated.frequency, Some(ReportFrequency::Monthly));
    assert_eq!(updated.filter, Some(json!({"zone": "z-1"})));
}

// ---------------------------------------------------------------- users

#[tokio::test]
async fn delete_users() {
    let (server, client) = analytics().await;
    let mock = call("DELETE", "/ai/users", Some(json!(["u-1", "u-2"])));
    expect_once(&server, mock, ok(json!({"requestId": "r-users"}))).await;
    let body = vec!["u-1".to_owned(), "u-2".to_owned()];
    let answer = client
        .analytics()
        .users()
        .delete_users(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.request_id, s("r-users"));
}

#[tokio::test]
async fn list_users() {
    let (server, client) = analytics().await;
    let answer = json!([{
        "id": "u-2", "firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com",
        "tenantId": "t-2", "tenantName": "Partner", "role": "network-admin",
        "resourceGroupId": "rg-1", "resourceGroupName": "HQ", "type": "invited",
        "invitation": {"state": "accepted", "inviterUser": {"firstName": "Ada", "lastName": "Lovelace"}}
    }]);
    expect_once(&server, call("GET", "/ai/users", None), ok(answer)).await;
    let users = client
        .analytics()
        .users()
        .list_users()
        .send()
        .await
        .unwrap();
    let user = &users[0];
    assert_eq!(user.id, s("u-2"));
    assert_eq!(user.first_name, s("Grace"));
    assert_eq!(user.tenant_name, s("Partner"));
    assert_eq!(user.role, Some(UserRole::NetworkAdmin));
    assert_eq!(user.resource_group_name, s("HQ"));
    assert_eq!(user.type_, s("invited"));
    let invitation = user.invitation.as_ref().expect("invitation");
    assert_eq!(invitation.state, s("accepted"));
    assert_eq!(
        invitation
            .inviter_user
            .as_ref()
            .and_then(|u| u.last_name.clone()),
        s("Lovelace")
    );
}

#[tokio::test]
async fn add_internal_user() {
    let (server, client) = analytics().await;
    let request = json!({"resourceGroupId": "rg-1", "role": "report-only", "swuId": "swu-7"});
    expect_once(
        &server,
        call("POST", "/ai/users/internal", Some(request)),
        ok(user_json()),
    )
    .await;
    let body =
        AddInternalUserRequest::new("rg-1".to_owned(), UserRole::ReportOnly, "swu-7".to_owned());
    let user = client
        .analytics()
        .users()
        .add_internal_user(&body)
        .send()
        .await
        .unwrap();
    assert_user(&user, UserRole::ReportOnly);
}

#[tokio::test]
async fn invite_third_party_user() {
    let (server, client) = analytics().await;
    let request = json!({"email": "bob@partner.example", "resourceGroupId": "rg-1",
                         "role": "read-only", "type": "super-tenant"});
    let answer = json!({"invitedUserId": "u-3", "email": "bob@partner.example",
                        "resourceGroupId": "rg-1", "role": "read-only", "type": "super-tenant"});
    expect_once(
        &server,
        call("POST", "/ai/users/invitations", Some(request)),
        ok(answer),
    )
    .await;
    let mut body = InviteThirdPartyUserRequest::new(
        "bob@partner.example".to_owned(),
        "rg-1".to_owned(),
        UserRole::ReadOnly,
    );
    body.type_ = Some(InvitationType::SuperTenant);
    let invited = client
        .analytics()
        .users()
        .invite_third_party_user(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(invited.invited_user_id, s("u-3"));
    assert_eq!(invited.email, s("bob@partner.example"));
    assert_eq!(invited.resource_group_id, s("rg-1"));
    assert_eq!(invited.role, Some(UserRole::ReadOnly));
    assert_eq!(invited.type_, Some(InvitationType::SuperTenant));
}

#[tokio::test]
async fn list_internal_users() {
    let (server, client) = analytics().await;
    let answer = json!([{"swuId": "swu-7", "email": "carol@example.com"}]);
    expect_once(&server, call("GET", "/ai/users/internal", None), ok(answer)).await;
    let users = client
        .analytics()
        .users()
        .list_internal_users()
        .send()
        .await
        .unwrap();
    assert_eq!(users.len(), 1);
    assert_eq!(users[0]["swuId"], "swu-7");
    assert_eq!(users[0]["email"], "carol@example.com");
}

#[tokio::test]
async fn update_user() {
    let (server, client) = analytics().await;
    let request = json!({"resourceGroupId": "rg-1", "role": "report-only"});
    expect_once(
        &server,
        call("PUT", "/ai/users/u-1", Some(request)),
        ok(user_json()),
    )
    .await;
    let body = UpdateUserRequest::new("rg-1".to_owned(), UserRole::ReportOnly);
    let user = client
        .analytics()
        .users()
        .update_user("u-1", &body)
        .send()
        .await
        .unwrap();
    assert_user(&user, UserRole::ReportOnly);
}

// ---------------------------------------------------------------- decoding

#[tokio::test]
async fn unknown_enum_value_is_kept_and_sent_back_unchanged() {
    let (server, client) = analytics().await;
    let answer = json!([{"id": "u-5", "role": "brand-new-role", "resourceGroupId": "rg-1"}]);
    expect_once(&server, call("GET", "/ai/users", None), ok(answer)).await;
    let request = json!({"resourceGroupId": "rg-1", "role": "brand-new-role"});
    expect_once(
        &server,
        call("PUT", "/ai/users/u-5", Some(request)),
        ok(user_json()),
    )
    .await;

    let users = client
        .analytics()
        .users()
        .list_users()
        .send()
        .await
        .unwrap();
    let role = users[0].role.clone().expect("role");
    let UserRole::Unknown(unknown) = &role else {
        panic!("expected UserRole::Unknown, got {role:?}");
    };
    assert_eq!(unknown.as_str(), "brand-new-role");
    assert_eq!(role.as_str(), "brand-new-role");
    assert_eq!(role.to_string(), "brand-new-role");
    assert_eq!(
        serde_json::to_value(&role).unwrap(),
        json!("brand-new-role")
    );
    assert_eq!(
        serde_json::to_value(&users[0]).unwrap()["role"],
        "brand-new-role"
    );

    // Sent back to the server: the mock only matches the unchanged wire value.
    let body = UpdateUserRequest::new("rg-1".to_owned(), role);
    client
        .analytics()
        .users()
        .update_user("u-5", &body)
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn unknown_response_fields_are_ignored() {
    let (server, client) = analytics().await;
    let mut answer = system_json();
    answer["addedLater"] = json!({"nested": [1, 2, 3]});
    answer["deviceMetadata"] = json!({"serialNumber": "SN-1", "newFlag": true});
    expect_once(
        &server,
        call("GET", "/ai/onboardedSystems/dev-1", None),
        ok(answer),
    )
    .await;
    let system = client
        .analytics()
        .onboarded_systems()
        .get_onboarded_system("dev-1")
        .send()
        .await
        .unwrap();
    assert_eq!(system.device_id, s("dev-1"));
    assert_eq!(system.tenant_name, s("Acme"));
    assert_eq!(
        system.device_metadata.and_then(|m| m.serial_number),
        s("SN-1")
    );
}

#[tokio::test]
async fn malformed_success_body_is_a_decode_error_with_status_and_raw_body() {
    let (server, client) = analytics().await;
    let raw = br#"{"licenseId": 42, "count": "#;
    let answer = ResponseTemplate::new(200)
        .insert_header("x-request-id", "r-dec")
        .set_body_raw(&raw[..], "application/json");
    expect_once(&server, call("GET", "/ai/licenses/42", None), answer).await;
    let err = client
        .analytics()
        .licenses()
        .get_license("42")
        .send()
        .await
        .unwrap_err();
    let ruckus_one::Error::Decode(decode) = &err else {
        panic!("expected a decode error, got {err:?}");
    };
    assert_eq!(decode.status(), 200);
    assert_eq!(decode.raw_body(), &raw[..]);
    assert_eq!(decode.request_id(), Some("r-dec"));
    assert!(!decode.message().is_empty());
    assert_eq!(err.status(), Some(200));
    assert_eq!(err.raw_body(), Some(&raw[..]));
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn error_answer_is_an_api_error_with_decoded_body() {
    let (server, client) = analytics().await;
    let raw = r#"{"errors":[{"message":"bad"}],"requestId":"r-1"}"#;
    let answer = ResponseTemplate::new(400).set_body_raw(raw, "application/json");
    let mock = call("POST", "/ai/applicationTokens", Some(json!({"name": ""})));
    expect_once(&server, mock, answer).await;
    let body = CreateApplicationTokenRequest::new(String::new());
    let err = client
        .analytics()
        .application_tokens()
        .create_application_token(&body)
        .send()
        .await
        .unwrap_err();
    let ruckus_one::Error::Api(api) = &err else {
        panic!("expected an API error, got {err:?}");
    };
    assert_eq!(api.status(), 400);
    assert_eq!(api.request_id(), Some("r-1"));
    assert_eq!(api.message(), Some("bad"));
    assert_eq!(api.raw_body(), raw.as_bytes());
    let RuntimeErrorBody::ErrorsArray(decoded) = api.body() else {
        panic!("expected the errors-array shape, got {:?}", api.body());
    };
    assert_eq!(decoded.request_id.as_deref(), Some("r-1"));
    assert_eq!(decoded.errors.len(), 1);
    assert_eq!(decoded.errors[0].message.as_deref(), Some("bad"));
    assert_eq!(err.status(), Some(400));
    assert_eq!(err.request_id(), Some("r-1"));
    assert!(!err.is_retryable());
}

// ---------------------------------------------------------------- path encoding

#[tokio::test]
async fn path_parameter_with_slashes_and_dots_stays_one_segment() {
    let (server, client) = analytics().await;
    // Matches wherever the request lands under /ai, so that a wrong path is seen below.
    Mock::given(method("GET"))
        .and(path_regex("^/ai/"))
        .and(header("authorization", BEARER))
        .respond_with(ok(token_json("x")))
        .expect(1)
        .mount(&server)
        .await;
    client
        .analytics()
        .application_tokens()
        .get_application_token("a/../b")
        .send()
        .await
        .unwrap();

    let requests = common::api_requests(&server).await;
    assert_eq!(requests.len(), 1);
    let raw_path = requests[0].url.path();
    assert!(!raw_path.contains("/../"), "{raw_path}");
    let segment = raw_path
        .strip_prefix("/ai/applicationTokens/")
        .unwrap_or_else(|| panic!("wrong collection: {raw_path}"));
    assert!(!segment.is_empty() && !segment.contains('/'), "{raw_path}");
    assert_eq!(common::percent_decode(segment), "a/../b");
    assert_eq!(raw_path, "/ai/applicationTokens/a%2F..%2Fb");
}

#[tokio::test]
async fn dot_dot_path_parameter_never_reaches_another_resource() {
    // `..` (and `%2E%2E`) is a dot segment for URL parsers and would address the parent
    // collection; the runtime refuses it before sending anything (not even a token request).
    let server = common::server_expecting_tokens(0).await;
    let client = ruckus_one::Client::new(common::config(&server)).unwrap();
    let err = client
        .analytics()
        .application_tokens()
        .get_application_token("..")
        .send()
        .await
        .unwrap_err();
    let ruckus_one::Error::InvalidRequest { message } = &err else {
        panic!("expected an invalid request, got {err:?}");
    };
    assert!(message.contains("applicationTokenId"), "{message}");
    assert!(common::api_requests(&server).await.is_empty());
}

// ---------------------------------------------------------------- tenants and redaction

#[tokio::test]
async fn delegated_tenant_header() {
    let (server, client) = analytics().await;
    let plain = call("GET", "/ai/licenses", None).and(common::no_tenant);
    expect_once(&server, plain, ok(json!([]))).await;
    let t9 = call("GET", "/ai/licenses", None).and(header("x-rks-tenantid", "t-9"));
    expect_once(&server, t9, ok(json!([license_json()]))).await;
    let t8 = call("GET", "/ai/licenses/42", None).and(header("x-rks-tenantid", "t-8"));
    expect_once(&server, t8, ok(license_json())).await;

    assert!(
        client
            .analytics()
            .licenses()
            .list_licenses()
            .send()
            .await
            .unwrap()
            .is_empty()
    );
    let delegated = client.with_tenant("t-9").unwrap();
    assert_eq!(delegated.runtime().delegated_tenant(), Some("t-9"));
    let licenses = delegated
        .analytics()
        .licenses()
        .list_licenses()
        .send()
        .await
        .unwrap();
    assert_eq!(licenses[0].license_id, Some(42));
    // A per-call tenant overrides the client's.
    let license = delegated
        .analytics()
        .licenses()
        .get_license("42")
        .tenant("t-8")
        .send()
        .await
        .unwrap();
    assert_eq!(license.license_id, Some(42));
}

#[tokio::test]
async fn secrets_stay_out_of_debug_output() {
    let (server, client) = analytics().await;
    let mock = call("GET", "/ai/applicationTokens/at-1", None);
    expect_once(&server, mock, ok(token_json("very-secret-value"))).await;
    let token = client
        .analytics()
        .application_tokens()
        .get_application_token("at-1")
        .send()
        .await
        .unwrap();
    assert_eq!(
        token.client_secret.as_ref().map(|s| s.expose()),
        Some("very-secret-value")
    );

    // The access token is cached in the client now.
    let client_debug = format!("{client:?}");
    assert!(client_debug.contains(common::CLIENT_ID), "{client_debug}");
    assert!(
        !client_debug.contains(common::CLIENT_SECRET),
        "{client_debug}"
    );
    assert!(
        !client_debug.contains(common::ACCESS_TOKEN),
        "{client_debug}"
    );
    let token_debug = format!("{token:?}");
    assert!(token_debug.contains("cid-1"), "{token_debug}");
    assert!(!token_debug.contains("very-secret-value"), "{token_debug}");
    assert!(!token_debug.contains(common::ACCESS_TOKEN), "{token_debug}");
}
