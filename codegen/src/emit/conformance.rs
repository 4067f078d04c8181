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

use super::text::ident;
use super::types::{builder_setters, with_setter};
use super::{conformance_support, gates};
use crate::ir::{
    self, ApiIr, BodyKind, FieldIr, Ir, Lifecycle, OpIr, ResponseKind, TypeIr, TypeKind, TypeRef,
    UnionIr,
};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{BTreeMap, BTreeSet};

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

/// A sample: the Rust expression that builds it and the expression of its JSON.
type Sample = (TokenStream, TokenStream);

/// The most JSON values (objects, arrays and scalars) one sample may hold.
const MAX_SAMPLE_VALUES: u64 = 4096;

/// The samples of one API: one `impl Sample` per named object, enum or union type reached.
///
/// No sample may call itself, directly or not: a type's `impl Sample` is used only where it
/// cannot reach a type whose `impl` is still being built (the current path); elsewhere the
/// array or map that holds it stays empty. A union's sample always uses its first variant,
/// even while that variant is being built, and is then not used until the variant is done.
struct Samples<'a> {
    /// Every named type of the API with its area.
    types: BTreeMap<&'a str, (&'a ir::AreaIr, &'a TypeIr)>,
    krate: &'a proc_macro2::Ident,
    api: &'a ApiIr,
    area_features: bool,
    /// Types with an `impl Sample` (finished or being built) -> the types whose samples it uses.
    calls: BTreeMap<&'a str, BTreeSet<&'a str>>,
    /// The types being built (and aliases being inlined), outermost first.
    path: Vec<&'a str>,
    /// Per type being built, the samples its `impl` uses so far.
    frames: Vec<BTreeSet<&'a str>>,
    /// The `impl Sample` items, in the order they were finished.
    impls: Vec<TokenStream>,
    /// JSON values in each finished sample.
    weights: BTreeMap<&'a str, u64>,
    /// Types whose required fields alone would take more than [`MAX_SAMPLE_VALUES`]: no sample.
    too_big: BTreeSet<&'a str>,
}

impl<'a> Samples<'a> {
    fn new(api: &'a ApiIr, krate: &'a proc_macro2::Ident, area_features: bool) -> Self {
        let types = api
            .areas
            .iter()
            .flat_map(|a| a.types.iter().map(move |t| (t.name.as_str(), (a, t))))
            .collect();
        Samples {
            types,
            krate,
            api,
            area_features,
            calls: BTreeMap::new(),
            path: Vec::new(),
            frames: Vec::new(),
            impls: Vec::new(),
            weights: BTreeMap::new(),
            too_big: BTreeSet::new(),
        }
    }

