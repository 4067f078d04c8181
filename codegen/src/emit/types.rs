//! Models: structs with `new` (or a builder), aliases and raw JSON shapes; forward-compatible
//! enums and unions are in [`super::unions`]. Each type's items come by concern
//! ([`TypeItems`]: declaration, constructors, serialize, deserialize), each for its own file of
//! the area (`layout`).

use super::describe::provenance_line;
use super::field_doc::field_doc;
use super::text::{code, doc, ident, prose, rust_type};
use super::unions;
use crate::ir::{self, ApiIr, FieldIr, TypeIr, TypeKind, TypeRef};
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

/// The items of one named type, by concern: each goes to the area file of its kind (see
/// `layout`), so the declarations are read apart from their constructors and serde glue.
#[derive(Default)]
pub struct TypeItems {
    /// The declaration of a model (a struct) or an alias, with its docs.
    pub types: TokenStream,
    /// The declaration of an enum or a union with its docs and conversions (`as_str`, `From`,
    /// `Display`, `Debug`).
    pub enums: TokenStream,
    /// How a model is made: `new` and its `with_...` setters, or `builder()` and the builder.
    pub builders: TokenStream,
    /// `Serialize` (and a model's `WriteFields`).
    pub serialize: TokenStream,
    /// `Deserialize`.
    pub deserialize: TokenStream,
}

impl TypeItems {
    /// Only a declaration.
    fn declaration(types: TokenStream) -> TypeItems {
        TypeItems {
            types,
            ..TypeItems::default()
        }
    }

    /// The parts in the order of the area's files (`layout`): types, enums, builders,
    /// serialize, deserialize.
    pub fn into_parts(self) -> [TokenStream; 5] {
        [
            self.types,
            self.enums,
            self.builders,
            self.serialize,
            self.deserialize,
        ]
    }

    /// Each part through `f` (a gate on each of its items).
    pub fn map(self, f: impl Fn(TokenStream) -> TokenStream) -> TypeItems {
        TypeItems {
            types: f(self.types),
            enums: f(self.enums),
            builders: f(self.builders),
            serialize: f(self.serialize),
            deserialize: f(self.deserialize),
        }
    }
}

/// The items of one named type of `api`.
pub fn emit_type(t: &TypeIr, area: &str, api: &ApiIr) -> TypeItems {
    let mut lines = Vec::new();
    if !t.description.is_empty() {
        lines.extend([prose(&t.description), String::new()]);
    }
    if let Some(origin) = &t.origin {
        lines.push(format!(
            "Shown inline by the document; named {} by the generator.",
            code(origin)
        ));
        lines.push(String::new());
    }
    lines.push(provenance_line(&t.provenance));
    let name = ident(&t.name);
    match &t.kind {
        TypeKind::Object(fields, open) => object(&name, &mut lines, fields, *open, area),
        TypeKind::Enum(variants) => unions::enumeration(&name, &mut lines, variants),
        TypeKind::Union(u) => unions::union(&t.name, &mut lines, u, area, api),
        TypeKind::Alias(target) => {
            let docs = doc(&lines);
            let target = rust_type(target, area);
            TypeItems::declaration(quote!(#docs pub type #name = #target;))
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
            TypeItems::declaration(quote!(#docs pub type #name = serde_json::Value;))
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
) -> TypeItems {
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
                pub additional_fields: std::collections::BTreeMap<String, ruckus_one_runtime::RawJson>,
            },
            quote!(additional_fields: std::collections::BTreeMap::new()),
        )
    } else {
        (quote!(), quote!())
    };
    let types = quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #derive_default)]
        #[non_exhaustive]
        pub struct #name { #(#defs)* #open_def }
    };
    let builders = if builder {
        model_builder(name, fields, open_init, area)
    } else {
        constructor(name, fields, &optional, open_init, open, area)
    };
    TypeItems {
        types,
        enums: TokenStream::new(),
        builders,
        serialize: object_serialize(name, fields, open),
        deserialize: object_deserialize(name, fields, open),
    }
}

/// `new` (the required fields as arguments) and a `with_...` setter per optional field.
fn constructor(
    name: &proc_macro2::Ident,
    fields: &[FieldIr],
    optional: &[&FieldIr],
    open_init: TokenStream,
    open: bool,
    area: &str,
) -> TokenStream {
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
    let setters = setters(optional, fields, area);
    let comma = (open && !fields.is_empty()).then(|| quote!(,));
    let new_doc = doc(&[if required.is_empty() {
        "Creates a value with every field empty.".to_owned()
    } else {
        "Creates a value from the required fields; optional fields start empty.".to_owned()
    }]);
    quote! {
        impl #name {
            #new_doc
            #[inline]
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* #comma #open_init }
            }

            #(#setters)*
        }
    }
}

/// `Deserialize` for a model: one non-generic function takes the fields out of the object by
/// wire name (the runtime does the rest), so each model's decoding is compiled once. The
/// required fields come first, checked together by one `let ... else`: one early return per
/// model rather than one per required field, each dropping the fields decoded before it.
fn object_deserialize(name: &proc_macro2::Ident, fields: &[FieldIr], open: bool) -> TokenStream {
    let model = name.to_string();
    let required = |f: &&FieldIr| f.required && !f.nullable;
    let (locals, takes): (Vec<_>, Vec<_>) = fields
        .iter()
        .filter(required)
        .enumerate()
        .map(|(i, f)| {
            let local = quote::format_ident!("r{i}");
            let wire = &f.wire;
            let take = if is_list(f) {
                quote!(f.required_list(#wire))
            } else {
                quote!(f.required(#wire))
            };
            (quote!(Some(#local)), take)
        })
        .unzip();
    let check = match locals.len() {
        0 => quote!(),
        1 => quote!(let r0 = #(#takes)*?;),
        _ => quote!(let (#(#locals),*) = (#(#takes),*) else { return None; };),
    };
    let mut next = 0;
    let values = fields.iter().map(|f| {
        let n = ident(&f.rust);
        let wire = &f.wire;
        match (required(&f), is_list(f)) {
            (true, _) => {
                let local = quote::format_ident!("r{next}");
                next += 1;
                quote!(#n: #local)
            }
            (false, false) => quote!(#n: f.optional(#wire)),
            (false, true) => quote!(#n: f.optional_list(#wire)),
        }
    });
    let rest = open.then(|| quote!(additional_fields: f.rest(),));
    let f = if fields.is_empty() && !open {
        quote!(_f)
    } else {
        quote!(f)
    };
    quote! {
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                fn fields(#f: &mut ruckus_one_runtime::internal::object::Fields) -> Option<#name> {
                    #check
                    Some(#name { #(#values,)* #rest })
                }
                ruckus_one_runtime::internal::object::Fields::decode(deserializer, #model, fields)
            }
        }
    }
}

/// A list field: the runtime reads and writes its elements one by one (`Fields::required_list`,
/// `Writer::list`), so each element type costs one small loop rather than serde's sequence code.
fn is_list(f: &FieldIr) -> bool {
    matches!(f.ty, TypeRef::Array(_)) && !f.secret
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
            (true, false, _) if is_list(f) => quote!(w.list(#wire, &v.#n);),
            (false, _, _) if is_list(f) => quote!(w.optional_list(#wire, &v.#n);),
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
        impl ruckus_one_runtime::internal::object::WriteFields for #name {
            fn write_fields(&self, #w: &mut ruckus_one_runtime::internal::object::Writer) {
                let #v = self;
                #(#writes)*
                #rest
            }
        }

        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                ruckus_one_runtime::internal::object::Writer::encode(serializer, self)
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
