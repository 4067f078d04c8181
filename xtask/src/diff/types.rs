//! Named types: matched by name within an API, then their fields (by wire name), enum values,
//! alias targets or union variants (by Rust name) compared.

use super::change::Class;
use super::ctx::Ctx;
use ruckus_codegen::ir::{
    self, ApiIr, AreaIr, FieldIr, TypeIr, TypeKind, TypeRef, UnionIr, VariantIr,
};

/// Whether two type references give the same Rust type (the area of a named type and the note
/// of a shape that is not shown do not matter).
pub fn same(a: &TypeRef, b: &TypeRef) -> bool {
    shape(a) == shape(b)
}

fn shape(t: &TypeRef) -> String {
    match t {
        TypeRef::NotShown(_) => "json".into(),
        TypeRef::Array(inner) => format!("array<{}>", shape(inner)),
        TypeRef::Map(inner) => format!("map<{}>", shape(inner)),
        other => other.display(),
    }
}

/// A type reference for the report, in spec notation.
pub fn show(t: &TypeRef) -> String {
    format!("`{}`", t.display())
}

fn all(api: &ApiIr) -> Vec<(&AreaIr, &TypeIr)> {
    api.areas
        .iter()
        .flat_map(|a| a.types.iter().map(move |t| (a, t)))
        .collect()
}

pub fn compare(cx: &mut Ctx, old: &ApiIr, new: &ApiIr) {
    let (old, new) = (all(old), all(new));
    let gone: Vec<_> = old
        .iter()
        .filter(|(_, t)| !new.iter().any(|(_, u)| u.name == t.name))
        .collect();
    let came: Vec<_> = new
        .iter()
        .filter(|(_, u)| !old.iter().any(|(_, t)| t.name == u.name))
        .collect();
    let renamed = renames(&gone, &came);
    for (oa, t) in &old {
        let subject = format!("type `{}`", t.name);
        match new.iter().find(|(_, u)| u.name == t.name) {
            Some((na, u)) => one(cx, (oa, t), (na, u)),
            None if renamed.iter().any(|(from, _)| *from == t.name) => {}
            None => {
                let detail = format!("{} removed", kind_name(&t.kind));
                cx.push(&oa.name, &subject, "type_removed", Class::Breaking, detail);
            }
        }
    }
    for (na, u) in came {
        let subject = format!("type `{}`", u.name);
        match renamed.iter().find(|(_, to)| *to == u.name) {
            Some((from, _)) => {
                let detail = format!("renamed from `{from}` (the same {})", members(&u.kind));
                cx.push(&na.name, &subject, "type_renamed", Class::Breaking, detail);
            }
            None => {
                let detail = format!("{} added", kind_name(&u.kind));
                cx.push(&na.name, &subject, "type_added", Class::Compatible, detail);
            }
        }
    }
}

/// Removed types that came back under another name: a removed type and an added one with the
/// same wire members (an object's fields with their types and presence, an enum's values),
/// paired only when neither has another such match. Returns (old name, new name).
fn renames<'i>(
    gone: &[&(&AreaIr, &'i TypeIr)],
    came: &[&(&AreaIr, &'i TypeIr)],
) -> Vec<(&'i str, &'i str)> {
    let matches = |t: &TypeIr| -> Vec<&'i TypeIr> {
        let Some(sig) = signature(t) else {
            return Vec::new();
        };
        came.iter()
            .map(|(_, u)| *u)
            .filter(|u| signature(u).as_ref() == Some(&sig))
            .collect()
    };
    let mut out = Vec::new();
    for (_, t) in gone {
        let found = matches(t);
        let [u] = found.as_slice() else { continue };
        let back = gone
            .iter()
            .filter(|(_, o)| signature(o) == signature(u))
            .count();
        if back == 1 {
            out.push((t.name.as_str(), u.name.as_str()));
        }
    }
    out
}

/// What a type is made of on the wire, for telling a rename: `None` for kinds too small to
/// tell apart (aliases, raw shapes, unions, objects without fields, enums without values).
fn signature(t: &TypeIr) -> Option<String> {
    match &t.kind {
        TypeKind::Object(fields, open) if !fields.is_empty() => {
            let fields: Vec<String> = fields
                .iter()
                .map(|f| format!("{}:{}:{}", f.wire, shape(&f.ty), f.required))
                .collect();
            Some(format!("object {open} {}", fields.join(",")))
        }
        TypeKind::Enum(values) if !values.is_empty() => {
            let values: Vec<&str> = values.iter().map(|v| v.wire.as_str()).collect();
            Some(format!("enum {}", values.join(",")))
        }
        _ => None,
    }
}

fn members(k: &TypeKind) -> &'static str {
    match k {
        TypeKind::Enum(_) => "values",
        _ => "fields",
    }
}

fn kind_name(k: &TypeKind) -> &'static str {
    match k {
        TypeKind::Object(..) => "object",
        TypeKind::Enum(_) => "enum",
        TypeKind::Alias(_) => "alias",
        TypeKind::NotShown(_) => "raw JSON (shape not shown)",
        TypeKind::Union(_) => "union",
    }
}

