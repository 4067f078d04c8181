//! The parts of one operation: parameters, request body, responses, media-type versions,
//! pagination and error family.

use super::change::Class;
use super::ctx::Ctx;
use super::types::{same, show};
use ruckus_codegen::ir::{BodyIr, OpIr, ParamIr, ResponseIr, ResponseKind};

pub fn compare(cx: &mut Ctx, area: &str, subject: &str, o: &OpIr, n: &OpIr) {
    params(cx, area, subject, o, n);
    request(cx, area, subject, o.request.as_ref(), n.request.as_ref());
    responses(cx, area, subject, o, n);
    versions(cx, area, subject, o, n);
    pagination(cx, area, subject, o, n);
    if o.error_family != n.error_family {
        let detail = format!(
            "error body family `{}` → `{}`",
            o.error_family, n.error_family
        );
        cx.push(area, subject, "errors_changed", Class::Compatible, detail);
    }
}

fn all_params(op: &OpIr) -> Vec<&ParamIr> {
    op.path_params
        .iter()
        .chain(&op.query)
        .chain(&op.headers)
        .collect()
}

fn same_param(a: &ParamIr, b: &ParamIr) -> bool {
    a.location == b.location && a.wire == b.wire
}

fn param_name(p: &ParamIr) -> String {
    format!("parameter `{}` ({})", p.wire, p.location.as_str())
}

/// The parameters that are arguments of the client method, in argument order.
fn arguments(op: &OpIr) -> Vec<&ParamIr> {
    all_params(op).into_iter().filter(|p| p.required).collect()
}

fn params(cx: &mut Ctx, area: &str, subject: &str, o: &OpIr, n: &OpIr) {
    let (old, new) = (all_params(o), all_params(n));
    for p in &old {
        match new.iter().find(|q| same_param(p, q)) {
            Some(q) => param(cx, area, subject, p, q),
            None => {
                let detail = format!("{} removed", param_name(p));
                cx.push(area, subject, "parameter_removed", Class::Breaking, detail);
            }
        }
    }
    for q in new.iter().filter(|q| !old.iter().any(|p| same_param(p, q))) {
        let (class, how) = if q.required {
            (Class::Breaking, "added as required (a new argument)")
        } else {
            (Class::Compatible, "added (optional)")
        };
        let detail = format!("{} {how}", param_name(q));
        cx.push(area, subject, "parameter_added", class, detail);
    }
    // Arguments are positional: the same ones in another order compile and mean something else.
    let common = |a: &[&ParamIr], b: &[&ParamIr]| -> Vec<String> {
        a.iter()
            .filter(|p| b.iter().any(|q| same_param(p, q)))
            .map(|p| p.wire.clone())
            .collect()
    };
    let (oa, na) = (arguments(o), arguments(n));
    let (before, after) = (common(&oa, &na), common(&na, &oa));
    if before != after {
        let detail = format!(
            "argument order ({}) → ({})",
            before.join(", "),
            after.join(", ")
        );
        cx.push(
            area,
            subject,
            "argument_order_changed",
            Class::Breaking,
            detail,
        );
    }
}

fn param(cx: &mut Ctx, area: &str, subject: &str, p: &ParamIr, q: &ParamIr) {
    let name = param_name(q);
    if p.required != q.required {
        let (kind, how) = if q.required {
            ("parameter_made_required", "made required (now an argument)")
        } else {
            (
                "parameter_made_optional",
                "made optional (now a builder method)",
            )
        };
        cx.push(
            area,
            subject,
            kind,
            Class::Breaking,
            format!("{name} {how}"),
        );
    }
    if !same(&p.ty, &q.ty) {
        let detail = format!("{name}: type {} → {}", show(&p.ty), show(&q.ty));
        cx.push(
            area,
            subject,
            "parameter_type_changed",
            Class::Breaking,
            detail,
        );
    }
    if !q.required && !p.required && p.rust != q.rust {
        let detail = format!("{name}: builder method `{}` → `{}`", p.rust, q.rust);
        cx.push(area, subject, "parameter_renamed", Class::Breaking, detail);
    }
    if p.constraints != q.constraints {
        let detail = format!("{name}: constraints changed");
        cx.push(
            area,
            subject,
            "constraints_changed",
            Class::Compatible,
            detail,
        );
    }
    cx.provenance(area, subject, &name, &p.provenance, &q.provenance);
}

fn body_shape(b: &BodyIr) -> String {
    match &b.ty {
        Some(t) => format!("`{}` body {}", b.kind.as_str(), show(t)),
        None => format!("`{}` body", b.kind.as_str()),
    }
}

fn request(cx: &mut Ctx, area: &str, subject: &str, o: Option<&BodyIr>, n: Option<&BodyIr>) {
    let (kind, class, detail) = match (o, n) {
        (None, None) => return,
        (None, Some(b)) if b.required => (
            "request_added",
            Class::Breaking,
            format!(
                "required request body added: {} (a new argument)",
                body_shape(b)
            ),
        ),
        (None, Some(b)) => (
            "request_added",
            Class::Compatible,
            format!("optional request body added: {}", body_shape(b)),
        ),
        (Some(a), None) => (
            "request_removed",
            Class::Breaking,
            format!("request body removed (was {})", body_shape(a)),
        ),
        (Some(a), Some(b)) => return request_both(cx, area, subject, a, b),
    };
    cx.push(area, subject, kind, class, detail);
}

