//! The client crate's files: Cargo.toml, lib.rs, one mod.rs per API, one file per area.
//!
//! Generated code uses no `crate::` paths, only `super::`, so a fixture's output can be
//! compiled as a module of a test crate.

use super::describe::provenance_line;
use super::text::{code, doc, ident, inner_doc, prose, toml_str};
use super::types::{TypeItems, emit_type};
use super::{builder, gates, ops, services};
use crate::ir::{ApiIr, AreaIr, Ir, OpIr};
use crate::names;
use proc_macro2::TokenStream;
use quote::quote;

/// API names the generated crate root already uses: the `runtime` re-export, the `operations`
/// index and the methods of `Client` (an API's accessor method is named after the API).
pub const RESERVED_API_NAMES: &[&str] = &["runtime", "operations", "new", "with_tenant"];

/// Methods every API client has besides its operations (an operation's method is its id).
pub const RESERVED_CLIENT_METHODS: &[&str] =
    &["new", "runtime", "raw", "wait_for_activity", "wait_all"];

/// `Cargo.toml` of the client crate.
pub fn cargo_toml(ir: &Ir) -> String {
    let mut s = format!("# {}\n", super::text::PREAMBLE);
    s.push_str(&format!(
        "[package]\nname = \"{}\"\nversion = \"{}\"\ndescription = {}\nedition.workspace = true\nrust-version.workspace = true\nlicense.workspace = true\n{}\n",
        ir.krate.name,
        ir.krate.version,
        toml_str(&ir.krate.description.replace('"', "'")),
        package_publishing(ir)
    ));
    // Always present, so dependents can name it whether or not the spec has experimental
    // operations today.
    s.push_str("[features]\n# Operations the spec marks experimental: they may change without notice.\nexperimental = []\n");
    s.push_str("# TLS: rustls with the aws-lc-rs crypto provider (the default), or with ring, which builds\n# much faster: `default-features = false, features = [\"tls-ring\", ...]`.\ntls-aws-lc = [\"ruckus-one-runtime/tls-aws-lc\"]\ntls-ring = [\"ruckus-one-runtime/tls-ring\"]\n# Pacing buckets in a Redis server that several processes share (`RedisStore`).\nredis = [\"ruckus-one-runtime/redis\"]\n");
    if ir.krate.area_features {
        let all: Vec<String> = ir
            .apis
            .iter()
            .flat_map(|a| &a.areas)
            .map(|a| format!("\"{}\"", a.feature))
            .collect();
        s.push_str("# One feature per API area, all on by default: build only what you use with\n");
        s.push_str("# `default-features = false, features = [\"network-switches\"]`.\n");
        s.push_str(&format!("default = [\"tls-aws-lc\", {}]\n", all.join(", ")));
        for api in &ir.apis {
            for a in &api.areas {
                let deps: Vec<String> = a
                    .uses
                    .iter()
                    .map(|u| format!("\"{}-{}\"", api.name, u).replace('_', "-"))
                    .collect();
                s.push_str(&format!("{} = [{}]\n", a.feature, deps.join(", ")));
            }
        }
    }
    s.push('\n');
    s.push_str("[package.metadata.docs.rs]\n# \"Available on crate feature\" badges on docs.rs.\nall-features = true\nrustdoc-args = [\"--cfg\", \"docsrs\"]\n\n");
    s.push_str("[dependencies]\nruckus-one-runtime = { workspace = true, default-features = false }\nserde = { workspace = true }\nserde_json = { workspace = true }\nbytes = { workspace = true }\n");
    s.push_str("\n# The generated conformance test (tests/conformance) calls every operation against a local server.\n[dev-dependencies]\ntokio = { workspace = true, features = [\"macros\", \"rt-multi-thread\"] }\nwiremock = { workspace = true }\n");
    s
}

