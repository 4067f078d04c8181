//! Operations: matched by id (a removed id and an added one on the same route are a rename),
//! then compared route, lifecycle and provenance first; their parameters, bodies, responses,
//! versions and pagination in [`super::parts`].

use super::change::Class;
use super::ctx::Ctx;
use super::parts;
use ruckus_codegen::ir::{ApiIr, AreaIr, Lifecycle, OpIr};

/// An operation with the area that holds it.
#[derive(Clone, Copy)]
pub struct Located<'i> {
    pub area: &'i AreaIr,
    pub op: &'i OpIr,
}

impl Located<'_> {
    fn route(&self) -> String {
        format!("{} {}", self.op.method.as_str(), self.op.path)
    }
}

fn all(api: &ApiIr) -> Vec<Located<'_>> {
    api.areas
        .iter()
        .flat_map(|area| area.operations.iter().map(move |op| Located { area, op }))
        .collect()
}

pub fn compare(cx: &mut Ctx, old: &ApiIr, new: &ApiIr) {
    let (old, new) = (all(old), all(new));
    let has = |list: &[Located<'_>], id: &str| list.iter().any(|l| l.op.id == id);
    let mut removed: Vec<Located<'_>> = old
        .iter()
        .copied()
        .filter(|o| !has(&new, &o.op.id))
        .collect();
    let mut added: Vec<Located<'_>> = new
        .iter()
        .copied()
        .filter(|n| !has(&old, &n.op.id))
        .collect();
    for n in &new {
        if let Some(o) = old.iter().find(|o| o.op.id == n.op.id) {
            operation(cx, *o, *n);
        }
    }
    for (o, n) in renames(&mut removed, &mut added) {
        let subject = subject(n.op);
        let detail = format!("renamed from `{}` (same route {})", o.op.id, n.route());
        cx.push(
            &n.area.name,
            &subject,
            "operation_renamed",
            Class::Breaking,
            detail,
        );
        operation(cx, o, n);
    }
    for o in removed {
        let (kind, class, detail) = if o.op.is_generated() {
            (
                "operation_removed",
                Class::Breaking,
                format!("{} removed", o.route()),
            )
        } else {
            let d = format!(
                "{} no longer listed (it was documented as removed)",
                o.route()
            );
            ("operation_unlisted", Class::Compatible, d)
        };
        cx.push(&o.area.name, &subject(o.op), kind, class, detail);
    }
    for n in added {
        let detail = match &n.op.lifecycle {
            Lifecycle::Removed { .. } => format!("{} listed as removed (not generated)", n.route()),
            Lifecycle::Experimental { .. } => format!("{} added (experimental)", n.route()),
            Lifecycle::Deprecated { .. } => format!("{} added (deprecated)", n.route()),
            Lifecycle::Stable => format!("{} added", n.route()),
        };
        cx.push(
            &n.area.name,
            &subject(n.op),
            "operation_added",
            Class::Compatible,
            detail,
        );
    }
}

pub fn subject(op: &OpIr) -> String {
    format!("operation `{}`", op.id)
}

/// Pairs a removed and an added operation on the same route (method and path; when several
/// share the route, also the same versions). Paired ones leave both lists.
fn renames<'i>(
    removed: &mut Vec<Located<'i>>,
    added: &mut Vec<Located<'i>>,
) -> Vec<(Located<'i>, Located<'i>)> {
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < removed.len() {
        let o = removed[i];
        let same_route: Vec<usize> = (0..added.len())
            .filter(|&j| added[j].route() == o.route())
            .collect();
        let pick = match same_route[..] {
            [j] => Some(j),
            _ => {
                let same = |j: &&usize| parts::labels(added[**j].op) == parts::labels(o.op);
                let same: Vec<usize> = same_route.iter().filter(same).copied().collect();
                (same.len() == 1).then(|| same[0])
            }
        };
        match pick {
            Some(j) => pairs.push((removed.remove(i), added.remove(j))),
            None => i += 1,
        }
    }
    pairs
}

/// One operation before and after (same id, or a rename).
fn operation(cx: &mut Ctx, o: Located<'_>, n: Located<'_>) {
    let subject = subject(n.op);
    let area = n.area.name.as_str();
    match (o.op.is_generated(), n.op.is_generated()) {
        (false, false) => return,
        (true, false) => {
            let detail = format!("{} removed (lifecycle `removed`)", o.route());
            cx.push(area, &subject, "operation_removed", Class::Breaking, detail);
            return;
        }
        (false, true) => {
            let detail = format!("{} generated again (no longer `removed`)", n.route());
            cx.push(
                area,
                &subject,
                "operation_restored",
                Class::Compatible,
                detail,
            );
            return;
        }
        (true, true) => {}
    }
    if o.area.name != n.area.name {
        // Callers reach it through another area's client, module and cargo feature.
        let detail = format!(
            "moved from area `{}` to `{}` (called through `{}()`)",
            o.area.name, n.area.name, n.area.name
        );
        cx.push(area, &subject, "operation_moved", Class::Breaking, detail);
    }
    // The same call now sends another request.
    if o.op.method != n.op.method {
        let detail = format!(
            "method {} → {} (path {})",
            o.op.method.as_str(),
            n.op.method.as_str(),
            n.op.path
        );
        cx.push(area, &subject, "method_changed", Class::Breaking, detail);
    }
    if o.op.path != n.op.path {
        let detail = format!("path `{}` → `{}`", o.op.path, n.op.path);
        cx.push(area, &subject, "path_changed", Class::Breaking, detail);
    }
    lifecycle(cx, area, &subject, &o.op.lifecycle, &n.op.lifecycle);
    cx.provenance(
        area,
        &subject,
        "the route",
        &o.op.provenance,
        &n.op.provenance,
    );
    parts::compare(cx, area, &subject, o.op, n.op);
}

/// Lifecycle changes between generated states (stable, deprecated, experimental).
fn lifecycle(cx: &mut Ctx, area: &str, subject: &str, o: &Lifecycle, n: &Lifecycle) {
    use Lifecycle::{Deprecated, Experimental, Stable};
    let removal = |r: &Option<String>| r.clone().unwrap_or_else(|| "none".into());
    let (kind, class, detail) = match (o, n) {
        (Deprecated { removal: a, .. }, Deprecated { removal: b, .. }) if a != b => (
            "removal_date_changed",
            Class::Deprecation,
            format!("removal date {} → {}", removal(a), removal(b)),
        ),
        (Stable | Experimental { .. }, Deprecated { note, removal: r }) => (
            "operation_deprecated",
            Class::Deprecation,
            match r {
                Some(date) => format!("deprecated, removal {date}: {}", note.trim()),
                None => format!("deprecated: {}", note.trim()),
            },
        ),
        (Deprecated { .. }, Stable) => (
            "operation_undeprecated",
            Class::Compatible,
            "no longer deprecated".to_owned(),
        ),
        (Stable | Deprecated { .. }, Experimental { .. }) => (
            "operation_experimental",
            Class::Breaking,
            "now experimental: only built with the `experimental` cargo feature".to_owned(),
        ),
        (Experimental { .. }, Stable) => (
            "operation_stabilised",
            Class::Compatible,
            "no longer experimental".to_owned(),
        ),
        _ => return,
    };
    cx.push(area, subject, kind, class, detail);
}
