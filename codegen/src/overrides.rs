//! Curated corrections of imported types (`overrides:` of an area file), applied to the types of
//! the imported files of its API when the spec is loaded.
//!
//! The importer writes `imported/<area>.yaml` whole and never reads the overrides back into it,
//! so a correction survives every re-import; a correction whose target the import no longer
//! has is a diagnostic at the override's line.

use crate::diag::Diagnostics;
use crate::source::SourceFile;
use crate::spec::{EnumValue, Field, FieldOverride, Override, TypeDef, TypeExpr, TypeOverride};
use std::collections::{BTreeMap, BTreeSet};

/// Applies an area's overrides to its imported types. Renames are returned (old name -> new
/// name) rather than applied to references: a type of `common` is referenced from every area,
/// so [`rename_references`] runs once over the whole API.
pub fn apply(
    file: &SourceFile,
    overrides: &[Override],
    types: &mut Vec<TypeDef>,
    diags: &mut Diagnostics,
) -> Applied {
    let mut applied = Applied::default();
    let mut left_out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let overrides: Vec<&TypeOverride> = overrides.iter().filter_map(Override::as_type).collect();
    for (i, &o) in overrides.iter().enumerate() {
        let nth = overrides[..i]
            .iter()
            .filter(|e| e.target == o.target)
            .count()
            + 1;
        let at = At { file, o, nth };
        if !seen.insert(o.target.clone()) {
            at.err(
                diags,
                &[],
                format!(
                    "`{}` is overridden twice; merge the two entries into one",
                    o.target
                ),
            );
            continue;
        }
        let Some(t) = types.iter_mut().find(|t| imported_name(t) == o.target) else {
            at.err(
                diags,
                &[],
                format!(
                    "override of `{}`: no imported file of the API has such a type (run `cargo xtask import`, or remove the override)",
                    o.target
                ),
            );
            continue;
        };
        if let Some(with) = &o.replace_with {
            replace(&at, t, with, &mut applied, diags);
            left_out.insert(o.target.clone());
            continue;
        }
        if let Some(new) = &o.rename {
            applied.renames.insert(t.name.clone(), new.clone());
            t.name = new.clone();
        }
        if let Some(d) = &o.description {
            t.description = d.clone();
        }
        if let Some(p) = &o.provenance {
            t.provenance = Some(p.clone());
        }
        if let Some(open) = o.open {
            t.open = open;
        }
        fields(&at, t, diags);
        values(&at, t, diags);
        variants(&at, t, diags);
    }
    types.retain(|t| !left_out.contains(imported_name(t)));
    applied
}

/// One override, for diagnostics at its lines.
struct At<'a> {
    file: &'a SourceFile,
    o: &'a TypeOverride,
    /// Which entry of its target this is (a repeated target is reported where it repeats).
    nth: usize,
}

impl At<'_> {
    fn err(&self, diags: &mut Diagnostics, more: &[&str], msg: String) {
        let target = format!("type: {}", self.o.target);
        let mut all: Vec<&str> = vec!["overrides:", &target];
        all.extend_from_slice(more);
        let nth = if more.is_empty() { self.nth } else { 1 };
        diags.push_with(|| self.file.diag_nth(&all, nth, msg));
    }
}

/// `replace_with`: the type is left out and references name `with`; it goes with nothing else.
fn replace(at: &At<'_>, t: &TypeDef, with: &str, applied: &mut Applied, diags: &mut Diagnostics) {
    let o = at.o;
    if o.rename.is_some()
        || o.description.is_some()
        || o.provenance.is_some()
        || o.open.is_some()
        || !o.fields.is_empty()
        || !o.remove_fields.is_empty()
        || !o.values.is_empty()
        || !o.variants.is_empty()
    {
        at.err(
            diags,
            &["replace_with:"],
            format!(
                "`{}` is replaced with `{with}`: other corrections of it would be lost",
                o.target
            ),
        );
    }
    applied.renames.insert(t.name.clone(), with.to_owned());
    let target = format!("type: {}", o.target);
    let line = at.file.line_of(&["overrides:", &target, "replace_with:"]);
    applied.replacements.push((with.to_owned(), line));
}

