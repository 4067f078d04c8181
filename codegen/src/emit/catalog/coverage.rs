//! `docs/simulator-coverage.md`: per operation, whether the simulator answers from its state
//! (and in which role) or from the schemas (canned), and what it checks.

use super::super::text::{PREAMBLE, code_cell};
use super::family::Role;
use crate::ir::{ApiIr, AuthKind, BodyKind, Ir, OpIr};
use std::collections::BTreeMap;
use std::fmt::Write;

pub(super) fn page(ir: &Ir, roles: &[BTreeMap<String, (String, Role)>]) -> String {
    let mut s = format!("<!-- {PREAMBLE} -->\n# Simulator coverage\n\n");
    s.push_str(
        "What `ruckus-one-sim` does with each operation. **stateful**: answered from the \
         simulator's per-tenant state in the role shown (create, read, replace, merge, delete, \
         list, query, upsert, settings, activity; query_across: a query over every parent's \
         collection, the service's cross-venue views; customer_query: the calling tenant's \
         customers, configured or created; own_tenant: the tenant acted as), on the resource \
         family (collection path) shown; **canned**: answered with a body built from the operation's response schema. Every \
         operation checks the bearer token, the delegated tenant (`x-rks-tenantid`), the per-tenant \
         rate limit of its service, the `Accept` and `Content-Type` media types (406, 415) and its \
         query parameters; the checks column lists the rest. Every answer, errors included, \
         validates against the OpenAPI export (`generated/openapi/`).\n\n",
    );
    s.push_str("| API | operations | stateful | canned | asynchronous (202 + activity) |\n|---|---|---|---|---|\n");
    for (api, r) in ir.apis.iter().zip(roles) {
        let total = r.len();
        let stateful = r.values().filter(|(_, role)| role.is_stateful()).count();
        let asynchronous = ops(api).filter(|o| o.asynchronous).count();
        let _ = writeln!(
            s,
            "| {} | {total} | {stateful} | {} | {asynchronous} |",
            api.name,
            total - stateful
        );
    }
    for (api, r) in ir.apis.iter().zip(roles) {
        api_table(&mut s, api, r);
    }
    s
}

fn ops(api: &ApiIr) -> impl Iterator<Item = &OpIr> {
    api.areas
        .iter()
        .flat_map(|a| &a.operations)
        .filter(|o| o.is_generated())
}

fn api_table(s: &mut String, api: &ApiIr, roles: &BTreeMap<String, (String, Role)>) {
    let auth = match api.auth.value {
        AuthKind::ClientCredentials => "client-credentials token",
        AuthKind::UnitToken => "unit token (any bearer token)",
    };
    let _ = writeln!(
        s,
        "\n## `{}` (prefix {}, {auth})\n\n| operation | route | behaviour | checks |\n|---|---|---|---|",
        api.name,
        code_cell(if api.prefix.value.is_empty() {
            "none"
        } else {
            &api.prefix.value
        })
    );
    for op in ops(api) {
        let behaviour = match roles.get(&op.id) {
            Some((family, role)) if role.is_stateful() => {
                format!("stateful: {} on {}", role.as_str(), code_cell(family))
            }
            _ => "canned".to_owned(),
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {behaviour} | {} |",
            op.id,
            code_cell(&format!("{} {}", op.method.as_str(), op.path)),
            checks(op).join("; ")
        );
    }
}

fn checks(op: &OpIr) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(b) = &op.request {
        let what = match (b.kind, &b.ty) {
            (BodyKind::Json | BodyKind::Form, Some(t)) => {
                format!("body {} checked against `{}`", b.kind.as_str(), t.display())
            }
            (kind, _) => format!("{} body", kind.as_str()),
        };
        out.push(if b.required {
            format!("{what} (required)")
        } else {
            what
        });
    }
    let required: Vec<&str> = op
        .query
        .iter()
        .filter(|p| p.required)
        .map(|p| p.wire.as_str())
        .collect();
    if !required.is_empty() {
        out.push(format!("required query {}", required.join(", ")));
    }
    if op.versions.len() > 1 {
        out.push(format!("{} media-type versions", op.versions.len()));
    }
    if let Some(p) = &op.pagination {
        out.push(format!("paged ({}, `{}`)", p.style.as_str(), p.items));
    }
    if op.asynchronous {
        out.push("202 with requestId; activity".to_owned());
    }
    if out.is_empty() {
        out.push("-".to_owned());
    }
    out
}