    /// One operation's mock and call; none when its request or response body has no sample.
    fn call(&mut self, op: &'a OpIr, area: &str) -> Option<TokenStream> {
        if !self.sampleable(op) {
            return None;
        }
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
                let out = client.#api().#area().#name(#(#args),*) #(#setters)* .send().await.expect(#id);
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

    /// JSON values in the sample of `t` once built; none for a type without a sample.
    fn weight(&self, t: &TypeRef) -> Option<u64> {
        let mut t = t;
        // Aliases are followed; validation bounds how far.
        for _ in 0..=self.types.len() {
            return match t {
                TypeRef::Json | TypeRef::NotShown(_) => Some(2),
                TypeRef::Array(inner) | TypeRef::Map(inner) => {
                    Some(1 + self.weight(inner).unwrap_or(0))
                }
                TypeRef::Named { name, .. } => {
                    if self.too_big.contains(name.as_str()) {
                        return None;
                    }
                    match self.types.get(name.as_str()).map(|(_, ty)| &ty.kind) {
                        Some(TypeKind::Alias(target)) => {
                            t = target;
                            continue;
                        }
                        Some(TypeKind::NotShown(_)) => Some(2),
                        // Being built (a union's variant, an array's items): counted once.
                        _ => Some(self.weights.get(name.as_str()).copied().unwrap_or(1)),
                    }
                }
                _ => Some(1),
            };
        }
        Some(1)
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

    fn path(&self, area: &str, name: &str) -> TokenStream {
        let (krate, api, area, name) =
            (self.krate, ident(&self.api.name), ident(area), ident(name));
        quote!(#krate::#api::#area::#name)
    }

    /// A raw JSON sample.
    fn raw(&self) -> Sample {
        (
            quote!(serde_json::json!({"sample": true})),
            quote!(serde_json::json!({"sample": true})),
        )
    }

    /// A sample of a type, or None when it would need a value of a type still being built
    /// (only an array or map can hold one; it stays empty).
    fn value(&mut self, t: &'a TypeRef) -> Option<Sample> {
        Some(match t {
            TypeRef::String => (
                quote!("sample".to_owned()),
                quote!(serde_json::Value::from("sample")),
            ),
            TypeRef::Integer | TypeRef::Int32 => (quote!(1), quote!(serde_json::Value::from(1))),
            TypeRef::Number => (quote!(1.5), quote!(serde_json::Value::from(1.5))),
            TypeRef::Boolean => (quote!(true), quote!(serde_json::Value::from(true))),
            TypeRef::Json | TypeRef::NotShown(_) => self.raw(),
            TypeRef::Array(inner) => match self.value(inner) {
                Some((e, j)) => (quote!(vec![#e]), quote!(serde_json::Value::Array(vec![#j]))),
                None => (
                    quote!(Vec::new()),
                    quote!(serde_json::Value::Array(Vec::new())),
                ),
            },
            TypeRef::Map(inner) => match self.value(inner) {
                Some((e, j)) => (
                    quote!(std::collections::BTreeMap::from([("k".to_owned(), #e)])),
                    quote!(support::object([("k", #j)])),
                ),
                None => (
                    quote!(std::collections::BTreeMap::new()),
                    quote!(support::object([])),
                ),
            },
            TypeRef::Named { name, .. } => return self.named(name),
        })
    }

    /// A named type's sample: aliases and raw shapes inline, other types through their
    /// `impl Sample`, built on first use.
    fn named(&mut self, name: &'a str) -> Option<Sample> {
        if self.path.contains(&name) || self.too_big.contains(name) {
            return None;
        }
        let (area, t) = *self.types.get(name)?;
        match &t.kind {
            TypeKind::Alias(target) => {
                self.path.push(name);
                let sample = self.value(target);
                self.path.pop();
                return sample;
            }
            TypeKind::NotShown(_) => return Some(self.raw()),
            TypeKind::Object(..) | TypeKind::Enum(_) | TypeKind::Union(_) => {}
        }
        if !self.calls.contains_key(name) {
            self.calls.insert(name, BTreeSet::new());
            self.path.push(name);
            self.frames.push(BTreeSet::new());
            let body = self.body(t);
            let uses = self.frames.pop().unwrap_or_default();
            self.path.pop();
            self.calls.insert(name, uses);
            let Some((sample, json, weight)) = body else {
                self.too_big.insert(name);
                return None;
            };
            self.weights.insert(name, weight);
            let ty = self.path(&area.name, name);
            let area_gate = gates::area(area, self.area_features);
            let shared = gates::shared_type(t, self.area_features);
            let gate = quote!(#area_gate #shared);
            self.impls.push(quote! {
                #gate
                impl support::Sample for #ty {
                    fn sample() -> Self {
                        #sample
                    }

                    fn sample_json() -> serde_json::Value {
                        #json
                    }
                }
            });
        }
        if self.reaches_path(name) {
            return None;
        }
        Some(self.reference(name))
    }

    /// `<T as Sample>::sample()` and its JSON, recorded as used by the type being built.
    fn reference(&mut self, name: &'a str) -> Sample {
        if let Some(frame) = self.frames.last_mut() {
            frame.insert(name);
        }
        let area = self
            .types
            .get(name)
            .map(|(a, _)| a.name.as_str())
            .unwrap_or_default();
        let ty = self.path(area, name);
        (
            quote!(<#ty as support::Sample>::sample()),
            quote!(<#ty as support::Sample>::sample_json()),
        )
    }

    /// Whether the sample of `name` uses, directly or not, a type still being built.
    fn reaches_path(&self, name: &'a str) -> bool {
        let mut todo = vec![name];
        let mut seen = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if self.path.contains(&n) {
                return true;
            }
            if seen.insert(n) {
                todo.extend(self.calls.get(n).into_iter().flatten().copied());
            }
        }
        false
    }

    /// The object, enum or union an alias chain ends at.
    fn nominal(&self, mut name: &'a str) -> Option<&'a str> {
        for _ in 0..=self.types.len() {
            match &self.types.get(name)?.1.kind {
                TypeKind::Alias(TypeRef::Named { name: next, .. }) => name = next,
                TypeKind::Alias(_) | TypeKind::NotShown(_) => return None,
                TypeKind::Object(..) | TypeKind::Enum(_) | TypeKind::Union(_) => {
                    return Some(name);
                }
            }
        }
        None
    }

    /// The bodies of `sample` and `sample_json` of an object, enum or union, with the JSON
    /// values the sample holds; none for an object whose required fields take too many.
    fn body(&mut self, t: &'a TypeIr) -> Option<(TokenStream, TokenStream, u64)> {
        Some(match &t.kind {
            TypeKind::Enum(values) => {
                let wire = values.first().map(|v| v.wire.as_str()).unwrap_or_default();
                (
                    quote!(Self::from(#wire)),
                    quote!(serde_json::Value::from(#wire)),
                    1,
                )
            }
            TypeKind::Object(fields, open) => return self.object(fields, *open),
            TypeKind::Union(u) => match self.union(u) {
                Some((e, j, w)) => (e, j, w),
                None => {
                    let (e, j) = self.raw();
                    (quote!(Self::Unknown(#e)), j, 2)
                }
            },
            TypeKind::Alias(_) | TypeKind::NotShown(_) => {
                let (e, j) = self.raw();
                (e, j, 2)
            }
        })
    }

    /// Every field set (an optional one only within [`MAX_SAMPLE_VALUES`]): through `new` and
    /// the `with_` setters, or the builder. None when the required fields take too many values.
    fn object(
        &mut self,
        fields: &'a [FieldIr],
        open: bool,
    ) -> Option<(TokenStream, TokenStream, u64)> {
        let mut values = Vec::new();
        let mut json = Vec::new();
        let mut weight = 1 + u64::from(open) * 2;
        for f in fields {
            let (v, w) = if f.secret {
                let secret = (
                    quote!(ruckus_one_runtime::Secret::from("sample")),
                    quote!(serde_json::Value::from("sample")),
                );
                (Some(secret), Some(1))
            } else {
                (self.value(&f.ty), self.weight(&f.ty))
            };
            let fits = w.is_some_and(|w| weight.saturating_add(w) <= MAX_SAMPLE_VALUES);
            if f.required && !fits {
                return None;
            }
            match v {
                Some((e, j)) if fits => {
                    weight += w.unwrap_or(0);
                    let wire = &f.wire;
                    json.push(quote!((#wire, #j)));
                    values.push(Some(e));
                }
                _ => values.push(None),
            }
        }
        let mut expr = if ir::uses_builder(fields) {
            let setters = fields.iter().zip(builder_setters(fields)).zip(&values);
            let calls = setters.filter_map(|((_, method), v)| {
                let method = ident(&method);
                v.as_ref().map(|e| quote!(.#method(#e)))
            });
            quote!(Self::builder() #(#calls)* .build().expect("every field is set"))
        } else {
            let args = fields
                .iter()
                .zip(&values)
                .filter(|(f, _)| f.required && !f.nullable)
                .map(|(_, v)| v.clone().unwrap_or_else(|| quote!(Default::default())));
            let calls = fields
                .iter()
                .zip(&values)
                .filter(|(f, _)| !f.required || f.nullable)
                .filter_map(|(f, v)| {
                    let method = ident(&with_setter(f, fields));
                    v.as_ref().map(|e| quote!(.#method(#e)))
                });
            quote!(Self::new(#(#args),*) #(#calls)*)
        };
        if open {
            let mut extra = "conformanceExtra".to_owned();
            while fields.iter().any(|f| f.wire == extra) {
                extra.push('_');
            }
            expr = quote! {{
                let mut value = #expr;
                value.additional_fields.insert(#extra.to_owned(), serde_json::json!({"sample": true}));
                value
            }};
            json.push(quote!((#extra, serde_json::json!({"sample": true}))));
        }
        Some((expr, quote!(support::object([#(#json),*])), weight))
    }

    /// The first variant's sample; with a discriminator, with the variant's tag in it; with the
    /// JSON values it holds. None when the first variant has no sample.
    fn union(&mut self, u: &'a UnionIr) -> Option<(TokenStream, TokenStream, u64)> {
        let v = u.variants.first()?;
        let variant = ident(&v.rust);
        let variant_type = TypeRef::Named {
            name: v.type_name().to_owned(),
            area: String::new(),
        };
        let (e, j) = match self.named(v.type_name()) {
            Some(sample) => sample,
            // The variant is being built (or uses a type that is): use it all the same; this
            // union's sample is then not used until it is done.
            None => {
                let nominal = self.nominal(v.type_name())?;
                self.reference(nominal)
            }
        };
        let w = self.weight(&variant_type)?;
        let (Some(d), Some(tag)) = (&u.discriminator, &v.tag) else {
            return Some((quote!(Self::#variant(#e)), j, w));
        };
        // Validation made the variant an object whose field `d` is a string or an enum.
        let (_, vt) = self.types.get(v.type_name())?;
        let TypeKind::Object(fields, _) = &vt.kind else {
            return None;
        };
        let f = fields.iter().find(|f| &f.wire == d)?;
        let field = ident(&f.rust);
        let mut set = match &f.ty {
            TypeRef::Named { name, area } => {
                let path = self.path(area, name);
                quote!(#path::from(#tag))
            }
            _ => quote!(#tag.to_owned()),
        };
        if !f.required || f.nullable {
            set = quote!(Some(#set));
        }
        Some((
            quote! {{
                let mut value = #e;
                value.#field = #set;
                Self::#variant(value)
            }},
            quote!(support::tagged(#j, #d, #tag)),
            w,
        ))
    }
}
