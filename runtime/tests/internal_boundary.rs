//! The boundary between the application's API and the contract with generated code: what the
//! hidden `internal` module exports is never also exported at the crate root (nor re-exported
//! at the generated client's root), so neither crate's documentation shows it.
//!
//! The names are read from the sources' top-level `pub` items and `pub use` trees, so adding
//! `pub use operation::Operation;` (or any other `internal` name) at the root fails here.

use std::collections::BTreeSet;

const RUNTIME_ROOT: &str = include_str!("../src/lib.rs");
const INTERNAL: &str = include_str!("../src/internal/mod.rs");
/// The generated client's root, beside the runtime in the workspace. Read when the test runs,
/// not included: the runtime's published package has no file outside its own directory, and
/// there the check is skipped.
fn client_root() -> Option<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../generated/ruckus-one/src/lib.rs"
    );
    std::fs::read_to_string(path).ok()
}

/// What a module's top level makes public.
#[derive(Debug, Default)]
struct Exports {
    /// Names of `pub` items and `pub use` leaves (a renamed leaf under both names), with their
    /// attributes.
    names: Vec<(String, String)>,
    /// `pub use` trees ending in `*`.
    globs: Vec<String>,
}

impl Exports {
    fn names(&self) -> BTreeSet<&str> {
        self.names.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn attributes_of(&self, name: &str) -> Option<&str> {
        self.names
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.as_str())
    }
}

/// `text` without `//` comments (the sources checked put no `//` inside strings).
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level items of a module's source: each with its leading attributes split off.
fn items(text: &str) -> Vec<(String, String)> {
    let text = strip_comments(text);
    let (mut items, mut current, mut depth) = (Vec::new(), String::new(), 0usize);
    for ch in text.chars() {
        current.push(ch);
        match ch {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
        let ends_statement = ch == ';' && depth == 0;
        let ends_block = ch == '}' && depth == 0 && !is_use(&body_of(&current));
        if ends_statement || ends_block {
            items.push(split_attributes(&current));
            current.clear();
        }
    }
    items
}

/// Whether an item is a `use` declaration (whose braces do not end it).
fn is_use(body: &str) -> bool {
    body.starts_with("use ") || body.starts_with("pub use ")
}

/// An item's text after its attributes.
fn body_of(item: &str) -> String {
    split_attributes(item).1
}

/// (attributes, rest) of an item's text: `#[..]` and `#![..]` at its start.
fn split_attributes(item: &str) -> (String, String) {
    let mut rest = item.trim_start();
    let mut attributes = String::new();
    while rest.starts_with('#') {
        let end = rest.find(']').map_or(rest.len(), |i| i + 1);
        attributes.push_str(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    (attributes, rest.to_owned())
}

/// The names a `use` tree (after `pub use `) brings in; globs are reported in `globs`.
fn use_leaves(tree: &str, prefix: &str, names: &mut Vec<String>, globs: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let path = tree[..open].trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').expect("a closed use group")];
        for part in split_top_level(inner) {
            use_leaves(&part, &format!("{prefix}{path}::"), names, globs);
        }
    } else if tree.ends_with('*') {
        globs.push(format!("{prefix}{tree}"));
    } else if let Some((path, alias)) = tree.split_once(" as ") {
        names.push(path.trim().rsplit("::").next().unwrap_or(path).to_owned());
        names.push(alias.trim().to_owned());
    } else if tree == "self" {
        let path = prefix.trim_end_matches("::");
        names.push(path.rsplit("::").next().unwrap_or(path).to_owned());
    } else if !tree.is_empty() {
        names.push(tree.rsplit("::").next().unwrap_or(tree).to_owned());
    }
}

/// The comma-separated parts of a use group, not splitting nested groups.
fn split_top_level(inner: &str) -> Vec<String> {
    let (mut parts, mut current, mut depth) = (Vec::new(), String::new(), 0usize);
    for ch in inner.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(ch);
    }
    parts.push(current);
    parts
}

/// What the top level of `source` exports.
fn exports(source: &str) -> Exports {
    let mut out = Exports::default();
    for (attributes, body) in items(source) {
        let words: Vec<&str> = body.split_whitespace().collect();
        if words.first() != Some(&"pub") {
            continue;
        }
        if words.get(1) == Some(&"use") {
            let tree = body["pub use".len()..].trim().trim_end_matches(';');
            let mut names = Vec::new();
            use_leaves(
                &tree.replace(char::is_whitespace, " "),
                "",
                &mut names,
                &mut out.globs,
            );
            out.names
                .extend(names.into_iter().map(|n| (n, attributes.clone())));
        } else {
            let name = words
                .iter()
                .skip(1)
                .find(|w| !is_keyword(w))
                .expect("an item name");
            let name = name
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next();
            out.names
                .push((name.unwrap_or_default().to_owned(), attributes));
        }
    }
    out
}

fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "async"
            | "const"
            | "enum"
            | "fn"
            | "mod"
            | "static"
            | "struct"
            | "trait"
            | "type"
            | "unsafe"
    )
}