fn one(cx: &mut Ctx, (oa, t): (&AreaIr, &TypeIr), (na, u): (&AreaIr, &TypeIr)) {
    let subject = format!("type `{}`", u.name);
    let area = na.name.as_str();
    if oa.name != na.name {
        // Its path within the API's module changes, and so may the feature that compiles it.
        let detail = format!(
            "moved from area `{}` to `{}` (module `{}`)",
            oa.name, na.name, na.name
        );
        cx.push(area, &subject, "type_moved", Class::Breaking, detail);
    }
    cx.provenance(area, &subject, "the type", &t.provenance, &u.provenance);
    match (&t.kind, &u.kind) {
        (TypeKind::Object(fs, open_a), TypeKind::Object(gs, open_b)) => {
            fields(cx, area, &subject, fs, gs);
            open(cx, area, &subject, *open_a, *open_b);
        }
        (TypeKind::Enum(vs), TypeKind::Enum(ws)) => values(cx, area, &u.name, vs, ws),
        (TypeKind::Alias(a), TypeKind::Alias(b)) => {
            if !same(a, b) {
                let detail = format!("alias of {} → {}", show(a), show(b));
                cx.push(area, &subject, "alias_changed", Class::Breaking, detail);
            }
        }
        (TypeKind::NotShown(_), TypeKind::NotShown(_)) => {}
        (TypeKind::Union(a), TypeKind::Union(b)) => union(cx, area, &subject, a, b),
        (a, b) => {
            let detail = format!("{} → {}", kind_name(a), kind_name(b));
            cx.push(area, &subject, "type_kind_changed", Class::Breaking, detail);
        }
    }
}

fn open(cx: &mut Ctx, area: &str, subject: &str, a: bool, b: bool) {
    match (a, b) {
        (false, true) => cx.push(
            area,
            subject,
            "open_changed",
            Class::Compatible,
            "open: fields the spec does not show are kept in `additional_fields`",
        ),
        (true, false) => cx.push(
            area,
            subject,
            "open_changed",
            Class::Breaking,
            "no longer open: `additional_fields` removed",
        ),
        _ => {}
    }
}