/// The `[package]` lines on publishing. A crate whose spec names a guide (the client guide's
/// text between its crate-guide markers) is the published client: its crates.io page shows the
/// workspace README, and the project's facts (repository, keywords, categories) come from the
/// workspace's `[workspace.package]`. Other crates (the fixtures) stay unpublished test crates.
fn package_publishing(ir: &Ir) -> String {
    if ir.krate.guide.is_none() {
        return "publish.workspace = true\n".to_owned();
    }
    format!(
        "repository.workspace = true\ndocumentation = \"https://docs.rs/{}\"\nreadme.workspace = true\nkeywords.workspace = true\ncategories.workspace = true\npublish = true\n",
        ir.krate.name
    )
}

/// `lib.rs`: crate docs, the top-level `Client`, the auth settings and the API modules.
pub fn lib_rs(ir: &Ir) -> TokenStream {
    let mut lines = vec![
        prose(&ir.krate.description),
        String::new(),
        "Everything in this crate is generated from the YAML spec by `cargo xtask generate`;"
            .into(),
        "authentication, retries, errors and paging live in the hand-written runtime,".into(),
        "re-exported as [`runtime`].".into(),
    ];
    if ir.krate.has_experimental {
        lines.push(String::new());
        lines.push("Cargo feature `experimental`: operations the spec marks experimental.".into());
    }
    if ir.krate.doc_examples {
        lines.extend(super::examples::crate_example(ir));
    }
    lines.extend(super::index::crate_page(ir));
    let docs = inner_doc(&lines);
    let index = super::index::operations_module(ir);
    let mods = ir.apis.iter().map(|a| {
        let n = ident(&a.name);
        quote!(pub mod #n;)
    });
    let accessors = ir.apis.iter().map(|a| {
        let n = ident(&a.name);
        let c = ident(&a.client);
        let d = doc(&[format!("Operations of the {}.", prose(&a.title))]);
        quote! {
            #d
            pub fn #n(&self) -> #n::#c<'_> {
                #n::#c::new(&self.inner)
            }
        }
    });
    let auth = auth_static(ir);
    let (for_tenant, for_each_tenant) = (services::for_tenant(), services::for_each_tenant());
    let mut client_lines = vec![
        "The client: one token cache and connection pool shared by every API.".to_owned(),
        String::new(),
        "Cheap to clone. Secrets never appear in its `Debug` output.".to_owned(),
    ];
    if ir.krate.doc_examples {
        client_lines.extend(super::examples::client_example(ir));
    }
    let client_doc = doc(&client_lines);
    quote! {
        #docs
        #![cfg_attr(docsrs, feature(doc_cfg))]
        pub use ruckus_one_runtime as runtime;
        pub use ruckus_one_runtime::{Accepted, ApiError, Call, Completed, Config, Credentials, Deprecation, Error, ErrorBody, LimitScope, Method, MissingField, Multipart, Pacing, PacingStore, PendingActivity, RateLimit, RawJson, RawRequest, Region, Response, RetryPolicy, Secret, TenantLimit, TenantOutcome, TenantPacing, WaitOptions};
        #[cfg(feature = "redis")]
        pub use ruckus_one_runtime::RedisStore;

        #(#mods)*

        #index

        #auth

        #for_tenant

        #client_doc
        #[derive(Debug, Clone)]
        pub struct Client {
            inner: ruckus_one_runtime::Client,
        }

        impl Client {
            /// Creates a client; fails on an invalid configuration (e.g. a header value with CR/LF).
            pub fn new(config: Config) -> Result<Self, Error> {
                ruckus_one_runtime::Client::new(config, &AUTH).map(|inner| Self { inner })
            }

            /// The same client acting for a delegated tenant on every call.
            pub fn with_tenant(&self, tenant_id: &str) -> Result<Self, Error> {
                self.inner.with_tenant(tenant_id).map(|inner| Self { inner })
            }

            /// The runtime client, for calls the spec does not describe.
            pub fn runtime(&self) -> &ruckus_one_runtime::Client {
                &self.inner
            }

            #for_each_tenant

            #(#accessors)*
        }
    }
}

