//! The API, token settings and operation the Redis pacing tests share: one operation, `GET
//! /things`, of a service with a small published limit.

use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Service};
use ruckus_one_runtime::{Method, RateLimit};

// Re-exported for the tests that import the fixture from here; not each uses both.
#[allow(unused_imports)]
pub use super::{AUTH, NETWORK as API};

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
