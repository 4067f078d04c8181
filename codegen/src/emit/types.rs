//! Models: structs with `new`, forward-compatible enums, aliases and raw JSON shapes.

use super::describe::provenance_line;
use super::text::{code, doc, ident, prose, rust_type, type_doc};
use crate::ir::{FieldIr, TypeIr, TypeKind, VariantIr};
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

/// The items of one named type.
pub fn emit_type(t: &TypeIr, area: &str) -> TokenStream {
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
    lines.push(match (defaultable, optional.is_empty()) {
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
        let mut serde_args = Vec::new();
        if f.rust.trim_end_matches('_') != f.wire || f.rust.ends_with('_') {
            let wire = &f.wire;
            serde_args.push(quote!(rename = #wire));
        }
        if !f.required {
            serde_args.push(quote!(default, skip_serializing_if = "Option::is_none"));
        } else if f.nullable {
            serde_args.push(quote!(default));
        }
        let serde = (!serde_args.is_empty()).then(|| quote!(#[serde(#(#serde_args),*)]));
        let docs = doc(&field_doc(f));
        quote!(#docs #serde pub #fname: #ty,)
    });
    let required: Vec<&FieldIr> = fields
        .iter()
        .filter(|f| f.required && !f.nullable)
        .collect();
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
    let many = (required.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let (open_def, open_init) = if open {
        (
            quote! {
                /// Fields the document does not show, kept as received and sent as set.
                #[serde(flatten)]
                pub additional_fields: std::collections::BTreeMap<String, serde_json::Value>,
            },
            quote!(additional_fields: std::collections::BTreeMap::new()),
        )
    } else {
        (quote!(), quote!())
    };
    let comma = (open && !fields.is_empty()).then(|| quote!(,));
    let new_doc = doc(&[if required.is_empty() {
        "Creates a value with every field empty.".to_owned()
    } else {
        "Creates a value from the required fields; optional fields start empty.".to_owned()
    }]);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #derive_default serde::Serialize, serde::Deserialize)]
        #[non_exhaustive]
        pub struct #name { #(#defs)* #open_def }

        impl #name {
            #new_doc
            #many
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* #comma #open_init }
            }

            #(#setters)*
        }
    }
}

/// `with_<field>(value)` for each optional field: sets it to `Some(value.into())`.
fn setters(optional: &[&FieldIr], fields: &[FieldIr], area: &str) -> Vec<TokenStream> {
    optional
        .iter()
        .map(|f| {
            // `type_` gets `with_type`, unless another field is named `type`.
            let short = f.rust.trim_end_matches('_');
            let base = if short != f.rust && fields.iter().any(|g| g.rust == short) {
                f.rust.as_str()
            } else {
                short
            };
            let method = ident(&format!("with_{base}"));
            let n = ident(&f.rust);
            let ty = if f.secret {
                quote!(ruckus_one_runtime::Secret)
            } else {
                rust_type(&f.ty, area)
            };
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
    if !matches!(f.provenance, crate::ir::Provenance::Documented) {
        lines.push(provenance_line(&f.provenance));
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