fn request_both(cx: &mut Ctx, area: &str, subject: &str, a: &BodyIr, b: &BodyIr) {
    let same_ty = match (&a.ty, &b.ty) {
        (Some(x), Some(y)) => same(x, y),
        (x, y) => x.is_none() && y.is_none(),
    };
    if a.kind != b.kind || !same_ty {
        let detail = format!("request {} → {}", body_shape(a), body_shape(b));
        cx.push(
            area,
            subject,
            "request_type_changed",
            Class::Breaking,
            detail,
        );
    }
    if a.required != b.required {
        let detail = if b.required {
            "request body made required (now an argument)"
        } else {
            "request body made optional (now the `body` builder method)"
        };
        cx.push(
            area,
            subject,
            "request_required_changed",
            Class::Breaking,
            detail,
        );
    }
    let parts = |b: &BodyIr| b.parts.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
    if parts(a) != parts(b) {
        let detail = format!(
            "multipart parts ({}) → ({})",
            parts(a).join(", "),
            parts(b).join(", ")
        );
        cx.push(
            area,
            subject,
            "request_parts_changed",
            Class::Compatible,
            detail,
        );
    }
}

/// What `send` returns.
fn output(r: &ResponseIr) -> String {
    match (r.kind, &r.ty) {
        (ResponseKind::Json, Some(t)) => show(t),
        (ResponseKind::Json, None) => "`json`".into(),
        (ResponseKind::Binary, _) => "bytes".into(),
        (ResponseKind::Text, _) => "text".into(),
        (ResponseKind::Empty, _) => "no body".into(),
    }
}

fn responses(cx: &mut Ctx, area: &str, subject: &str, o: &OpIr, n: &OpIr) {
    let (a, b) = (&o.success, &n.success);
    let same_ty = match (&a.ty, &b.ty) {
        (Some(x), Some(y)) => same(x, y),
        (x, y) => x.is_none() && y.is_none(),
    };
    if a.kind != b.kind || !same_ty {
        let detail = format!("response {} → {}", output(a), output(b));
        cx.push(
            area,
            subject,
            "response_type_changed",
            Class::Breaking,
            detail,
        );
    }
    if a.status != b.status {
        let detail = format!(
            "success status {} → {} (the client takes any 2xx the same way)",
            a.status, b.status
        );
        cx.push(
            area,
            subject,
            "success_status_changed",
            Class::Compatible,
            detail,
        );
    }
    let success = [a.status, b.status];
    for r in o.responses.iter().filter(|r| !success.contains(&r.status)) {
        if !n.responses.iter().any(|s| s.status == r.status) {
            let detail = format!("response {} no longer listed", r.status);
            cx.push(area, subject, "response_removed", Class::Compatible, detail);
        }
    }
    for s in n.responses.iter().filter(|s| !success.contains(&s.status)) {
        if !o.responses.iter().any(|r| r.status == s.status) {
            let detail = format!("response {} listed ({})", s.status, output(s));
            cx.push(area, subject, "response_added", Class::Compatible, detail);
        }
    }
    for r in &o.responses {
        if let Some(s) = n.responses.iter().find(|s| s.status == r.status) {
            let what = format!("response {}", r.status);
            cx.provenance(area, subject, &what, &r.provenance, &s.provenance);
        }
    }
}

/// The version labels of an operation, default first; the one representation of an operation
/// without `media_types` counts as `json`.
pub fn labels(op: &OpIr) -> Vec<String> {
    op.versions
        .iter()
        .map(|v| match v.label.as_str() {
            "default" => "json".to_owned(),
            l => l.to_owned(),
        })
        .collect()
}

fn versions(cx: &mut Ctx, area: &str, subject: &str, o: &OpIr, n: &OpIr) {
    let (old, new) = (labels(o), labels(n));
    for l in old.iter().filter(|l| !new.contains(l)) {
        let default = if old.first() == Some(l) {
            " (it was the default)"
        } else {
            ""
        };
        let detail = format!("media-type version `{l}` removed{default}");
        cx.push(area, subject, "version_removed", Class::Breaking, detail);
    }
    for l in new.iter().filter(|l| !old.contains(l)) {
        let detail = format!("media-type version `{l}` added");
        cx.push(area, subject, "version_added", Class::Compatible, detail);
    }
    if let (Some(a), Some(b)) = (old.first(), new.first())
        && a != b
        && new.contains(a)
    {
        let detail = format!("default media-type version `{a}` → `{b}`");
        cx.push(
            area,
            subject,
            "default_version_changed",
            Class::Breaking,
            detail,
        );
    }
}

fn pagination(cx: &mut Ctx, area: &str, subject: &str, o: &OpIr, n: &OpIr) {
    let show = |p: &ruckus_codegen::ir::PaginationIr| {
        format!(
            "`{}`, items in `{}`, from page {}",
            p.style.as_str(),
            p.items,
            p.first_page
        )
    };
    match (&o.pagination, &n.pagination) {
        (None, Some(p)) => {
            let detail = format!("paged: `pages()` added ({})", show(p));
            cx.push(area, subject, "pagination_added", Class::Compatible, detail);
        }
        (Some(p), None) => {
            let detail = format!("no longer paged: `pages()` removed (was {})", show(p));
            cx.push(area, subject, "pagination_removed", Class::Breaking, detail);
        }
        (Some(p), Some(q)) => {
            if show(p) != show(q) {
                let detail = format!("paging {} → {}", show(p), show(q));
                cx.push(
                    area,
                    subject,
                    "pagination_changed",
                    Class::Compatible,
                    detail,
                );
            }
            cx.provenance(area, subject, "the paging", &p.provenance, &q.provenance);
        }
        (None, None) => {}
    }
}
