//! What an operation's method returns: the runtime's `Call` for most operations, or, for one
//! with optional parameters or pages, its own request builder, split as progenitor splits its
//! builders: the static descriptor, the builder struct, and its impl, each assembled from small
//! helpers (setters, paging methods, the send methods). All behaviour lives in the runtime.

use super::ops::{
    body_arg, item_type, output, param_doc, param_type, query_and_header_params, send_and_wait,
    waiter,
};
use super::text::{code, doc, ident, prose};
use super::{gates, versions};
use crate::ir::{ApiIr, AreaIr, OpIr, PageStyle, ResponseKind};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether `op` gets its own builder: it has optional parameters to set or pages to stream.
/// Every other operation returns the runtime's `Call`, whose settings and send methods are
/// compiled once for all of them.
pub(super) fn own_builder(op: &OpIr) -> bool {
    query_and_header_params(op).any(|(p, _)| !p.required)
        || op.request.as_ref().is_some_and(|b| !b.required) && body_arg(op, "").is_some()
        || op.pagination.is_some() && op.success.kind == ResponseKind::Json
}

/// What an operation without its own builder returns, and how its method builds it from the
/// request `req`: a `Call` answering the decoded body, or an `Accepted` for an asynchronous
/// write of an API that can wait for it.
pub(super) fn call(op: &OpIr, api: &ApiIr, area: &str) -> (TokenStream, TokenStream) {
    let version = versions::type_path(op).map(|v| quote!(, #v));
    let (out_ty, send) = output(op, area);
    match waiter(op, api, area) {
        Some((descriptor, activity)) => (
            quote!(ruckus_one_runtime::Call<'a, ruckus_one_runtime::Accepted<#out_ty, #activity> #version>),
            quote!(req.accepted_call(&#descriptor)),
        ),
        None => (
            quote!(ruckus_one_runtime::Call<'a, #out_ty #version>),
            quote!(req.call(ruckus_one_runtime::internal::Request::#send)),
        ),
    }
}

/// The static descriptor, and the builder struct and its impl when the operation has its own.
pub fn emit_items(op: &OpIr, api: &ApiIr, home: &AreaIr) -> TokenStream {
    let gate = gates::operation(op);
    let descriptor = descriptor(op, api);
    if !own_builder(op) {
        return quote!(#gate #descriptor);
    }
    let mut setters = setters(op, &home.name);
    setters.extend(version_setter(op));
    let builder_struct = builder_struct(op, api, home);
    let builder_impl = builder_impl(op, api, home, &setters);
    quote! {
        #gate
        #descriptor

        #gate
        #builder_struct

        #gate
        #builder_impl
    }
}

/// The operation's static descriptor: id, method, path, media types and error family.
fn descriptor(op: &OpIr, api: &ApiIr) -> TokenStream {
    // The activity operation's descriptor is polled from every area's `send_and_wait`.
    let vis = match api.activity() {
        Some((_, act)) if act.id == op.id => quote!(pub(super)),
        _ => quote!(),
    };
    let stat = ident(&op.static_name);
    let id = &op.id;
    let method = ident(op.method.variant());
    let path = &op.path;
    let family = ident(op.error_kind.variant());
    let service = ident(&op.service);
    let reads = op.reads();
    let versions = op.versions.iter().map(|v| {
        let ct = match &v.content_type {
            Some(c) => quote!(Some(#c)),
            None => quote!(None),
        };
        let accept = &v.accept;
        quote!(ruckus_one_runtime::internal::MediaTypes { content_type: #ct, accept: #accept })
    });
    quote! {
        #vis static #stat: ruckus_one_runtime::internal::Operation = ruckus_one_runtime::internal::Operation {
            id: #id,
            method: ruckus_one_runtime::Method::#method,
            path: #path,
            api: &super::API,
            versions: &[#(#versions),*],
            error_family: ruckus_one_runtime::internal::ErrorFamily::#family,
            service: &super::#service,
            reads: #reads,
        };
    }
}

/// Setters of the optional query and header parameters, then of an optional body.
fn setters(op: &OpIr, area: &str) -> Vec<TokenStream> {
    let mut setters = Vec::new();
    for (p, location) in query_and_header_params(op) {
        let call = ident(location);
        if p.required {
            continue;
        }
        let n = ident(&p.rust);
        let wire = &p.wire;
        let ty = param_type(p, area);
        let d = doc(&param_doc(p, location));
        setters.push(quote! {
            #d
            #[inline]
            pub fn #n(mut self, #n: #ty) -> Self {
                self.req.#call(#wire, &#n);
                self
            }
        });
    }
    if let Some(b) = &op.request
        && !b.required
        && let Some((ty, call)) = body_arg(op, area)
    {
        setters.push(quote! {
            /// Sets the request body (optional for this operation).
            #[inline]
            pub fn body(mut self, body: #ty) -> Self {
                self.req.#call(body);
                self
            }
        });
    }
    setters
}

/// The builder's `version` setter, taking the API's shared enum of the operation's versions.
fn version_setter(op: &OpIr) -> Option<TokenStream> {
    let versions = versions::type_path(op)?;
    Some(quote! {
        /// Sends and accepts `version` instead of the operation's default representation.
        #[inline]
        pub fn version(mut self, version: #versions) -> Self {
            self.req.version(version as usize);
            self
        }
    })
}

/// The builder struct with its documentation.
fn builder_struct(op: &OpIr, api: &ApiIr, home: &AreaIr) -> TokenStream {
    let builder = ident(&op.builder);
    let mut lines = vec![format!(
        "Request builder for `{}::{}` ({}).",
        home.handler.as_deref().unwrap_or(&api.client),
        op.id,
        prose(&op.name)
    )];
    lines.push(String::new());
    lines.extend(builder_methods_doc(op, api, &home.name));
    let builder_doc = doc(&lines);
    quote! {
        #builder_doc
        #[must_use = "a request does nothing until `send` is awaited"]
        pub struct #builder<'a> {
            req: ruckus_one_runtime::internal::Request<'a>,
        }
    }
}

/// What a builder's methods are, by what they do: the optional parameters it sets (when the
/// operation has any), the per-call settings, and how it is sent.
fn builder_methods_doc(op: &OpIr, api: &ApiIr, area: &str) -> Vec<String> {
    let list = |names: Vec<String>| {
        names
            .iter()
            .map(|n| format!("[{}](Self::{n})", code(n)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut optional: Vec<String> = query_and_header_params(op)
        .filter(|(p, _)| !p.required)
        .map(|(p, _)| p.rust.clone())
        .collect();
    if op.request.as_ref().is_some_and(|b| !b.required) && body_arg(op, area).is_some() {
        optional.push("body".into());
    }
    let mut settings = vec!["tenant".to_owned()];
    if op.versions.len() > 1 {
        settings.push("version".into());
    }
    settings.extend(["timeout".into(), "retry".into()]);
    let mut sends = vec!["send".to_owned()];
    // Listed when emitted: the same functions decide it.
    if !send_and_wait(op, api, area).is_empty() {
        sends.push("send_and_wait".into());
    }
    if !paging_methods(op, api, area, &output(op, area).0).is_empty() {
        sends.extend(["pages".into(), "items".into()]);
    }
    let mut lines = Vec::new();
    if !optional.is_empty() {
        lines.push(format!("Optional parameters: {}.", list(optional)));
    }
    lines.push(format!("For this call only: {}.", list(settings)));
    lines.push(format!("Then one of: {}.", list(sends)));
    lines
}

/// The builder's methods: tenant, the setters, paging, timeout and retry, the send methods.
fn builder_impl(op: &OpIr, api: &ApiIr, home: &AreaIr, setters: &[TokenStream]) -> TokenStream {
    let area = home.name.as_str();
    let builder = ident(&op.builder);
    let send_and_wait = send_and_wait(op, api, area);
    let (out_ty, send_call) = output(op, area);
    let pages = paging_methods(op, api, area, &out_ty);
    // An asynchronous write's `send` answers an `Accepted`, which waits as the call's tenant.
    let (sent_ty, send_call, send_doc) = match waiter(op, api, area) {
        Some((descriptor, activity)) => (
            quote!(ruckus_one_runtime::Accepted<#out_ty, #activity>),
            quote!(send_accepted(&#descriptor)),
            accepted_doc(op),
        ),
        None => (out_ty.clone(), quote!(#send_call()), send_doc(op)),
    };
    let tenant_doc = doc(&[
        "Acts for a delegated tenant on this call only (overrides the client's).".to_owned(),
    ]);
    quote! {
        impl<'a> #builder<'a> {
            #tenant_doc
            #[inline]
            pub fn tenant(mut self, tenant_id: &str) -> Self {
                self.req.tenant(tenant_id);
                self
            }

            #(#setters)*

            #pages

            /// Limits the whole call (token, attempts and the waits between them) to `timeout`.
            #[inline]
            pub fn timeout(mut self, timeout: std::time::Duration) -> Self {
                self.req.timeout(timeout);
                self
            }

            /// Retries this call by `policy` instead of the client's policy.
            #[inline]
            pub fn retry(mut self, policy: ruckus_one_runtime::RetryPolicy) -> Self {
                self.req.retry(policy);
                self
            }

            #send_doc
            #[inline]
            pub fn send(self) -> ruckus_one_runtime::Sending<'a, #sent_ty> {
                self.req.#send_call
            }

            #send_and_wait
        }
    }
}

/// `pages` and `items` of a paginated JSON operation (nothing otherwise).
fn paging_methods(op: &OpIr, api: &ApiIr, area: &str, out_ty: &TokenStream) -> TokenStream {
    let (Some(p), ResponseKind::Json) = (&op.pagination, op.success.kind) else {
        return quote!();
    };
    let style = ident(p.style.variant());
    let (items, first) = (&p.items, p.first_page);
    let total = match p.style {
        PageStyle::Spring => "`totalElements`",
        PageStyle::QueryBody | PageStyle::QueryParams => "`totalCount`",
    };
    let where_page = match p.style {
        PageStyle::QueryBody => "JSON body's `page` field",
        PageStyle::QueryParams => "`page` query parameter",
        PageStyle::Spring => "`page` query parameter (the page size in `size`)",
    };
    let d = doc(&[
        format!(
            "Every page from page {first}, each decoded like `send` (items in {}).",
            code(&p.items)
        ),
        String::new(),
        format!(
            "The page number goes in the {where_page}; the stream ends once the answer's {total} is reached, after an empty or repeated page, or (without a total) after a short page."
        ),
    ]);
    let item_ty = item_type(op, api, &p.items, area);
    let items_doc = doc(&[
        format!(
            "Every item of every page (the elements of {}), fetched page by page like `pages`.",
            code(&p.items)
        ),
        String::new(),
        format!(
            "When the answer states {total}, the stream goes on until that many items came, even if the service returns shorter pages than asked."
        ),
    ]);
    quote! {
        const PAGING: ruckus_one_runtime::internal::Paging = ruckus_one_runtime::internal::Paging {
            style: ruckus_one_runtime::internal::PageStyle::#style,
            items: #items,
            first_page: #first,
        };

        #d
        #[inline]
        pub fn pages(self) -> ruckus_one_runtime::Pages<'a, #out_ty> {
            self.req.pages(Self::PAGING)
        }

        #items_doc
        #[inline]
        pub fn items(self) -> ruckus_one_runtime::Pages<'a, #item_ty> {
            self.req.items(Self::PAGING)
        }
    }
}

/// The documentation of `send`: what it returns for the success status.
fn send_doc(op: &OpIr) -> TokenStream {
    let status = op.success.status;
    doc(&[match op.success.kind {
        ResponseKind::Json => format!("Sends the request and decodes the `{status}` response."),
        ResponseKind::Binary => {
            format!("Sends the request and returns the `{status}` response body as bytes.")
        }
        ResponseKind::Text => {
            format!("Sends the request and returns the `{status}` response body as text.")
        }
        ResponseKind::Empty => format!("Sends the request; the `{status}` response has no body."),
    }])
}

/// The documentation of an asynchronous write's `send`, which answers an `Accepted`.
fn accepted_doc(op: &OpIr) -> TokenStream {
    let status = op.success.status;
    doc(&[
        format!("Sends the request and decodes the `{status}` response into an `Accepted`,"),
        "which dereferences to it and remembers its `requestId` and the tenant this request acts"
            .into(),
        "for: `Accepted::wait` polls the activity as that tenant.".into(),
    ])
}
