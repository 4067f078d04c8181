//! The decode table beside the client (`tests/corpus/`): for every generated operation,
//! its method, path and accepted media types, and functions that decode a JSON body into its
//! typed success answer and its typed request body and write it back. Tests that replay bodies
//! written elsewhere (the vendor's payloads) include it, so every body goes through the very
//! types and serde code callers use, without a hand-written list to keep in step with the spec.
//! The including crate builds the client with every area (its default) and has a feature
//! `experimental` that turns on the client's: experimental operations are gated on it.

use super::gates;
use super::text::ident;
use crate::ir::{BodyKind, Ir, OpIr, ResponseKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// The table's files, paths relative to the crate directory: `tests/corpus/mod.rs` with the
/// shared items, and one file per area with operations (so a change stays in its area's file).
pub fn files(ir: &Ir) -> Vec<(String, TokenStream)> {
    let krate = ident(&ir.krate.name.replace('-', "_"));
    let mut out = Vec::new();
    let mut mods = Vec::new();
    let mut calls = Vec::new();
    for api in &ir.apis {
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
            mods.push(quote!(mod #m;));
            calls.push(quote!(#m::push(&mut ops);));
            let entries = ops.iter().map(|op| {
                let gate = gates::operation(op);
                let entry = entry(&krate, &api.name, op);
                quote! {
                    #gate
                    ops.push(#entry);
                }
            });
            let doc = format!(" The operations of `{}::{}`.", api.name, area.name);
            out.push((
                format!("tests/corpus/{module}.rs"),
                quote! {
                    #![doc = #doc]
                    #[allow(unused_imports)]
                    use super::{Decode, Op, round};

                    /// Appends the area's operations.
                    // (`ops` is unused, and could be a slice, in an area whose operations are
                    // all behind a feature.)
                    #[allow(unused_variables, clippy::ptr_arg)]
                    pub(super) fn push(ops: &mut Vec<Op>) {
                        #(#entries)*
                    }
                },
            ));
        }
    }
    out.push((
        "tests/corpus/mod.rs".to_owned(),
        quote! {
            //! Every generated operation with decoders of its typed bodies (generated; see the
            //! generator's `emit::corpus`). Include it from a crate that builds the client with every
            //! area and has a feature `experimental` that turns on the client's.

            #(#mods)*

            /// Decodes a JSON body into a typed body and writes it back as JSON.
            pub type Decode = fn(&[u8]) -> Result<serde_json::Value, String>;

            /// One operation.
            pub struct Op {
                pub api: &'static str,
                pub id: &'static str,
                pub method: &'static str,
                pub path: &'static str,
                /// The status of the typed success answer.
                pub status: u16,
                /// `Accept` media types of its versions (empty when it answers no JSON).
                pub accepts: &'static [&'static str],
                /// The typed success answer, when it has one.
                pub response: Option<Decode>,
                /// The typed JSON request body, when it has one.
                pub request: Option<Decode>,
                /// For a paged answer whose items the spec types apart from the answer
                /// (`pagination.item_type`): the items field and the decoder of one item.
                pub items: Option<(&'static str, Decode)>,
            }

            fn round<T: serde::de::DeserializeOwned + serde::Serialize>(
                body: &[u8],
            ) -> Result<serde_json::Value, String> {
                let value: T = serde_json::from_slice(body).map_err(|e| e.to_string())?;
                serde_json::to_value(&value).map_err(|e| e.to_string())
            }

            /// Every operation the enabled features generate, in spec order.
            pub fn operations() -> Vec<Op> {
                let mut ops = Vec::new();
                #(#calls)*
                ops
            }
        },
    ));
    out
}

fn entry(krate: &proc_macro2::Ident, api: &str, op: &OpIr) -> TokenStream {
    let id = &op.id;
    let method = op.method.as_str();
    let path = &op.path;
    let status = proc_macro2::Literal::u16_unsuffixed(op.success.status);
    let accepts: Vec<&String> = match op.success.kind {
        ResponseKind::Json => {
            let mut seen: Vec<&String> = Vec::new();
            for v in &op.versions {
                if !seen.contains(&&v.accept) {
                    seen.push(&v.accept);
                }
            }
            seen
        }
        _ => Vec::new(),
    };
    let response = match (op.success.kind, &op.success.ty) {
        (ResponseKind::Json, Some(t)) if typed(t) => decoder(krate, api, t),
        _ => quote!(None),
    };
    let request = match op.request.as_ref().map(|b| (b.kind, &b.ty)) {
        Some((BodyKind::Json, Some(t))) if typed(t) => decoder(krate, api, t),
        _ => quote!(None),
    };
    let items = match op.pagination.as_ref().map(|p| (&p.items, &p.item_type)) {
        Some((field, Some(t))) if typed(t) => {
            let decode = decoder(krate, api, t);
            quote!(#decode.map(|d| (#field, d)))
        }
        _ => quote!(None),
    };
    quote! {
        Op {
            api: #api,
            id: #id,
            method: #method,
            path: #path,
            status: #status,
            accepts: &[#(#accepts),*],
            response: #response,
            request: #request,
            items: #items,
        }
    }
}

/// Whether a body type is more than raw JSON.
fn typed(t: &TypeRef) -> bool {
    match t {
        TypeRef::Json | TypeRef::NotShown(_) => false,
        TypeRef::Array(inner) | TypeRef::Map(inner) => typed(inner),
        _ => true,
    }
}

fn decoder(krate: &proc_macro2::Ident, api: &str, t: &TypeRef) -> TokenStream {
    let ty = absolute(krate, api, t);
    quote!(Some(round::<#ty> as Decode))
}

/// A type's path from outside the crate.
fn absolute(krate: &proc_macro2::Ident, api: &str, t: &TypeRef) -> TokenStream {
    let api_ident = ident(api);
    match t {
        TypeRef::String => quote!(String),
        TypeRef::Integer => quote!(i64),
        TypeRef::Int32 => quote!(i32),
        TypeRef::Number => quote!(f64),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Json | TypeRef::NotShown(_) => quote!(serde_json::Value),
        TypeRef::Array(inner) => {
            let inner = absolute(krate, api, inner);
            quote!(Vec<#inner>)
        }
        TypeRef::Map(inner) => {
            let inner = absolute(krate, api, inner);
            quote!(std::collections::BTreeMap<String, #inner>)
        }
        TypeRef::Named { name, area } => {
            let (name, area) = (ident(name), ident(area));
            quote!(#krate::#api_ident::#area::#name)
        }
    }
}