/// The `AUTH` static: the token service's URLs and the delegated tenant header.
fn auth_static(ir: &Ir) -> TokenStream {
    let auth_doc = doc(&[
        format!("Token service settings. {}", prose(&ir.auth.description)),
        String::new(),
        format!(
            "- Token URL with tenant: {}; {}",
            code(&ir.auth.token_url.value),
            provenance_line(&ir.auth.token_url.provenance)
        ),
        format!(
            "- Token URL without tenant: {}; {}",
            code(&ir.auth.token_url_without_tenant.value),
            provenance_line(&ir.auth.token_url_without_tenant.provenance)
        ),
        format!(
            "- Delegated tenant header: {}; {}",
            code(&ir.auth.tenant_header.value),
            provenance_line(&ir.auth.tenant_header.provenance)
        ),
    ]);
    let (tu, tun, th) = (
        &ir.auth.token_url.value,
        &ir.auth.token_url_without_tenant.value,
        &ir.auth.tenant_header.value,
    );
    quote! {
        #auth_doc
        pub static AUTH: ruckus_one_runtime::internal::AuthSettings = ruckus_one_runtime::internal::AuthSettings {
            token_url: #tu,
            token_url_without_tenant: #tun,
            tenant_header: #th,
        };
    }
}

/// `<api>/mod.rs`: API docs, settings, the API client struct and the area modules.
pub fn api_mod(api: &ApiIr, area_features: bool) -> TokenStream {
    let docs = api_docs(api);
    let (mods, uses) = area_modules(api, area_features);
    let markers = feature_markers(api, area_features);
    let settings = services::api_static(api);
    let client = api_client(api, area_features);
    let versions = super::versions::module(api);
    quote! {
        #docs
        #(#mods)*
        #(#uses)*
        #(#markers)*

        #settings

        #versions

        #client
    }
}

/// The module docs: title, description, source and the areas with their operation counts.
fn api_docs(api: &ApiIr) -> TokenStream {
    let mut lines = vec![
        format!("{}.", prose(&api.title).trim_end_matches('.')),
        String::new(),
        prose(&api.description),
    ];
    lines.push(String::new());
    lines.push(format!("Curated from {}.", code(&api.source)));
    lines.push(String::new());
    lines.push("Areas:".into());
    for a in &api.areas {
        let ops = a.operations.iter().filter(|o| o.is_generated()).count();
        lines.push(format!(
            "- {}: [`{}`], {ops} operations",
            prose(&a.title),
            a.name
        ));
    }
    inner_doc(&lines)
}

