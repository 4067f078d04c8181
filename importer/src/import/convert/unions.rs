//! Unions: discriminated bases and `oneOf`/`anyOf`.

use super::{Converter, Draft, Kind, Variant, is_raw};
use crate::import::naming;
use crate::openapi::{Document, EMPTY, Schema};
use std::collections::BTreeSet;

impl Converter<'_> {
    /// A base schema with a discriminator: the union of the schemas that extend it.
    pub(super) fn discriminated(
        &mut self,
        file: &str,
        raw: &str,
        subs: &[String],
        clean: &naming::Clean,
        source: &str,
    ) -> String {
        let doc = self.doc(file);
        let schema = doc.schema_named(raw).unwrap_or(&EMPTY);
        let property = schema
            .discriminator
            .as_ref()
            .and_then(|d| d.property_name.clone());
        let mapping = mapping(schema);
        let name = self.free_name(&clean.name, &clean.version, file);
        self.taken.insert(name.clone());
        self.by_source
            .insert((file.to_owned(), raw.to_owned()), name.clone());
        let mut variants = Vec::new();
        for sub in subs {
            let ty = self.named(file, sub);
            if is_raw(&ty) {
                continue;
            }
            let value = mapping
                .iter()
                .find(|(_, target)| target == sub)
                .map(|(v, _)| v.clone())
                .unwrap_or_else(|| sub.clone());
            let short = ruckus_codegen::names::camel(sub.strip_suffix(raw).unwrap_or(""));
            let variant_name = (!short.is_empty()
                && short != "Unknown"
                && short.starts_with(|c: char| c.is_ascii_alphabetic()))
            .then_some(short);
            variants.push(Variant {
                ty,
                value: property.as_ref().map(|_| value),
                name: variant_name,
            });
        }
        dedup_variant_names(&mut variants);
        if variants.is_empty() {
            self.taken.remove(&name);
            return "json".into();
        }
        self.drafts.insert(
            name.clone(),
            Draft {
                wanted: clean.name.clone(),
                name: name.clone(),
                source: source.to_owned(),
                kind: Kind::Union {
                    discriminator: property,
                    variants,
                },
            },
        );
        name
    }

    /// `oneOf`/`anyOf`: one base with a discriminator shared by every alternative becomes that
    /// base's union; `[X, {type: object}]` is `X` (an open object anyway); alternatives that are
    /// all named objects become an untagged union; anything else stays raw JSON.
    pub(super) fn union(
        &mut self,
        file: &str,
        schema: &Schema,
        owner: &str,
        named: Option<(&naming::Clean, &str)>,
    ) -> String {
        let doc = self.doc(file);
        let alts = schema.alternatives().unwrap_or(&[]);
        let refs: Vec<&str> = alts.iter().filter_map(Schema::ref_name).collect();
        if refs.len() == alts.len() && !refs.is_empty() {
            let bases: BTreeSet<String> = refs
                .iter()
                .filter_map(|r| discriminated_base(doc, r))
                .collect();
            if bases.len() == 1 && refs.iter().all(|r| discriminated_base(doc, r).is_some()) {
                let base = bases.into_iter().next().unwrap_or_default();
                return self.named(file, &base);
            }
        }
        let bare_object = |v: &Schema| {
            v.ref_name().is_none()
                && v.properties.is_none()
                && v.all_of.is_none()
                && v.single_type().is_none_or(|t| t == "object")
        };
        let real: Vec<&Schema> = alts.iter().filter(|v| !bare_object(v)).collect();
        if real.len() == 1 {
            return self.expr(file, real[0], owner);
        }
        if refs.len() != alts.len() || refs.is_empty() {
            return "json".into();
        }
        let mut variants = Vec::new();
        for r in &refs {
            let ty = self.named(file, r);
            if !self
                .drafts
                .get(&ty)
                .is_some_and(|d| matches!(d.kind, Kind::Object(_)))
                && !self.existing.contains_key(&ty)
            {
                return "json".into();
            }
            variants.push(Variant {
                ty,
                value: None,
                name: None,
            });
        }
        let (wanted, version, source) = match named {
            Some((clean, source)) => (clean.name.clone(), clean.version.clone(), source.to_owned()),
            None => (owner.to_owned(), String::new(), owner.to_owned()),
        };
        let kind = Kind::Union {
            discriminator: None,
            variants,
        };
        self.place(&wanted, &version, file, &source, kind)
    }
}

fn dedup_variant_names(variants: &mut [Variant]) {
    let mut seen = BTreeSet::new();
    for v in variants.iter_mut() {
        let rust = v.name.clone().unwrap_or_else(|| v.ty.clone());
        if !seen.insert(rust) {
            v.name = None;
        }
    }
}

/// The schemas of the file whose `allOf` names `base`, sorted.
pub(super) fn subtypes(doc: &Document, base: &str) -> Vec<String> {
    let mut out: Vec<String> = doc
        .components
        .schemas
        .iter()
        .filter(|(_, s)| {
            s.all_of
                .iter()
                .flatten()
                .any(|p| p.ref_name() == Some(base))
        })
        .map(|(k, _)| k.clone())
        .collect();
    out.sort();
    out
}

/// The base with a discriminator that `raw` extends through `allOf`, if any.
pub(super) fn discriminated_base(doc: &Document, raw: &str) -> Option<String> {
    doc.schema_named(raw)?
        .all_of
        .as_ref()?
        .iter()
        .filter_map(Schema::ref_name)
        .find(|b| {
            doc.schema_named(b)
                .is_some_and(|s| s.discriminator.is_some())
        })
        .map(str::to_owned)
}

/// `discriminator.mapping` as (value, schema name) pairs.
pub(super) fn mapping(schema: &Schema) -> Vec<(String, String)> {
    let Some(d) = &schema.discriminator else {
        return Vec::new();
    };
    d.mapping
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.rsplit('/').next()?.to_owned())))
        .collect()
}
