//! Models: structs with `new` (or a builder), aliases and raw JSON shapes; forward-compatible
//! enums and unions are in [`super::unions`].

use super::describe::provenance_line;
use super::text::{code, doc, ident, prose, rust_type, type_doc};
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
        TypeKind::Enum(variants) => unions::enumeration(&name, &mut lines, variants),
        TypeKind::Union(u) => unions::union(&t.name, &mut lines, u, area, api),
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

/// A field's rustdoc. With a description of its own: the description, then a line of wire
/// facts (name, type, presence and constraints), deprecation and provenance. Without one: a
/// single line, the wire name in words followed by only what the Rust signature does not say
/// (nullability, redaction, constraints, deprecation, a provenance of its own); the wire name
/// itself is in the serde code.
fn field_doc(f: &FieldIr) -> Vec<String> {
    let Some(description) = f.description.as_deref().filter(|d| !d.trim().is_empty()) else {
        return vec![bare_field_doc(f)];
    };
    let mut lines = vec![prose(description), String::new()];
    let mut facts = vec![format!("Wire name {}", code(&f.wire)), type_doc(&f.ty)];
    facts.push(if f.required {
        "required".into()
    } else {
        "optional".into()
    });
    facts.extend(extra_facts(f));
    lines.push(format!("{}.", facts.join("; ")));
    if let Some(dep) = &f.deprecated {
        lines.push(format!("Deprecated: {}", prose(dep)));
    }
    if let Some(p) = f.stated_provenance() {
        lines.push(provenance_line(p));
    }
    lines
}

/// What a field's Rust type does not say: null on the wire, redaction, constraints.
fn extra_facts(f: &FieldIr) -> Vec<String> {
    let mut facts = Vec::new();
    if f.nullable {
        facts.push("may be null".into());
    }
    if f.secret {
        facts.push("secret: redacted in `Debug`".into());
    }
    for (k, v) in &f.constraints {
        facts.push(format!("{k}: {}", prose(v)));
    }
    facts
}

/// The one doc line of a field without a description (see [`field_doc`]).
fn bare_field_doc(f: &FieldIr) -> String {
    let label = words(&f.wire);
    let mut line = if label.is_empty() {
        code(&f.wire)
    } else {
        prose(&label)
    };
    let facts = extra_facts(f);
    if !facts.is_empty() {
        line.push_str(&format!(" ({})", facts.join("; ")));
    }
    line.push('.');
    if let Some(dep) = &f.deprecated {
        line.push_str(&format!(" Deprecated: {}", prose(dep)));
    }
    if let Some(p) = f.stated_provenance() {
        line.push(' ');
        line.push_str(&provenance_line(p));
    }
    line
}

/// Words that read as acronyms in a field's label.
const ACRONYMS: &[&str] = &[
    "aaa", "acl", "ap", "api", "bss", "cpe", "cpu", "dhcp", "dns", "dpsk", "http", "https", "id",
    "ip", "json", "lan", "lldp", "mac", "mfa", "mld", "mtu", "nat", "ntp", "os", "poe", "psk",
    "qos", "radius", "rssi", "saml", "sms", "snmp", "snr", "ssh", "ssid", "sso", "tls", "ttl",
    "uri", "url", "uuid", "vlan", "wan", "wlan",
];

/// A wire name as words (`expireDateTime` -> `Expire date time`, `vlanIds` -> `VLAN IDs`):
/// split at `_`, `-`, spaces, dots and case changes; acronyms upper case, the first letter
/// capital. Empty when the name has no letter or digit.
fn words(wire: &str) -> String {
    let chars: Vec<char> = wire.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let before = i.checked_sub(2).map(|j| chars[j]);
        let boundary = match prev {
            // `dateTime`; `load24`, but not `ipv4` or `l2`.
            Some(p) if p.is_lowercase() => {
                c.is_uppercase()
                    || (c.is_ascii_digit()
                        && word.chars().count() > 1
                        && word.to_lowercase() != "ipv")
            }
            // `HTTPServer`, but not `160MHz`.
            Some(p) if p.is_uppercase() => {
                c.is_uppercase()
                    && before.is_some_and(char::is_uppercase)
                    && next.is_some_and(char::is_lowercase)
            }
            // `ipv4Address`, but not `24G` or `160MHz`.
            Some(p) if p.is_ascii_digit() => {
                c.is_uppercase() && next.is_some_and(char::is_lowercase)
            }
            _ => false,
        };
        if boundary && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c);
    }
    words.extend((!word.is_empty()).then_some(word));
    let words: Vec<String> = words.into_iter().map(|w| word_case(&w)).collect();
    let mut label = words.join(" ");
    if let Some(first) = label.chars().next()
        && first.is_lowercase()
    {
        label = first.to_uppercase().chain(label.chars().skip(1)).collect();
    }
    label
}

/// One word of a label: an acronym upper case (`ipv4` -> `IPv4`, `aps` -> `APs`), a plain or
/// capitalised word lower case, any other (`MHz`, `24G`) as written.
fn word_case(w: &str) -> String {
    let mut rest = w.chars().skip(1);
    let plain = rest.all(|c| c.is_lowercase() || c.is_ascii_digit());
    if !plain {
        return w.to_owned();
    }
    let lower = w.to_lowercase();
    if let Some(version) = lower.strip_prefix("ipv") {
        return format!("IPv{version}");
    }
    let acronym = |a: &str| ACRONYMS.contains(&a);
    match lower.strip_suffix('s') {
        _ if acronym(&lower) => lower.to_uppercase(),
        Some(stem) if acronym(stem) => format!("{}s", stem.to_uppercase()),
        _ => lower,
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn wire_names_read_as_words() {
        for (wire, label) in [
            ("id", "ID"),
            ("expireDateTime", "Expire date time"),
            ("vlanIds", "VLAN IDs"),
            ("bssColoringEnabled", "BSS coloring enabled"),
            ("maxRadioLoad24G", "Max radio load 24G"),
            ("enable50G", "Enable 50G"),
            ("l2AclPolicyName", "L2 ACL policy name"),
            ("160MHz", "160MHz"),
            ("_links", "Links"),
            ("HTTPServer", "HTTP server"),
            ("ipv4Address", "IPv4 address"),
            ("snake_case-and.dots", "Snake case and dots"),
            ("numberOfAps", "Number of APs"),
            ("dns", "DNS"),
            ("", ""),
            ("--", ""),
        ] {
            assert_eq!(words(wire), label, "{wire}");
        }
    }
}
