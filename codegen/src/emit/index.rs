//! Finding one's way on the crate page: every API and area with a line on what it holds, the
//! operation index (the `operations` doc module: method, path, area and client method of every
//! operation, by path) and the guide the spec names (`crate.guide`, the README's feature guide).
//!
//! Links to items that a cargo feature may leave out (an area's module, an experimental method)
//! are written as `#[cfg_attr(feature, doc = link)]` with plain text otherwise, so the docs of
//! any feature set have no broken link. Paths are relative to the crate root (the module's
//! outer docs resolve there), never `crate::`, as everywhere in generated code.

use super::text::{code, escape_chars, prose};
use crate::ir::{ApiIr, AreaIr, Ir, OpIr};
use proc_macro2::TokenStream;
use quote::quote;

/// The crate page's lines after its introduction: the areas of every API, the link to the
/// operation index, then the guide.
pub fn crate_page(ir: &Ir) -> Vec<String> {
    let mut lines = vec![
        String::new(),
        "# APIs and their areas".into(),
        String::new(),
        "Every area is a module (and, with area features, a cargo feature of the same name);"
            .into(),
        "`client.<api>().<area>()` reaches its operations. Every operation by path, method and"
            .into(),
        "area: [the operation index](operations). rustdoc search also finds a method by its".into(),
        "path (`/venues/{venueId}`), method and path, or the vendor's operationId.".into(),
    ];
    for api in &ir.apis {
        lines.push(String::new());
        lines.push(format!("## [`{}`]: {}", api.name, one_line(&api.title)));
        lines.push(String::new());
        for area in &api.areas {
            let ops = area.operations.iter().filter(|o| o.is_generated()).count();
            let what = area
                .description
                .as_deref()
                .map_or_else(|| one_line(&area.title), first_sentence);
            let count = match ops {
                0 => "shared types".to_owned(),
                1 => "1 operation".to_owned(),
                n => format!("{n} operations"),
            };
            lines.push(format!(
                "- [`{api}::{area}`] ({count}): {what}",
                api = api.name,
                area = area.name
            ));
        }
    }
    if let Some(guide) = &ir.krate.guide {
        lines.push(String::new());
        lines.push("# What the client does for you".into());
        lines.push(String::new());
        lines.extend(guide.lines().map(str::to_owned));
    }
    lines
}

/// The first sentence of spec prose (up to a full stop before a capital letter), on one line.
fn first_sentence(s: &str) -> String {
    let text = one_line(s);
    let end = text
        .match_indices(". ")
        .find(|(i, _)| text[i + 2..].starts_with(|c: char| c.is_uppercase()))
        .map_or(text.len(), |(i, _)| i + 1);
    text[..end].to_owned()
}

/// Spec prose on one line.
fn one_line(s: &str) -> String {
    prose(s).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `operations` module: no items, only its page, one table per API sorted by path.
pub fn operations_module(ir: &Ir) -> TokenStream {
    let mut attrs = vec![doc_line(
        "Every operation of the client: its HTTP method and path, its area and its method.",
    )];
    attrs.push(doc_line(""));
    attrs.push(doc_line(
        "Sorted by path within each API; the path is relative to the API's prefix. Methods are \
         reached as `client.<api>().<area>().<method>(..)`. Operations the spec marks \
         experimental need the `experimental` feature; removed ones are listed without a method.",
    ));
    for api in &ir.apis {
        attrs.push(doc_line(""));
        let prefix = match api.prefix.value.as_str() {
            "" => String::new(),
            p => format!(", prefix {}", code(p)),
        };
        attrs.push(doc_line(&format!(
            "# `{}`: {}{prefix}",
            api.name,
            one_line(&api.title)
        )));
        attrs.push(doc_line(""));
        attrs.push(doc_line("| Method | Path | Area | Client method |"));
        attrs.push(doc_line("|---|---|---|---|"));
        let mut rows: Vec<(&AreaIr, &OpIr)> = api
            .areas
            .iter()
            .flat_map(|a| a.operations.iter().map(move |o| (a, o)))
            .collect();
        rows.sort_by(|(_, a), (_, b)| {
            (&a.path, a.method.as_str()).cmp(&(&b.path, b.method.as_str()))
        });
        for (area, op) in rows {
            attrs.push(row(ir, api, area, op));
        }
    }
    // A fixture crate compiled as a module named `operations` holds one of the same name.
    quote! {
        #(#attrs)*
        #[allow(clippy::module_inception)]
        pub mod operations {}
    }
}

fn doc_line(text: &str) -> TokenStream {
    let text = match escape_chars(text, true) {
        t if t.is_empty() => t,
        t => format!(" {t}"),
    };
    quote!(#[doc = #text])
}

/// One row: linked where the area and the method exist, with plain text under a `cfg_attr`
/// where a feature may leave them out.
fn row(ir: &Ir, api: &ApiIr, area: &AreaIr, op: &OpIr) -> TokenStream {
    let start = format!(
        "| `{}` | {} |",
        op.method.as_str(),
        code(&op.path).replace('|', "\\|")
    );
    let area_plain = format!("`{}::{}`", api.name, area.name);
    let area_link = format!("[{area_plain}]");
    let Some(handler) = area.handler.as_ref().filter(|_| op.is_generated()) else {
        return doc_line(&format!("{start} {area_link} | `{}` (removed) |", op.id));
    };
    let method_link = format!(
        "[`{}`]({}::{}::{handler}::{})",
        op.id, api.name, area.name, op.id
    );
    let linked = format!("{start} {area_link} | {method_link} |");
    let mut needs: Vec<&str> = Vec::new();
    if ir.krate.area_features {
        needs.push(&area.feature);
    }
    if super::gates::is_experimental(op) {
        needs.push("experimental");
    }
    if needs.is_empty() {
        return doc_line(&linked);
    }
    let plain = format!(
        "{start} {area_plain} | `{}` (feature {}) |",
        op.id,
        needs
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(" and ")
    );
    let (linked, plain) = (
        format!(" {}", escape_chars(&linked, true)),
        format!(" {}", escape_chars(&plain, true)),
    );
    let on = match needs.as_slice() {
        [one] => quote!(feature = #one),
        many => quote!(all(#(feature = #many),*)),
    };
    quote! {
        #[cfg_attr(#on, doc = #linked)]
        #[cfg_attr(not(#on), doc = #plain)]
    }
}
