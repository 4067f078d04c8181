//! The runtime's descriptions of the APIs and operations, built from the tables: a table
//! operation is sent through the same `Request` as a generated one, so it gets the same
//! authentication, media types, error decoding, retries and pacing by its service (the
//! buckets are the client's, shared with every other call it makes).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use ruckus_one_catalog::{AuthKind, FamilyKind, Method, Route, Table};
use ruckus_one_runtime as rt;

/// The token service, as the spec describes it (the tables do not carry it).
pub static AUTH: rt::AuthSettings = rt::AuthSettings {
    token_url: "{host}/oauth2/token/{tenant_id}",
    token_url_without_tenant: "{host}/oauth2/token",
    tenant_header: "x-rks-tenantid",
};

/// The regional hosts of each API, as the spec lists them (the tables do not carry them; a
/// base URL from the environment or `--local` replaces them).
fn hosts(api: &str) -> rt::Hosts {
    match api {
        "resident_portal" => rt::Hosts {
            asia: "https://residence.ruckus.cloud",
            europe: "https://residence.ruckus.cloud",
            north_america: "https://residence.ruckus.cloud",
        },
        _ => rt::Hosts {
            asia: "https://api.asia.ruckus.cloud",
            europe: "https://api.eu.ruckus.cloud",
            north_america: "https://api.ruckus.cloud",
        },
    }
}

/// Built once per operation and kept for the life of the process (the runtime takes
/// `&'static` descriptions, as the generated client's are).
#[derive(Default)]
pub struct Ops {
    apis: Mutex<HashMap<String, &'static rt::Api>>,
    operations: Mutex<HashMap<(String, String), &'static rt::Operation>>,
    services: Mutex<HashMap<String, &'static rt::Service>>,
}

impl Ops {
    pub fn get() -> &'static Ops {
        static OPS: OnceLock<Ops> = OnceLock::new();
        OPS.get_or_init(Ops::default)
    }

    /// The runtime's operation for `route` of `table`.
    pub fn operation(
        &self,
        table: &'static Table,
        route: &'static Route,
    ) -> &'static rt::Operation {
        let key = (table.api.name.clone(), route.id.clone());
        let mut ops = self.operations.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(op) = ops.get(&key) {
            return op;
        }
        let versions: Vec<rt::MediaTypes> = if route.versions.is_empty() {
            vec![rt::MediaTypes {
                content_type: route.request.as_ref().map(|r| leak_str(&r.types[0])),
                accept: leak_str(&route.response.media_type_or_json()),
            }]
        } else {
            route
                .versions
                .iter()
                .map(|v| rt::MediaTypes {
                    content_type: v.content_type.as_deref().map(leak_str),
                    accept: leak_str(&v.accept),
                })
                .collect()
        };
        let family = table
            .family(&route.error_family)
            .map_or(rt::ErrorFamily::ErrorsArray, |f| family_of(f.kind));
        let op: &'static rt::Operation = Box::leak(Box::new(rt::Operation {
            id: &route.id,
            method: method_of(route.method),
            path: &route.path,
            api: self.api(table),
            versions: Box::leak(versions.into_boxed_slice()),
            error_family: family,
            service: self.service(table, &route.service),
        }));
        ops.insert(key, op);
        op
    }

    /// The runtime's API for `table`.
    pub fn api(&self, table: &'static Table) -> &'static rt::Api {
        let mut apis = self.apis.lock().unwrap_or_else(|e| e.into_inner());
        apis.entry(table.api.name.clone()).or_insert_with(|| {
            Box::leak(Box::new(rt::Api {
                name: &table.api.name,
                title: &table.api.name,
                prefix: &table.api.prefix,
                hosts: hosts(&table.api.name),
                auth: match table.api.auth {
                    AuthKind::ClientCredentials => rt::ApiAuth::ClientCredentials,
                    AuthKind::UnitToken => rt::ApiAuth::UnitToken,
                },
                tenant_limit: table.api.tenant_limit.as_ref().map(|l| rt::TenantLimit {
                    max: l.max,
                    per_minute: l.per_minute,
                }),
            }))
        })
    }

    /// The service `name` of `table` with its published limit: the pacer keys its buckets by
    /// the service's name, so these calls share them with the generated client's.
    fn service(&self, table: &'static Table, name: &str) -> &'static rt::Service {
        let mut services = self.services.lock().unwrap_or_else(|e| e.into_inner());
        services.entry(name.to_owned()).or_insert_with(|| {
            let limit = table.api.rate_limits.iter().find(|l| l.service == name);
            Box::leak(Box::new(rt::Service {
                name: leak_str(name),
                rate_limit: limit.map(|l| rt::RateLimit {
                    max: l.max,
                    per_second: l.per_second,
                    scope: match l.scope {
                        ruckus_one_catalog::LimitScope::Tenant => rt::LimitScope::Tenant,
                        ruckus_one_catalog::LimitScope::Property => rt::LimitScope::Property,
                        ruckus_one_catalog::LimitScope::Workflow => rt::LimitScope::Workflow,
                    },
                }),
            }))
        })
    }
}

trait MediaTypeOrJson {
    fn media_type_or_json(&self) -> String;
}

impl MediaTypeOrJson for ruckus_one_catalog::ResponseBody {
    fn media_type_or_json(&self) -> String {
        if self.media_type.is_empty() {
            "application/json".to_owned()
        } else {
            self.media_type.clone()
        }
    }
}

fn leak_str(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

pub fn method_of(method: Method) -> rt::Method {
    match method {
        Method::Get => rt::Method::Get,
        Method::Post => rt::Method::Post,
        Method::Put => rt::Method::Put,
        Method::Patch => rt::Method::Patch,
        Method::Delete => rt::Method::Delete,
    }
}

fn family_of(kind: FamilyKind) -> rt::ErrorFamily {
    match kind {
        FamilyKind::ErrorsArray => rt::ErrorFamily::ErrorsArray,
        FamilyKind::ErrorObject => rt::ErrorFamily::ErrorObject,
        FamilyKind::StatusMessage => rt::ErrorFamily::StatusMessage,
        FamilyKind::FlatObject => rt::ErrorFamily::FlatObject,
        FamilyKind::ErrorsMap => rt::ErrorFamily::ErrorsMap,
        FamilyKind::Portal => rt::ErrorFamily::Portal,
    }
}
