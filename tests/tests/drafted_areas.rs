//! One realistic answer per area whose operations `cargo xtask import` drafts (issue 19),
//! decoded by the real client into its typed response.
//!
//! Each body follows the official description's schema (named in the comments) with realistic
//! values, plus a field the spec does not know (`fieldAddedLater`, kept in
//! `additional_fields`); where the answer has an enum, a value no description lists decodes to
//! its `Unknown` variant with its text. Serializing the decoded value gives back the body.

mod common;

use common::expect_once;
use serde::Serialize;
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const NEW_VALUE: &str = "SOMETHING_NEW";
const V1: &str = "application/vnd.ruckus.v1+json";
const JSON: &str = "application/json";

/// A server with the token endpoint and a network client for it (no retries).
async fn network() -> (MockServer, ruckus_one::Client) {
    let server = common::server().await;
    let config = common::config(&server).retry(ruckus_one::RetryPolicy::none());
    let client = ruckus_one::Client::new(config).expect("valid configuration");
    (server, client)
}

/// Mounts the one answer to `GET path`: a 200 with `body` as `media_type`, which the request
/// must accept (the operation's default representation).
async fn answer(server: &MockServer, path_: &str, media_type: &str, body: &Value) {
    let mock = Mock::given(method("GET"))
        .and(path(path_))
        .and(header("accept", media_type));
    let bytes = serde_json::to_vec(body).expect("JSON body");
    let response = ResponseTemplate::new(200).set_body_raw(bytes, media_type);
    expect_once(server, mock, response).await;
}

/// The decoded value keeps the unknown field and writes back exactly `body`.
fn assert_sent_back<T: Serialize>(decoded: &T, body: &Value) {
    let again = serde_json::to_value(decoded).expect("the decoded value serializes");
    assert_eq!(again.pointer("/fieldAddedLater"), Some(&json!({"x": 1})));
    assert_eq!(&again, body);
}

fn links(href: &str) -> Value {
    json!({"self": {"href": href}})
}

