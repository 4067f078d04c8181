//! The samples of the conformance test ([`super::conformance`]): a value of every named type
//! an operation sends or answers, with the JSON it is sent as, each built once as an
//! `impl Sample` and bounded in size (see [`MAX_SAMPLE_VALUES`]).

use super::gates;
use super::text::ident;
use super::types::{builder_setters, with_setter};
use crate::ir::{self, ApiIr, FieldIr, TypeIr, TypeKind, TypeRef, UnionIr};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{BTreeMap, BTreeSet};

/// A sample: the Rust expression that builds it and the expression of its JSON.
pub(super) type Sample = (TokenStream, TokenStream);

/// The most JSON values (objects, arrays and scalars) one sample may hold.
pub(super) const MAX_SAMPLE_VALUES: u64 = 4096;

/// The samples of one API: one `impl Sample` per named object, enum or union type reached.
///
/// No sample may call itself, directly or not: a type's `impl Sample` is used only where it
/// cannot reach a type whose `impl` is still being built (the current path); elsewhere the
/// array or map that holds it stays empty. A union's sample always uses its first variant,
/// even while that variant is being built, and is then not used until the variant is done.
pub(super) struct Samples<'a> {
    /// Every named type of the API with its area.
    pub(super) types: BTreeMap<&'a str, (&'a ir::AreaIr, &'a TypeIr)>,
    pub(super) krate: &'a proc_macro2::Ident,
    pub(super) api: &'a ApiIr,
    pub(super) area_features: bool,
    /// Types with an `impl Sample` (finished or being built) -> the types whose samples it uses.
    pub(super) calls: BTreeMap<&'a str, BTreeSet<&'a str>>,
    /// The types being built (and aliases being inlined), outermost first.
    pub(super) path: Vec<&'a str>,
    /// Per type being built, the samples its `impl` uses so far.
    pub(super) frames: Vec<BTreeSet<&'a str>>,
    /// The `impl Sample` items, in the order they were finished.
    pub(super) impls: Vec<TokenStream>,
    /// JSON values in each finished sample.
    pub(super) weights: BTreeMap<&'a str, u64>,
    /// Types whose required fields alone would take more than [`MAX_SAMPLE_VALUES`]: no sample.
    pub(super) too_big: BTreeSet<&'a str>,
}
impl<'a> Samples<'a> {
    pub(super) fn new(api: &'a ApiIr, krate: &'a proc_macro2::Ident, area_features: bool) -> Self {
        let types = api
            .areas
            .iter()
            .flat_map(|a| a.types.iter().map(move |t| (t.name.as_str(), (a, t))))
            .collect();
        Samples {
            types,
            krate,
            api,
            area_features,
            calls: BTreeMap::new(),
            path: Vec::new(),
            frames: Vec::new(),
            impls: Vec::new(),
            weights: BTreeMap::new(),
            too_big: BTreeSet::new(),
        }
    }

    /// JSON values in the sample of `t` once built; none for a type without a sample.
    pub(super) fn weight(&self, t: &TypeRef) -> Option<u64> {
        let mut t = t;
        // Aliases are followed; validation bounds how far.
        for _ in 0..=self.types.len() {
            return match t {
                TypeRef::Json | TypeRef::NotShown(_) => Some(2),
                TypeRef::Array(inner) | TypeRef::Map(inner) => {
                    Some(1 + self.weight(inner).unwrap_or(0))
                }
                TypeRef::Named { name, .. } => {
                    if self.too_big.contains(name.as_str()) {
                        return None;
                    }
                    match self.types.get(name.as_str()).map(|(_, ty)| &ty.kind) {
                        Some(TypeKind::Alias(target)) => {
                            t = target;
                            continue;
                        }
                        Some(TypeKind::NotShown(_)) => Some(2),
                        // Being built (a union's variant, an array's items): counted once.
                        _ => Some(self.weights.get(name.as_str()).copied().unwrap_or(1)),
                    }
                }
                _ => Some(1),
            };
        }
        Some(1)
    }

