//! Operations: the thin method on the API client that starts a request, its documentation, and
//! the argument and output types the request builder ([`super::builder`]) shares with it. All
//! behaviour lives in the runtime.

use super::describe::{self, Style, provenance_line};
use super::gates;
use super::text::{code, doc, ident, prose, rust_type, type_doc};
use crate::ir::{
    ApiIr, AreaIr, BodyKind, Lifecycle, OpIr, ParamIr, ParamLocation, Provenance, ResponseKind,
    TypeKind, TypeRef,
};
use proc_macro2::TokenStream;
use quote::quote;

/// Methods every request builder has besides the setters of its optional parameters: no
/// parameter may take these names (the validator asks here).
pub const RESERVED_BUILDER_METHODS: &[&str] = &[
    "tenant",
    "version",
    "body",
    "send",
    "pages",
    "items",
    "send_and_wait",
    "timeout",
    "retry",
];

/// The argument type of a parameter and how it is passed to the runtime.
pub(super) fn param_type(p: &ParamIr, area: &str) -> TokenStream {
    match &p.ty {
        TypeRef::String => quote!(&str),
        other => rust_type(other, area),
    }
}

/// The Rust type of a JSON body (the validator gives every JSON response a type).
fn json_type(t: Option<&TypeRef>, area: &str) -> TokenStream {
    t.map_or_else(|| quote!(serde_json::Value), |t| rust_type(t, area))
}

/// Where an operation's 2xx body goes: its Rust type and the runtime call that decodes it.
pub(super) fn output(op: &OpIr, area: &str) -> (TokenStream, TokenStream) {
    match op.success.kind {
        ResponseKind::Json => (json_type(op.success.ty.as_ref(), area), quote!(send_json)),
        ResponseKind::Binary => (quote!(bytes::Bytes), quote!(send_bytes)),
        ResponseKind::Text => (quote!(String), quote!(send_text)),
        ResponseKind::Empty => (quote!(()), quote!(send_empty)),
    }
}

/// The Rust type of the elements of a paged operation's items field: `X` when the response
/// is an object whose `items` field is `array<X>`, else raw JSON.
pub(super) fn item_type(op: &OpIr, api: &ApiIr, items: &str, area: &str) -> TokenStream {
    if let Some(t) = op.pagination.as_ref().and_then(|p| p.item_type.as_ref()) {
        return json_type(Some(t), area);
    }
    let element = match op.success.ty.as_ref() {
        Some(TypeRef::Named { name, area: home }) => api
            .areas
            .iter()
            .filter(|a| &a.name == home)
            .flat_map(|a| &a.types)
            .find(|t| &t.name == name)
            .and_then(|t| match &t.kind {
                TypeKind::Object(fields, _) => fields.iter().find(|f| f.wire == items),
                _ => None,
            })
            .and_then(|f| match &f.ty {
                TypeRef::Array(inner) => Some(&**inner),
                _ => None,
            }),
        _ => None,
    };
    json_type(element, area)
}

