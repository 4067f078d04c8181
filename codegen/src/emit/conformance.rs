//! The conformance test the generator writes next to the client: every generated operation is
//! called once against a local HTTP server, which checks the method, the path with parameters
//! substituted and encoded, `Content-Type`, `Accept`, required query and header parameters and
//! the JSON body, and answers a body of the declared shape that the client must decode.
//!
//! Every typed body, request and response, is a sample with every field set (optional ones
//! too, nested types included, open objects with one field the spec does not name, unions as
//! their first variant). The server checks the request body against the sample's JSON, written
//! independently from the wire names; a response must decode to the sample and serialize back
//! to exactly the JSON the server sent.
//!
//! Samples are built once per named type (`impl Sample for T` in `samples.rs`), so the test
//! grows linearly with the spec however types nest. Where a type refers back to one that is
//! still being built (through an array or map: validation refuses anything else), the array or
//! map is left empty, which also ends the recursion at run time.
//!
//! A sample's value is a tree, which can double per level of a chain of types (two fields of the
//! next type each): samples hold at most [`MAX_SAMPLE_VALUES`] JSON values. An optional field
//! that would go beyond is left unset; a type whose required fields alone go beyond has no
//! sample, and the operations that need one are left out of the test (named in its doc). So
//! what a sample builds at run time stays bounded, however deep the chain (validation bounds
//! the depth, see `validate/nesting.rs`).

