//! The conformance test the generator writes next to the client: every generated operation is
//! called once against a local HTTP server, which checks the method, the path with parameters
//! substituted and encoded, `Content-Type`, `Accept`, required query and header parameters and
//! the JSON body, and answers a body of the declared shape that the client must decode.
//!
//! Sample values come from the IR: required fields only, so the JSON the server answers is
//! exactly what the decoded value serializes back to.

use super::gates;
use super::text::ident;
use crate::ir::{ApiIr, BodyKind, Ir, Lifecycle, OpIr, ResponseKind, TypeIr, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

/// `(path relative to the crate dir, tokens)` of the test's files.
pub fn files(ir: &Ir) -> Vec<(String, TokenStream)> {
    let krate = ident(&ir.krate.name.replace('-', "_"));
    let mut out = Vec::new();
    let mut mods = Vec::new();
    for api in &ir.apis {
        let types: BTreeMap<&str, (&str, &TypeIr)> = api
            .areas
            .iter()
            .flat_map(|a| {
                a.types
                    .iter()
                    .map(move |t| (t.name.as_str(), (a.name.as_str(), t)))
            })
            .collect();
        let samples = Samples {
            types,
            krate: &krate,
            api,
        };
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
            let calls = ops.iter().map(|o| samples.call(o, &area.name));
            let test = ident(&module);
            let doc = format!(" Every operation of `{}::{}` once.", api.name, area.name);
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
    }
    out.push((
        "tests/conformance/main.rs".to_owned(),
        quote! {
            //! Conformance test generated from the spec: each operation is called once against a
            //! local HTTP server that checks what is sent and answers a body of the declared shape.
            mod support;
            #(#mods)*
        },
    ));
    out.push(("tests/conformance/support.rs".to_owned(), support(&krate)));
    out
}

struct Samples<'a> {
    types: BTreeMap<&'a str, (&'a str, &'a TypeIr)>,
    krate: &'a proc_macro2::Ident,
    api: &'a ApiIr,
}

