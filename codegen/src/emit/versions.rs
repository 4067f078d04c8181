//! The representation (version) enums. Operations of an API offering the same representations
//! share one enum in the API's `versions` module, which their builders' `version` methods take;
//! each operation's documentation lists its media types. A thousand operations need about
//! twenty enums, so the crate compiles a few enums instead of one per operation.

use super::text::{doc, ident};
use crate::ir::{ApiIr, OpIr, VersionIr};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

/// The shared enum of `versions`: its variants joined by `Or` (`V1OrJson`).
pub fn shared_name(versions: &[VersionIr]) -> String {
    let names: Vec<&str> = versions.iter().map(|v| v.variant.as_str()).collect();
    names.join("Or")
}

/// The API's `versions` module: one enum per distinct list of variants among its operations
/// with several representations (nothing when there are none).
pub fn module(api: &ApiIr) -> TokenStream {
    let mut shared: BTreeMap<String, &[VersionIr]> = BTreeMap::new();
    let ops = api.areas.iter().flat_map(|a| &a.operations);
    for op in ops.filter(|op: &&OpIr| op.versions.len() > 1) {
        shared
            .entry(shared_name(&op.versions))
            .or_insert(&op.versions);
    }
    if shared.is_empty() {
        return quote!();
    }
    let enums = shared
        .iter()
        .map(|(name, versions)| shared_enum(name, versions));
    quote! {
        /// Representations (versions) an operation can send and accept, shared by the
        /// operations that offer the same ones: a builder's `version` method takes one. Each
        /// operation's documentation lists the media types of its versions.
        pub mod versions {
            #(#enums)*
        }
    }
}

fn shared_enum(name: &str, versions: &[VersionIr]) -> TokenStream {
    let e = ident(name);
    let variants = versions.iter().enumerate().map(|(i, v)| {
        let n = ident(&v.variant);
        let text = if i == 0 {
            format!("`{}` (default)", v.label)
        } else {
            format!("`{}`", v.label)
        };
        let d = doc(&[text]);
        let default = (i == 0).then(|| quote!(#[default]));
        quote!(#d #default #n,)
    });
    let labels: Vec<String> = versions.iter().map(|v| format!("`{}`", v.label)).collect();
    let d = doc(&[format!(
        "A choice among {}; the first is the default.",
        labels.join(", ")
    )]);
    quote! {
        #d
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        #[allow(non_camel_case_types)]
        pub enum #e { #(#variants)* }

        impl ruckus_one_runtime::Representation for #e {
            #[inline]
            fn index(self) -> usize {
                self as usize
            }
        }
    }
}

/// The path of the shared enum of `op`'s versions, as named from its area's module (`None`
/// when the operation has a single representation).
pub fn type_path(op: &OpIr) -> Option<TokenStream> {
    if op.versions.len() < 2 {
        return None;
    }
    let shared = ident(&shared_name(&op.versions));
    Some(quote!(super::versions::#shared))
}
