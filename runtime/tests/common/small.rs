//! The API, token settings and operation the Redis pacing tests share: one operation, `GET
//! /things`, of a service with a small published limit.

use ruckus_one_runtime::internal::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, MediaTypes, Operation, Service,
};
use ruckus_one_runtime::{Method, RateLimit};

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

/// 10 calls at once, 20 back per second.
pub static SMALL: Service = Service {
    name: "small",
    rate_limit: Some(RateLimit::per_tenant(10, 20)),
};

pub static GET_THING: Operation = Operation {
    id: "get_thing",
    method: Method::Get,
    path: "/things",
    api: &API,
    versions: &[MediaTypes {
        content_type: None,
        accept: "application/json",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &SMALL,
    reads: true,
};