impl Samples<'_> {
    /// One operation's mock and call.
    fn call(&self, op: &OpIr, area: &str) -> TokenStream {
        let area = ident(area);
        let version = &op.versions[0];
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
        let mut body_json = quote!(None);
        if let Some(b) = op.request.as_ref().filter(|b| b.required) {
            match (b.kind, &b.ty) {
                (BodyKind::Json | BodyKind::Form, Some(t)) => {
                    let (expr, json) = self.value(t, 0);
                    args.push(quote!(&#expr));
                    if b.kind == BodyKind::Json {
                        body_json = quote!(Some(#json));
                    }
                }
                (BodyKind::Multipart, _) => args.push(quote!(
                    ruckus_one_runtime::Multipart::new().text("file", "sample")
                )),
                _ => args.push(quote!(bytes::Bytes::from_static(b"sample"))),
            }
        }
        let content_type = match (&op.request, &version.content_type) {
            (Some(b), Some(ct)) if b.required => quote!(Some(#ct)),
            _ => quote!(None),
        };
        let accept = &version.accept;
        let method = op.method.as_str();
        let status = op.success.status;
        let api = ident(&self.api.name);
        let name = ident(&op.id);
        let id = &op.id;
        let (answer, check) = match (op.success.kind, &op.success.ty) {
            (ResponseKind::Json, Some(t)) => {
                let (_, json) = self.value(t, 0);
                (
                    quote!(Answer::Json(#json)),
                    quote!(support::same_json(&out, #json, #id);),
                )
            }
            (ResponseKind::Json, None) => (
                quote!(Answer::Json("{}")),
                quote!(support::same_json(&out, "{}", #id);),
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
        };
        let gate = gates::operation(op);
        let allow = match op.lifecycle {
            Lifecycle::Deprecated { .. } => quote!(#[allow(deprecated)]),
            _ => quote!(),
        };
        quote! {
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
                let out = client.#api().#area().#name(#(#args),*).send().await.expect(#id);
                #check
            }
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

    fn path(&self, area: &str, name: &str) -> TokenStream {
        let (krate, api, area, name) =
            (self.krate, ident(&self.api.name), ident(area), ident(name));
        quote!(#krate::#api::#area::#name)
    }

    /// A sample value of a type: the Rust expression that builds it and its JSON text.
    fn value(&self, t: &TypeRef, depth: usize) -> (TokenStream, String) {
        match t {
            TypeRef::String => (quote!("sample".to_owned()), "\"sample\"".into()),
            TypeRef::Integer | TypeRef::Int32 => (quote!(1), "1".into()),
            TypeRef::Number => (quote!(1.5), "1.5".into()),
            TypeRef::Boolean => (quote!(true), "true".into()),
            TypeRef::Json | TypeRef::NotShown(_) => (
                quote!(serde_json::json!({"sample": true})),
                "{\"sample\":true}".into(),
            ),
            TypeRef::Array(inner) if depth < 3 => {
                let (e, j) = self.value(inner, depth + 1);
                (quote!(vec![#e]), format!("[{j}]"))
            }
            TypeRef::Map(inner) if depth < 3 => {
                let (e, j) = self.value(inner, depth + 1);
                (
                    quote!(std::collections::BTreeMap::from([("k".to_owned(), #e)])),
                    format!("{{\"k\":{j}}}"),
                )
            }
            TypeRef::Array(_) => (quote!(Vec::new()), "[]".into()),
            TypeRef::Map(_) => (quote!(std::collections::BTreeMap::new()), "{}".into()),
            TypeRef::Named { name, area } => self.named(name, area, depth),
        }
    }

    fn named(&self, name: &str, area: &str, depth: usize) -> (TokenStream, String) {
        let path = self.path(area, name);
        let Some((_, t)) = self.types.get(name) else {
            return (quote!(serde_json::json!({})), "{}".into());
        };
        match &t.kind {
            TypeKind::Enum(values) => {
                let wire = values.first().map(|v| v.wire.clone()).unwrap_or_default();
                (quote!(#path::from(#wire)), json_string(&wire))
            }
            TypeKind::Alias(target) => self.value(target, depth),
            TypeKind::NotShown(_) => (
                quote!(serde_json::json!({"sample": true})),
                "{\"sample\":true}".into(),
            ),
            TypeKind::Object(fields, _) => {
                let mut args = Vec::new();
                let mut json = Vec::new();
                for f in fields.iter().filter(|f| f.required) {
                    if f.nullable {
                        json.push(format!("{}:null", json_string(&f.wire)));
                        continue;
                    }
                    let (e, j) = if f.secret {
                        (
                            quote!(ruckus_one_runtime::Secret::from("sample")),
                            "\"sample\"".to_owned(),
                        )
                    } else {
                        self.value(&f.ty, depth + 1)
                    };
                    args.push(e);
                    json.push(format!("{}:{j}", json_string(&f.wire)));
                }
                (
                    quote!(#path::new(#(#args),*)),
                    format!("{{{}}}", json.join(",")),
                )
            }
        }
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The test's helpers: a server with a token endpoint, a client pointed at it, and the mock
/// that checks one request.
fn support(krate: &proc_macro2::Ident) -> TokenStream {
    quote! {
        //! Helpers of the conformance test.
        // With some area features off, or a spec without binary or empty answers, some helpers
        // go unused.
        #![allow(dead_code)]
        use wiremock::matchers::{body_json, header, header_regex, method, path, query_param};
        use wiremock::{Mock, MockGuard, MockServer, ResponseTemplate};

        /// What one operation must send, and what the server answers.
        pub struct Expect {
            pub method: &'static str,
            pub path: &'static str,
            pub accept: &'static str,
            pub content_type: Option<&'static str>,
            pub query: &'static [(&'static str, &'static str)],
            pub headers: &'static [(&'static str, &'static str)],
            pub body_json: Option<&'static str>,
            pub status: u16,
            pub answer: Answer,
        }

        /// The answer's body.
        pub enum Answer {
            Json(&'static str),
            Bytes(&'static [u8]),
            Empty,
        }

        /// A server on 127.0.0.1 with a token endpoint.
        pub async fn server() -> MockServer {
            let server = MockServer::start().await;
            Mock::given(method("POST"))
                .and(path("/oauth2/token"))
                .respond_with(ResponseTemplate::new(200).set_body_json(
                    serde_json::json!({"access_token": "conformance-token", "token_type": "Bearer", "expires_in": 3600}),
                ))
                .mount(&server)
                .await;
            server
        }

        /// A client whose every API lives on `server`.
        pub fn client(server: &MockServer) -> #krate::Client {
            let config = #krate::Config::new(#krate::Credentials::new("conformance", "conformance-secret"))
                .base_url(server.uri())
                .unit_token("conformance-unit-token")
                .retry(#krate::RetryPolicy::none());
            #krate::Client::new(config).expect("valid configuration")
        }

        /// Mounts a mock that matches exactly one request as described; it verifies when the
        /// guard drops.
        pub async fn expect(server: &MockServer, e: &Expect) -> MockGuard {
            let mut mock = Mock::given(method(e.method))
                .and(path(e.path))
                .and(header("accept", e.accept))
                // Either bearer token: the OAuth one or the unit token.
                .and(header_regex("authorization", "^Bearer conformance-(token|unit-token)$"));
            if let Some(ct) = e.content_type {
                mock = mock.and(ContentType(ct));
            }
            for (k, v) in e.query {
                mock = mock.and(query_param(*k, *v));
            }
            for (k, v) in e.headers {
                mock = mock.and(header(*k, *v));
            }
            if let Some(json) = e.body_json {
                let value: serde_json::Value = serde_json::from_str(json).expect("sample JSON");
                mock = mock.and(body_json(value));
            }
            let answer = match e.answer {
                Answer::Json(json) => ResponseTemplate::new(e.status).set_body_raw(json, "application/json"),
                Answer::Bytes(bytes) => ResponseTemplate::new(e.status).set_body_bytes(bytes),
                Answer::Empty => ResponseTemplate::new(e.status),
            };
            server.register_as_scoped(mock.respond_with(answer).expect(1)).await
        }

        /// `Content-Type` equal to `ct`, or starting with it and a parameter (multipart boundary).
        struct ContentType(&'static str);

        impl wiremock::Match for ContentType {
            fn matches(&self, request: &wiremock::Request) -> bool {
                request
                    .headers
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v == self.0 || v.starts_with(&format!("{};", self.0)))
            }
        }

        /// The decoded value serializes back to exactly the JSON the server sent.
        pub fn same_json<T: serde::Serialize>(value: &T, json: &str, id: &str) {
            let expected: serde_json::Value = serde_json::from_str(json).expect("sample JSON");
            let actual = serde_json::to_value(value).expect("serializable");
            assert_eq!(actual, expected, "{id}: decoded value differs from the answer");
        }
    }
}
