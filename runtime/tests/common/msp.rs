//! The network API, token settings and operations the multi-tenant tests share (fan-out, bulk
//! waits, their redaction).

use ruckus_one_runtime::Method;
use ruckus_one_runtime::internal::{ErrorFamily, MediaTypes, Operation, Service};

// Re-exported for the tests that import the fixture from here; not each uses both.
#[allow(unused_imports)]
pub use super::{AUTH, NETWORK as API};

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