    pub(super) fn path(&self, area: &str, name: &str) -> TokenStream {
        let (krate, api, area, name) =
            (self.krate, ident(&self.api.name), ident(area), ident(name));
        quote!(#krate::#api::#area::#name)
    }

    /// A raw JSON sample.
    pub(super) fn raw(&self) -> Sample {
        (
            quote!(serde_json::json!({"sample": true})),
            quote!(serde_json::json!({"sample": true})),
        )
    }

    /// A sample of a type, or None when it would need a value of a type still being built
    /// (only an array or map can hold one; it stays empty).
    pub(super) fn value(&mut self, t: &'a TypeRef) -> Option<Sample> {
        Some(match t {
            TypeRef::String => (
                quote!("sample".to_owned()),
                quote!(serde_json::Value::from("sample")),
            ),
            TypeRef::Integer | TypeRef::Int32 => (quote!(1), quote!(serde_json::Value::from(1))),
            TypeRef::Number => (quote!(1.5), quote!(serde_json::Value::from(1.5))),
            TypeRef::Boolean => (quote!(true), quote!(serde_json::Value::from(true))),
            TypeRef::Json | TypeRef::NotShown(_) => self.raw(),
            TypeRef::Array(inner) => match self.value(inner) {
                Some((e, j)) => (quote!(vec![#e]), quote!(serde_json::Value::Array(vec![#j]))),
                None => (
                    quote!(Vec::new()),
                    quote!(serde_json::Value::Array(Vec::new())),
                ),
            },
            TypeRef::Map(inner) => match self.value(inner) {
                Some((e, j)) => (
                    quote!(std::collections::BTreeMap::from([("k".to_owned(), #e)])),
                    quote!(support::object([("k", #j)])),
                ),
                None => (
                    quote!(std::collections::BTreeMap::new()),
                    quote!(support::object([])),
                ),
            },
            TypeRef::Named { name, .. } => return self.named(name),
        })
    }

    /// A named type's sample: aliases and raw shapes inline, other types through their
    /// `impl Sample`, built on first use.
    fn named(&mut self, name: &'a str) -> Option<Sample> {
        if self.path.contains(&name) || self.too_big.contains(name) {
            return None;
        }
        let (area, t) = *self.types.get(name)?;
        match &t.kind {
            TypeKind::Alias(target) => {
                self.path.push(name);
                let sample = self.value(target);
                self.path.pop();
                return sample;
            }
            TypeKind::NotShown(_) => return Some(self.raw()),
            TypeKind::Object(..) | TypeKind::Enum(_) | TypeKind::Union(_) => {}
        }
        if !self.calls.contains_key(name) {
            self.calls.insert(name, BTreeSet::new());
            self.path.push(name);
            self.frames.push(BTreeSet::new());
            let body = self.body(t);
            let uses = self.frames.pop().unwrap_or_default();
            self.path.pop();
            self.calls.insert(name, uses);
            let Some((sample, json, weight)) = body else {
                self.too_big.insert(name);
                return None;
            };
            self.weights.insert(name, weight);
            let ty = self.path(&area.name, name);
            let area_gate = gates::area(area, self.area_features);
            let shared = gates::shared_type(t, self.area_features);
            let gate = quote!(#area_gate #shared);
            self.impls.push(quote! {
                #gate
                impl support::Sample for #ty {
                    fn sample() -> Self {
                        #sample
                    }

                    fn sample_json() -> serde_json::Value {
                        #json
                    }
                }
            });
        }
        if self.reaches_path(name) {
            return None;
        }
        Some(self.reference(name))
    }

    /// `<T as Sample>::sample()` and its JSON, recorded as used by the type being built.
    fn reference(&mut self, name: &'a str) -> Sample {
        if let Some(frame) = self.frames.last_mut() {
            frame.insert(name);
        }
        let area = self
            .types
            .get(name)
            .map(|(a, _)| a.name.as_str())
            .unwrap_or_default();
        let ty = self.path(area, name);
        (
            quote!(<#ty as support::Sample>::sample()),
            quote!(<#ty as support::Sample>::sample_json()),
        )
    }

    /// Whether the sample of `name` uses, directly or not, a type still being built.
    fn reaches_path(&self, name: &'a str) -> bool {
        let mut todo = vec![name];
        let mut seen = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if self.path.contains(&n) {
                return true;
            }
            if seen.insert(n) {
                todo.extend(self.calls.get(n).into_iter().flatten().copied());
            }
        }
        false
    }

    /// The object, enum or union an alias chain ends at.
    fn nominal(&self, mut name: &'a str) -> Option<&'a str> {
        for _ in 0..=self.types.len() {
            match &self.types.get(name)?.1.kind {
                TypeKind::Alias(TypeRef::Named { name: next, .. }) => name = next,
                TypeKind::Alias(_) | TypeKind::NotShown(_) => return None,
                TypeKind::Object(..) | TypeKind::Enum(_) | TypeKind::Union(_) => {
                    return Some(name);
                }
            }
        }
        None
    }

    /// The bodies of `sample` and `sample_json` of an object, enum or union, with the JSON
    /// values the sample holds; none for an object whose required fields take too many.
    fn body(&mut self, t: &'a TypeIr) -> Option<(TokenStream, TokenStream, u64)> {
        Some(match &t.kind {
            TypeKind::Enum(values) => {
                let wire = values.first().map(|v| v.wire.as_str()).unwrap_or_default();
                (
                    quote!(Self::from(#wire)),
                    quote!(serde_json::Value::from(#wire)),
                    1,
                )
            }
            TypeKind::Object(fields, open) => return self.object(fields, *open),
            TypeKind::Union(u) => match self.union(u) {
                Some((e, j, w)) => (e, j, w),
                None => {
                    let (e, j) = self.raw();
                    (
                        quote!(Self::Unknown(ruckus_one_runtime::RawJson::from(#e))),
                        j,
                        2,
                    )
                }
            },
            TypeKind::Alias(_) | TypeKind::NotShown(_) => {
                let (e, j) = self.raw();
                (e, j, 2)
            }
        })
    }

    /// Every field set (an optional one only within [`MAX_SAMPLE_VALUES`]): through `new` and
    /// the `with_` setters, or the builder. None when the required fields take too many values.
    fn object(
        &mut self,
        fields: &'a [FieldIr],
        open: bool,
    ) -> Option<(TokenStream, TokenStream, u64)> {
        let mut values = Vec::new();
        let mut json = Vec::new();
        let mut weight = 1 + u64::from(open) * 2;
        for f in fields {
            let (v, w) = if f.secret {
                let secret = (
                    quote!(ruckus_one_runtime::Secret::from("sample")),
                    quote!(serde_json::Value::from("sample")),
                );
                (Some(secret), Some(1))
            } else {
                (self.value(&f.ty), self.weight(&f.ty))
            };
            let fits = w.is_some_and(|w| weight.saturating_add(w) <= MAX_SAMPLE_VALUES);
            if f.required && !fits {
                return None;
            }
            match v {
                Some((e, j)) if fits => {
                    weight += w.unwrap_or(0);
                    let wire = &f.wire;
                    json.push(quote!((#wire, #j)));
                    values.push(Some(e));
                }
                _ => values.push(None),
            }
        }
        let mut expr = if ir::uses_builder(fields) {
            let setters = fields.iter().zip(builder_setters(fields)).zip(&values);
            let calls = setters.filter_map(|((_, method), v)| {
                let method = ident(&method);
                v.as_ref().map(|e| quote!(.#method(#e)))
            });
            quote!(Self::builder() #(#calls)* .build().expect("every field is set"))
        } else {
            let args = fields
                .iter()
                .zip(&values)
                .filter(|(f, _)| f.required && !f.nullable)
                .map(|(_, v)| v.clone().unwrap_or_else(|| quote!(Default::default())));
            let calls = fields
                .iter()
                .zip(&values)
                .filter(|(f, _)| !f.required || f.nullable)
                .filter_map(|(f, v)| {
                    let method = ident(&with_setter(f, fields));
                    v.as_ref().map(|e| quote!(.#method(#e)))
                });
            quote!(Self::new(#(#args),*) #(#calls)*)
        };
        if open {
            let mut extra = "conformanceExtra".to_owned();
            while fields.iter().any(|f| f.wire == extra) {
                extra.push('_');
            }
            expr = quote! {{
                let mut value = #expr;
                value.additional_fields.insert(#extra.to_owned(), serde_json::json!({"sample": true}).into());
                value
            }};
            json.push(quote!((#extra, serde_json::json!({"sample": true}))));
        }
        Some((expr, quote!(support::object([#(#json),*])), weight))
    }

    /// The first variant's sample; with a discriminator, with the variant's tag in it; with the
    /// JSON values it holds. None when the first variant has no sample.
    fn union(&mut self, u: &'a UnionIr) -> Option<(TokenStream, TokenStream, u64)> {
        let v = u.variants.first()?;
        let variant = ident(&v.rust);
        let variant_type = TypeRef::Named {
            name: v.type_name().to_owned(),
            area: String::new(),
        };
        let (e, j) = match self.named(v.type_name()) {
            Some(sample) => sample,
            // The variant is being built (or uses a type that is): use it all the same; this
            // union's sample is then not used until it is done.
            None => {
                let nominal = self.nominal(v.type_name())?;
                self.reference(nominal)
            }
        };
        let w = self.weight(&variant_type)?;
        let (Some(d), Some(tag)) = (&u.discriminator, &v.tag) else {
            return Some((quote!(Self::#variant(#e)), j, w));
        };
        // Validation made the variant an object whose field `d` is a string or an enum.
        let (_, vt) = self.types.get(v.type_name())?;
        let TypeKind::Object(fields, _) = &vt.kind else {
            return None;
        };
        let f = fields.iter().find(|f| &f.wire == d)?;
        let field = ident(&f.rust);
        let mut set = match &f.ty {
            TypeRef::Named { name, area } => {
                let path = self.path(area, name);
                quote!(#path::from(#tag))
            }
            _ => quote!(#tag.to_owned()),
        };
        if !f.required || f.nullable {
            set = quote!(Some(#set));
        }
        Some((
            quote! {{
                let mut value = #e;
                value.#field = #set;
                Self::#variant(value)
            }},
            quote!(support::tagged(#j, #d, #tag)),
            w,
        ))
    }
}