#[test]
fn the_root_exports_nothing_of_internal() {
    let internal = exports(INTERNAL);
    let root = exports(RUNTIME_ROOT);
    let contract = internal.names();
    // The parser found the contract: these are what every generated operation names.
    for name in [
        "Operation",
        "Request",
        "MediaTypes",
        "ErrorFamily",
        "object",
        "union",
    ] {
        assert!(
            contract.contains(name),
            "`internal` exports {name}: {contract:?}"
        );
    }
    let leaked: Vec<_> = root.names().intersection(&contract).copied().collect();
    assert!(
        leaked.is_empty(),
        "the crate root re-exports internal items: {leaked:?}"
    );
    assert!(
        root.globs.is_empty(),
        "glob re-exports at the root: {:?}",
        root.globs
    );
}

#[test]
fn internal_is_hidden_and_the_root_keeps_the_application_api() {
    let root = exports(RUNTIME_ROOT);
    let attributes = root
        .attributes_of("internal")
        .expect("the root declares `internal`");
    assert!(
        attributes.contains("doc(hidden)"),
        "`internal` is not hidden: {attributes}"
    );
    let names = root.names();
    // What an application names (builder return types, pacing limits) stays at the root.
    for name in [
        "Client",
        "Pages",
        "Accepted",
        "Completed",
        "Response",
        "Method",
        "RateLimit",
    ] {
        assert!(names.contains(name), "the root lost {name}: {names:?}");
    }
    // The hidden module is the only one the root declares public.
    let modules: Vec<_> = items(RUNTIME_ROOT)
        .into_iter()
        .filter(|(_, body)| body.starts_with("pub mod "))
        .collect();
    assert_eq!(modules.len(), 1, "public modules at the root: {modules:?}");
}

#[test]
fn the_client_root_re_exports_nothing_of_internal() {
    let Some(root) = client_root() else {
        eprintln!("skipped: the generated client is not beside the runtime (a packaged runtime)");
        return;
    };
    let contract = exports(INTERNAL);
    let client = exports(&root);
    let names = client.names();
    for name in [
        "Client",
        "Config",
        "Error",
        "Accepted",
        "runtime",
        "analytics",
    ] {
        assert!(
            names.contains(name),
            "the client's root exports {name}: {names:?}"
        );
    }
    let leaked: Vec<_> = names.intersection(&contract.names()).copied().collect();
    assert!(
        leaked.is_empty(),
        "the client's root re-exports internal items: {leaked:?}"
    );
    assert!(
        !root.contains("ruckus_one_runtime::internal::{") && client.globs.is_empty(),
        "the client's root re-exports from `internal` or by glob"
    );
}

#[test]
fn the_parser_sees_root_re_exports_of_internal_items() {
    // The check above, on a root that re-exports internal items three ways: it must object.
    let leaky = "mod operation;\n#[doc(hidden)]\npub mod internal;\n\
                 pub use operation::{Method, Operation};\npub use request::Request as Req;\n\
                 pub use internal::object;\npub use paging::*;\n";
    let root = exports(leaky);
    let names = root.names();
    for name in [
        "Operation",
        "object",
        "Method",
        "Request",
        "Req",
        "internal",
    ] {
        assert!(names.contains(name), "{name} not seen in {names:?}");
    }
    assert_eq!(root.globs, ["paging::*"]);
    let internal = exports(INTERNAL);
    let contract = internal.names();
    assert!(names.intersection(&contract).any(|n| *n == "Operation"));
}
