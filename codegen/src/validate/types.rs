//! Types: named and inline types, their fields and enum values, type references, and the
//! recursion check.

use super::rules::{constraints, wire_text};
use super::{ApiCtx, At, Validator};
use crate::ir::{
    FieldIr, Provenance, TypeIr, TypeKind, TypeRef, UnionIr, UnionVariantIr, VariantIr,
};
use crate::names::{self, Unique};
use crate::spec;
use std::collections::{BTreeMap, BTreeSet};

/// The most arrays and maps one type expression may nest (`array<array<…>>`).
const MAX_CONTAINER_NESTING: usize = 32;

/// The two inline containers.
enum Container {
    Array,
    Map,
}

/// Where inline types found while resolving a reference go, and how they are named.
pub(super) struct Inline<'v> {
    /// The area module that will define them.
    pub area: &'v str,
    /// Inline types found so far, in the order they are emitted.
    pub types: &'v mut Vec<TypeIr>,
}

impl Validator {
    pub(super) fn type_def(
        &mut self,
        t: &spec::TypeDef,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        inl: &mut Inline<'_>,
    ) -> Option<TypeIr> {
        let provenance = self.provenance(at, t.provenance.as_deref());
        if t.description.trim().is_empty() && t.origin.is_none() {
            self.err(
                at,
                format!(
                    "type `{}` needs a `description` (only imported types may go without)",
                    t.name
                ),
            );
        }
        let given = [
            t.fields.is_some(),
            t.values.is_some(),
            t.alias.is_some(),
            t.not_shown.is_some(),
            t.union.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.err(
                at,
                format!(
                    "type `{}` needs exactly one of `fields`, `values`, `alias`, `not_shown` or `union`",
                    t.name
                ),
            );
            return None;
        }

        let kind = if let Some(fields) = &t.fields {
            let mut out = self.fields(fields, at, ctx, &t.name, inl);
            // A field without its own provenance has its type's.
            for f in &mut out {
                if fields
                    .iter()
                    .any(|s| s.name == f.wire && s.provenance.is_none())
                {
                    f.provenance = provenance.clone();
                    f.inherited = true;
                }
            }
            TypeKind::Object(out, t.open)
        } else if let Some(values) = &t.values {
            TypeKind::Enum(self.variants(values, at, &t.name))
        } else if let Some(union) = &t.union {
            TypeKind::Union(self.union(union, &at.with(&["union:"]), ctx, &t.name))
        } else if let Some(alias) = &t.alias {
            let name = format!("{}Item", t.name);
            TypeKind::Alias(self.type_ref(alias, &at.with(&["alias:"]), ctx, &name, inl)?)
        } else {
            TypeKind::NotShown(t.not_shown.clone().unwrap_or_default())
        };
        Some(TypeIr {
            name: t.name.clone(),
            description: t.description.clone(),
            provenance,
            origin: None,
            kind,
            users: Vec::new(),
        })
    }

    fn fields(
        &mut self,
        fields: &[spec::Field],
        at: &At<'_>,
        ctx: &mut ApiCtx,
        parent: &str,
        inline: &mut Inline<'_>,
    ) -> Vec<FieldIr> {
        let mut out = Vec::new();
        let mut wire = BTreeSet::new();
        let mut unique = Unique::default();
        unique.reserve("additional_fields");
        for f in fields {
            let fat = at.with(&["fields:", &format!("name: {}", f.name)]);
            if !wire.insert(f.name.clone()) {
                self.err(
                    &fat.nth(2),
                    format!("duplicate field `{}` in `{parent}`", f.name),
                );
                continue;
            }
            if let Err(msg) = wire_text(&f.name, "field name") {
                self.err(&fat, msg);
                continue;
            }
            let Some(rust) = names::snake(&f.name) else {
                self.err(
                    &fat,
                    format!(
                        "field name `{}` cannot become a Rust identifier (ASCII letters, digits and `_`)",
                        f.name
                    ),
                );
                continue;
            };
            self.constraint_keys(&f.constraints, &fat);
            let rust = unique.claim(rust, "_");
            let inline_name = format!("{parent}{}", names::camel(&f.name));
            let Some(ty) = self.type_ref(&f.ty, &fat.with(&["type:"]), ctx, &inline_name, inline)
            else {
                continue;
            };
            if f.secret && ty != TypeRef::String {
                self.err(
                    &fat,
                    format!("field `{}` is marked secret but is not a string", f.name),
                );
            }
            let provenance = self.provenance(&fat, f.provenance.as_deref());
            out.push(FieldIr {
                wire: f.name.clone(),
                rust,
                ty,
                required: f.required,
                nullable: f.nullable,
                description: f.description.clone(),
                provenance,
                inherited: false,
                secret: f.secret,
                constraints: constraints(&f.constraints),
                deprecated: f.deprecated.clone(),
            });
        }
        out
    }