/// Union variants by Rust name: removing one breaks code that names it; an added one is
/// compatible (the enum is `#[non_exhaustive]`); a variant whose type or discriminator value
/// changes, a changed discriminator, or (without one) a new order in which variants are tried
/// changes how values decode.
fn union(cx: &mut Ctx, area: &str, subject: &str, a: &UnionIr, b: &UnionIr) {
    if a.discriminator != b.discriminator {
        let show = |d: &Option<String>| d.as_ref().map_or("none".to_owned(), |d| format!("`{d}`"));
        let detail = format!(
            "discriminator {} → {}",
            show(&a.discriminator),
            show(&b.discriminator)
        );
        cx.push(
            area,
            subject,
            "union_discriminator_changed",
            Class::Breaking,
            detail,
        );
    }
    for v in &a.variants {
        let Some(w) = b.variants.iter().find(|w| w.rust == v.rust) else {
            let detail = format!("variant `{}` ({}) removed", v.rust, show(&v.ty));
            cx.push(
                area,
                subject,
                "union_variant_removed",
                Class::Breaking,
                detail,
            );
            continue;
        };
        if !same(&v.ty, &w.ty) {
            let detail = format!(
                "variant `{}`: type {} → {}",
                v.rust,
                show(&v.ty),
                show(&w.ty)
            );
            cx.push(
                area,
                subject,
                "union_variant_type_changed",
                Class::Breaking,
                detail,
            );
        }
        if v.tag != w.tag && a.discriminator.is_some() && b.discriminator.is_some() {
            let tag = |t: &Option<String>| t.clone().unwrap_or_default();
            let detail = format!(
                "variant `{}`: discriminator value `{}` → `{}`",
                v.rust,
                tag(&v.tag),
                tag(&w.tag)
            );
            cx.push(
                area,
                subject,
                "union_variant_value_changed",
                Class::Breaking,
                detail,
            );
        }
    }
    for w in b
        .variants
        .iter()
        .filter(|w| !a.variants.iter().any(|v| v.rust == w.rust))
    {
        let detail = format!("variant `{}` ({}) added", w.rust, show(&w.ty));
        cx.push(
            area,
            subject,
            "union_variant_added",
            Class::Compatible,
            detail,
        );
    }
    if a.discriminator.is_none() && b.discriminator.is_none() {
        let order = |x: &UnionIr, y: &UnionIr| -> Vec<String> {
            x.variants
                .iter()
                .filter(|v| y.variants.iter().any(|w| w.rust == v.rust))
                .map(|v| v.rust.clone())
                .collect()
        };
        let (before, after) = (order(a, b), order(b, a));
        if before != after {
            let detail = format!(
                "order in which variants are tried ({}) → ({})",
                before.join(", "),
                after.join(", ")
            );
            cx.push(
                area,
                subject,
                "union_variant_order_changed",
                Class::Breaking,
                detail,
            );
        }
    }
}

/// The fields that are arguments of `new`, in order (none when the model has a builder).
fn arguments(fs: &[FieldIr]) -> Vec<&FieldIr> {
    if ir::uses_builder(fs) {
        return Vec::new();
    }
    ir::new_arguments(fs)
}

