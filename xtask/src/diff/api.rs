//! Comparing two IRs: the token service, then per API its settings, error families and areas;
//! operations and types are compared in [`super::ops`] and [`super::types`].

use super::change::{Change, Class};
use super::ctx::Ctx;
use ruckus_codegen::ir::{ApiIr, Ir, Valued};
use std::collections::BTreeSet;

/// Every change from `old` to `new`, sorted by API, area, subject and kind.
pub fn compare(old: &Ir, new: &Ir) -> Vec<Change> {
    let mut out = Vec::new();
    let mut cx = Ctx::new("", None, None);
    let auth = [
        ("token URL", &old.auth.token_url, &new.auth.token_url),
        (
            "token URL without tenant",
            &old.auth.token_url_without_tenant,
            &new.auth.token_url_without_tenant,
        ),
        (
            "tenant header",
            &old.auth.tenant_header,
            &new.auth.tenant_header,
        ),
    ];
    for (what, o, n) in auth {
        setting(&mut cx, "token service", what, o, n, Class::Compatible);
    }
    out.append(&mut cx.changes);
    let names: BTreeSet<&str> = old
        .apis
        .iter()
        .chain(&new.apis)
        .map(|a| a.name.as_str())
        .collect();
    for name in names {
        let o = old.apis.iter().find(|a| a.name == name);
        let n = new.apis.iter().find(|a| a.name == name);
        let mut cx = Ctx::new(name, o, n);
        match (o, n) {
            (Some(o), None) => {
                let detail = format!("API removed ({})", size(o));
                cx.push("", "API", "api_removed", Class::Breaking, detail);
            }
            (None, Some(n)) => {
                let detail = format!("API added ({})", size(n));
                cx.push("", "API", "api_added", Class::Compatible, detail);
            }
            (Some(o), Some(n)) => compare_api(&mut cx, o, n),
            (None, None) => {}
        }
        out.append(&mut cx.changes);
    }
    out.sort();
    out
}

/// `N generated operations, M types`.
fn size(api: &ApiIr) -> String {
    let ops = api
        .areas
        .iter()
        .flat_map(|a| &a.operations)
        .filter(|o| o.is_generated())
        .count();
    let types: usize = api.areas.iter().map(|a| a.types.len()).sum();
    format!("{ops} generated operations, {types} types")
}

/// A setting's value (with `class` when it changed) and its provenance.
fn setting(cx: &mut Ctx, subject: &str, what: &str, o: &Valued, n: &Valued, class: Class) {
    if o.value != n.value {
        let detail = format!("{what}: `{}` → `{}`", o.value, n.value);
        cx.push("", subject, "setting_changed", class, detail);
    }
    cx.provenance("", subject, what, &o.provenance, &n.provenance);
}

fn compare_api(cx: &mut Ctx, o: &ApiIr, n: &ApiIr) {
    // A new prefix or vendor changes every request the client sends.
    setting(
        cx,
        "API",
        "path prefix",
        &o.prefix,
        &n.prefix,
        Class::Breaking,
    );
    let vendor = ("media vendor", &o.media_vendor, &n.media_vendor);
    setting(cx, "API", vendor.0, vendor.1, vendor.2, Class::Breaking);
    let hosts = |a: &ApiIr| {
        format!(
            "{}, {}, {}",
            a.hosts.north_america, a.hosts.europe, a.hosts.asia
        )
    };
    if hosts(o) != hosts(n) {
        let detail = format!("regional hosts: {} → {}", hosts(o), hosts(n));
        cx.push("", "API", "hosts_changed", Class::Compatible, detail);
    }
    cx.provenance(
        "",
        "API",
        "the hosts",
        &o.hosts.provenance,
        &n.hosts.provenance,
    );
    if o.auth.value != n.auth.value {
        let detail = format!(
            "authentication: `{}` → `{}` (callers configure another credential)",
            o.auth.value.as_str(),
            n.auth.value.as_str()
        );
        cx.push("", "API", "auth_changed", Class::Breaking, detail);
    }
    cx.provenance(
        "",
        "API",
        "authentication",
        &o.auth.provenance,
        &n.auth.provenance,
    );
    families(cx, o, n);
    activity(cx, o, n);
    areas(cx, o, n);
    super::ops::compare(cx, o, n);
    super::types::compare(cx, o, n);
}

fn families(cx: &mut Ctx, o: &ApiIr, n: &ApiIr) {
    for f in &o.families {
        let subject = format!("error family `{}`", f.name);
        match n.families.iter().find(|g| g.name == f.name) {
            None => cx.push(
                "",
                &subject,
                "error_family_removed",
                Class::Compatible,
                "removed",
            ),
            Some(g) => {
                if f.kind != g.kind || f.body != g.body {
                    let show = |k: &str, b: &Option<String>| match b {
                        Some(b) => format!("`{k}` with body `{b}`"),
                        None => format!("`{k}`"),
                    };
                    let detail = format!(
                        "decoded as {} → {}",
                        show(f.kind.as_str(), &f.body),
                        show(g.kind.as_str(), &g.body)
                    );
                    cx.push(
                        "",
                        &subject,
                        "error_family_changed",
                        Class::Compatible,
                        detail,
                    );
                }
                cx.provenance("", &subject, "the family", &f.provenance, &g.provenance);
            }
        }
    }
    for g in n
        .families
        .iter()
        .filter(|g| o.families.iter().all(|f| f.name != g.name))
    {
        let subject = format!("error family `{}`", g.name);
        let detail = format!("added (`{}`)", g.kind.as_str());
        cx.push(
            "",
            &subject,
            "error_family_added",
            Class::Compatible,
            detail,
        );
    }
}

/// `wait_for_activity` exists when the API names an activity operation.
fn activity(cx: &mut Ctx, o: &ApiIr, n: &ApiIr) {
    let (kind, class, detail) = match (&o.activity_operation, &n.activity_operation) {
        (None, Some(id)) => (
            "waiter_added",
            Class::Compatible,
            format!("`wait_for_activity` added (polls `{id}`)"),
        ),
        (Some(id), None) => (
            "waiter_removed",
            Class::Breaking,
            format!("`wait_for_activity` removed (polled `{id}`)"),
        ),
        (Some(a), Some(b)) if a != b => (
            "waiter_changed",
            Class::Compatible,
            format!("`wait_for_activity` polls `{b}` instead of `{a}`"),
        ),
        _ => return,
    };
    cx.push("", "API", kind, class, detail);
}

/// Areas are modules and (with area features) cargo features of the client.
fn areas(cx: &mut Ctx, o: &ApiIr, n: &ApiIr) {
    for a in o
        .areas
        .iter()
        .filter(|a| n.areas.iter().all(|b| b.name != a.name))
    {
        let detail = format!(
            "area removed (module `{}`, feature `{}`)",
            a.name, a.feature
        );
        cx.push(&a.name, "area", "area_removed", Class::Breaking, detail);
    }
    for b in n
        .areas
        .iter()
        .filter(|b| o.areas.iter().all(|a| a.name != b.name))
    {
        let detail = format!("area added (module `{}`, feature `{}`)", b.name, b.feature);
        cx.push(&b.name, "area", "area_added", Class::Compatible, detail);
    }
}
