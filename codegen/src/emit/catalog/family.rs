//! Resource families and the role of each operation in them, inferred from paths: a family is
//! a collection path (`/venues`, `/venues/{}/aps`) with its item path (`/venues/{}/aps/{}`) and
//! query path (`.../query`). The simulator keeps state for a family that something creates (a
//! `POST` on the collection, or a `PUT` on an item that nothing else creates: an activation, a
//! membership); a collection with `GET` and `PUT`/`PATCH` and nothing creating in it is a
//! settings document. A query of a path that is a stateful family's with its placeholders left
//! out (`/venues/aps/query` for `/venues/{}/aps`) queries that family across all its parents
//! (the service's cross-venue views). The queries of an MSP's customers answer from the tenants
//! the calling tenant may act for, and the own-tenant read from the tenant acted as. Everything
//! else is answered from the schemas (canned).

pub(super) use crate::closed::Role;
use crate::ir::{ApiIr, BodyKind, Method, OpIr, TypeRef};
use std::collections::BTreeMap;

/// The queries whose rows are the calling tenant's customers: an MSP's end customers, a
/// technology partner's (reference: the MSP description's `/mspecs/query` and
/// `/techpartners/mspecs/query`, `QueryResponseMspEc` rows).
const CUSTOMER_QUERIES: [&str; 2] = ["/mspecs/query", "/techpartners/mspecs/query"];

/// The read of the calling tenant's own tenant (reference: the tenant description's
/// `GET /tenants/self`).
const OWN_TENANT: &str = "/tenants/self";

/// Where an operation's path stands in its family.
struct Shape {
    /// The collection path with every placeholder written `{}`.
    collection: String,
    item: bool,
    query: bool,
}

fn shape(op: &OpIr) -> Shape {
    let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
    let placeholder = |s: &str| s.starts_with('{') && s.ends_with('}');
    let (rest, item, query) = match segments.split_last() {
        Some((last, rest)) if op.method == Method::Post && *last == "query" => (rest, false, true),
        Some((last, rest)) if placeholder(last) => (rest, true, false),
        _ => (&segments[..], false, false),
    };
    let collection: Vec<&str> = rest
        .iter()
        .map(|s| if placeholder(s) { "{}" } else { s })
        .collect();
    Shape {
        collection: format!("/{}", collection.join("/")),
        item,
        query,
    }
}

/// What the operations of one collection path do.
#[derive(Default)]
struct Facts {
    create: bool,
    item_put: bool,
    collection_write: bool,
    /// Something reads or addresses the collection's members (a list, a query, an item path):
    /// a `POST` on a collection nobody reads is an action, not a create.
    members: bool,
}

/// Each generated operation's family (collection path) and role, by operation id.
pub(super) fn roles(api: &ApiIr) -> BTreeMap<String, (String, Role)> {
    let ops: Vec<&OpIr> = api
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .filter(|o| o.is_generated())
        .collect();
    let mut facts: BTreeMap<String, Facts> = BTreeMap::new();
    for op in &ops {
        let s = shape(op);
        let f = facts.entry(s.collection).or_default();
        f.members |= s.item || s.query || op.method == Method::Get;
        match (op.method, s.item, s.query) {
            (Method::Post, false, false) => f.create = true,
            (Method::Put, true, _) => f.item_put = true,
            (Method::Put | Method::Patch, false, false) => f.collection_write = true,
            _ => {}
        }
    }
    let activities = api.activity().map(|(_, op)| shape(op).collection);
    ops.iter()
        .map(|op| {
            let s = shape(op);
            let f = &facts[&s.collection];
            let role = if api.activity_operation.as_deref() == Some(op.id.as_str()) {
                Role::ActivityRead
            } else if s.query && activities.as_deref() == Some(s.collection.as_str()) {
                Role::ActivityQuery
            } else if op.method == Method::Post && CUSTOMER_QUERIES.contains(&op.path.as_str()) {
                Role::CustomerQuery
            } else if op.method == Method::Get && op.path == OWN_TENANT {
                Role::OwnTenant
            } else {
                role(op, &s, f)
            };
            if role == Role::Canned
                && s.query
                && let Some(family) = across(&facts, &s.collection)
            {
                return (op.id.clone(), (family, Role::QueryAcross));
            }
            (op.id.clone(), (s.collection, role))
        })
        .collect()
}

/// The one stateful family whose path, without its placeholders, is `collection`.
fn across(facts: &BTreeMap<String, Facts>, collection: &str) -> Option<String> {
    let mut found = facts.iter().filter(|(family, f)| {
        family.contains("{}") && family.replace("/{}", "") == collection && f.stateful()
    });
    match (found.next(), found.next()) {
        (Some((family, _)), None) => Some(family.clone()),
        _ => None,
    }
}

impl Facts {
    /// Something creates in the collection and reads it, or its items are put one by one.
    fn stateful(&self) -> bool {
        (self.create && self.members) || self.item_put
    }
}

fn role(op: &OpIr, s: &Shape, f: &Facts) -> Role {
    let stateful = f.stateful();
    if s.query {
        return if stateful { Role::Query } else { Role::Canned };
    }
    if s.item {
        return match op.method {
            Method::Get if stateful => Role::Read,
            Method::Put if f.create && f.members => Role::Replace,
            Method::Put => Role::Upsert,
            Method::Patch if stateful => Role::Merge,
            Method::Delete if stateful => Role::Delete,
            _ => Role::Canned,
        };
    }
    match op.method {
        Method::Post if stateful => Role::Create,
        Method::Get if stateful => Role::List,
        Method::Get if f.collection_write => Role::SettingsRead,
        Method::Put | Method::Patch if !stateful => Role::SettingsWrite,
        Method::Delete if stateful && ids_body(op) => Role::BulkDelete,
        _ => Role::Canned,
    }
}

/// A JSON body that is a list of strings (the ids a bulk delete names).
fn ids_body(op: &OpIr) -> bool {
    op.request.as_ref().is_some_and(|b| {
        b.kind == BodyKind::Json
            && matches!(&b.ty, Some(TypeRef::Array(inner)) if **inner == TypeRef::String)
    })
}