fn fields(cx: &mut Ctx, area: &str, subject: &str, fs: &[FieldIr], gs: &[FieldIr]) {
    for f in fs {
        match gs.iter().find(|g| g.wire == f.wire) {
            Some(g) => field(cx, area, subject, f, g),
            None => {
                let detail = format!("field `{}` removed", f.wire);
                cx.push(area, subject, "field_removed", Class::Breaking, detail);
            }
        }
    }
    if ir::uses_builder(fs) != ir::uses_builder(gs) {
        let detail = if ir::uses_builder(gs) {
            "built with `builder()` instead of `new(...)` (more than 3 required fields)"
        } else {
            "built with `new(...)` instead of `builder()` (at most 3 required fields)"
        };
        cx.push(
            area,
            subject,
            "constructor_changed",
            Class::Breaking,
            detail,
        );
    }
    for g in gs.iter().filter(|g| !fs.iter().any(|f| f.wire == g.wire)) {
        let (class, how) = if g.required && !g.nullable && ir::uses_builder(gs) {
            (
                Class::Breaking,
                "added as required (`build` fails without it)",
            )
        } else if g.required && !g.nullable {
            (
                Class::Breaking,
                "added as required (a new argument of `new`)",
            )
        } else if g.required {
            (Class::Compatible, "added (required but nullable)")
        } else {
            (Class::Compatible, "added (optional)")
        };
        let detail = format!("field `{}` {how}", g.wire);
        cx.push(area, subject, "field_added", class, detail);
    }
    let common = |a: &[&FieldIr], b: &[&FieldIr]| -> Vec<String> {
        a.iter()
            .filter(|f| b.iter().any(|g| g.wire == f.wire))
            .map(|f| f.wire.clone())
            .collect()
    };
    let (oa, na) = (arguments(fs), arguments(gs));
    let (before, after) = (common(&oa, &na), common(&na, &oa));
    if before != after {
        let detail = format!(
            "argument order of `new` ({}) → ({})",
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

fn field(cx: &mut Ctx, area: &str, subject: &str, f: &FieldIr, g: &FieldIr) {
    let name = format!("field `{}`", g.wire);
    if !same(&f.ty, &g.ty) {
        let detail = format!("{name}: type {} → {}", show(&f.ty), show(&g.ty));
        cx.push(area, subject, "field_type_changed", Class::Breaking, detail);
    }
    presence(cx, area, subject, f, g);
    if f.secret != g.secret {
        let detail = format!(
            "{name}: {} (its Rust type changes)",
            if g.secret {
                "now secret"
            } else {
                "no longer secret"
            }
        );
        cx.push(
            area,
            subject,
            "field_secret_changed",
            Class::Breaking,
            detail,
        );
    }
    if f.rust != g.rust {
        let detail = format!("{name}: Rust name `{}` → `{}`", f.rust, g.rust);
        cx.push(area, subject, "field_renamed", Class::Breaking, detail);
    }
    match (&f.deprecated, &g.deprecated) {
        (None, Some(note)) => {
            let detail = format!("{name} deprecated: {}", note.trim());
            cx.push(
                area,
                subject,
                "field_deprecated",
                Class::Deprecation,
                detail,
            );
        }
        (Some(_), None) => {
            let detail = format!("{name} no longer deprecated");
            cx.push(
                area,
                subject,
                "field_undeprecated",
                Class::Compatible,
                detail,
            );
        }
        _ => {}
    }
    if f.constraints != g.constraints {
        let detail = format!("{name}: constraints changed");
        cx.push(
            area,
            subject,
            "constraints_changed",
            Class::Compatible,
            detail,
        );
    }
    cx.provenance(area, subject, &name, &f.provenance, &g.provenance);
}

/// `required` and `nullable`: breaking when the Rust type gains or loses its `Option`.
fn presence(cx: &mut Ctx, area: &str, subject: &str, f: &FieldIr, g: &FieldIr) {
    let optional = |f: &FieldIr| !f.required || f.nullable;
    let class = if optional(f) == optional(g) {
        Class::Compatible
    } else {
        Class::Breaking
    };
    let state = |f: &FieldIr| match (f.required, f.nullable) {
        (true, false) => "required",
        (true, true) => "required, nullable",
        (false, false) => "optional",
        (false, true) => "optional, nullable",
    };
    let kind = match (f.required, g.required, f.nullable == g.nullable) {
        (false, true, _) => "field_made_required",
        (true, false, _) => "field_made_optional",
        (_, _, false) => "field_nullable_changed",
        (_, _, true) => return,
    };
    let detail = format!("field `{}`: {} → {}", g.wire, state(f), state(g));
    cx.push(area, subject, kind, class, detail);
}

fn values(cx: &mut Ctx, area: &str, name: &str, vs: &[VariantIr], ws: &[VariantIr]) {
    let subject = format!("type `{name}`");
    for v in vs.iter().filter(|v| !ws.iter().any(|w| w.wire == v.wire)) {
        let (class, why) = if cx.in_request(name) {
            (
                Class::Breaking,
                "requests use this enum: callers lose the variant",
            )
        } else if cx.in_response(name) {
            (
                Class::Compatible,
                "responses only: the value now decodes to `Unknown`",
            )
        } else {
            (Class::Compatible, "no operation uses this enum")
        };
        let detail = format!("enum value `{}` removed ({why})", v.wire);
        cx.push(area, &subject, "enum_value_removed", class, detail);
    }
    for w in ws.iter().filter(|w| !vs.iter().any(|v| v.wire == w.wire)) {
        let detail = format!("enum value `{}` added", w.wire);
        cx.push(
            area,
            &subject,
            "enum_value_added",
            Class::Compatible,
            detail,
        );
    }
    for v in vs {
        let Some(w) = ws.iter().find(|w| w.wire == v.wire) else {
            continue;
        };
        match (&v.deprecated, &w.deprecated) {
            (None, Some(note)) => {
                let detail = format!("enum value `{}` deprecated: {}", w.wire, note.trim());
                cx.push(
                    area,
                    &subject,
                    "enum_value_deprecated",
                    Class::Deprecation,
                    detail,
                );
            }
            (Some(_), None) => {
                let detail = format!("enum value `{}` no longer deprecated", w.wire);
                cx.push(
                    area,
                    &subject,
                    "enum_value_undeprecated",
                    Class::Compatible,
                    detail,
                );
            }
            _ => {}
        }
    }
}
