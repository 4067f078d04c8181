//! The catalog as the command line sees it: operations by command words, and the runtime's
//! `Api` and `Operation` for each, built once at run time (the binary does not link the
//! generated client).

use crate::exit::Failure;
use ruckus_one_catalog::{Catalog, Method as CatMethod, Route, Table};
use ruckus_one_runtime::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, LimitScope, MediaTypes, Method, Operation,
    RateLimit, Service, TenantLimit,
};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// One table without its schemas (read at start: the schemas are most of the text).
#[derive(serde::Deserialize)]
struct Routes {
    api: ruckus_one_catalog::ApiInfo,
    routes: Vec<Route>,
}

/// One table's schemas only.
#[derive(serde::Deserialize)]
struct Schemas {
    schemas: serde_json::Map<String, serde_json::Value>,
}

/// The compiled-in catalog's operations, parsed once, without the schemas (see [`schema`]).
pub fn catalog() -> Result<&'static Catalog, Failure> {
    static CATALOG: OnceLock<Result<Catalog, String>> = OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let apis = ruckus_one_catalog::TABLES
                .iter()
                .map(|text| {
                    let r: Routes =
                        serde_json::from_str(text).map_err(|e| format!("catalog table: {e}"))?;
                    Ok(Table {
                        generated: String::new(),
                        api: r.api,
                        routes: r.routes,
                        schemas: serde_json::Map::new(),
                    })
                })
                .collect::<Result<Vec<Table>, String>>()?;
            Ok(Catalog { apis })
        })
        .as_ref()
        .map_err(|e| Failure::other(e.clone()))
}

/// The named schema a `$ref` of `table` points at; an API's schemas are parsed on first use.
pub fn schema(table: &Table, reference: &str) -> Option<&'static serde_json::Value> {
    static SCHEMAS: OnceLock<Vec<serde_json::Map<String, serde_json::Value>>> = OnceLock::new();
    let all = SCHEMAS.get_or_init(|| {
        ruckus_one_catalog::TABLES
            .iter()
            .map(|text| {
                serde_json::from_str::<Schemas>(text)
                    .map(|s| s.schemas)
                    .unwrap_or_default()
            })
            .collect()
    });
    let index = catalog().ok()?.api(&table.api.name)?.0;
    let name = reference.strip_prefix("#/components/schemas/")?;
    all.get(index)?.get(name)
}

/// One operation with its API's table.
#[derive(Clone, Copy)]
pub struct Op {
    pub table: &'static Table,
    pub route: &'static Route,
}

/// Every operation, in catalog order.
pub fn all() -> Result<Vec<Op>, Failure> {
    Ok(catalog()?
        .routes()
        .map(|(table, route)| Op { table, route })
        .collect())
}

/// The operation whose command words are `words`.
pub fn by_words(words: &[&str]) -> Result<Option<Op>, Failure> {
    Ok(all()?.into_iter().find(|o| {
        o.route
            .command
            .iter()
            .map(String::as_str)
            .eq(words.iter().copied())
    }))
}

/// The operation of `api` whose id is `id`.
pub fn by_id(table: &'static Table, id: &str) -> Option<Op> {
    table.route(id).map(|route| Op { table, route })
}

/// The API named `name`.
pub fn table(name: &str) -> Result<&'static Table, Failure> {
    catalog()?
        .api(name)
        .map(|(_, t)| t)
        .ok_or_else(|| Failure::other(format!("no API named `{name}`")))
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// The token settings (the same for every API).
pub fn auth_settings() -> Result<&'static AuthSettings, Failure> {
    static AUTH: OnceLock<&'static AuthSettings> = OnceLock::new();
    let t = &catalog()?.apis[0].api.token;
    Ok(AUTH.get_or_init(|| {
        Box::leak(Box::new(AuthSettings {
            token_url: leak(&t.url),
            token_url_without_tenant: leak(&t.url_without_tenant),
            tenant_header: leak(&t.tenant_header),
        }))
    }))
}

