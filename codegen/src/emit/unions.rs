//! Enums and unions of the spec as Rust: a string enum that keeps values it does not know, and
//! a union that tries its variants (or reads a discriminator) and keeps anything else as raw JSON.

use super::text::{code, doc, ident, prose, rust_type};
use super::types::TypeItems;
use crate::ir::{ApiIr, TypeIr, TypeKind, TypeRef, UnionIr, UnionVariantIr, VariantIr};
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn enumeration(
    name: &proc_macro2::Ident,
    lines: &mut Vec<String>,
    variants: &[VariantIr],
) -> TypeItems {
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
    let types = quote! {
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
    };
    TypeItems {
        types: TokenStream::new(),
        enums: types,
        builders: TokenStream::new(),
        serialize: quote! {
            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    serializer.serialize_str(self.as_str())
                }
            }
        },
        deserialize: quote! {
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let s = <String as serde::Deserialize>::deserialize(deserializer)?;
                    Ok(Self::from(s.as_str()))
                }
            }
        },
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

/// A union: an enum with a variant per type and `Unknown` for anything else, serialized as
/// the variant's own value.
pub(super) fn union(
    type_name: &str,
    lines: &mut Vec<String>,
    u: &UnionIr,
    area: &str,
    api: &ApiIr,
) -> TypeItems {
    let name = ident(type_name);
    let secrets = secret_wire_names(u, api);
    union_doc(lines, u, &secrets);
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
                Self::#n(v) => ruckus_one_runtime::internal::union::serialize_tagged(v, #d, #tag, serializer),
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
    let de = union_decode(type_name, u, api);
    let froms = union_froms(&name, u, area, api);
    let types = quote! {
        #docs
        #[derive(Clone, PartialEq)]
        #[non_exhaustive]
        // Variants hold their values directly, however their sizes differ.
        #[allow(clippy::large_enum_variant)]
        pub enum #name {
            #(#defs)*
            /// A value that matches no variant, kept as received and sent back unchanged.
            Unknown(ruckus_one_runtime::RawJson),
        }

        #(#froms)*

        impl std::fmt::Debug for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    #(#debug_arms)*
                    Self::Unknown(v) => ruckus_one_runtime::internal::union::debug_unknown(f, v, &[#(#secret_names),*]),
                }
            }
        }

    };
    TypeItems {
        types: TokenStream::new(),
        enums: types,
        builders: TokenStream::new(),
        serialize: quote! {
            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    match self {
                        #(#ser)*
                        Self::Unknown(v) => serde::Serialize::serialize(v, serializer),
                    }
                }
            }
        },
        deserialize: quote! {
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let value = ruckus_one_runtime::internal::union::read(deserializer)?;
                    #de
                }
            }
        },
    }
}

/// The documentation of a union: how a value chooses its variant, and how it is sent.
fn union_doc(lines: &mut Vec<String>, u: &UnionIr, secrets: &[String]) {
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
    fn named<'t>(t: &'t TypeRef, out: &mut Vec<&'t str>) {
        match t {
            TypeRef::Named { name, .. } => out.push(name),
            TypeRef::Array(inner) | TypeRef::Map(inner) => named(inner, out),
            _ => {}
        }
    }
    let types: std::collections::BTreeMap<&str, &TypeIr> = api
        .areas
        .iter()
        .flat_map(|a| &a.types)
        .map(|t| (t.name.as_str(), t))
        .collect();
    let mut out = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<&str> = u.variants.iter().map(|v| v.type_name()).collect();
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

/// The body of a union's `deserialize`: by discriminator, or the first variant that decodes,
/// those naming more of an object's keys first.
fn union_decode(type_name: &str, u: &UnionIr, api: &ApiIr) -> TokenStream {
    match &u.discriminator {
        Some(d) => {
            let arms = u.variants.iter().map(|v| {
                let n = ident(&v.rust);
                let tag = v.tag.as_deref().unwrap_or_default();
                // A variant type used elsewhere too keeps its tag field (see
                // `validate::cross::union_owns_tags`) and decodes it; the union still writes it.
                if holds_field(api, v.type_name(), d) {
                    quote!(Some(#tag) => Self::#n(ruckus_one_runtime::internal::union::decode(&value, #type_name, #tag)?),)
                } else {
                    quote!(Some(#tag) => Self::#n(ruckus_one_runtime::internal::union::decode_tagged(&value, #d, #type_name, #tag)?),)
                }
            });
            quote! {
                Ok(match ruckus_one_runtime::internal::union::tag(&value, #d).as_deref() {
                    #(#arms)*
                    _ => Self::Unknown(value),
                })
            }
        }
        None => {
            // Each variant's wire fields: an object value is tried first against the variants
            // that name most of its keys, so a variant whose fields are all optional (it takes
            // any object) does not take the values of another.
            let fields = u.variants.iter().map(|v| {
                let wire = wire_fields(api, v.type_name());
                quote!(&[#(#wire),*])
            });
            let arms = u.variants.iter().enumerate().map(|(i, v)| {
                let n = ident(&v.rust);
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                quote! {
                    #i => {
                        if let Some(v) = ruckus_one_runtime::internal::union::try_decode(&value) {
                            return Ok(Self::#n(v));
                        }
                    }
                }
            });
            quote! {
                for i in ruckus_one_runtime::internal::union::by_fit(&value, &[#(#fields),*]) {
                    match i {
                        #(#arms)*
                        _ => {}
                    }
                }
                Ok(Self::Unknown(value))
            }
        }
    }
}

/// The wire names of an object type's fields (none for another kind of type).
fn wire_fields<'a>(api: &'a ApiIr, name: &str) -> Vec<&'a str> {
    api.areas
        .iter()
        .flat_map(|a| &a.types)
        .find(|t| t.name == name)
        .map(|t| match &t.kind {
            TypeKind::Object(fields, _) => fields.iter().map(|f| f.wire.as_str()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default()
}

/// `From` for each variant whose type is a type of its own that no other variant shares.
fn union_froms(
    name: &proc_macro2::Ident,
    u: &UnionIr,
    area: &str,
    api: &ApiIr,
) -> Vec<TokenStream> {
    let froms = u
        .variants
        .iter()
        .filter(|v| nominal(&v.ty, api) && u.variants.iter().filter(|w| w.ty == v.ty).count() == 1);
    froms
        .map(|v| {
            let n = ident(&v.rust);
            let ty = rust_type(&v.ty, area);
            quote! {
                impl From<#ty> for #name {
                    fn from(value: #ty) -> Self {
                        Self::#n(value)
                    }
                }
            }
        })
        .collect()
}
