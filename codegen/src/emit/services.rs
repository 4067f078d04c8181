//! The static descriptions of an API (its `API` and its services' statics) and the generated
//! client's MSP helpers (fan-out over tenants).

use super::describe::provenance_line;
use super::text::{code, doc, ident, prose};
use crate::ir::{ApiIr, ServiceIr};
use proc_macro2::TokenStream;
use quote::quote;

/// The `API` static: name, title, prefix, hosts and authentication.
pub(super) fn api_static(api: &ApiIr) -> TokenStream {
    let name = &api.name;
    let title = &api.title;
    let prefix = &api.prefix.value;
    let (asia, europe, na) = (&api.hosts.asia, &api.hosts.europe, &api.hosts.north_america);
    let (tenant_line, tenant_limit) = match &api.tenant_limit {
        Some(limit) => {
            let (max, per_minute) = (
                proc_macro2::Literal::u32_unsuffixed(limit.max),
                proc_macro2::Literal::u32_unsuffixed(limit.per_minute),
            );
            (
                format!(
                    "- Tenant limit: {} calls at once, {} back per minute, for all the calls of a tenant; {}",
                    limit.max,
                    limit.per_minute,
                    provenance_line(&limit.provenance)
                ),
                quote!(Some(ruckus_one_runtime::TenantLimit { max: #max, per_minute: #per_minute })),
            )
        }
        None => ("- Tenant limit: none published.".to_owned(), quote!(None)),
    };
    let api_doc = doc(&[
        format!("Hosts and path prefix of the {}.", prose(&api.title)),
        String::new(),
        match api.prefix.value.as_str() {
            "" => "- Prefix: none.".to_owned(),
            p => format!(
                "- Prefix {}; {}",
                code(p),
                provenance_line(&api.prefix.provenance)
            ),
        },
        format!(
            "- Hosts: Asia {}, Europe {}, North America {}; {}",
            code(asia),
            code(europe),
            code(na),
            provenance_line(&api.hosts.provenance)
        ),
        format!(
            "- Authentication: `{}`; {}",
            api.auth.value.variant(),
            provenance_line(&api.auth.provenance)
        ),
        tenant_line,
    ]);
    let auth = ident(api.auth.value.variant());
    let services = api.services.iter().map(service_static);
    quote! {
        #(#services)*
        #api_doc
        pub static API: ruckus_one_runtime::internal::Api = ruckus_one_runtime::internal::Api {
            name: #name,
            title: #title,
            prefix: #prefix,
            hosts: ruckus_one_runtime::internal::Hosts { asia: #asia, europe: #europe, north_america: #na },
            auth: ruckus_one_runtime::internal::ApiAuth::#auth,
            tenant_limit: #tenant_limit,
        };
    }
}

/// A service's static: its name and published rate limit, documented with the provenance.
fn service_static(service: &ServiceIr) -> TokenStream {
    let stat = ident(&service.static_name);
    let name = &service.name;
    let (limit_line, limit) = match service.rate_limit {
        Some((max, per_second, scope)) => {
            let variant = ident(scope.variant());
            let (max, per_second) = (
                proc_macro2::Literal::u32_unsuffixed(max),
                proc_macro2::Literal::u32_unsuffixed(per_second),
            );
            (
                format!(
                    "Rate limit: {max} calls at once, {per_second} back per second, per {}; {}",
                    scope.as_str(),
                    provenance_line(&service.provenance)
                ),
                quote!(Some(ruckus_one_runtime::RateLimit {
                    max: #max,
                    per_second: #per_second,
                    scope: ruckus_one_runtime::LimitScope::#variant,
                })),
            )
        }
        None => (
            format!(
                "No published rate limit; {}",
                provenance_line(&service.provenance)
            ),
            quote!(None),
        ),
    };
    let service_doc = doc(&[
        format!("Service `{name}`: {}", prose(&service.description)),
        String::new(),
        limit_line,
    ]);
    quote! {
        #service_doc
        pub static #stat: ruckus_one_runtime::internal::Service = ruckus_one_runtime::internal::Service {
            name: #name,
            rate_limit: #limit,
        };
    }
}

/// `impl ForTenant for Client`: the runtime's fan-out hands the work the generated client.
pub(super) fn for_tenant() -> TokenStream {
    quote! {
        impl ruckus_one_runtime::ForTenant for Client {
            fn for_tenant(&self, tenant_id: &str) -> Result<Self, Error> {
                self.with_tenant(tenant_id)
            }

            fn runtime_client(&self) -> Option<&ruckus_one_runtime::Client> {
                Some(&self.inner)
            }
        }
    }
}

/// `Client::for_each_tenant`.
pub(super) fn for_each_tenant() -> TokenStream {
    quote! {
            /// Runs `work` once per tenant of `tenants` (for example the ids of the MSP
            /// customer query), each with this client acting for that tenant, at most
            /// `concurrency` at a time; returns every tenant's outcome in the order given.
            /// The clones share one access token, connection pool and pacing buckets.
            pub async fn for_each_tenant<I, S, T, F, Fut>(
                &self,
                tenants: I,
                concurrency: usize,
                work: F,
            ) -> Vec<TenantOutcome<T>>
            where
                I: IntoIterator<Item = S>,
                S: Into<String>,
                F: Fn(Client) -> Fut,
                Fut: std::future::Future<Output = Result<T, Error>>,
            {
                ruckus_one_runtime::for_each_tenant(self, tenants, concurrency, work).await
            }
    }
}