use super::samples::{MAX_SAMPLE_VALUES, Samples};
use super::text::ident;
use super::{conformance_support, gates};
use crate::ir::{BodyKind, Ir, Lifecycle, OpIr, ResponseKind, TypeIr, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// `(path relative to the crate dir, tokens)` of the test's files.
pub fn files(ir: &Ir) -> Vec<(String, TokenStream)> {
    let krate = ident(&ir.krate.name.replace('-', "_"));
    let mut out = Vec::new();
    let mut mods = Vec::new();
    let mut impls = Vec::new();
    for api in &ir.apis {
        let mut samples = Samples::new(api, &krate, ir.krate.area_features);
        for area in &api.areas {
            let ops: Vec<&OpIr> = area
                .operations
                .iter()
                .filter(|o| o.is_generated())
                .collect();
            if ops.is_empty() {
                continue;
            }
            let module = format!("{}_{}", api.name, area.name);
            let m = ident(&module);
            let area_gate = gates::area(area, ir.krate.area_features);
            // An area of experimental operations only is tested with the feature only.
            if gates::all_experimental(ops.iter().copied()) {
                let experimental = gates::experimental();
                mods.push(quote!(#area_gate #experimental mod #m;));
            } else {
                mods.push(quote!(#area_gate mod #m;));
            }
            let mut calls = Vec::new();
            let mut left_out = Vec::new();
            for o in &ops {
                match samples.call(o, &area.name) {
                    Some(call) => calls.push(call),
                    None => left_out.push(format!("`{}`", o.id)),
                }
            }
            let test = ident(&module);
            let mut doc = format!(" Every operation of `{}::{}` once", api.name, area.name);
            if !left_out.is_empty() {
                doc.push_str(&format!(
                    " but {}: a sample of its body would hold more than {MAX_SAMPLE_VALUES} values",
                    left_out.join(", ")
                ));
                if calls.is_empty() {
                    calls.push(quote!(let _ = client;));
                }
            }
            doc.push('.');
            out.push((
                format!("tests/conformance/{module}.rs"),
                quote! {
                    // `let () = out;` states that an operation without a body returns `()`.
                    #![allow(clippy::let_unit_value)]
                    use super::support::{self, Answer, Expect};

                    #[doc = #doc]
                    #[tokio::test]
                    async fn #test() {
                        let server = support::server().await;
                        let client = support::client(&server);
                        #(#calls)*
                    }
                },
            ));
        }
        impls.append(&mut samples.impls);
    }
    let uses = (!impls.is_empty()).then(|| {
        quote!(
            use super::support;
        )
    });
    out.push((
        "tests/conformance/samples.rs".to_owned(),
        quote! {
            //! A sample of every named type the operations send or answer: every field set.
            #uses
            #(#impls)*
        },
    ));
    out.push((
        "tests/conformance/main.rs".to_owned(),
        quote! {
            //! Conformance test generated from the spec: each operation is called once against a
            //! local HTTP server that checks what is sent and answers a body of the declared shape.
            mod samples;
            mod support;
            #(#mods)*
        },
    ));
    out.push((
        "tests/conformance/support.rs".to_owned(),
        conformance_support::support(&krate),
    ));
    out
}
impl<'a> Samples<'a> {
    /// One operation's mock and call; none when its request or response body has no sample.
    pub(super) fn call(&mut self, op: &'a OpIr, area: &str) -> Option<TokenStream> {
        if !self.sampleable(op) {
            return None;
        }
        // An asynchronous write answers an `Accepted`: the decoded answer is inside.
        let inner = super::ops::waiter(op, self.api, area).map(|_| quote!(.into_inner()));
        let area = ident(area);
        let version = &op.versions[0];
        let (path, mut args) = self.request_path(op);
        let (query, headers) = self.required_params(op, &mut args);
        let (body_json, setters) = self.request_body(op, &mut args);
        let content_type = match (&op.request, &version.content_type) {
            (Some(_), Some(ct)) => quote!(Some(#ct)),
            _ => quote!(None),
        };
        let accept = &version.accept;
        let method = op.method.as_str();
        let status = op.success.status;
        let api = ident(&self.api.name);
        let name = ident(&op.id);
        let id = &op.id;
        let (answer, check) = self.answer(op);
        let gate = gates::operation(op);
        let allow = match op.lifecycle {
            Lifecycle::Deprecated { .. } => quote!(#[allow(deprecated)]),
            _ => quote!(),
        };
        Some(quote! {
            #gate
            #allow
            {
                let expect = Expect {
                    method: #method,
                    path: #path,
                    accept: #accept,
                    content_type: #content_type,
                    query: &[#(#query),*],
                    headers: &[#(#headers),*],
                    body_json: #body_json,
                    status: #status,
                    answer: #answer,
                };
                let _mock = support::expect(&server, &expect).await;
                let out = client.#api().#area().#name(#(#args),*) #(#setters)* .send().await.expect(#id) #inner;
                #check
            }
        })
    }

    /// Whether every typed body of `op` has a sample (builds the samples it needs).
    fn sampleable(&mut self, op: &'a OpIr) -> bool {
        let request = op.request.as_ref().and_then(|b| match b.kind {
            BodyKind::Json | BodyKind::Form => b.ty.as_ref(),
            BodyKind::Multipart | BodyKind::Binary => None,
        });
        let response = match op.success.kind {
            ResponseKind::Json => op.success.ty.as_ref(),
            ResponseKind::Binary | ResponseKind::Text | ResponseKind::Empty => None,
        };
        request.into_iter().chain(response).all(|t| {
            self.value(t);
            self.weight(t).is_some()
        })
    }

    /// The request path with every path parameter's sample (encoded) and their arguments.
    fn request_path(&self, op: &OpIr) -> (String, Vec<TokenStream>) {
        let mut path = self.api.prefix.value.clone();
        let mut rest = op.path.as_str();
        let mut args = Vec::new();
        for p in &op.path_params {
            let placeholder = format!("{{{}}}", p.wire);
            let at = rest.find(&placeholder).unwrap_or(rest.len());
            path.push_str(&rest[..at]);
            // A space and a slash: the server must see them encoded inside one segment.
            let value = format!("{} 1/x", p.wire);
            path.push_str(&format!("{}%201%2Fx", p.wire));
            rest = rest.get(at + placeholder.len()..).unwrap_or("");
            args.push(quote!(#value));
        }
        path.push_str(rest);
        (path, args)
    }

    /// The required query and header parameters: their arguments (pushed to `args`) and the
    /// `(name, wire text)` pairs the server must see.
    fn required_params(
        &mut self,
        op: &OpIr,
        args: &mut Vec<TokenStream>,
    ) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let mut query = Vec::new();
        let mut headers = Vec::new();
        for (p, is_query) in op
            .query
            .iter()
            .map(|p| (p, true))
            .chain(op.headers.iter().map(|p| (p, false)))
        {
            if !p.required {
                continue;
            }
            let (expr, wire) = self.param(&p.ty);
            args.push(expr);
            let name = &p.wire;
            if is_query {
                query.push(quote!((#name, #wire)));
            } else {
                headers.push(quote!((#name, #wire)));
            }
        }
        (query, headers)
    }

    /// The request body's argument (pushed to `args`, or a `body` setter when it is optional)
    /// and the JSON the server must see.
    fn request_body(
        &mut self,
        op: &'a OpIr,
        args: &mut Vec<TokenStream>,
    ) -> (TokenStream, Vec<TokenStream>) {
        // Every body is sent, optional ones through the builder's `body`.
        let mut body_json = quote!(None);
        let mut setters = Vec::new();
        if let Some(b) = &op.request {
            let arg = match (b.kind, &b.ty) {
                (BodyKind::Json | BodyKind::Form, Some(t)) => {
                    let (expr, json) = self.value(t).unwrap_or_else(|| self.raw());
                    if b.kind == BodyKind::Json {
                        body_json = quote!(Some(#json));
                    }
                    quote!(&#expr)
                }
                (BodyKind::Multipart, _) => {
                    quote!(ruckus_one_runtime::Multipart::new().text("file", "sample"))
                }
                _ => quote!(bytes::Bytes::from_static(b"sample")),
            };
            if b.required {
                args.push(arg);
            } else {
                setters.push(quote!(.body(#arg)));
            }
        }
        (body_json, setters)
    }

    /// What the server answers and how the test checks what the call returned.
    fn answer(&mut self, op: &'a OpIr) -> (TokenStream, TokenStream) {
        let id = &op.id;
        match (op.success.kind, &op.success.ty) {
            (ResponseKind::Json, Some(t)) => {
                let (expr, json) = self.value(t).unwrap_or_else(|| self.raw());
                let differs = format!("{id}: decoded value differs from the sample");
                (
                    quote!(Answer::Json(#json)),
                    quote! {
                        support::same_json(&out, &expect, #id);
                        assert_eq!(out, #expr, #differs);
                    },
                )
            }
            (ResponseKind::Json, None) => (
                quote!(Answer::Json(serde_json::json!({}))),
                quote!(support::same_json(&out, &expect, #id);),
            ),
            (ResponseKind::Binary, _) => (
                quote!(Answer::Bytes(b"\x00binary\r\nsample")),
                quote!(assert_eq!(&out[..], b"\x00binary\r\nsample", #id);),
            ),
            (ResponseKind::Text, _) => (
                quote!(Answer::Bytes(b"name,id\r\nsample,1\r\n")),
                quote!(assert_eq!(out, "name,id\r\nsample,1\r\n", #id);),
            ),
            (ResponseKind::Empty, _) => (quote!(Answer::Empty), quote!(let () = out;)),
        }
    }

    /// A required parameter's argument and its wire text.
    fn param(&self, t: &TypeRef) -> (TokenStream, String) {
        match t {
            TypeRef::String => (quote!("sample"), "sample".into()),
            TypeRef::Integer | TypeRef::Int32 => (quote!(1), "1".into()),
            TypeRef::Number => (quote!(1.5), "1.5".into()),
            TypeRef::Boolean => (quote!(true), "true".into()),
            TypeRef::Named { name, area } => {
                let wire = match self.types.get(name.as_str()) {
                    Some((
                        _,
                        TypeIr {
                            kind: TypeKind::Enum(v),
                            ..
                        },
                    )) => v.first().map(|v| v.wire.clone()).unwrap_or_default(),
                    _ => String::new(),
                };
                let path = self.path(area, name);
                (quote!(#path::from(#wire)), wire)
            }
            _ => (quote!("sample"), "sample".into()),
        }
    }
}