// adaptive_policies: `get_prioritized_rule_by_id` -> `PrioritizedPolicy`
// (adaptive_policy_management-0.0.9.yaml PrioritizedPolicy).
#[tokio::test]
async fn adaptive_policies_decode_a_prioritized_policy() {
    let (server, client) = network().await;
    let at = "/policySets/ps-1/prioritizedPolicies/pol-7";
    let body = json!({
        "policyId": "pol-7", "priority": 2, "_links": links(at), "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, V1, &body).await;
    let got = client
        .network()
        .adaptive_policies()
        .get_prioritized_rule_by_id("ps-1", "pol-7")
        .send()
        .await
        .unwrap();
    assert_eq!(got.policy_id.as_deref(), Some("pol-7"));
    assert_eq!(got.priority, Some(2));
    assert_sent_back(&got, &body);
}

// workflows: `get_enrollment_action` -> `Action` (workflow_actions_api-0.0.2.yaml Action).
#[tokio::test]
async fn workflows_decode_an_enrollment_action() {
    use ruckus_one::network::ActionType;
    let (server, client) = network().await;
    let at = "/enrollmentActions/act-3";
    let body = json!({
        "name": "Guest terms", "description": "Accept the terms of use",
        "actionType": "AUP", "id": "act-3", "version": 4, "valid": true,
        "_links": links(at), "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, V1, &body).await;
    let got = client
        .network()
        .workflows()
        .get_enrollment_action("act-3")
        .send()
        .await
        .unwrap();
    assert_eq!(got.name, "Guest terms");
    assert_eq!(got.action_type, ActionType::Aup);
    assert_eq!(got.version, Some(4));
    assert_sent_back(&got, &body);
}

// property_management: `get_venue_property_config` (drafted as `get_property`, renamed by an
// override) -> `Property` (property_management-1.0.1.yaml PropertyConfigs).
#[tokio::test]
async fn property_management_decodes_a_property_configuration() {
    use ruckus_one::network::PropertyStatus;
    let (server, client) = network().await;
    let at = "/venues/v-12/propertyConfigs";
    let body = json!({
        "venueId": "v-12", "venueName": "Harbour Lofts",
        "address": {"country": "US", "city": "Seattle", "addressLine": "12 Pier St"},
        "venue": {"id": "v-12"}, "personaGroupId": "pg-5", "status": NEW_VALUE,
        "unitConfig": {"type": "unitConfig", "residentPortalAllowed": true, "maxUnitCount": 120},
        "_links": links(at), "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, V1, &body).await;
    let got = client
        .network()
        .property_management()
        .get_venue_property_config("v-12")
        .send()
        .await
        .unwrap();
    assert_eq!(got.venue_name, "Harbour Lofts");
    assert_eq!(got.address.as_ref().unwrap().city, "Seattle");
    assert!(matches!(got.status, PropertyStatus::Unknown(_)));
    assert_eq!(got.status.as_str(), NEW_VALUE);
    assert_eq!(got.unit_config.as_ref().unwrap().max_unit_count, Some(120));
    assert_sent_back(&got, &body);
}

// message_templates: `msg_template_get_template_scope` -> `TemplateScope`
// (message_template_api-0.0.12.yaml TemplateScope).
#[tokio::test]
async fn message_templates_decode_a_template_scope() {
    use ruckus_one::network::TemplateScopeMessageType;
    let (server, client) = network().await;
    let at = "/templateScopes/scope-1";
    let body = json!({
        "id": "scope-1", "messageType": "EMAIL", "nameLocalizationKey": "unit.assignment",
        "defaultTemplateId": "tpl-9",
        "registrations": [{"id": "reg-1", "templateId": "tpl-9",
                           "usageLocalizationKey": "unit.assignment.email"}],
        "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, JSON, &body).await;
    let got = client
        .network()
        .message_templates()
        .msg_template_get_template_scope("scope-1")
        .send()
        .await
        .unwrap();
    assert_eq!(got.message_type, Some(TemplateScopeMessageType::Email));
    assert_eq!(got.registrations.as_ref().unwrap()[0].template_id, "tpl-9");
    assert_sent_back(&got, &body);
}

// enrollments: `get_enrollments` -> `EnrollmentDetails`
// (admin_enrollment_rest_api-0.0.1.yaml EnrollmentDetails).
#[tokio::test]
async fn enrollments_decode_an_enrollment() {
    use ruckus_one::network::EnrollmentStatus;
    let (server, client) = network().await;
    let at = "/enrollments/enr-4";
    let body = json!({
        "workflowId": "wf-2", "enrollmentId": "enr-4", "macAddress": "3c:22:fb:10:aa:01",
        "ipAddress": "10.20.0.15", "status": "FINISHED", "userAgentName": "Android",
        "variables": [{"name": "email", "value": "pat@example.com"}],
        "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, V1, &body).await;
    let got = client
        .network()
        .enrollments()
        .get_enrollments("enr-4")
        .send()
        .await
        .unwrap();
    assert_eq!(got.status, Some(EnrollmentStatus::Finished));
    assert_eq!(
        got.variables.as_ref().unwrap()[0].value.as_deref(),
        Some("pat@example.com")
    );
    assert_sent_back(&got, &body);
}

// radius_attribute_groups: `get_attribute_by_id` -> `RadiusAttribute`
// (radius_attribute_group_management_api-1.0.8.yaml RadiusAttribute).
#[tokio::test]
async fn radius_attribute_groups_decode_a_radius_attribute() {
    use ruckus_one::network::DataType;
    let (server, client) = network().await;
    let at = "/radiusAttributes/26";
    let body = json!({
        "id": 26, "name": "Vendor-Specific", "vendorName": "Ruckus", "dataType": NEW_VALUE,
        "showOnDefault": false, "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, JSON, &body).await;
    let got = client
        .network()
        .radius_attribute_groups()
        .get_attribute_by_id("26")
        .send()
        .await
        .unwrap();
    assert_eq!(got.id, 26);
    assert!(matches!(got.data_type, Some(DataType::Unknown(_))));
    assert_sent_back(&got, &body);
}

// files: `get_file_download_url` -> `SignedUrlResponse` (file_service_api-0.2.7.yaml
// SignedUrlResponse).
#[tokio::test]
async fn files_decode_a_signed_url() {
    let (server, client) = network().await;
    let at = "/files/f-77/urls";
    let body = json!({
        "fileId": "f-77",
        "signedUrl": "https://storage.example.com/f-77?X-Goog-Signature=abc",
        "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, JSON, &body).await;
    let got = client
        .network()
        .files()
        .get_file_download_url("f-77")
        .send()
        .await
        .unwrap();
    assert_eq!(got.file_id.as_deref(), Some("f-77"));
    assert_sent_back(&got, &body);
}

// wifi_policy_templates: `get_access_control_profile_template` -> `AccessControlProfile`
// (wifi_api-17.3.3.205.yaml AccessControlProfile).
#[tokio::test]
async fn wifi_policy_templates_decode_an_access_control_profile_template() {
    let (server, client) = network().await;
    let at = "/templates/accessControlProfiles/acp-1";
    let body = json!({
        "id": "acp-1", "name": "Guest limits", "description": "Template for guest networks",
        "rateLimiting": {"enabled": true, "uplinkLimit": 20, "downlinkLimit": 50},
        "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, "application/vnd.ruckus.v1.1+json", &body).await;
    let got = client
        .network()
        .wifi_policy_templates()
        .get_access_control_profile_template("acp-1")
        .send()
        .await
        .unwrap();
    assert_eq!(got.name, "Guest limits");
    assert_eq!(got.rate_limiting.as_ref().unwrap().downlink_limit, Some(50));
    assert_sent_back(&got, &body);
}

// wifi_templates: `get_dhcp_config_service_profile_template` -> `DhcpConfigServiceProfile`
// (wifi_api-17.3.3.205.yaml DhcpConfigServiceProfile).
#[tokio::test]
async fn wifi_templates_decode_a_dhcp_service_profile_template() {
    use ruckus_one::network::DhcpMode;
    let (server, client) = network().await;
    let at = "/templates/dhcpConfigServiceProfiles/dhcp-9";
    let body = json!({
        "dhcpMode": "EnableOnMultipleAPs",
        "dhcpPools": [{
            "name": "guests", "startIpAddress": "10.20.0.10", "endIpAddress": "10.20.0.200",
            "subnetAddress": "10.20.0.0", "subnetMask": "255.255.255.0",
            "leaseTimeHours": 12, "leaseTimeMinutes": 0, "vlanId": 20
        }],
        "id": "dhcp-9",
        "serviceName": "Guest DHCP",
        "fieldAddedLater": {"x": 1}
    });
    answer(&server, at, "application/vnd.ruckus.v1.1+json", &body).await;
    let got = client
        .network()
        .wifi_templates()
        .get_dhcp_config_service_profile_template("dhcp-9")
        .send()
        .await
        .unwrap();
    assert_eq!(got.service_name, "Guest DHCP");
    assert_eq!(got.dhcp_mode, Some(DhcpMode::EnableOnMultipleAps));
    assert_eq!(got.dhcp_pools[0].lease_time_hours, 12);
    assert_sent_back(&got, &body);
}

// venue_wifi_templates: `get_venue_template_ap_bss_coloring_settings` ->
// `VenueApBssColoringSettings` (wifi_api-17.3.3.205.yaml VenueBssColoringSettings).
#[tokio::test]
async fn venue_wifi_templates_decode_bss_coloring_settings() {
    let (server, client) = network().await;
    let at = "/templates/venues/vt-3/apBssColoringSettings";
    let body = json!({"bssColoringEnabled": true, "fieldAddedLater": {"x": 1}});
    answer(&server, at, V1, &body).await;
    let got = client
        .network()
        .venue_wifi_templates()
        .get_venue_template_ap_bss_coloring_settings("vt-3")
        .send()
        .await
        .unwrap();
    assert_eq!(got.bss_coloring_enabled, Some(true));
    assert_sent_back(&got, &body);
}