    fn variants(
        &mut self,
        values: &[spec::EnumValue],
        at: &At<'_>,
        parent: &str,
    ) -> Vec<VariantIr> {
        let mut out = Vec::new();
        let mut wire = BTreeSet::new();
        let mut unique = Unique::default();
        unique.reserve("Unknown");
        if values.is_empty() {
            self.err(at, format!("enum `{parent}` has no values"));
        }
        for v in values {
            let (value, description, deprecated) = match v {
                spec::EnumValue::Bare(s) => (s.clone(), None, None),
                spec::EnumValue::Full(f) => {
                    (f.value.clone(), f.description.clone(), f.deprecated.clone())
                }
            };
            let vat = at.with(&["values:", &format!("value: {value}|{value}")]);
            if !wire.insert(value.clone()) {
                self.err(
                    &vat.nth(2),
                    format!("duplicate enum value `{value}` in `{parent}`"),
                );
                continue;
            }
            if let Err(msg) = wire_text(&value, "enum value") {
                self.err(&vat, msg);
                continue;
            }
            let Some(rust) = names::variant(&value) else {
                self.err(
                    &vat,
                    format!("enum value `{value}` of `{parent}` cannot become a Rust identifier (ASCII letters, digits and `_`)"),
                );
                continue;
            };
            out.push(VariantIr {
                wire: value,
                rust: unique.claim(rust, ""),
                description,
                deprecated,
            });
        }
        out
    }

    /// A union's discriminator and variants. Whether each variant type carries the
    /// discriminator is checked once every type is resolved ([`super::cross`]).
    fn union(&mut self, u: &spec::Union, at: &At<'_>, ctx: &ApiCtx, parent: &str) -> UnionIr {
        if let Some(d) = &u.discriminator
            && let Err(msg) = wire_text(d, "discriminator")
        {
            self.err(&at.with(&["discriminator:"]), msg);
        }
        if u.variants.is_empty() {
            self.err(at, format!("union `{parent}` has no variants"));
        }
        let mut variants = Vec::new();
        let mut tags: BTreeMap<String, usize> = BTreeMap::new();
        let mut rust_names = BTreeSet::new();
        let mut seen_types: BTreeMap<&str, usize> = BTreeMap::new();
        for v in &u.variants {
            let nth = seen_types.entry(v.ty.as_str()).or_default();
            *nth += 1;
            let vat = at
                .with(&["variants:", &format!("type: {}", v.ty)])
                .nth(*nth);
            let name = v.ty.trim();
            let ty = self.variant_type(name, parent, &vat, ctx);
            let tag = self.variant_tag(u, v, (name, parent), (at, &vat), &mut tags);
            let rust = self.variant_name(v, &tag, name, &vat);
            let Some(rust) = rust else {
                continue;
            };
            let rust_at = if v.name.is_some() {
                vat.with(&["name:"])
            } else {
                vat
            };
            if rust == "Unknown" {
                self.err(
                    &rust_at,
                    format!("variant name `Unknown` of union `{parent}` is reserved for values that match no variant; give the variant another `name`"),
                );
                continue;
            }
            if !rust_names.insert(rust.clone()) {
                self.err(
                    &rust_at,
                    format!("duplicate variant name `{rust}` in union `{parent}`; give the variant a `name`"),
                );
                continue;
            }
            let (Some(ty), true) = (ty, tag.is_some() == u.discriminator.is_some()) else {
                continue;
            };
            variants.push(UnionVariantIr {
                rust,
                ty,
                tag,
                description: v.description.clone(),
            });
        }
        UnionIr {
            discriminator: u.discriminator.clone(),
            variants,
        }
    }