/// The area modules and the re-exports of their items.
fn area_modules(api: &ApiIr, area_features: bool) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mods = api.areas.iter().map(|a| {
        let n = ident(&a.name);
        let gate = gates::area(a, area_features);
        quote!(#gate pub mod #n;)
    });
    // Re-export an area's items only when it has some (an empty glob is an unused import);
    // an area whose only items are experimental operations re-exports behind the feature.
    let uses = api.areas.iter().filter_map(|a| {
        let n = ident(&a.name);
        let gate = gates::area(a, area_features);
        let mut ops = a.operations.iter().filter(|o| o.is_generated()).peekable();
        if a.types.is_empty() && ops.peek().is_none() {
            None
        } else if a.types.is_empty() && gates::all_experimental(ops) {
            let experimental = gates::experimental();
            Some(quote!(#gate #experimental pub use self::#n::*;))
        } else if a.handler.is_none() && a.types.iter().all(|t| !t.users.is_empty()) {
            // Every type of a shared area may be gated off (no area that needs one is on).
            Some(quote!(#gate #[allow(unused_imports)] pub use self::#n::*;))
        } else {
            Some(quote!(#gate pub use self::#n::*;))
        }
    });
    (mods.collect(), uses.collect())
}

/// The API client struct: `new`, `runtime`, `raw` and one accessor per area handler.
fn api_client(api: &ApiIr, area_features: bool) -> TokenStream {
    let client = ident(&api.client);
    let client_doc = doc(&[
        format!(
            "Operations of the {}, borrowed from a `Client`.",
            prose(&api.title)
        ),
        String::new(),
        "Each method returns a request builder; nothing is sent until its `send` is awaited."
            .into(),
    ]);
    let handlers = api
        .areas
        .iter()
        .filter_map(|a| area_accessor(a, area_features));
    let raw_doc = doc(&[
        format!(
            "A request to any path of the {}, for operations this client does not generate.",
            prose(&api.title)
        ),
        String::new(),
        "`path` is relative to the API's base (host and prefix) and sent as given: encode its"
            .into(),
        "parameters yourself. The request goes through the same authentication, tenant header,"
            .into(),
        "retries and typed errors as the generated operations.".into(),
    ]);
    quote! {
        #client_doc
        #[derive(Debug, Clone, Copy)]
        pub struct #client<'a> {
            client: &'a ruckus_one_runtime::Client,
        }

        impl<'a> #client<'a> {
            /// Borrows a runtime client.
            pub fn new(client: &'a ruckus_one_runtime::Client) -> Self {
                Self { client }
            }

            /// The runtime client these operations use.
            pub fn runtime(&self) -> &'a ruckus_one_runtime::Client {
                self.client
            }

            #raw_doc
            pub fn raw(&self, method: ruckus_one_runtime::Method, path: &str) -> ruckus_one_runtime::RawRequest<'a> {
                ruckus_one_runtime::RawRequest::new(self.client, &API, method, path)
            }

            #(#handlers)*
        }
    }
}

/// The accessor of an area's handler, gated like the area (and like its operations when they
/// are all experimental); none for an area without a handler.
fn area_accessor(a: &AreaIr, area_features: bool) -> Option<TokenStream> {
    let handler = ident(a.handler.as_ref()?);
    let n = ident(&a.name);
    let gate = gates::area(a, area_features);
    let generated = a.operations.iter().filter(|o| o.is_generated());
    let experimental = gates::all_experimental(generated).then(gates::experimental);
    let d = doc(&[format!(
        "Operations of the {} area ([`{}::{}`]).",
        prose(&a.title).trim_end_matches('.'),
        a.name,
        a.handler.as_deref().unwrap_or_default()
    )]);
    // With the area's feature off, the accessor still exists and returns a marker named
    // after the feature, so a call into the area fails with an error that names it.
    let off = area_features.then(|| {
        let f = &a.feature;
        let marker = ident(&format!("{}FeatureIsOff", names::camel(f)));
        let note = format!(
            "the `{}` area needs the cargo feature `{f}`: enable it to call its operations",
            a.name
        );
        quote! {
            #[cfg(not(feature = #f))]
            #[doc(hidden)]
            #[deprecated(note = #note)]
            pub fn #n(&self) -> #marker {
                #marker
            }
        }
    });
    Some(quote! {
        #gate
        #experimental
        #d
        pub fn #n(&self) -> #n::#handler<'a> {
            #n::#handler::new(self.client)
        }

        #off
    })
}

/// The markers an area accessor returns while the area's feature is off.
fn feature_markers(api: &ApiIr, area_features: bool) -> Vec<TokenStream> {
    api.areas.iter().filter(|a| area_features && a.handler.is_some()).map(|a| {
        let f = &a.feature;
        let marker = ident(&format!("{}FeatureIsOff", names::camel(f)));
        let d = format!(" Returned in place of the `{}` area's handler while the cargo feature `{f}` is off.", a.name);
        quote! {
            #[cfg(not(feature = #f))]
            #[doc(hidden)]
            #[doc = #d]
            #[derive(Debug)]
            pub struct #marker;
        }
    }).collect()
}

/// An area module's items, by what they are: its docs (inner attributes), its types (each by
/// concern), its handler (with the API client's waiter where the area holds the activity
/// operation), and the request builders of its operations.
pub struct AreaPieces {
    pub docs: TokenStream,
    pub types: Vec<TypeItems>,
    pub handler: Vec<TokenStream>,
    pub requests: Vec<TokenStream>,
}

/// `<api>/<area>.rs` and its directory: the area's types, then its operations, as pieces (the
/// module docs, each type's items, the handler, the waiter, each operation's items) that are
/// made and formatted one at a time: an area of many types never holds its tokens and syntax
/// tree all at once (an area file of 50 MB needed 12 GB when it was one token stream).
pub fn area_file(
    api: &ApiIr,
    area: &AreaIr,
    examples: Option<&str>,
    area_features: bool,
) -> AreaPieces {
    let mut lines = vec![format!("{}.", prose(&area.title).trim_end_matches('.'))];
    if let Some(d) = &area.description {
        lines.push(String::new());
        lines.push(prose(d));
    }
    lines.push(String::new());
    lines.push(format!("Spec: {}.", code(&area.spec_file)));
    let removed: Vec<_> = area
        .operations
        .iter()
        .filter(|o| !o.is_generated())
        .collect();
    if !removed.is_empty() {
        lines.push(String::new());
        lines.push("Removed operations (documented, not generated):".into());
        for o in removed {
            lines.push(format!(
                "- `{} {}` ({}): {}",
                o.method.as_str(),
                o.path,
                prose(&o.name),
                prose(&o.lifecycle.describe())
            ));
        }
    }
    let docs = inner_doc(&lines);
    let types = area.types.iter().map(|t| {
        let gate = gates::shared_type(t, area_features);
        emit_type(t, &area.name, api).map(|items| gates::on_each_item(&gate, items))
    });
    let generated: Vec<&OpIr> = area
        .operations
        .iter()
        .filter(|o| o.is_generated())
        .collect();
    let methods = generated.iter().map(|o| ops::emit_method(o, api, area));
    // A handler whose operations are all experimental exists only with the feature.
    let experimental = gates::all_experimental(generated.iter().copied()).then(gates::experimental);
    let handler = area.handler.as_ref().map(|h| {
        let h = ident(h);
        let d = doc(&handler_doc(api, area, examples));
        quote! {
            #experimental
            #d
            #[derive(Debug, Clone, Copy)]
            pub struct #h<'a> {
                client: &'a ruckus_one_runtime::Client,
            }

            #experimental
            impl<'a> #h<'a> {
                /// Borrows a runtime client.
                pub fn new(client: &'a ruckus_one_runtime::Client) -> Self {
                    Self { client }
                }

                #(#methods)*
            }
        }
    });
    // The waiter lives on the API client; areas that wait depend on this area's feature.
    let waiter = generated
        .iter()
        .find(|o| api.activity_operation.as_ref() == Some(&o.id))
        .map(|op| {
            let client = ident(&api.client);
            let waiter = ops::emit_waiter(op, &area.name);
            let bulk = api
                .activity_query_operation
                .as_ref()
                .and_then(|id| area.operations.iter().find(|o| &o.id == id))
                .map(|query| ops::emit_bulk_waiter(query, op, &area.name));
            quote! {
                impl<'a> super::#client<'a> {
                    #waiter
                    #bulk
                }
            }
        });
    let requests = generated
        .into_iter()
        .map(|o| builder::emit_items(o, api, area))
        .collect();
    AreaPieces {
        docs,
        types: types.collect(),
        handler: handler.into_iter().chain(waiter).collect(),
        requests,
    }
}

/// Rustdoc of an area's handler: what it covers, how to reach it and, for the real crate, a short
/// example (compiled as a doctest).
fn handler_doc(api: &ApiIr, area: &AreaIr, examples: Option<&str>) -> Vec<String> {
    let ops = area.operations.iter().filter(|o| o.is_generated()).count();
    let mut lines = vec![
        format!(
            "{}: the {ops} operations of this area of the {}.",
            prose(&area.title).trim_end_matches('.'),
            prose(&api.title)
        ),
        String::new(),
        format!(
            "Reached with `client.{}().{}()`; each method returns a request builder, and nothing",
            api.name, area.name
        ),
        "is sent until its `send` is awaited.".into(),
    ];
    if let Some(example) =
        examples.and_then(|krate| super::examples::area_example(krate, api, area))
    {
        lines.push(String::new());
        lines.extend(example);
    }
    lines
}
