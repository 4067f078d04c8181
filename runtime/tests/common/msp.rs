//! The network API, token settings and operations the multi-tenant tests share (fan-out, bulk
//! waits, their redaction).

use ruckus_one_runtime::Method;
use ruckus_one_runtime::internal::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, MediaTypes, Operation, Service,
};

pub static API: Api = Api {
    name: "network",
    title: "Network",
    prefix: "",
    hosts: Hosts {
        asia: "https://a.example",
        europe: "https://e.example",
        north_america: "https://n.example",
    },
    auth: ApiAuth::ClientCredentials,
    tenant_limit: None,
};

pub static AUTH: AuthSettings = AuthSettings {
    token_url: "{host}/oauth2/token/{tenant_id}",
    token_url_without_tenant: "{host}/oauth2/token",
    tenant_header: "x-rks-tenantid",
};

pub static UNPACED: Service = Service {
    name: "activities",
    rate_limit: None,
};

pub const JSON: &[MediaTypes] = &[MediaTypes {
    content_type: Some("application/json"),
    accept: "application/json",
}];

pub static GET_VENUES: Operation = Operation {
    id: "get_venues",
    method: Method::Get,
    path: "/venues",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &UNPACED,
    reads: true,
};

pub static QUERY_ACTIVITIES: Operation = Operation {
    id: "query_activities",
    method: Method::Post,
    path: "/activities/query",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &UNPACED,
    reads: true,
};