    /// The type of a union variant: a named type of the API other than the union itself.
    fn variant_type(
        &mut self,
        name: &str,
        parent: &str,
        vat: &At<'_>,
        ctx: &ApiCtx,
    ) -> Option<TypeRef> {
        let builtin = matches!(
            name,
            "string" | "integer" | "int64" | "int32" | "number" | "boolean" | "json" | "not_shown"
        ) || name.contains('<');
        if builtin {
            self.err(
                vat,
                format!(
                    "variant type `{name}` of union `{parent}` must be a named type of the API"
                ),
            );
            None
        } else if name == parent {
            self.err(vat, format!("union `{parent}` may not contain itself"));
            None
        } else {
            match ctx.types.get(name) {
                Some(area) => Some(TypeRef::Named {
                    name: name.to_owned(),
                    area: area.clone(),
                }),
                None => {
                    self.err(vat, format!("unknown type `{name}`"));
                    None
                }
            }
        }
    }

    /// The discriminator value of a union variant: given exactly when the union has a
    /// discriminator, wire text, and unique (`tags` counts the values seen).
    fn variant_tag(
        &mut self,
        u: &spec::Union,
        v: &spec::UnionVariant,
        (name, parent): (&str, &str),
        (at, vat): (&At<'_>, &At<'_>),
        tags: &mut BTreeMap<String, usize>,
    ) -> Option<String> {
        match (&u.discriminator, &v.value) {
            (Some(d), None) => {
                self.err(
                vat,
                format!("variant `{name}` of union `{parent}` needs a `value`: the value of `{d}` that selects it"),
            );
                None
            }
            (None, Some(_)) => {
                self.err(
                    &vat.with(&["value:"]),
                    format!(
                        "union `{parent}` has no `discriminator`, so its variants take no `value`"
                    ),
                );
                None
            }
            (Some(_), Some(value)) => {
                if let Err(msg) = wire_text(value, "discriminator value") {
                    self.err(&vat.with(&["value:"]), msg);
                    None
                } else if let Some(before) = tags.insert(value.clone(), 1).map(|n| n + 1) {
                    tags.insert(value.clone(), before);
                    self.err(
                        &at.with(&["variants:", &format!("value: {value}")])
                            .nth(before),
                        format!("duplicate discriminator value `{value}` in union `{parent}`"),
                    );
                    None
                } else {
                    Some(value.clone())
                }
            }
            (None, None) => None,
        }
    }

    /// The Rust name of a union variant: its `name`, else derived from its discriminator value,
    /// else its type's name.
    fn variant_name(
        &mut self,
        v: &spec::UnionVariant,
        tag: &Option<String>,
        name: &str,
        vat: &At<'_>,
    ) -> Option<String> {
        match (&v.name, tag) {
            (Some(n), _) => {
                if names::camel(n) != *n || !names::is_ident(n) {
                    self.err(
                        &vat.with(&["name:"]),
                        format!("variant name `{n}` must be an UpperCamelCase Rust identifier"),
                    );
                    None
                } else {
                    Some(n.clone())
                }
            }
            (None, Some(value)) => {
                let derived = names::variant(value);
                if derived.is_none() {
                    self.err(
                    &vat.with(&["value:"]),
                    format!("discriminator value `{value}` cannot become a Rust variant name; give the variant a `name`"),
                );
                }
                derived
            }
            (None, None) => Some(name.to_owned()),
        }
    }

    /// Constraint names are shown as they are in docs: plain names only.
    pub(super) fn constraint_keys(
        &mut self,
        map: &BTreeMap<String, serde_yaml::Value>,
        at: &At<'_>,
    ) {
        for k in map.keys() {
            if !super::rules::plain_name(k, "_", 64) {
                self.err(
                    &at.with(&["constraints:"]),
                    format!("constraint name `{k}` may only contain letters, digits and `_`"),
                );
            }
        }
    }

    /// Resolves a type expression; inline objects and enums become types named `inline_name`
    /// (unless they name themselves) pushed to `inline`.
    pub(super) fn type_ref(
        &mut self,
        expr: &spec::TypeExpr,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        inline_name: &str,
        inline: &mut Inline<'_>,
    ) -> Option<TypeRef> {
        let i = match expr {
            spec::TypeExpr::Name(name) => return self.named_ref(name.trim(), at, ctx),
            spec::TypeExpr::Inline(i) => i,
        };
        let given = [
            i.array.is_some(),
            i.map.is_some(),
            i.fields.is_some(),
            i.values.is_some(),
            i.not_shown.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.err(
                at,
                "an inline type needs exactly one of `array`, `map`, `fields`, `values` or `not_shown`",
            );
            return None;
        }
        // A container: its element is named after the container (`<Parent>Item`, `<Parent>Value`).
        let container = match (&i.array, &i.map) {
            (Some(items), _) => Some((items, "Item", Container::Array)),
            (None, Some(values)) => Some((values, "Value", Container::Map)),
            (None, None) => None,
        };
        if let Some((element, suffix, container)) = container {
            let name = i
                .name
                .clone()
                .unwrap_or_else(|| format!("{inline_name}{suffix}"));
            let element = Box::new(self.type_ref(element, at, ctx, &name, inline)?);
            return Some(match container {
                Container::Array => TypeRef::Array(element),
                Container::Map => TypeRef::Map(element),
            });
        }
        if let Some(note) = &i.not_shown {
            return Some(TypeRef::NotShown(note.clone()));
        }
        self.inline_type(i, at, ctx, inline_name, inline)
    }

