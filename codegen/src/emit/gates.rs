//! Cargo feature gates, decided in one place for the client, its docs and its conformance test.
//!
//! Two features gate generated items: `experimental` (operations the spec marks experimental)
//! and, when the crate has area features, one feature per API area.

use crate::ir::{AreaIr, Lifecycle, OpIr, TypeIr};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether `op` is compiled only with the `experimental` feature.
pub fn is_experimental(op: &OpIr) -> bool {
    matches!(op.lifecycle, Lifecycle::Experimental { .. })
}

/// `#[cfg(feature = "experimental")]` for an experimental operation, nothing otherwise.
pub fn operation(op: &OpIr) -> TokenStream {
    if is_experimental(op) {
        experimental()
    } else {
        quote!()
    }
}

/// `#[cfg(feature = "experimental")]`, with the "available on crate feature" badge on docs.rs.
pub fn experimental() -> TokenStream {
    quote! {
        #[cfg(feature = "experimental")]
        #[cfg_attr(docsrs, doc(cfg(feature = "experimental")))]
    }
}

/// `#[cfg(feature = "<api>-<area>")]` when the crate has area features, nothing otherwise.
pub fn area(area: &AreaIr, area_features: bool) -> TokenStream {
    if area_features {
        let f = &area.feature;
        quote! {
            #[cfg(feature = #f)]
            #[cfg_attr(docsrs, doc(cfg(feature = #f)))]
        }
    } else {
        quote!()
    }
}

/// Whether every one of `ops` (some at least) is experimental: items made only of them are
/// gated like them.
pub fn all_experimental<'a>(mut ops: impl Iterator<Item = &'a OpIr>) -> bool {
    let mut any = false;
    let all = ops.all(|o| {
        any = true;
        is_experimental(o)
    });
    any && all
}

/// The extra gate of a shared type (one of a types-only area such as `common`):
/// `#[cfg(any(feature = "<area>", ...))]` over the areas that need it, so a build with a few
/// areas compiles only the shared types they use; nothing for other types.
pub fn shared_type(t: &TypeIr, area_features: bool) -> TokenStream {
    if !area_features || t.users.is_empty() {
        return quote!();
    }
    match t.users.as_slice() {
        [only] => quote!(#[cfg(feature = #only)]),
        users => quote!(#[cfg(any(#(feature = #users),*))]),
    }
}

/// `items` with `gate` (outer attributes) on every item.
pub fn on_each_item(gate: &TokenStream, items: TokenStream) -> TokenStream {
    if gate.is_empty() {
        return items;
    }
    let Ok(file) = syn::parse2::<syn::File>(items.clone()) else {
        // Emitted Rust that does not parse is reported when the file is formatted.
        return items;
    };
    let gated = file.items.into_iter().map(|item| quote!(#gate #item));
    quote!(#(#gated)*)
}
