//! The representation (version) enums. Operations of an API offering the same representations
//! share one enum in the API's `versions` module; each operation names it with a type alias
//! (`CreateVenueApVersion`) whose documentation lists that operation's media types. A thousand
//! operations need about twenty enums, so the crate compiles a few enums instead of one per
//! operation.

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
    for op in ops.filter(|op: &&OpIr| op.version_enum.is_some()) {
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
        /// operations that offer the same ones. Each operation's `...Version` alias (for
        /// example the one its builder's `version` method takes) lists its media types.
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
    }
}

/// The alias naming the shared enum for `op`, with the operation's media types in its
/// documentation.
pub fn alias(op: &OpIr) -> Option<TokenStream> {
    let alias = ident(op.version_enum.as_ref()?);
    let mut lines = vec![
        format!(
            "Representations offered by `{}`; the first is the default.",
            op.id
        ),
        String::new(),
    ];
    for (i, v) in op.versions.iter().enumerate() {
        let mut text = format!("- `{}` (`{}`): Accept `{}`", v.variant, v.label, v.accept);
        if let Some(ct) = &v.content_type {
            text.push_str(&format!(", Content-Type `{ct}`"));
        }
        if i == 0 {
            text.push_str(" (default)");
        }
        lines.push(text);
    }
    lines.push(String::new());
    lines.push("Choose one with the builder's `version` method.".into());
    let d = doc(&lines);
    let shared = ident(&shared_name(&op.versions));
    Some(quote! {
        #d
        pub type #alias = super::versions::#shared;
    })
}
