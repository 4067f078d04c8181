//! Models: structs with `new` (or a builder), forward-compatible enums and unions, aliases and
//! raw JSON shapes.

use super::describe::provenance_line;
use super::text::{code, doc, ident, prose, rust_type, type_doc};
use crate::ir::{
    self, ApiIr, FieldIr, TypeIr, TypeKind, TypeRef, UnionIr, UnionVariantIr, VariantIr,
};
use crate::names::Unique;
use proc_macro2::TokenStream;
use quote::quote;

/// Standard names generated code uses unqualified: a spec type must not shadow them.
pub const RESERVED_TYPE_NAMES: &[&str] = &[
    "Box",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Eq",
    "Err",
    "From",
    "Hash",
    "Into",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Self",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "Vec",
];

/// The items of one named type of `api`.
pub fn emit_type(t: &TypeIr, area: &str, api: &ApiIr) -> TokenStream {
    let mut lines = vec![prose(&t.description)];
    if let Some(origin) = &t.origin {
        lines.push(String::new());
        lines.push(format!(
            "Shown inline by the document; named {} by the generator.",
            code(origin)
        ));
    }
    lines.push(String::new());
    lines.push(provenance_line(&t.provenance));
    let name = ident(&t.name);
    match &t.kind {
        TypeKind::Object(fields, open) => object(&name, &mut lines, fields, *open, area),
        TypeKind::Enum(variants) => enumeration(&name, &mut lines, variants),
        TypeKind::Union(u) => union(&t.name, &mut lines, u, area, api),
        TypeKind::Alias(target) => {
            let docs = doc(&lines);
            let target = rust_type(target, area);
            quote!(#docs pub type #name = #target;)
        }
        TypeKind::NotShown(note) => {
            lines.insert(1, String::new());
            lines.insert(
                2,
                format!(
                    "The document does not show this shape: {} It is kept as raw JSON.",
                    prose(note)
                ),
            );
            let docs = doc(&lines);
            quote!(#docs pub type #name = serde_json::Value;)
        }
    }
}

fn field_type(f: &FieldIr, area: &str) -> TokenStream {
    let base = if f.secret {
        quote!(ruckus_one_runtime::Secret)
    } else {
        rust_type(&f.ty, area)
    };
    if f.required && !f.nullable {
        base
    } else {
        quote!(Option<#base>)
    }
}

fn object(
    name: &proc_macro2::Ident,
    lines: &mut Vec<String>,
    fields: &[FieldIr],
    open: bool,
    area: &str,
) -> TokenStream {
    let defaultable = fields.iter().all(|f| !f.required || f.nullable);
    lines.push(String::new());
    let optional: Vec<&FieldIr> = fields
        .iter()
        .filter(|f| !f.required || f.nullable)
        .collect();
    let builder = ir::uses_builder(fields);
    lines.push(match (defaultable, optional.is_empty()) {
        _ if builder => format!(
            "Build one with `builder()`: a setter per field, then `build()`, which fails with `MissingField` when one of the {} required fields is not set.",
            ir::new_arguments(fields).len()
        ),
        (true, true) => "Build one with `new()` (or `Default`).".to_owned(),
        (true, false) => {
            "Build one with `new()` (or `Default`), then the `with_...` methods for the fields you need."
                .to_owned()
        }
        (false, true) => "Build one with `new(...)`, which takes the required fields.".to_owned(),
        (false, false) => {
            "Build one with `new(...)`, which takes the required fields, then the `with_...` methods for optional ones."
                .to_owned()
        }
    });
    let docs = doc(lines);
    let derive_default = defaultable.then(|| quote!(Default,));
    let defs = fields.iter().map(|f| {
        let fname = ident(&f.rust);
        let ty = field_type(f, area);
        let docs = doc(&field_doc(f));
        quote!(#docs pub #fname: #ty,)
    });
    let (open_def, open_init) = if open {
        (
            quote! {
                /// Fields the document does not show, kept as received and sent as set.
                pub additional_fields: std::collections::BTreeMap<String, serde_json::Value>,
            },
            quote!(additional_fields: std::collections::BTreeMap::new()),
        )
    } else {
        (quote!(), quote!())
    };
    let decode = object_deserialize(name, fields, open);
    let encode = object_serialize(name, fields, open);
    let derives = quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #derive_default)]
        #[non_exhaustive]
        pub struct #name { #(#defs)* #open_def }

        #encode
        #decode
    };
    if builder {
        let builder = model_builder(name, fields, open_init, area);
        return quote!(#derives #builder);
    }
    let required = ir::new_arguments(fields);
    let args = required.iter().map(|f| {
        let n = ident(&f.rust);
        let ty = field_type(f, area);
        quote!(#n: #ty)
    });
    let inits = fields.iter().map(|f| {
        let n = ident(&f.rust);
        if f.required && !f.nullable {
            quote!(#n)
        } else {
            quote!(#n: None)
        }
    });
    let setters = setters(&optional, fields, area);
    let comma = (open && !fields.is_empty()).then(|| quote!(,));
    let new_doc = doc(&[if required.is_empty() {
        "Creates a value with every field empty.".to_owned()
    } else {
        "Creates a value from the required fields; optional fields start empty.".to_owned()
    }]);
    quote! {
        #derives

        impl #name {
            #new_doc
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* #comma #open_init }
            }

            #(#setters)*
        }
    }
}

/// `Deserialize` for a model: one non-generic function takes the fields out of the object by
/// wire name (the runtime does the rest), so each model's decoding is compiled once.
fn object_deserialize(name: &proc_macro2::Ident, fields: &[FieldIr], open: bool) -> TokenStream {
    let model = name.to_string();
    let takes = fields.iter().map(|f| {
        let n = ident(&f.rust);
        let wire = &f.wire;
        if f.required && !f.nullable {
            quote!(#n: f.required(#wire)?)
        } else {
            quote!(#n: f.optional(#wire))
        }
    });
    let rest = open.then(|| quote!(additional_fields: f.rest(),));
    // Optional fields record a value that does not decode; `check` reports it.
    let check = fields
        .iter()
        .any(|f| !f.required || f.nullable)
        .then(|| quote!(f.check()?;));
    let f = if fields.is_empty() && !open {
        quote!(_f)
    } else {
        quote!(f)
    };
    quote! {
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                fn fields(#f: &mut ruckus_one_runtime::object::Fields) -> Result<#name, ruckus_one_runtime::object::FieldError> {
                    let value = #name { #(#takes,)* #rest };
                    #check
                    Ok(value)
                }
                let mut f = ruckus_one_runtime::object::Fields::read(deserializer)?;
                fields(&mut f).map_err(|e| e.into_error(#model))
            }
        }
    }
}

/// `Serialize` for a model: one non-generic function writes the set fields by wire name, then
/// the additional fields of an open model.
fn object_serialize(name: &proc_macro2::Ident, fields: &[FieldIr], open: bool) -> TokenStream {
    let writes = fields.iter().map(|f| {
        let n = ident(&f.rust);
        let wire = &f.wire;
        let number = matches!(f.ty, TypeRef::Number) && !f.secret;
        match (f.required, f.nullable, number) {
            (true, false, true) => quote!(w.number(#wire, Some(v.#n));),
            (true, true, true) => quote!(w.number(#wire, v.#n);),
            (false, _, true) => quote!(w.optional_number(#wire, v.#n);),
            (true, _, false) => quote!(w.field(#wire, &v.#n);),
            (false, _, false) => quote!(w.optional(#wire, &v.#n);),
        }
    });
    let rest = open.then(|| quote!(w.rest(&v.additional_fields);));
    let (v, w) = if fields.is_empty() && !open {
        (quote!(_v), quote!(_w))
    } else {
        (quote!(v), quote!(w))
    };
    quote! {
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                fn fields(#v: &#name, #w: &mut ruckus_one_runtime::object::Writer) {
                    #(#writes)*
                    #rest
                }
                let mut w = ruckus_one_runtime::object::Writer::default();
                fields(self, &mut w);
                w.finish(serializer)
            }
        }
    }
}

/// Methods of standard traits that clippy's `should_implement_trait` expects in a trait impl
/// rather than as an inherent method of the same shape, such as a builder setter.
const TRAIT_METHODS: &[&str] = &[
    "add",
    "as_mut",
    "as_ref",
    "bitand",
    "bitor",
    "bitxor",
    "borrow",
    "borrow_mut",
    "clone",
    "cmp",
    "default",
    "deref",
    "deref_mut",
    "div",
    "drop",
    "eq",
    "from_iter",
    "from_str",
    "hash",
    "index",
    "index_mut",
    "into_iter",
    "mul",
    "neg",
    "next",
    "not",
    "rem",
    "shl",
    "shr",
    "sub",
];

/// The name of the `with_<field>` setter of an optional field of a model built with `new`.
pub(super) fn with_setter(f: &FieldIr, fields: &[FieldIr]) -> String {
    // `type_` gets `with_type`, unless another field is named `type`.
    let short = f.rust.trim_end_matches('_');
    let base = if short != f.rust && fields.iter().any(|g| g.rust == short) {
        f.rust.as_str()
    } else {
        short
    };
    format!("with_{base}")
}

/// The setter names of a model builder, one per field in order: the field's Rust name, except
/// that none may be `build`.
pub(super) fn builder_setters(fields: &[FieldIr]) -> Vec<String> {
    let mut unique = Unique::default();
    unique.reserve("build");
    for f in fields {
        unique.reserve(&f.rust);
    }
    fields
        .iter()
        .map(|f| {
            if f.rust == "build" {
                unique.claim("build_".to_owned(), "")
            } else {
                f.rust.clone()
            }
        })
        .collect()
}

/// The type a setter takes (`impl Into<T>` of it): the field's type without its `Option`.
fn setter_type(f: &FieldIr, area: &str) -> TokenStream {
    if f.secret {
        quote!(ruckus_one_runtime::Secret)
    } else {
        rust_type(&f.ty, area)
    }
}

/// `<Name>Builder` and `Name::builder()`: for models with more required fields than `new`
/// takes as arguments.
fn model_builder(
    name: &proc_macro2::Ident,
    fields: &[FieldIr],
    open_init: TokenStream,
    area: &str,
) -> TokenStream {
    let builder = ident(&format!("{name}Builder"));
    let model = name.to_string();
    let defs = fields.iter().map(|f| {
        let n = ident(&f.rust);
        let ty = setter_type(f, area);
        quote!(#n: Option<#ty>,)
    });
    let setters = fields
        .iter()
        .zip(builder_setters(fields))
        .map(|(f, method)| {
            let n = ident(&f.rust);
            let method = ident(&method);
            let ty = setter_type(f, area);
            let what = if f.required && !f.nullable {
                "required"
            } else {
                "optional"
            };
            let d = doc(&[format!("Sets {} ({what}).", code(&f.wire))]);
            quote! {
                #d
                pub fn #method(mut self, value: impl Into<#ty>) -> Self {
                    self.#n = Some(value.into());
                    self
                }
            }
        });
    let inits = fields.iter().map(|f| {
        let n = ident(&f.rust);
        if f.required && !f.nullable {
            let wire = &f.wire;
            quote!(#n: self.#n.ok_or(missing(#wire))?)
        } else {
            quote!(#n: self.#n)
        }
    });
    let comma = (!open_init.is_empty() && !fields.is_empty()).then(|| quote!(,));
    // A setter named like a standard trait method (a field `next` or `add`) is still a setter.
    let allow = builder_setters(fields)
        .iter()
        .any(|m| TRAIT_METHODS.contains(&m.as_str()))
        .then(|| quote!(#[allow(clippy::should_implement_trait)]));
    let builder_doc = doc(&[
        format!("Builder of [`{model}`]: set its fields, then call `build`."),
        String::new(),
        format!("Start one with `{model}::builder()`."),
    ]);
    quote! {
        impl #name {
            /// Starts a builder: one setter per field, then `build`.
            pub fn builder() -> #builder {
                <#builder as Default>::default()
            }
        }

        #builder_doc
        #[derive(Debug, Clone, Default)]
        #[must_use = "a builder does nothing until `build` is called"]
        pub struct #builder { #(#defs)* }

        #allow
        impl #builder {
            #(#setters)*

            /// The value, or an error naming the first required field that is not set.
            pub fn build(self) -> Result<#name, ruckus_one_runtime::MissingField> {
                let missing = |field| ruckus_one_runtime::MissingField::new(#model, field);
                Ok(#name { #(#inits),* #comma #open_init })
            }
        }
    }
}

/// `with_<field>(value)` for each optional field: sets it to `Some(value.into())`.
fn setters(optional: &[&FieldIr], fields: &[FieldIr], area: &str) -> Vec<TokenStream> {
    optional
        .iter()
        .map(|f| {
            let method = ident(&with_setter(f, fields));
            let n = ident(&f.rust);
            let ty = setter_type(f, area);
            let d = doc(&[format!("Sets {}.", code(&f.wire))]);
            quote! {
                #d
                pub fn #method(mut self, value: impl Into<#ty>) -> Self {
                    self.#n = Some(value.into());
                    self
                }
            }
        })
        .collect()
}

fn field_doc(f: &FieldIr) -> Vec<String> {
    let mut lines = Vec::new();
    let first = match &f.description {
        Some(d) if !d.trim().is_empty() => prose(d),
        _ => code(&f.wire),
    };
    lines.push(first);
    lines.push(String::new());
    let mut facts = vec![format!("Wire name {}", code(&f.wire)), type_doc(&f.ty)];
    facts.push(if f.required {
        "required".into()
    } else {
        "optional".into()
    });
    if f.nullable {
        facts.push("may be null".into());
    }
    if f.secret {
        facts.push("secret: redacted in `Debug`".into());
    }
    for (k, v) in &f.constraints {
        facts.push(format!("{k}: {}", prose(v)));
    }
    lines.push(format!("{}.", facts.join("; ")));
    if let Some(dep) = &f.deprecated {
        lines.push(format!("Deprecated: {}", prose(dep)));
    }
    if let Some(p) = f.stated_provenance() {
        lines.push(provenance_line(p));
    }
    lines
}

fn enumeration(
    name: &proc_macro2::Ident,
    lines: &mut Vec<String>,
    variants: &[VariantIr],
) -> TokenStream {
    lines.push(String::new());
    lines.push(
        "Forward compatible: a value this client does not know decodes to `Unknown` and is".into(),
    );
    lines.push(
        "sent back unchanged (`as_str` returns it), so a new server value never breaks decoding."
            .into(),
    );
    let docs = doc(lines);
    let defs = variants.iter().map(|v| {
        let n = ident(&v.rust);
        let mut l = vec![code(&v.wire)];
        if let Some(d) = &v.description {
            l[0] = format!("{}: {}", code(&v.wire), prose(d));
        }
        if let Some(dep) = &v.deprecated {
            l.push(String::new());
            l.push(format!("Deprecated: {}", prose(dep)));
        }
        let d = doc(&l);
        quote!(#d #n,)
    });
    let to_str = variants.iter().map(|v| {
        let n = ident(&v.rust);
        let w = &v.wire;
        quote!(Self::#n => #w,)
    });
    let from_str = variants.iter().map(|v| {
        let n = ident(&v.rust);
        let w = &v.wire;
        quote!(#w => Self::#n,)
    });
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum #name {
            #(#defs)*
            /// A value this version of the client does not know; kept as received.
            Unknown(ruckus_one_runtime::UnknownValue),
        }

        impl #name {
            /// The wire value.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#to_str)*
                    Self::Unknown(v) => v.as_str(),
                }
            }
        }

        impl From<&str> for #name {
            fn from(s: &str) -> Self {
                match s {
                    #(#from_str)*
                    other => Self::Unknown(ruckus_one_runtime::UnknownValue::new(other.to_owned())),
                }
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(deserializer)?;
                Ok(Self::from(s.as_str()))
            }
        }
    }
}

/// Whether a union variant's type is a type of its own (an object, enum or union), so the
/// union can have a `From` of it; an alias or raw JSON could be the Rust type of another
/// variant too.
fn nominal(ty: &TypeRef, api: &ApiIr) -> bool {
    let TypeRef::Named { name, area } = ty else {
        return false;
    };
    api.areas
        .iter()
        .filter(|a| &a.name == area)
        .flat_map(|a| &a.types)
        .find(|t| &t.name == name)
        .is_some_and(|t| {
            matches!(
                t.kind,
                TypeKind::Object(..) | TypeKind::Enum(_) | TypeKind::Union(_)
            )
        })
}

fn union_variant_doc(v: &UnionVariantIr, u: &UnionIr, position: usize) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(d) = &v.description {
        lines.push(prose(d));
        lines.push(String::new());
    }
    lines.push(match (&u.discriminator, &v.tag) {
        (Some(d), Some(tag)) => format!(
            "Variant type {}; chosen when the wire field {} is {}.",
            code(v.type_name()),
            code(d),
            code(tag)
        ),
        _ if position == 0 => format!(
            "Variant type {}; chosen when the value decodes as one (tried first).",
            code(v.type_name())
        ),
        _ => format!(
            "Variant type {}; chosen when the value decodes as one and no variant above does.",
            code(v.type_name())
        ),
    });
    lines
}

/// Whether the named object type `name` of the API has the field `wire`.
fn holds_field(api: &ApiIr, name: &str, wire: &str) -> bool {
    api.areas
        .iter()
        .flat_map(|a| &a.types)
        .find(|t| t.name == name)
        .is_some_and(|t| matches!(&t.kind, TypeKind::Object(fields, _) if fields.iter().any(|f| f.wire == wire)))
}

/// The wire names of the secret fields of a union's variant types and of the types they hold,
/// sorted: what `Debug` of an unknown value masks.
fn secret_wire_names(u: &UnionIr, api: &ApiIr) -> Vec<String> {
    let types: std::collections::BTreeMap<&str, &TypeIr> = api
        .areas
        .iter()
        .flat_map(|a| &a.types)
        .map(|t| (t.name.as_str(), t))
        .collect();
    let mut out = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<&str> = u.variants.iter().map(|v| v.type_name()).collect();
    fn named<'t>(t: &'t TypeRef, out: &mut Vec<&'t str>) {
        match t {
            TypeRef::Named { name, .. } => out.push(name),
            TypeRef::Array(inner) | TypeRef::Map(inner) => named(inner, out),
            _ => {}
        }
    }
    while let Some(name) = stack.pop() {
        if !seen.insert(name) {
            continue;
        }
        match types.get(name).map(|t| &t.kind) {
            Some(TypeKind::Object(fields, _)) => {
                for f in fields {
                    if f.secret {
                        out.insert(f.wire.clone());
                    }
                    named(&f.ty, &mut stack);
                }
            }
            Some(TypeKind::Union(inner)) => {
                stack.extend(inner.variants.iter().map(|v| v.type_name()))
            }
            Some(TypeKind::Alias(a)) => named(a, &mut stack),
            _ => {}
        }
    }
    out.into_iter().collect()
}

/// A union: an enum with a variant per type and `Unknown` for anything else, serialized as
/// the variant's own value.
fn union(
    type_name: &str,
    lines: &mut Vec<String>,
    u: &UnionIr,
    area: &str,
    api: &ApiIr,
) -> TokenStream {
    let name = ident(type_name);
    lines.push(String::new());
    match &u.discriminator {
        Some(d) => {
            let d = code(d);
            lines.push(format!(
                "One of {} types, chosen by the string in the wire field {d}.",
                u.variants.len()
            ));
            lines.push(format!(
                "Forward compatible: a value with another {d}, or none, is kept as raw JSON in"
            ));
            lines.push(format!(
                "`Unknown` and sent back unchanged; a value whose {d} selects a variant but does"
            ));
            lines.push("not decode as its type is an error.".into());
        }
        None => {
            lines.push(format!(
                "One of {} types: the first, in the order below, that decodes the value.",
                u.variants.len()
            ));
            lines.push(
                "Forward compatible: a value none of them decodes is kept as raw JSON in `Unknown`"
                    .into(),
            );
            lines.push("and sent back unchanged.".into());
        }
    }
    lines.push(String::new());
    match &u.discriminator {
        Some(d) => {
            let d = code(d);
            lines.push(format!(
                "The union owns the tag: a variant is sent as its value with its tag in {d}, and"
            ));
            lines.push("the variant types have no field for it.".into());
        }
        None => lines.push("Each variant is serialized as its own value.".into()),
    }
    let secrets = secret_wire_names(u, api);
    if !secrets.is_empty() {
        lines.push(String::new());
        lines.push(format!(
            "`Debug` of `Unknown` shows the secret fields of the variant types ({}) as `***`.",
            secrets
                .iter()
                .map(|s| code(s))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let docs = doc(lines);
    let defs = u.variants.iter().enumerate().map(|(i, v)| {
        let n = ident(&v.rust);
        let ty = rust_type(&v.ty, area);
        let d = doc(&union_variant_doc(v, u, i));
        quote!(#d #n(#ty),)
    });
    let ser = u.variants.iter().map(|v| {
        let n = ident(&v.rust);
        match (&u.discriminator, &v.tag) {
            (Some(d), Some(tag)) => quote!(
                Self::#n(v) => ruckus_one_runtime::union::serialize_tagged(v, #d, #tag, serializer),
            ),
            _ => quote!(Self::#n(v) => serde::Serialize::serialize(v, serializer),),
        }
    });
    let debug_arms = u.variants.iter().map(|v| {
        let n = ident(&v.rust);
        let label = &v.rust;
        quote!(Self::#n(v) => f.debug_tuple(#label).field(v).finish(),)
    });
    let secret_names = secrets.iter().map(String::as_str);
    let de = match &u.discriminator {
        Some(d) => {
            let arms = u.variants.iter().map(|v| {
                let n = ident(&v.rust);
                let tag = v.tag.as_deref().unwrap_or_default();
                // A variant type used elsewhere too keeps its tag field (see
                // `validate::cross::union_owns_tags`) and decodes it; the union still writes it.
                if holds_field(api, v.type_name(), d) {
                    quote!(Some(#tag) => Self::#n(ruckus_one_runtime::union::decode(value, #type_name, #tag)?),)
                } else {
                    quote!(Some(#tag) => Self::#n(ruckus_one_runtime::union::decode_tagged(value, #d, #type_name, #tag)?),)
                }
            });
            quote! {
                Ok(match ruckus_one_runtime::union::tag(&value, #d) {
                    #(#arms)*
                    _ => Self::Unknown(value),
                })
            }
        }
        None => {
            let tries = u.variants.iter().map(|v| {
                let n = ident(&v.rust);
                quote! {
                    if let Some(v) = ruckus_one_runtime::union::try_decode(&value) {
                        return Ok(Self::#n(v));
                    }
                }
            });
            quote!(#(#tries)* Ok(Self::Unknown(value)))
        }
    };
    let froms = u
        .variants
        .iter()
        .filter(|v| nominal(&v.ty, api) && u.variants.iter().filter(|w| w.ty == v.ty).count() == 1);
    let froms = froms.map(|v| {
        let n = ident(&v.rust);
        let ty = rust_type(&v.ty, area);
        quote! {
            impl From<#ty> for #name {
                fn from(value: #ty) -> Self {
                    Self::#n(value)
                }
            }
        }
    });
    quote! {
        #docs
        #[derive(Clone, PartialEq)]
        #[non_exhaustive]
        // Variants hold their values directly, however their sizes differ.
        #[allow(clippy::large_enum_variant)]
        pub enum #name {
            #(#defs)*
            /// A value that matches no variant, kept as received and sent back unchanged.
            Unknown(serde_json::Value),
        }

        #(#froms)*

        impl std::fmt::Debug for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    #(#debug_arms)*
                    Self::Unknown(v) => ruckus_one_runtime::union::debug_unknown(f, v, &[#(#secret_names),*]),
                }
            }
        }

        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    #(#ser)*
                    Self::Unknown(v) => serde::Serialize::serialize(v, serializer),
                }
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                #de
            }
        }
    }
}
