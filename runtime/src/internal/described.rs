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

/// The operation `route` of `table`: its media versions, error family, service and whether it
/// only reads, as the catalog lists them (the generated client's static of the same operation
/// is equal: see the `described` test of `ruckus-one-tests`).
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
        reads: route.reads,
    })
}

fn versions(route: &Route) -> Vec<MediaTypes> {
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

/// The arguments of one call of a catalog route, as a table-driven caller (the command line,
/// the MCP server) has them once it has checked them.
#[derive(Debug, Clone, Default)]
pub struct Arguments {
    /// The path parameters' values, in the order of the route's placeholders.
    pub path: Vec<String>,
    /// Query parameters by wire name, in the order given.
    pub query: Vec<(String, String)>,
    /// Header parameters by wire name.
    pub headers: Vec<(String, String)>,
    /// The body, sent in the route's body kind (JSON, or a form for a form body).
    pub body: Option<serde_json::Value>,
    /// Index into the route's versions (0: the default).
    pub version: usize,
    /// The delegated tenant acted for, instead of the client's.
    pub tenant: Option<String>,
}

/// The request `route` of `table` sends with `args`: the one road from a catalog entry to a
/// call. Sending it (`send_*`, `pages`, `items`) or previewing it
/// ([`Request::preview`](crate::internal::Request::preview)) encodes and checks the path, query,
/// media version, body and tenant as the generated client's call does. A body kind a
/// table-driven caller cannot give (multipart, binary) is an [`Error::InvalidRequest`]
/// (crate::Error::InvalidRequest).
pub fn request<'c>(
    client: &'c crate::Client,
    table: &'static Table,
    route: &'static Route,
    args: &Arguments,
) -> Result<crate::internal::Request<'c>, crate::Error> {
    let path: Vec<&str> = args.path.iter().map(String::as_str).collect();
    let mut request = crate::internal::Request::new(client, operation(table, route), &path);
    for (name, value) in &args.query {
        request.push_query(name, value);
    }
    for (name, value) in &args.headers {
        request.push_header(name, value);
    }
    if let Some(body) = &args.body {
        match route.request.as_ref().map(|r| r.kind) {
            Some(catalog::BodyKind::Json) | None => request.json(body),
            Some(catalog::BodyKind::Form) => request.form(body),
            Some(kind) => {
                return Err(crate::Error::invalid(format!(
                    "{} takes a {} body, which cannot be given as JSON",
                    route.id,
                    kind.as_str()
                )));
            }
        }
    }
    if args.version > 0 {
        request.version(args.version);
    }
    if let Some(tenant) = &args.tenant {
        request.tenant(tenant);
    }
    Ok(request)
}

/// How `route` is paged, for [`Request::pages`](crate::internal::Request::pages) and
/// [`Request::items`](crate::internal::Request::items); `None` when it is not.
pub fn paging(route: &'static Route) -> Option<crate::paging::Paging> {
    use crate::paging::PageStyle;
    let p = route.paging.as_ref()?;
    let style = match p.style {
        catalog::PageStyle::QueryBody => PageStyle::QueryBody,
        catalog::PageStyle::QueryParams => PageStyle::QueryParams,
        catalog::PageStyle::Spring => PageStyle::Spring,
    };
    Some(crate::paging::Paging {
        style,
        items: p.items.as_str(),
        first_page: u32::try_from(p.first_page).unwrap_or(u32::MAX),
    })
}