/// The argument type of a JSON or form body: its type, or any serializable value when the
/// body stays raw JSON.
fn serialized_arg(t: &TypeRef, area: &str) -> TokenStream {
    match t {
        TypeRef::Json | TypeRef::NotShown(_) => quote!(&impl serde::Serialize),
        other => {
            let t = rust_type(other, area);
            quote!(&#t)
        }
    }
}

pub(super) fn body_arg(op: &OpIr, area: &str) -> Option<(TokenStream, TokenStream)> {
    let b = op.request.as_ref()?;
    Some(match b.kind {
        BodyKind::Json => (serialized_arg(b.ty.as_ref()?, area), quote!(json)),
        BodyKind::Form => (serialized_arg(b.ty.as_ref()?, area), quote!(form)),
        BodyKind::Multipart => (quote!(ruckus_one_runtime::Multipart), quote!(multipart)),
        BodyKind::Binary => (quote!(bytes::Bytes), quote!(binary)),
    })
}

/// Query then header parameters, each with the runtime method that sends it (named after
/// the location).
pub(super) fn query_and_header_params(op: &OpIr) -> impl Iterator<Item = (&ParamIr, &'static str)> {
    op.query
        .iter()
        .chain(&op.headers)
        .map(|p| (p, p.location.as_str()))
}

/// How an asynchronous (202) JSON operation of an API with an activity operation waits: the
/// activity operation's descriptor (as named from `area`) and the Rust type of the activity.
/// `None` for every other operation (and for the activity operation itself).
pub(super) fn waiter(op: &OpIr, api: &ApiIr, area: &str) -> Option<(TokenStream, TokenStream)> {
    let (home, act) = api.activity()?;
    if !op.asynchronous || act.id == op.id || op.success.kind != ResponseKind::Json {
        return None;
    }
    let stat = ident(&act.static_name);
    let descriptor = if home.name == area {
        quote!(#stat)
    } else {
        let home = ident(&home.name);
        quote!(super::#home::#stat)
    };
    Some((descriptor, output(act, area).0))
}

/// `send_and_wait` of an operation that has a [`waiter`] (nothing otherwise).
pub(super) fn send_and_wait(op: &OpIr, api: &ApiIr, area: &str) -> TokenStream {
    let (Some((descriptor, activity)), Some((_, act))) = (waiter(op, api, area), api.activity())
    else {
        return quote!();
    };
    let out = output(op, area).0;
    let d = doc(&[
        "Sends the request, then waits for the asynchronous work it started to finish: `send`,"
            .into(),
        "then `Accepted::wait`.".into(),
        String::new(),
        format!(
            "Polls `{} {}` with the answer's `requestId`, acting for the same tenant as this request.",
            act.method.as_str(),
            act.path
        ),
        "Returns the decoded answer (with, say, the id of what the write created) and the finished"
            .into(),
        "activity; a failed activity or the timeout is `Error::Activity`, an answer without a"
            .into(),
        "`requestId` an `Error::Decode` keeping the body.".into(),
    ]);
    quote! {
        #d
        #[inline]
        pub fn send_and_wait(
            self,
            options: &ruckus_one_runtime::WaitOptions,
        ) -> ruckus_one_runtime::Waiting<'a, ruckus_one_runtime::Completed<#out, #activity>> {
            self.req.send_and_wait(&#descriptor, options)
        }
    }
}

/// `wait_for_activity` on the API client, polling `op` (the API's activity operation).
pub fn emit_waiter(op: &OpIr, area: &str) -> TokenStream {
    let stat = ident(&op.static_name);
    let out = output(op, area).0;
    let d = doc(&[
        "Waits for an asynchronous request (a `202 Accepted` answer) to finish.".into(),
        String::new(),
        format!(
            "Polls `{} {}` with the answer's `requestId`, backing off between polls; `404` answers",
            op.method.as_str(),
            op.path
        ),
        "while the activity is created count as \"not yet\". Returns the activity on `SUCCESS`;"
            .into(),
        "`FAIL` and the timeout are `Error::Activity` (with the activity's error text).".into(),
        String::new(),
        "Polls as this client acts (its delegated tenant, if any): to wait for a write you sent"
            .into(),
        "with `.tenant(..)`, call `wait` on the `Accepted` answer its `send` returned.".into(),
        String::new(),
        format!("- {}", provenance_line(&op.provenance)),
    ]);
    quote! {
        #d
        pub async fn wait_for_activity(
            &self,
            request_id: &str,
            options: &ruckus_one_runtime::WaitOptions,
        ) -> Result<#out, ruckus_one_runtime::Error> {
            ruckus_one_runtime::internal::wait_for_activity(self.client, &#stat, request_id, options).await
        }
    }
}

/// `wait_all` on the API client: many activities followed with `query` (the API's activity
/// query), decoded as `activity`'s answer.
pub fn emit_bulk_waiter(query: &OpIr, activity: &OpIr, area: &str) -> TokenStream {
    let stat = ident(&query.static_name);
    let out = output(activity, area).0;
    let d = doc(&[
        "Waits for many asynchronous requests at once (the `Accepted::pending()` of each).".into(),
        String::new(),
        format!(
            "Each round sends one `{} {}` per tenant for up to 500 of its open request ids, then",
            query.method.as_str(),
            query.path
        ),
        "pauses as `options` says. Returns one result per request, in the order given: the".into(),
        "activity on `SUCCESS`, `Error::Activity` on `FAIL` or when still open at the timeout;"
            .into(),
        "a query that fails after its retries is the error of the requests it asked about".into(),
        "(the other tenants' results stand).".into(),
    ]);
    quote! {
        #d
        pub async fn wait_all(
            &self,
            pending: impl IntoIterator<Item = ruckus_one_runtime::PendingActivity>,
            options: &ruckus_one_runtime::WaitOptions,
        ) -> Result<Vec<Result<#out, ruckus_one_runtime::Error>>, ruckus_one_runtime::Error> {
            ruckus_one_runtime::internal::wait_all(self.client, &#stat, pending, options).await
        }
    }
}

/// The method on the API client that starts a request.
pub fn emit_method(op: &OpIr, api: &ApiIr, home: &AreaIr) -> TokenStream {
    let area = home.name.as_str();
    let gate = gates::operation(op);
    let docs = doc(&method_doc(op, api));
    let deprecated = match &op.lifecycle {
        Lifecycle::Deprecated { note, removal } => {
            let note = match removal {
                Some(d) => format!("{note} (removal: {d})"),
                None => note.clone(),
            };
            quote!(#[deprecated(note = #note)])
        }
        _ => quote!(),
    };
    let name = ident(&op.id);
    let builder = ident(&op.builder);
    let stat = ident(&op.static_name);
    let mut args = Vec::new();
    let mut calls = Vec::new();
    let path_args: Vec<_> = op.path_params.iter().map(|p| ident(&p.rust)).collect();
    for p in &op.path_params {
        let n = ident(&p.rust);
        args.push(quote!(#n: &str));
    }
    for (p, location) in query_and_header_params(op) {
        let call = ident(location);
        if !p.required {
            continue;
        }
        let n = ident(&p.rust);
        let wire = &p.wire;
        let ty = param_type(p, area);
        args.push(quote!(#n: #ty));
        calls.push(quote!(req.#call(#wire, &#n);));
    }
    if let Some(b) = &op.request
        && b.required
        && let Some((ty, call)) = body_arg(op, area)
    {
        args.push(quote!(body: #ty));
        calls.push(quote!(req.#call(body);));
    }
    let binding = if calls.is_empty() {
        quote!(let req)
    } else {
        quote!(let mut req)
    };
    let (returns, built) = if super::builder::own_builder(op) {
        (quote!(#builder<'a>), quote!(#builder { req }))
    } else {
        super::builder::call(op, api, area)
    };
    let many = (args.len() > 6).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let aliases = search_aliases(op, api)
        .into_iter()
        .map(|a| quote!(#[doc(alias = #a)]));
    quote! {
        #gate
        #docs
        #(#aliases)*
        #deprecated
        #many
        #[inline]
        pub fn #name(&self, #(#args),*) -> #returns {
            #binding = ruckus_one_runtime::internal::Request::new(self.client, &#stat, &[#(#path_args),*]);
            #(#calls)*
            #built
        }
    }
}

pub(super) fn param_doc(p: &ParamIr, location: &str) -> Vec<String> {
    let mut lines = vec![match &p.description {
        Some(d) => prose(d),
        None => format!("Sets the {location} parameter {}.", code(&p.wire)),
    }];
    lines.push(String::new());
    let mut facts = vec![
        format!("{location} parameter {}", code(&p.wire)),
        type_doc(&p.ty),
    ];
    for (k, v) in &p.constraints {
        facts.push(format!("{k}: {}", prose(v)));
    }
    lines.push(format!("{}.", facts.join("; ")));
    if !matches!(p.provenance, crate::ir::Provenance::Documented) {
        lines.push(provenance_line(&p.provenance));
    }
    lines
}

fn method_doc(op: &OpIr, api: &ApiIr) -> Vec<String> {
    let mut l = vec![format!("{}.", prose(&op.name).trim_end_matches('.'))];
    if let Some(d) = &op.description {
        l.push(String::new());
        l.push(prose(d));
    }
    l.push(String::new());
    let prefix = if api.prefix.value.is_empty() {
        String::new()
    } else {
        format!(" (under the {} prefix)", code(&api.prefix.value))
    };
    // The API by its short name: a title could be long, and this is repeated per operation.
    l.push(format!(
        "{} on the `{}` API{prefix}.",
        code(&format!("{} {}", op.method.as_str(), op.path)),
        api.name
    ));
    l.push(String::new());
    l.extend(parameter_lines(op));
    l.extend(body_lines(op));
    l.extend(media_lines(op));
    l.extend(fact_lines(op, api));
    if !op.notes.is_empty() {
        l.push(String::new());
        l.push("Notes:".into());
        for n in &op.notes {
            l.push(format!("- {}", prose(n)));
        }
    }
    l
}

/// What rustdoc search finds a method by besides its name: its path template
/// (`/venues/{venueId}/aps`), method and path (`GET /venues/{venueId}/aps`), both again with the
/// API's prefix where it has one (`/ai/...`), and the vendor's operationId (`getVenueAps`).
/// rustdoc takes any of these (it refuses quotes, tabs, newlines and a leading or trailing
/// space, which none has); its search matches an alias against the whole query, lowercased.
pub(super) fn search_aliases(op: &OpIr, api: &ApiIr) -> Vec<String> {
    let method = op.method.as_str();
    let mut paths = vec![op.path.clone()];
    if !api.prefix.value.is_empty() {
        paths.push(format!("{}{}", api.prefix.value, op.path));
    }
    let mut out: Vec<String> = Vec::new();
    let candidates = paths
        .iter()
        .flat_map(|p| [p.clone(), format!("{method} {p}")])
        .chain(op.operation_id.clone());
    for alias in candidates {
        // An alias equal to the item's name is an error; a repeated one is pointless.
        let usable = !alias.is_empty()
            && alias != op.id
            && alias.trim() == alias
            && !alias.contains(['"', '\'', '\\'])
            && !alias.chars().any(|c| c.is_whitespace() && c != ' ');
        if usable && !out.contains(&alias) {
            out.push(alias);
        }
    }
    out
}

/// One list item per path, query and header parameter.
fn parameter_lines(op: &OpIr) -> Vec<String> {
    let mut l = Vec::new();
    for p in &op.path_params {
        l.push(format!(
            "- Path parameter `{}`: {}",
            p.wire,
            p.description
                .as_deref()
                .map(prose)
                .unwrap_or_else(|| "string".into())
        ));
    }
    for p in op.query.iter().chain(&op.headers) {
        let how = if p.required {
            "argument"
        } else {
            "builder method"
        };
        let loc = match p.location {
            ParamLocation::Query => "Query",
            ParamLocation::Header | ParamLocation::Path => "Header",
        };
        l.push(format!(
            "- {loc} parameter {} ({}, {how} `{}`)",
            code(&p.wire),
            type_doc(&p.ty),
            p.rust
        ));
    }
    l
}

/// The request body and every response.
fn body_lines(op: &OpIr) -> Vec<String> {
    let mut l = Vec::new();
    if let Some(b) = &op.request {
        let what = describe::request_body(b, Style::Rustdoc);
        let req = if b.required {
            "required"
        } else {
            "optional, builder method `body`"
        };
        l.push(format!(
            "- Request body ({}, {req}): {what}",
            b.kind.as_str()
        ));
    }
    for r in &op.responses {
        let body = describe::response_body(r, Style::Rustdoc);
        l.push(format!("- Response {}: {body}", r.status));
    }
    l
}

/// The versions, or the media types when they are not plain JSON.
fn media_lines(op: &OpIr) -> Vec<String> {
    let mut l = Vec::new();
    if op.versions.len() > 1 {
        l.push(format!(
            "- Versions (`version` takes [`{0}`](super::versions::{0}); the first is the default):",
            super::versions::shared_name(&op.versions)
        ));
        for v in &op.versions {
            let mut text = format!("  - `{}`: Accept `{}`", v.variant, v.accept);
            if let Some(ct) = &v.content_type {
                text.push_str(&format!(", Content-Type `{ct}`"));
            }
            l.push(text);
        }
    } else if let Some(v) = op.versions.first() {
        // Plain JSON both ways is the default and goes unsaid.
        let plain = |m: &str| m == "application/json";
        match &v.content_type {
            Some(ct) if !(plain(ct) && plain(&v.accept)) => l.push(format!(
                "- Media types: Content-Type `{ct}`, Accept `{}`",
                v.accept
            )),
            None if !plain(&v.accept) && op.success.kind != ResponseKind::Empty => {
                l.push(format!("- Media types: Accept `{}`", v.accept))
            }
            _ => {}
        }
    }
    l
}

/// Asynchrony, paging, a non-default error family, lifecycle and provenance.
fn fact_lines(op: &OpIr, api: &ApiIr) -> Vec<String> {
    let mut l = Vec::new();
    if op.asynchronous && api.activity_operation.is_some() {
        l.push(
            "- Asynchronous (202): `send` answers an `Accepted`, whose `wait` polls the work as the call's tenant; `send_and_wait` does both and returns the answer with the activity."
                .into(),
        );
    } else if op.asynchronous {
        l.push("- Asynchronous (202): the answer's `requestId` identifies the work.".into());
    }
    if let Some(p) = &op.pagination {
        l.push(format!(
            "- Pagination: `{}`, items in {}",
            p.style.as_str(),
            code(&p.items)
        ));
    }
    if op.error_family != api.default_family {
        l.push(format!(
            "- Errors: `{}` error body family, returned as `Error::Api`",
            op.error_family
        ));
    }
    if op.lifecycle != Lifecycle::Stable {
        l.push(format!("- Lifecycle: {}", prose(&op.lifecycle.describe())));
    }
    if op.provenance != Provenance::Documented {
        l.push(format!("- {}", provenance_line(&op.provenance)));
    }
    l
}
