//! Finding one's way on the crate page: every API and area with a line on what it holds, the
//! operation index (the `operations` doc module: method, path, area and client method of every
//! operation, by path) and the guide the spec names (`crate.guide`, the client guide's feature list).
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

/// The `operations` module: its page lists one page per API and first path segment
/// (`operations::network::venues` for every path under `/venues`), each a table sorted by path,
/// so that no page holds the whole API.
pub fn operations_module(ir: &Ir) -> TokenStream {
    let mut attrs = vec![doc_line(
        "Every operation of the client, one page per API and first path segment: its HTTP \
         method and path, its area and its method.",
    )];
    attrs.push(doc_line(""));
    attrs.push(doc_line(
        "Sorted by path within each page; the path is relative to the API's prefix. Methods are \
         reached as `client.<api>().<area>().<method>(..)`. Operations the spec marks \
         experimental need the `experimental` feature; removed ones are listed without a method.",
    ));
    let mut apis = Vec::new();
    for api in &ir.apis {
        let groups = by_segment(api);
        attrs.push(doc_line(""));
        attrs.push(doc_line(&format!(
            "- [`{}`](operations::{}): {}",
            api.name,
            api.name,
            one_line(&api.title)
        )));
        let name = quote::format_ident!("{}", api.name);
        let pages = groups
            .iter()
            .map(|(segment, rows)| segment_page(ir, api, segment, rows));
        let list = groups.iter().map(|(segment, rows)| {
            doc_line(&format!(
                "- [`/{segment}`]({api}::{module}): {} operation{}",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" },
                api = api.name,
                module = module_name(segment),
            ))
        });
        let prefix = match api.prefix.value.as_str() {
            "" => String::new(),
            p => format!(" (prefix {})", code(p)),
        };
        let head = doc_line(&format!(
            "The operations of `{}`{prefix}, by first path segment.",
            api.name
        ));
        apis.push(quote! {
            #head
            #[doc = ""]
            #(#list)*
            pub mod #name {
                #(#pages)*
            }
        });
    }
    // A fixture crate compiled as a module named `operations` holds one of the same name.
    quote! {
        #(#attrs)*
        #[allow(clippy::module_inception)]
        pub mod operations {
            #(#apis)*
        }
    }
}

/// An API's operations by the first segment of their path, each group sorted by path.
fn by_segment(api: &ApiIr) -> Vec<(String, Vec<(&AreaIr, &OpIr)>)> {
    let mut groups: std::collections::BTreeMap<String, Vec<(&AreaIr, &OpIr)>> =
        std::collections::BTreeMap::new();
    for area in &api.areas {
        for op in &area.operations {
            let first = op
                .path
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or("");
            groups.entry(first.to_owned()).or_default().push((area, op));
        }
    }
    for rows in groups.values_mut() {
        rows.sort_by(|(_, a), (_, b)| {
            (&a.path, a.method.as_str()).cmp(&(&b.path, b.method.as_str()))
        });
    }
    groups.into_iter().collect()
}

/// The module of a path segment's page: its words in snake case (`wifiNetworks` ->
/// `wifi_networks`), `root` for `/`, `by_<name>` for a placeholder, `_` added to a keyword.
fn module_name(segment: &str) -> String {
    let base = match segment {
        "" => "root".to_owned(),
        s if s.starts_with('{') => format!("by_{}", s.trim_matches(|c| c == '{' || c == '}')),
        s => s.to_owned(),
    };
    let snake = crate::names::snake(&base).unwrap_or_else(|| "other".to_owned());
    if crate::names::is_keyword(&snake) {
        format!("{snake}_")
    } else {
        snake
    }
}

/// One segment's page: a doc module holding the table.
fn segment_page(ir: &Ir, api: &ApiIr, segment: &str, rows: &[(&AreaIr, &OpIr)]) -> TokenStream {
    let mut attrs = vec![doc_line(&format!(
        "The `{}` operations under `/{segment}`, by path.",
        api.name
    ))];
    attrs.push(doc_line(""));
    attrs.push(doc_line("| Method | Path | Area | Client method |"));
    attrs.push(doc_line("|---|---|---|---|"));
    let rows: Vec<Row> = rows
        .iter()
        .map(|(area, op)| row(ir, api, area, op))
        .collect();
    attrs.extend(rows_attrs(&rows));
    let name = quote::format_ident!("{}", module_name(segment));
    quote! {
        #(#attrs)*
        pub mod #name {}
    }
}

fn doc_line(text: &str) -> TokenStream {
    let text = match escape_chars(text, true) {
        t if t.is_empty() => t,
        t => format!(" {t}"),
    };
    quote!(#[doc = #text])
}

/// One row of a table: its text with links, the features those links need (none: always
/// linked) and its text without them.
struct Row {
    needs: Vec<String>,
    linked: String,
    plain: String,
}

/// One row: linked where the area and the method exist, plain text where a feature may leave
/// them out.
fn row(ir: &Ir, api: &ApiIr, area: &AreaIr, op: &OpIr) -> Row {
    let start = format!(
        "| `{}` | {} |",
        op.method.as_str(),
        code(&op.path).replace('|', "\\|")
    );
    // The table is on a page two modules below the crate root (`operations::<api>`).
    let area_plain = format!("`{}::{}`", api.name, area.name);
    let area_link = format!("[{area_plain}](super::super::{}::{})", api.name, area.name);
    let mut needs: Vec<String> = Vec::new();
    if ir.krate.area_features {
        needs.push(area.feature.clone());
    }
    let Some(handler) = area.handler.as_ref().filter(|_| op.is_generated()) else {
        return Row {
            linked: format!("{start} {area_link} | `{}` (removed) |", op.id),
            plain: format!("{start} {area_plain} | `{}` (removed) |", op.id),
            needs,
        };
    };
    let method_link = format!(
        "[`{}`](super::super::{}::{}::{handler}::{})",
        op.id, api.name, area.name, op.id
    );
    if super::gates::is_experimental(op) {
        needs.push("experimental".to_owned());
    }
    let features = needs
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    Row {
        linked: format!("{start} {area_link} | {method_link} |"),
        plain: format!("{start} {area_plain} | `{}` (feature {features}) |", op.id),
        needs,
    }
}

/// The doc attributes of a table's rows: one attribute (or a linked and a plain one under
/// `cfg_attr`) per run of consecutive rows that need the same features.
fn rows_attrs(rows: &[Row]) -> Vec<TokenStream> {
    rows.chunk_by(|a, b| a.needs == b.needs)
        .map(|run| {
            let join = |f: fn(&Row) -> &String| {
                run.iter()
                    .map(|r| escape_chars(f(r), true))
                    .collect::<Vec<_>>()
                    .join("\n ")
            };
            let linked = format!(" {}", join(|r| &r.linked));
            let needs = &run[0].needs;
            if needs.is_empty() {
                return quote!(#[doc = #linked]);
            }
            let plain = format!(" {}", join(|r| &r.plain));
            let on = match needs.as_slice() {
                [one] => quote!(feature = #one),
                many => quote!(all(#(feature = #many),*)),
            };
            quote! {
                #[cfg_attr(#on, doc = #linked)]
                #[cfg_attr(not(#on), doc = #plain)]
            }
        })
        .collect()
}