/// The runtime's description of the API of `table`, built once per API.
pub fn api(table: &'static Table) -> &'static Api {
    static APIS: OnceLock<Mutex<HashMap<String, &'static Api>>> = OnceLock::new();
    let mut apis = APIS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let info = &table.api;
    apis.entry(info.name.clone()).or_insert_with(|| {
        Box::leak(Box::new(Api {
            name: leak(&info.name),
            title: leak(&info.title),
            prefix: leak(&info.prefix),
            hosts: Hosts {
                asia: leak(&info.hosts.asia),
                europe: leak(&info.hosts.europe),
                north_america: leak(&info.hosts.north_america),
            },
            auth: match info.auth {
                ruckus_one_catalog::AuthKind::UnitToken => ApiAuth::UnitToken,
                _ => ApiAuth::ClientCredentials,
            },
            tenant_limit: info.tenant_limit.as_ref().map(|l| TenantLimit {
                max: l.max,
                per_minute: l.per_minute,
            }),
        }))
    })
}

pub fn method(m: CatMethod) -> Method {
    match m {
        CatMethod::Get => Method::Get,
        CatMethod::Post => Method::Post,
        CatMethod::Put => Method::Put,
        CatMethod::Patch => Method::Patch,
        CatMethod::Delete => Method::Delete,
    }
}

/// The runtime operation of `op`: its media versions, error family and service (whose
/// published rate limit paces it), built once per operation.
pub fn operation(op: Op) -> &'static Operation {
    static OPS: OnceLock<Mutex<HashMap<(String, String), &'static Operation>>> = OnceLock::new();
    let key = (op.table.api.name.clone(), op.route.id.clone());
    let mut ops = OPS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    ops.entry(key)
        .or_insert_with(|| Box::leak(Box::new(build_operation(op))))
}

fn build_operation(op: Op) -> Operation {
    let r = op.route;
    let versions: Vec<MediaTypes> = if r.versions.is_empty() {
        let content_type = r
            .request
            .as_ref()
            .and_then(|b| b.types.first())
            .map(|t| leak(t));
        let accept = if r.response.media_type.is_empty() {
            "application/json"
        } else {
            leak(&r.response.media_type)
        };
        vec![MediaTypes {
            content_type,
            accept,
        }]
    } else {
        r.versions
            .iter()
            .map(|v| MediaTypes {
                content_type: v.content_type.as_deref().map(leak),
                accept: leak(&v.accept),
            })
            .collect()
    };
    Operation {
        id: leak(&r.id),
        method: method(r.method),
        path: leak(&r.path),
        api: api(op.table),
        versions: Box::leak(versions.into_boxed_slice()),
        error_family: family(op.table, &r.error_family),
        service: service(op.table, &r.service),
    }
}

fn family(table: &Table, name: &str) -> ErrorFamily {
    use ruckus_one_catalog::FamilyKind as K;
    match table.family(name).map(|f| f.kind) {
        Some(K::ErrorObject) => ErrorFamily::ErrorObject,
        Some(K::StatusMessage) => ErrorFamily::StatusMessage,
        Some(K::FlatObject) => ErrorFamily::FlatObject,
        Some(K::ErrorsMap) => ErrorFamily::ErrorsMap,
        Some(K::Portal) => ErrorFamily::Portal,
        _ => ErrorFamily::ErrorsArray,
    }
}

fn service(table: &Table, name: &str) -> &'static Service {
    let limit = table
        .api
        .rate_limits
        .iter()
        .find(|l| l.service == name)
        .map(|l| RateLimit {
            max: l.max,
            per_second: l.per_second,
            scope: match l.scope {
                ruckus_one_catalog::LimitScope::Tenant => LimitScope::Tenant,
                ruckus_one_catalog::LimitScope::Property => LimitScope::Property,
                ruckus_one_catalog::LimitScope::Workflow => LimitScope::Workflow,
            },
        });
    Box::leak(Box::new(Service {
        name: leak(name),
        rate_limit: limit,
    }))
}