/// Field corrections, additions and removals.
fn fields(at: &At<'_>, t: &mut TypeDef, diags: &mut Diagnostics) {
    let o = at.o;
    if o.fields.is_empty() && o.remove_fields.is_empty() {
        return;
    }
    let Some(fields) = t.fields.as_mut() else {
        at.err(
            diags,
            &["fields:|remove_fields:"],
            format!("`{}` is not an object type: it has no fields", o.target),
        );
        return;
    };
    for f in &o.fields {
        if let Err(msg) = field(fields, f) {
            at.err(diags, &["fields:", &format!("name: {}", f.name)], msg);
        }
    }
    for name in &o.remove_fields {
        match fields.iter().position(|f| &f.name == name) {
            Some(k) => {
                fields.remove(k);
            }
            None => at.err(
                diags,
                &["remove_fields:", name],
                format!("`{}` has no field `{name}` to remove", o.target),
            ),
        }
    }
}

/// Enum values the import lacks, appended.
fn values(at: &At<'_>, t: &mut TypeDef, diags: &mut Diagnostics) {
    let o = at.o;
    if o.values.is_empty() {
        return;
    }
    let Some(values) = t.values.as_mut() else {
        at.err(
            diags,
            &["values:"],
            format!("`{}` is not an enum: it has no values", o.target),
        );
        return;
    };
    for v in &o.values {
        if values.iter().any(|e| value_of(e) == value_of(v)) {
            at.err(
                diags,
                &["values:", value_of(v)],
                format!("`{}` already has the value `{}`", o.target, value_of(v)),
            );
        } else {
            values.push(v.clone());
        }
    }
}

/// Union variants' tag values and Rust names.
fn variants(at: &At<'_>, t: &mut TypeDef, diags: &mut Diagnostics) {
    let o = at.o;
    if o.variants.is_empty() {
        return;
    }
    let Some(union) = t.union.as_mut() else {
        at.err(
            diags,
            &["variants:"],
            format!("`{}` is not a union: it has no variants", o.target),
        );
        return;
    };
    // Several variants may share a type (told apart by their tags): the n-th correction of a
    // type corrects the n-th variant of it.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &o.variants {
        let nth = seen.entry(v.ty.as_str()).or_default();
        let found = union.variants.iter_mut().filter(|u| u.ty == v.ty).nth(*nth);
        *nth += 1;
        match found {
            Some(u) => {
                if let Some(value) = &v.value {
                    u.value = Some(value.clone());
                }
                if let Some(name) = &v.name {
                    u.name = Some(name.clone());
                }
            }
            None => at.err(
                diags,
                &["variants:", &format!("type: {}", v.ty)],
                format!("`{}` has no variant of type `{}`", o.target, v.ty),
            ),
        }
    }
}

/// What an area's overrides did that reaches beyond its own types.
#[derive(Debug, Default)]
pub struct Applied {
    /// Old name -> new name: renamed types, and replaced ones (-> the type used instead).
    pub renames: BTreeMap<String, String>,
    /// Types named by `replace_with`, with the line of each (they must exist in the API).
    pub replacements: Vec<(String, usize)>,
}

/// A type's name in its imported file (before any rename).
fn imported_name(t: &TypeDef) -> &str {
    t.origin.as_ref().map_or(&t.name, |o| &o.name)
}

fn value_of(v: &EnumValue) -> &str {
    match v {
        EnumValue::Bare(s) => s,
        EnumValue::Full(f) => &f.value,
    }
}

/// Applies one field correction (or adds the field).
fn field(fields: &mut Vec<Field>, o: &FieldOverride) -> Result<(), String> {
    let existing = fields.iter().position(|f| f.name == o.name);
    let f = match (existing, o.add) {
        (Some(k), false) => &mut fields[k],
        (None, true) => {
            let Some(ty) = &o.ty else {
                return Err(format!("added field `{}` needs a `type`", o.name));
            };
            fields.push(Field {
                name: o.name.clone(),
                ty: ty.clone(),
                required: false,
                nullable: false,
                description: None,
                provenance: None,
                secret: false,
                constraints: BTreeMap::new(),
                deprecated: None,
            });
            fields.last_mut().ok_or("no field")?
        }
        (Some(_), true) => {
            return Err(format!(
                "field `{}` is already imported: drop `add: true` to correct it",
                o.name
            ));
        }
        (None, false) => {
            return Err(format!(
                "the imported type has no field `{}` (add it with `add: true`)",
                o.name
            ));
        }
    };
    if let Some(ty) = &o.ty {
        f.ty = ty.clone();
    }
    if let Some(r) = o.required {
        f.required = r;
    }
    if let Some(n) = o.nullable {
        f.nullable = n;
    }
    if let Some(s) = o.secret {
        f.secret = s;
    }
    if let Some(d) = &o.description {
        f.description = Some(d.clone());
    }
    if let Some(p) = &o.provenance {
        f.provenance = Some(p.clone());
    }
    if let Some(d) = &o.deprecated {
        f.deprecated = Some(d.clone());
    }
    if let Some(c) = &o.constraints {
        f.constraints = c.clone();
    }
    Ok(())
}

