//! The run-time description of every operation (the runtime's `described`, built from the
//! catalog, what the command line and the MCP server send) equals the generated client's static
//! of the same operation: method, path, media versions, error family, service and its limit,
//! API, and whether it only reads. The statics are read from the generated source with syn (they
//! are private to their modules); each API's description is compared with the client's own
//! `API` static.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use ruckus_one_catalog::Catalog;
use ruckus_one_runtime::internal::{Operation, described};
use syn::{Expr, Item, Lit};

/// One operation as the comparison sees it.
#[derive(Debug, PartialEq)]
struct Desc {
    method: String,
    path: String,
    versions: Vec<(Option<String>, String)>,
    family: String,
    service: String,
    reads: bool,
}

fn of_runtime(op: &Operation) -> (String, Desc) {
    let versions = op
        .versions
        .iter()
        .map(|v| (v.content_type.map(str::to_owned), v.accept.to_owned()))
        .collect();
    let desc = Desc {
        method: format!("{:?}", op.method),
        path: op.path.to_owned(),
        versions,
        family: format!("{:?}", op.error_family),
        service: format!("{} {:?}", op.service.name, op.service.rate_limit),
        reads: op.reads,
    };
    (format!("{} {}", op.api.name, op.id), desc)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("generated source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `static NAME: ... = <struct literal>` of a file, by name.
fn statics(file: &Path) -> Vec<(String, syn::ExprStruct)> {
    let text = std::fs::read_to_string(file).expect("generated file");
    let parsed = syn::parse_file(&text).expect("generated file parses");
    let mut out = Vec::new();
    for item in parsed.items {
        if let Item::Static(s) = item
            && let Expr::Struct(literal) = *s.expr
        {
            out.push((s.ident.to_string(), literal));
        }
    }
    out
}

fn field<'a>(s: &'a syn::ExprStruct, name: &str) -> &'a Expr {
    let found = s.fields.iter().find(|f| match &f.member {
        syn::Member::Named(i) => i == name,
        syn::Member::Unnamed(_) => false,
    });
    &found
        .unwrap_or_else(|| panic!("a generated static has no field `{name}`"))
        .expr
}

fn text(e: &Expr) -> String {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => s.value(),
            Lit::Int(i) => i.base10_digits().to_owned(),
            Lit::Bool(b) => b.value.to_string(),
            other => panic!("unexpected literal {}", other.to_token_stream()),
        },
        Expr::Path(p) => p.path.segments.last().expect("a path").ident.to_string(),
        Expr::Reference(r) => text(&r.expr),
        Expr::Call(c) => text(c.args.first().expect("Some(..) has an argument")),
        other => panic!("unexpected expression {}", quote_of(other)),
    }
}

fn quote_of(e: &Expr) -> String {
    e.to_token_stream().to_string()
}

fn optional(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) if p.path.is_ident("None") => None,
        other => Some(text(other)),
    }
}

/// A service static's name and limit, written as the runtime's `Debug` writes them.
fn service_text(s: &syn::ExprStruct) -> String {
    let limit = match field(s, "rate_limit") {
        Expr::Call(c) => match c.args.first() {
            Some(Expr::Struct(l)) => format!(
                "Some(RateLimit {{ max: {}, per_second: {}, scope: {} }})",
                text(field(l, "max")),
                text(field(l, "per_second")),
                text(field(l, "scope"))
            ),
            _ => panic!("a rate limit is a struct literal"),
        },
        _ => "None".to_owned(),
    };
    format!("{} {limit}", text(field(s, "name")))
}

fn of_static(
    api: &str,
    s: &syn::ExprStruct,
    services: &BTreeMap<String, String>,
) -> (String, Desc) {
    let versions = match field(s, "versions") {
        Expr::Reference(r) => match &*r.expr {
            Expr::Array(a) => a
                .elems
                .iter()
                .map(|v| match v {
                    Expr::Struct(m) => {
                        (optional(field(m, "content_type")), text(field(m, "accept")))
                    }
                    other => panic!("a version is a struct literal: {}", quote_of(other)),
                })
                .collect(),
            other => panic!("versions are an array: {}", quote_of(other)),
        },
        other => panic!("versions are a reference: {}", quote_of(other)),
    };
    let service = text(field(s, "service"));
    let desc = Desc {
        method: text(field(s, "method")),
        path: text(field(s, "path")),
        versions,
        family: text(field(s, "error_family")),
        service: services
            .get(&service)
            .unwrap_or_else(|| panic!("no static {service}"))
            .clone(),
        reads: text(field(s, "reads")) == "true",
    };
    (format!("{api} {}", text(field(s, "id"))), desc)
}

#[test]
fn every_run_time_description_equals_the_generated_static() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/ruckus-one/src");
    let catalog = Catalog::get().expect("the catalog parses");
    let mut generated = BTreeMap::new();
    for table in &catalog.apis {
        let api = table.api.name.as_str();
        let mut files = Vec::new();
        rust_files(&root.join(api), &mut files);
        files.sort();
        let all: Vec<(String, syn::ExprStruct)> = files.iter().flat_map(|f| statics(f)).collect();
        let services: BTreeMap<String, String> = all
            .iter()
            .filter(|(name, _)| name.starts_with("SERVICE_"))
            .map(|(name, s)| (name.clone(), service_text(s)))
            .collect();
        for (_, s) in all.iter().filter(|(_, s)| s.fields.iter().any(is_reads)) {
            let (key, desc) = of_static(api, s, &services);
            assert!(generated.insert(key.clone(), desc).is_none(), "{key} twice");
        }
    }
    let mut described_ops = BTreeMap::new();
    for (table, route) in catalog.routes() {
        let (key, desc) = of_runtime(described::operation(table, route));
        described_ops.insert(key, desc);
    }
    assert_eq!(generated.len(), 1403, "operations generated");
    let keys: Vec<&String> = generated.keys().collect();
    assert_eq!(keys, described_ops.keys().collect::<Vec<_>>());
    for (key, desc) in &generated {
        assert_eq!(Some(desc), described_ops.get(key), "{key}");
    }
    let reads = generated.values().filter(|d| d.reads).count();
    let posts = generated
        .values()
        .filter(|d| d.reads && d.method == "Post")
        .count();
    assert!(
        posts > 150,
        "{posts} queries sent as POST read ({reads} reads in all)"
    );
}

fn is_reads(f: &syn::FieldValue) -> bool {
    matches!(&f.member, syn::Member::Named(i) if i == "reads")
}

#[test]
fn each_api_description_equals_the_clients_api_static() {
    let catalog = Catalog::get().expect("the catalog parses");
    let (_, network) = catalog.api("network").expect("network");
    let (_, analytics) = catalog.api("analytics").expect("analytics");
    let (_, portal) = catalog.api("resident_portal").expect("resident portal");
    let shown = |api: &ruckus_one_runtime::internal::Api| format!("{api:?}");
    assert_eq!(
        shown(described::api(network)),
        shown(&ruckus_one::network::API)
    );
    assert_eq!(
        shown(described::api(analytics)),
        shown(&ruckus_one::analytics::API)
    );
    assert_eq!(
        shown(described::api(portal)),
        shown(&ruckus_one::resident_portal::API)
    );
}