    /// An inline object or enum: declared under its own (or the derived) name.
    fn inline_type(
        &mut self,
        i: &spec::InlineType,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        inline_name: &str,
        inline: &mut Inline<'_>,
    ) -> Option<TypeRef> {
        let name = i.name.clone().unwrap_or_else(|| inline_name.to_owned());
        if names::camel(&name) != name || !names::is_ident(&name) {
            self.err(
                at,
                format!("inline type name `{name}` must be an UpperCamelCase Rust identifier"),
            );
            return None;
        }
        if ctx
            .types
            .insert(name.clone(), inline.area.to_owned())
            .is_some()
        {
            self.err(
                at,
                format!("inline type `{name}` has the name of another type; give it a `name`"),
            );
            return None;
        }
        let kind = match &i.fields {
            Some(fields) => TypeKind::Object(self.fields(fields, at, ctx, &name, inline), i.open),
            None => {
                TypeKind::Enum(self.variants(i.values.as_deref().unwrap_or_default(), at, &name))
            }
        };
        inline.types.push(TypeIr {
            name: name.clone(),
            description: i
                .description
                .clone()
                .unwrap_or_else(|| format!("Inline shape named by the generator ({name}).")),
            provenance: Provenance::Documented,
            origin: Some(inline_name.to_owned()),
            kind,
            users: Vec::new(),
        });
        Some(TypeRef::Named {
            name,
            area: inline.area.to_owned(),
        })
    }

    /// A type expression (`Widget`, `array<map<string>>`): its arrays and maps unwrapped without
    /// recursion and bounded by [`MAX_CONTAINER_NESTING`] (the emitters recurse per level).
    fn named_ref(&mut self, expr: &str, at: &At<'_>, ctx: &ApiCtx) -> Option<TypeRef> {
        let wrapped = |name: &str, prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|r| r.strip_suffix('>'))
                .map(str::trim)
                .map(str::to_owned)
        };
        let mut containers = Vec::new();
        let mut name = expr.to_owned();
        loop {
            if let Some(inner) = wrapped(&name, "array<") {
                containers.push(Container::Array);
                name = inner;
            } else if let Some(inner) = wrapped(&name, "map<") {
                containers.push(Container::Map);
                name = inner;
            } else {
                break;
            }
        }
        if containers.len() > MAX_CONTAINER_NESTING {
            self.err(
                at,
                format!(
                    "the type nests {} arrays and maps; at most {MAX_CONTAINER_NESTING} are supported",
                    containers.len()
                ),
            );
            return None;
        }
        let mut ty = self.base_ref(&name, at, ctx)?;
        for container in containers.into_iter().rev() {
            ty = match container {
                Container::Array => TypeRef::Array(Box::new(ty)),
                Container::Map => TypeRef::Map(Box::new(ty)),
            };
        }
        Some(ty)
    }

    /// A built-in or named type.
    fn base_ref(&mut self, name: &str, at: &At<'_>, ctx: &ApiCtx) -> Option<TypeRef> {
        Some(match name {
            "string" => TypeRef::String,
            "integer" | "int64" => TypeRef::Integer,
            "int32" => TypeRef::Int32,
            "number" => TypeRef::Number,
            "boolean" => TypeRef::Boolean,
            "json" => TypeRef::Json,
            "not_shown" => TypeRef::NotShown("The document does not show this shape.".into()),
            other => match ctx.types.get(other) {
                Some(area) => TypeRef::Named {
                    name: other.to_owned(),
                    area: area.clone(),
                },
                None => {
                    self.err(at, format!("unknown type `{other}`"));
                    return None;
                }
            },
        })
    }
}