/// Rewrites every reference to a renamed type in `types` (fields, aliases, union variants,
/// inline shapes).
pub fn rename_references(types: &mut [&mut TypeDef], renames: &BTreeMap<String, String>) {
    if renames.is_empty() {
        return;
    }
    for t in types.iter_mut() {
        for f in t.fields.iter_mut().flatten() {
            rename_expr(&mut f.ty, renames);
        }
        if let Some(a) = t.alias.as_mut() {
            rename_expr(a, renames);
        }
        for v in t.union.iter_mut().flat_map(|u| &mut u.variants) {
            if let Some(new) = renames.get(&v.ty) {
                v.ty = new.clone();
            }
        }
    }
}

/// Renames, in the bodies and paged items of drafted operations (those of imported files),
/// every reference to a renamed imported type.
pub fn rename_operation_references(
    ops: &mut [&mut crate::spec::Operation],
    renames: &BTreeMap<String, String>,
) {
    if renames.is_empty() {
        return;
    }
    for op in ops.iter_mut() {
        if let Some(e) = op.request.as_mut().and_then(|b| b.ty.as_mut()) {
            rename_expr(e, renames);
        }
        for e in op.responses.iter_mut().filter_map(|r| r.ty.as_mut()) {
            rename_expr(e, renames);
        }
        if let Some(e) = op.pagination.as_mut().and_then(|p| p.item_type.as_mut()) {
            rename_expr(e, renames);
        }
    }
}

fn rename_expr(e: &mut TypeExpr, renames: &BTreeMap<String, String>) {
    match e {
        TypeExpr::Name(s) => *s = rename_in(s, renames),
        TypeExpr::Inline(i) => {
            for inner in [i.array.as_deref_mut(), i.map.as_deref_mut()]
                .into_iter()
                .flatten()
            {
                rename_expr(inner, renames);
            }
            for f in i.fields.iter_mut().flatten() {
                rename_expr(&mut f.ty, renames);
            }
        }
    }
}

/// `array<Old>` -> `array<New>`: each name between `<` and `>` is looked up (also what the
/// importer renames its drafts with).
pub fn rename_in(expr: &str, renames: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(expr.len());
    let mut word = String::new();
    for c in expr.chars().chain(std::iter::once('<')) {
        if c == '<' || c == '>' {
            out.push_str(renames.get(&word).map_or(&word, |n| n));
            word.clear();
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_names_inside_expressions() {
        let renames = BTreeMap::from([("Old".to_owned(), "New".to_owned())]);
        assert_eq!(rename_in("array<Old>", &renames), "array<New>");
        assert_eq!(rename_in("map<array<Old>>", &renames), "map<array<New>>");
        assert_eq!(rename_in("Old", &renames), "New");
        assert_eq!(rename_in("Older", &renames), "Older");
        assert_eq!(rename_in("string", &renames), "string");
    }

    #[test]
    fn drafted_operations_follow_a_renamed_type() {
        let yaml = "id: put_thing\nname: Put thing\nmethod: PUT\npath: /things/{id}\n\
                    request: {type: VenueV1001}\n\
                    responses: [{status: 200, type: array<VenueV1001>}, {status: 204}]\n";
        let mut op: crate::spec::Operation = serde_yaml::from_str(yaml).expect("operation");
        let renames = BTreeMap::from([("VenueV1001".to_owned(), "SwitchVenue".to_owned())]);
        rename_operation_references(&mut [&mut op], &renames);
        let name = |e: Option<&TypeExpr>| match e {
            Some(TypeExpr::Name(n)) => n.clone(),
            _ => String::new(),
        };
        assert_eq!(
            name(op.request.as_ref().and_then(|b| b.ty.as_ref())),
            "SwitchVenue"
        );
        assert_eq!(name(op.responses[0].ty.as_ref()), "array<SwitchVenue>");
        assert!(op.responses[1].ty.is_none());
    }
}
