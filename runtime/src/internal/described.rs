//! The runtime's descriptions of APIs and operations built at run time from the operation
//! catalog (`ruckus-one-catalog`), for programs that call operations by their table entry
//! rather than through the generated client: the command line, the MCP server. An operation
//! built here is sent exactly like a generated one (authentication, media versions, error
//! decoding, retries, and pacing by its service and tenant: the buckets are keyed by the
//! service's name, so these calls share them with the generated client's).
//!
//! Each description is built once per process and kept for its life (the runtime takes
//! `&'static` descriptions, as the generated client's are statics).

use crate::operation::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, LimitScope, MediaTypes, Method, Operation,
    RateLimit, Service, TenantLimit,
};
use ruckus_one_catalog as catalog;
use ruckus_one_catalog::{Route, Table};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Descriptions built so far, by key.
struct Built<T: 'static>(OnceLock<Mutex<HashMap<String, &'static T>>>);

impl<T> Built<T> {
    const fn new() -> Self {
        Built(OnceLock::new())
    }

    fn get_or(&self, key: String, build: impl FnOnce() -> T) -> &'static T {
        let mut map = self
            .0
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        map.entry(key)
            .or_insert_with(|| Box::leak(Box::new(build())))
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// The API of `table`: its hosts, prefix, authentication and tenant-wide limit.
pub fn api(table: &'static Table) -> &'static Api {
    static APIS: Built<Api> = Built::new();
    let info = &table.api;
    APIS.get_or(info.name.clone(), || Api {
        name: &info.name,
        title: &info.title,
        prefix: &info.prefix,
        hosts: Hosts {
            asia: &info.hosts.asia,
            europe: &info.hosts.europe,
            north_america: &info.hosts.north_america,
        },
        auth: match info.auth {
            catalog::AuthKind::ClientCredentials => ApiAuth::ClientCredentials,
            catalog::AuthKind::UnitToken => ApiAuth::UnitToken,
        },
        tenant_limit: info.tenant_limit.as_ref().map(|l| TenantLimit {
            max: l.max,
            per_minute: l.per_minute,
        }),
    })
}

/// The token service `table` names (the same for every API of the catalog).
pub fn auth_settings(table: &'static Table) -> &'static AuthSettings {
    static AUTH: Built<AuthSettings> = Built::new();
    let t = &table.api.token;
    AUTH.get_or(table.api.name.clone(), || AuthSettings {
        token_url: &t.url,
        token_url_without_tenant: &t.url_without_tenant,
        tenant_header: &t.tenant_header,
    })
}

/// The operation `route` of `table`: its media versions (the default answer's media type
/// when it has one version), error family and service.
pub fn operation(table: &'static Table, route: &'static Route) -> &'static Operation {
    static OPERATIONS: Built<Operation> = Built::new();
    let key = format!("{} {}", table.api.name, route.id);
    OPERATIONS.get_or(key, || Operation {
        id: &route.id,
        method: method(route.method),
        path: &route.path,
        api: api(table),
        versions: Box::leak(versions(route).into_boxed_slice()),
        error_family: family(table, &route.error_family),
        service: service(table, &route.service),
    })
}

fn versions(route: &Route) -> Vec<MediaTypes> {
    if route.versions.is_empty() {
        // The default answer's media type, unless the operation answers only in others (one
        // versioned type, `application/vnd.ruckus.v1.1+json`): then the first of those.
        let types = &route.response.types;
        let accept = match route.response.media_type.as_str() {
            media if !types.is_empty() && !types.iter().any(|t| t == media) => leak(&types[0]),
            "" => "application/json",
            media => leak(media),
        };
        let content_type = route
            .request
            .as_ref()
            .and_then(|b| b.types.first())
            .map(|t| leak(t));
        return vec![MediaTypes {
            content_type,
            accept,
        }];
    }
    route
        .versions
        .iter()
        .map(|v| MediaTypes {
            content_type: v.content_type.as_deref().map(leak),
            accept: leak(&v.accept),
        })
        .collect()
}

/// The runtime's method for a catalog method.
pub fn method(m: catalog::Method) -> Method {
    match m {
        catalog::Method::Get => Method::Get,
        catalog::Method::Post => Method::Post,
        catalog::Method::Put => Method::Put,
        catalog::Method::Patch => Method::Patch,
        catalog::Method::Delete => Method::Delete,
    }
}

fn family(table: &Table, name: &str) -> ErrorFamily {
    use catalog::FamilyKind as K;
    match table.family(name).map(|f| f.kind) {
        Some(K::ErrorObject) => ErrorFamily::ErrorObject,
        Some(K::StatusMessage) => ErrorFamily::StatusMessage,
        Some(K::FlatObject) => ErrorFamily::FlatObject,
        Some(K::ErrorsMap) => ErrorFamily::ErrorsMap,
        Some(K::Portal) => ErrorFamily::Portal,
        Some(K::ErrorsArray) | None => ErrorFamily::ErrorsArray,
    }
}

/// The service `name` of `table` with its published limit, one per API and name.
fn service(table: &'static Table, name: &str) -> &'static Service {
    static SERVICES: Built<Service> = Built::new();
    SERVICES.get_or(format!("{} {name}", table.api.name), || Service {
        name: leak(name),
        rate_limit: table
            .api
            .rate_limits
            .iter()
            .find(|l| l.service == name)
            .map(|l| RateLimit {
                max: l.max,
                per_second: l.per_second,
                scope: match l.scope {
                    catalog::LimitScope::Tenant => LimitScope::Tenant,
                    catalog::LimitScope::Property => LimitScope::Property,
                    catalog::LimitScope::Workflow => LimitScope::Workflow,
                },
            }),
    })
}
