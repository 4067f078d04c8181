//! OpenAPI schemas → draft spec types: `$ref`s become named types (deduplicated by shape),
//! `allOf` is flattened, `oneOf`/`anyOf` and discriminated bases become unions, inline objects
//! and enums get `<Owner><Field>` names. An inline shape identical to one met before reuses its
//! type (values in the same order: the order is the description's and the variants'), and
//! [`Converter::name_shared`] names a shared type after its owners' common ending. Facts only: names, types, required, nullable, bounds,
//! enumerations; the descriptions' prose is never carried over.

use super::naming;
use crate::openapi::{Document, EMPTY, Schema};
use heck::ToUpperCamelCase;
use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// What a draft type is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Object(Vec<DraftField>),
    Enum(Vec<String>),
    Union {
        discriminator: Option<String>,
        variants: Vec<Variant>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub ty: String,
    pub value: Option<String>,
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DraftField {
    pub name: String,
    pub ty: String,
    pub required: bool,
    pub nullable: bool,
    pub constraints: Vec<(String, Value)>,
    pub deprecated: bool,
    /// A credential (a string field named like a password, passphrase or secret): redacted
    /// in `Debug` output.
    pub secret: bool,
}

/// A type the importer adds to the spec.
#[derive(Debug, Clone)]
pub struct Draft {
    pub name: String,
    /// The name it would have had were it free (`Foo` for `Foo2`).
    pub wanted: String,
    /// `<file> <SchemaName>` (the owning schema for inline shapes).
    pub source: String,
    pub kind: Kind,
}

/// Converts schemas of the loaded descriptions, remembering what it named.
pub struct Converter<'a> {
    docs: &'a BTreeMap<String, Document>,
    /// Every type-namespace name in use: curated types, operation builders, reserved, drafts.
    taken: BTreeSet<String>,
    /// Names the curated spec gives the roots (its references to imported types): kept free
    /// for them until their root is converted.
    reserved: BTreeSet<String>,
    /// Schemas the curated spec names (a root that is a `$ref`): `(file, schema)` -> name.
    pins: BTreeMap<(String, String), String>,
    /// The curated object types and the wire names of their fields.
    existing: BTreeMap<String, BTreeSet<String>>,
    by_source: BTreeMap<(String, String), String>,
    /// The named schemas being converted, innermost last.
    schemas: Vec<String>,
    /// The description operation whose bodies are being converted (`operationId`).
    operation: String,
    pub drafts: BTreeMap<String, Draft>,
    /// Fields a description gives a curated type that it lacks, by type (reported only).
    pub additions: BTreeMap<String, Vec<DraftField>>,
    /// Guards against endless recursion through malformed descriptions.
    depth: usize,
    /// The version being imported when it is not the operation's default (`v1`): a type of
    /// that version whose plain name is taken is named after it.
    version: String,
    /// The first draft of each shape (its kind written out), so that an identical inline
    /// shape reuses it whatever name it would get.
    shapes: BTreeMap<String, String>,
    /// The name the curated spec gives the root being converted: its own inline shape keeps
    /// that name even when an identical shape came first.
    root: Option<String>,
    /// For each draft that identical shapes share, the names each of them would have had
    /// (the first's included), in traversal order.
    owners: BTreeMap<String, Vec<String>>,
    /// The names the curated spec gives roots: never renamed.
    root_names: BTreeSet<String>,
}

const MAX_DEPTH: usize = 64;

impl<'a> Converter<'a> {
    /// `taken`: names no draft may take; `existing`: the curated object types (a schema of
    /// the same name maps to one of them).
    pub fn new(
        docs: &'a BTreeMap<String, Document>,
        taken: BTreeSet<String>,
        existing: BTreeMap<String, BTreeSet<String>>,
    ) -> Self {
        Converter {
            docs,
            taken,
            reserved: BTreeSet::new(),
            pins: BTreeMap::new(),
            existing,
            by_source: BTreeMap::new(),
            schemas: Vec::new(),
            operation: String::new(),
            drafts: BTreeMap::new(),
            additions: BTreeMap::new(),
            depth: 0,
            version: String::new(),
            shapes: BTreeMap::new(),
            root: None,
            owners: BTreeMap::new(),
            root_names: BTreeSet::new(),
        }
    }

    /// Keeps `name` free for the root the curated spec names so.
    pub fn reserve(&mut self, name: &str) {
        self.reserved.insert(name.to_owned());
    }

    /// Names the schema `#/components/schemas/<raw>` of `file` `name`. A schema the curated
    /// spec names twice keeps its first name (the other is returned as the error).
    pub fn pin(&mut self, file: &str, raw: &str, name: &str) -> Result<(), String> {
        let key = (file.to_owned(), raw.to_owned());
        match self.pins.get(&key) {
            Some(existing) if existing != name => Err(existing.clone()),
            _ => {
                self.pins.insert(key, name.to_owned());
                self.reserve(name);
                Ok(())
            }
        }
    }

    /// Converts a root the curated spec names `name` (an inline body or field schema).
    pub fn root(&mut self, file: &str, schema: &Schema, name: &str) -> Option<String> {
        self.reserved.remove(name);
        self.root = Some(name.to_owned());
        self.root_names.insert(name.to_owned());
        let out = self.body(file, schema, name);
        self.root = None;
        out
    }

    /// Sets what the next root is read from: the description operation, the named schema it
    /// sits in (a curated type's field), and the version it converts under (`""` for none).
    pub fn set_context(&mut self, operation: &str, within: Option<&str>, version: &str) {
        self.operation = operation.to_owned();
        self.schemas = within.into_iter().map(str::to_owned).collect();
        self.version = version.to_owned();
    }

    fn doc(&self, file: &str) -> &'a Document {
        static NONE: LazyLock<Document> = LazyLock::new(Document::default);
        self.docs.get(file).unwrap_or(&NONE)
    }

    /// The type expression of an operation's body; `None` when the schema says nothing more
    /// than "some JSON".
    pub fn body(&mut self, file: &str, schema: &Schema, owner: &str) -> Option<String> {
        let ty = self.expr(file, schema, owner);
        (!is_raw(&ty)).then_some(ty)
    }

    /// Adds the description's fields an existing spec object type lacks (never as required:
    /// where the documents speak, they win).
    pub fn reconcile(&mut self, existing: &str, file: &str, schema: &Schema) {
        let Some(known) = self.existing.get(existing).cloned() else {
            return;
        };
        let fields = self.fields(file, schema, existing);
        let added = self.additions.entry(existing.to_owned()).or_default();
        for mut f in fields {
            if known.contains(&f.name) || added.iter().any(|a| a.name == f.name) {
                continue;
            }
            f.required = false;
            added.push(f);
        }
    }

    /// A type expression for `schema`; inline shapes are named `owner` (+ a field suffix).
    pub fn expr(&mut self, file: &str, schema: &Schema, owner: &str) -> String {
        if self.depth > MAX_DEPTH {
            return "json".into();
        }
        self.depth += 1;
        let out = self.expr_inner(file, schema, owner);
        self.depth -= 1;
        out
    }

    fn expr_inner(&mut self, file: &str, schema: &Schema, owner: &str) -> String {
        if let Some(raw) = schema.ref_name() {
            return self.named(file, raw);
        }
        // `allOf: [$ref]` wrapping a reference to add prose.
        if let Some([only]) = schema.all_of.as_deref() {
            if schema.properties.is_none() {
                return self.expr(file, only, owner);
            }
        }
        if schema.alternatives().is_some() {
            return self.union(file, schema, owner, None);
        }
        if let Some(values) = string_enum(schema) {
            return self.place(owner, "", file, owner, Kind::Enum(values));
        }
        if schema.all_of.is_some() || schema.properties.is_some() {
            let fields = self.fields(file, schema, owner);
            if fields.is_empty() {
                return "json".into();
            }
            return self.place(owner, "", file, owner, Kind::Object(fields));
        }
        self.plain(file, schema, owner)
    }

    /// Scalars, arrays and maps.
    fn plain(&mut self, file: &str, schema: &Schema, owner: &str) -> String {
        match schema.single_type() {
            Some("string") => "string".into(),
            Some("integer") if schema.format.as_deref() == Some("int64") => "int64".into(),
            Some("integer") => "integer".into(),
            Some("number") => "number".into(),
            Some("boolean") => "boolean".into(),
            Some("array") => match &schema.items {
                Some(items) => format!("array<{}>", self.expr(file, items, owner)),
                None => "array<json>".into(),
            },
            _ => match schema.value_schema() {
                Some(v) => format!("map<{}>", self.expr(file, v, owner)),
                None => "json".into(),
            },
        }
    }

    /// The named type for `#/components/schemas/<raw>` of `file`.
    fn named(&mut self, file: &str, raw: &str) -> String {
        self.schemas.push(raw.to_owned());
        let out = self.named_inner(file, raw);
        self.schemas.pop();
        out
    }

    fn named_inner(&mut self, file: &str, raw: &str) -> String {
        let key = (file.to_owned(), raw.to_owned());
        let doc = self.doc(file);
        let schema = doc.schema_named(raw).unwrap_or(&EMPTY);
        if let Some(name) = self.by_source.get(&key) {
            return name.clone();
        }
        let clean = match self.pins.get(&key) {
            Some(pin) => {
                self.reserved.remove(pin);
                naming::Clean {
                    name: pin.clone(),
                    version: String::new(),
                }
            }
            None => naming::clean(raw),
        };
        let source = format!("{file} {raw}");
        if schema.discriminator.is_some() {
            let subs = subtypes(doc, raw);
            if !subs.is_empty() {
                return self.discriminated(file, raw, &subs, &clean, &source);
            }
        }
        if schema.alternatives().is_some() {
            let ty = self.union(file, schema, &clean.name, Some((&clean, &source)));
            self.by_source.insert(key, ty.clone());
            return ty;
        }
        if let Some(values) = string_enum(schema) {
            let ty = self.place(
                &clean.name,
                &clean.version,
                file,
                &source,
                Kind::Enum(values),
            );
            self.by_source.insert(key, ty.clone());
            return ty;
        }
        let objectish = schema.all_of.is_some() || schema.properties.is_some();
        if !objectish {
            let ty = self.plain(file, schema, &clean.name);
            self.by_source.insert(key, ty.clone());
            return ty;
        }
        if self.existing.contains_key(&clean.name) {
            self.by_source.insert(key, clean.name.clone());
            self.reconcile(&clean.name, file, schema);
            return clean.name;
        }
        // Reserve a name first: the object may reach itself through its fields.
        let provisional = self.free_name(&clean.name, &clean.version, file);
        self.taken.insert(provisional.clone());
        self.by_source.insert(key.clone(), provisional.clone());
        let fields = self.fields(file, schema, &provisional);
        if fields.is_empty() {
            self.taken.remove(&provisional);
            self.by_source.insert(key, "json".into());
            return "json".into();
        }
        let kind = Kind::Object(fields);
        if provisional != clean.name && !self.mentioned(&provisional) {
            if let Some(same) = self.same_shape(&clean.name, &kind) {
                self.taken.remove(&provisional);
                self.by_source.insert(key, same.clone());
                return same;
            }
        }
        if let Some(same) = self.sibling(&key, &provisional, &kind) {
            self.taken.remove(&provisional);
            self.by_source.insert(key, same.clone());
            return same;
        }
        self.shapes
            .entry(shape_key(&kind))
            .or_insert_with(|| provisional.clone());
        self.drafts.insert(
            provisional.clone(),
            Draft {
                name: provisional.clone(),
                wanted: clean.name.clone(),
                source,
                kind,
            },
        );
        provisional
    }

    /// A base schema with a discriminator: the union of the schemas that extend it.
    fn discriminated(
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
            let short = sub.strip_suffix(raw).unwrap_or("").to_upper_camel_case();
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
    fn union(
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

    /// Registers a draft under `wanted` (or the first free alternative), reusing a draft of the
    /// same name and shape.
    fn place(
        &mut self,
        wanted: &str,
        version: &str,
        file: &str,
        source: &str,
        kind: Kind,
    ) -> String {
        if let Some(same) = self.same_shape(wanted, &kind) {
            return same;
        }
        let inline = !source.contains(' ');
        let shape = shape_key(&kind);
        if inline && self.root.as_deref() != Some(wanted) {
            if let Some(same) = self.shapes.get(&shape).cloned() {
                let first = self
                    .drafts
                    .get(&same)
                    .map_or(same.clone(), |d| d.wanted.clone());
                self.shared_by(&same, &first, wanted);
                return same;
            }
        }
        let name = self.free_name(wanted, version, file);
        self.taken.insert(name.clone());
        self.shapes.entry(shape).or_insert_with(|| name.clone());
        // An inline shape cites the schema it sits in.
        let source = if !inline {
            source.to_owned()
        } else {
            match self.schemas.last() {
                Some(schema) => format!("{file} {schema} (inline)"),
                None => format!("{file} {} (inline body schema)", self.operation),
            }
        };
        self.drafts.insert(
            name.clone(),
            Draft {
                wanted: wanted.to_owned(),
                name: name.clone(),
                source,
                kind,
            },
        );
        name
    }

    /// An earlier named object of the same shape whose name differs from `name` only in its
    /// first word (`GuestWifiWlanAdvancedCustomization` and `AaaWifiWlanAdvancedCustomization`):
    /// the vendor's copies of one object for several kinds of a thing share one type. A schema
    /// the curated spec names keeps its own type, and so does one a draft already mentions.
    fn sibling(&mut self, key: &(String, String), name: &str, kind: &Kind) -> Option<String> {
        if self.pins.contains_key(key) || self.mentioned(name) {
            return None;
        }
        let same = self.shapes.get(&shape_key(kind))?.clone();
        let draft = self.drafts.get(&same)?;
        if draft.source.contains("(inline") || !siblings(&same, name) {
            return None;
        }
        self.shared_by(&same, &same, name);
        Some(same)
    }

    /// Records that the shape of draft `draft` (first named `first`) stands also where it would
    /// have been named `name`.
    fn shared_by(&mut self, draft: &str, first: &str, name: &str) {
        let owners = self.owners.entry(draft.to_owned()).or_default();
        if owners.is_empty() {
            owners.push(first.to_owned());
        }
        owners.push(name.to_owned());
    }

    /// Names each shared type after the words its owners' names end with in common
    /// (`WifiWlanManagementFrameProtection` for `AaaWifiWlanManagementFrameProtection` and
    /// `PskWifiWlanManagementFrameProtection`), when that is two words or more and free; else it
    /// keeps the first owner's name. Names the curated spec gives are kept. References follow.
    /// Run once, after every root is converted; the order is the drafts' name order, so the
    /// result is deterministic.
    pub fn name_shared(&mut self) {
        let mut renames: BTreeMap<String, String> = BTreeMap::new();
        let owners = std::mem::take(&mut self.owners);
        for (from, names) in owners {
            let kept = self.root_names.contains(&from) || self.pins.values().any(|p| *p == from);
            let Some(to) = common_suffix(&names) else {
                continue;
            };
            if kept || to == from || !self.name_free(&to) {
                continue;
            }
            self.taken.insert(to.clone());
            renames.insert(from, to);
        }
        if renames.is_empty() {
            return;
        }
        let drafts = std::mem::take(&mut self.drafts);
        for (name, mut d) in drafts {
            let name = renames.get(&name).cloned().unwrap_or(name);
            d.name = name.clone();
            rename_refs(&mut d.kind, &renames);
            self.drafts.insert(name, d);
        }
        for (from, to) in &renames {
            self.taken.remove(from);
            for v in self.shapes.values_mut() {
                if v == from {
                    v.clone_from(to);
                }
            }
        }
    }

    fn name_free(&self, name: &str) -> bool {
        !self.taken.contains(name)
            && !self.reserved.contains(name)
            && !self.drafts.contains_key(name)
    }

    fn same_shape(&self, wanted: &str, kind: &Kind) -> Option<String> {
        self.drafts
            .get(wanted)
            .filter(|d| &d.kind == kind)
            .map(|d| d.name.clone())
    }

    /// Whether a draft's field or variant already names `name` (then it cannot be merged away).
    fn mentioned(&self, name: &str) -> bool {
        self.drafts
            .values()
            .any(|d| references(&d.kind).iter().any(|r| r == name))
    }

    /// `wanted`, else `wanted` + version, else file prefix + `wanted`, else numbered.
    fn free_name(&self, wanted: &str, version: &str, file: &str) -> String {
        let prefix = naming::file_prefix(file);
        let mut candidates = vec![wanted.to_owned()];
        let version = if version.is_empty() {
            &self.version
        } else {
            version
        };
        if !version.is_empty() {
            // `V1_1` reads `V1Dot1`, `json` reads `Json`: UpperCamel case has no underscores.
            let parts: Vec<String> = version
                .split('_')
                .map(|p| {
                    let mut chars = p.chars();
                    chars.next().map_or(String::new(), |f| {
                        format!(
                            "{}{}",
                            f.to_ascii_uppercase(),
                            chars.as_str().to_ascii_lowercase()
                        )
                    })
                })
                .collect();
            candidates.push(format!("{wanted}{}", parts.join("Dot")));
        }
        if !wanted.starts_with(&prefix) {
            candidates.push(format!("{prefix}{wanted}"));
        }
        let free = |c: &String| !self.taken.contains(c) && !self.reserved.contains(c);
        if let Some(c) = candidates.iter().find(|c| free(c)) {
            return c.clone();
        }
        (2..)
            .map(|n| format!("{wanted}{n}"))
            .find(|c| free(c))
            .unwrap_or_else(|| wanted.to_owned())
    }

    /// The fields of an object schema, `allOf` parts flattened in order (a later part's
    /// property replaces an earlier one of the same name).
    fn fields(&mut self, file: &str, schema: &Schema, owner: &str) -> Vec<DraftField> {
        let doc = self.doc(file);
        let mut props = Vec::new();
        let mut required = BTreeSet::new();
        collect(doc, schema, &mut props, &mut required, 0);
        let mut out = Vec::new();
        for (name, prop) in props {
            let flags = doc.resolve(prop);
            let field_owner = format!("{owner}{}", name.to_upper_camel_case());
            let ty = self.expr(file, prop, &field_owner);
            let read_only = prop.read_only || flags.read_only;
            let write_only = prop.write_only || flags.write_only;
            out.push(DraftField {
                required: required.contains(&name) && !read_only && !write_only,
                nullable: prop.nullable || flags.nullable,
                constraints: constraints(flags, &ty),
                deprecated: prop.deprecated || flags.deprecated,
                secret: ty == "string" && is_credential(&name),
                ty,
                name,
            });
        }
        out
    }
}

/// The schema of property `name` of an object schema (its `allOf` parts flattened), as written
/// (a `$ref` stays a `$ref`).
pub fn property<'v>(doc: &'v Document, schema: &'v Schema, name: &str) -> Option<&'v Schema> {
    let mut props = Vec::new();
    collect(doc, schema, &mut props, &mut BTreeSet::new(), 0);
    props.into_iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Properties and required names of a schema and its `allOf` parts, in order.
fn collect<'v>(
    doc: &'v Document,
    schema: &'v Schema,
    props: &mut Vec<(String, &'v Schema)>,
    required: &mut BTreeSet<String>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let schema = doc.resolve(schema);
    for part in schema.all_of.iter().flatten() {
        collect(doc, part, props, required, depth + 1);
    }
    for (k, v) in schema.properties.iter().flatten() {
        match props.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = v,
            None => props.push((k.clone(), v)),
        }
    }
    required.extend(schema.required.iter().cloned());
}

/// Bounds and formats the spec records (`constraints`), in a fixed order.
fn constraints(schema: &Schema, ty: &str) -> Vec<(String, Value)> {
    let b = &schema.bounds;
    let mut out = Vec::new();
    for (bound, to) in [
        (&b.min_length, "min_length"),
        (&b.max_length, "max_length"),
        (&b.minimum, "minimum"),
        (&b.maximum, "maximum"),
        (&b.min_items, "min_items"),
        (&b.max_items, "max_items"),
    ] {
        if let Some(n) = bound {
            out.push((to.to_owned(), Value::Number(n.clone())));
        }
    }
    if let Some(format) = &schema.format {
        if !(ty == "int64" && format == "int64") {
            out.push(("format".to_owned(), Value::String(format.clone())));
        }
    }
    match &schema.default {
        Some(v @ (Value::Bool(_) | Value::Number(_))) => out.push(("default".into(), v.clone())),
        Some(Value::String(s)) if s.len() <= 80 && !s.contains('\n') => {
            out.push(("default".into(), Value::String(s.clone())))
        }
        _ => {}
    }
    out
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

/// Whether a field name says it holds a credential.
fn is_credential(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "password",
        "passphrase",
        "secret",
        "privatekey",
        "apikey",
        "psk",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// The type names a type expression mentions (`array<Foo>` → `Foo`).
pub fn names_in(ty: &str) -> Vec<String> {
    ty.split(['<', '>'])
        .filter(|p| p.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(str::to_owned)
        .collect()
}

/// The type names a draft mentions.
pub fn references(kind: &Kind) -> Vec<String> {
    match kind {
        Kind::Object(fields) => fields.iter().flat_map(|f| names_in(&f.ty)).collect(),
        Kind::Union { variants, .. } => variants.iter().map(|v| v.ty.clone()).collect(),
        Kind::Enum(_) => Vec::new(),
    }
}

/// A shape written out, the key under which identical shapes share one draft: kind, values
/// in order (the order is the description's and becomes the variants' order, so two orders are
/// two shapes), fields with every fact the spec records.
fn shape_key(kind: &Kind) -> String {
    format!("{kind:?}")
}

/// Whether two names differ only in their first word (a word begins with an upper-case
/// letter), the rest being two words or more: `AaaWifiWlan` and `PskWifiWlan` are siblings,
/// `ApIotSettings` and `ApUsbSettings` are not.
fn siblings(a: &str, b: &str) -> bool {
    fn rest(name: &str) -> Option<&str> {
        let at = name
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_uppercase())?
            .0;
        Some(&name[at..])
    }
    match (rest(a), rest(b)) {
        (Some(ra), Some(rb)) => {
            ra == rb && a != b && ra.chars().filter(char::is_ascii_uppercase).count() >= 2
        }
        _ => false,
    }
}

/// The longest ending all `names` share that starts a word in each (the whole name, or an
/// upper-case letter after a character that is not one and before a lower-case one: `Wlan` in
/// `Hotspot20Wlan`, not `GHz` in `Radio5GHz`) and is two words or more; `None` otherwise.
pub fn common_suffix(names: &[String]) -> Option<String> {
    let first = names.first()?;
    let mut len = first.len();
    for n in &names[1..] {
        let same = first
            .bytes()
            .rev()
            .zip(n.bytes().rev())
            .take_while(|(a, b)| a == b)
            .count();
        len = len.min(same);
    }
    let starts_word = |n: &str, at: usize| {
        let b = n.as_bytes();
        let lower_next = b.get(at + 1).is_none_or(u8::is_ascii_lowercase);
        at == 0 || (b[at].is_ascii_uppercase() && !b[at - 1].is_ascii_uppercase() && lower_next)
    };
    while len > 0 {
        let ok = names.iter().all(|n| {
            let at = n.len() - len;
            n.is_char_boundary(at) && starts_word(n, at)
        });
        if ok {
            break;
        }
        len -= 1;
    }
    let suffix = &first[first.len() - len..];
    let words = suffix
        .char_indices()
        .filter(|&(i, _)| starts_word(suffix, i) || i == 0)
        .count();
    (len > 0 && words >= 2).then(|| suffix.to_owned())
}

/// Renames the type names a draft mentions.
fn rename_refs(kind: &mut Kind, renames: &BTreeMap<String, String>) {
    match kind {
        Kind::Object(fields) => {
            for f in fields {
                f.ty = rename_expr(&f.ty, renames);
            }
        }
        Kind::Union { variants, .. } => {
            for v in variants {
                v.ty = rename_expr(&v.ty, renames);
            }
        }
        Kind::Enum(_) => {}
    }
}

/// `array<Old>` -> `array<New>`: every name of the expression that `renames` maps.
pub fn rename_expr(ty: &str, renames: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(ty.len());
    let mut word = String::new();
    for c in ty.chars().chain(std::iter::once('<')) {
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

/// Whether a type expression is only "some JSON".
pub fn is_raw(ty: &str) -> bool {
    matches!(ty, "json" | "array<json>" | "map<json>")
}

/// The values of a string enumeration (`None` for other schemas and empty lists), each once,
/// in order. Linear: a set remembers the values met.
fn string_enum(schema: &Schema) -> Option<Vec<String>> {
    let values = schema.enumeration.as_ref()?;
    if schema.single_type().is_some_and(|t| t != "string") {
        return None;
    }
    let mut seen = std::collections::HashSet::with_capacity(values.len());
    let mut out: Vec<String> = Vec::new();
    for v in values {
        let s = v.as_deref()?;
        // An empty value names no variant; it is kept as an unknown one.
        if !s.is_empty() && seen.insert(s) {
            out.push(s.to_owned());
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The schemas of the file whose `allOf` names `base`, sorted.
fn subtypes(doc: &Document, base: &str) -> Vec<String> {
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
fn discriminated_base(doc: &Document, raw: &str) -> Option<String> {
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
fn mapping(schema: &Schema) -> Vec<(String, String)> {
    let Some(d) = &schema.discriminator else {
        return Vec::new();
    };
    d.mapping
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.rsplit('/').next()?.to_owned())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> BTreeMap<String, Document> {
        let mut docs = BTreeMap::new();
        let doc = Document::parse("f.yaml", text, &Default::default()).unwrap();
        docs.insert("f.yaml".to_owned(), doc);
        docs
    }

    const DOC: &str = r#"
components:
  schemas:
    Net:
      type: object
      required: [type]
      properties:
        id: {type: string, readOnly: true}
        type: {type: string}
      discriminator: {propertyName: type}
    PskNet:
      allOf:
        - $ref: '#/components/schemas/Net'
        - properties:
            passphrase: {type: string, minLength: 8, maxLength: 63}
            mode: {type: string, enum: [A, B]}
      required: [passphrase]
    OpenNet:
      allOf:
        - $ref: '#/components/schemas/Net'
        - properties:
            name: {type: string}
    VenueDto_V1_1:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        tags: {type: array, items: {type: string}}
        extra: {type: object, additionalProperties: {type: integer, format: int64}}
    Wrapper:
      oneOf:
        - $ref: '#/components/schemas/VenueDto_V1_1'
        - type: object
"#;

    #[test]
    fn discriminated_bases_become_unions_of_flattened_variants() {
        let docs = doc(DOC);
        let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
        let body = Schema::from_yaml(
            "oneOf: [{$ref: '#/components/schemas/OpenNet'}, {$ref: '#/components/schemas/PskNet'}]",
        );
        assert_eq!(c.body("f.yaml", &body, "CreateNet").as_deref(), Some("Net"));
        let Kind::Union {
            discriminator,
            variants,
        } = &c.drafts["Net"].kind
        else {
            panic!("not a union: {:?}", c.drafts["Net"]);
        };
        assert_eq!(discriminator.as_deref(), Some("type"));
        assert_eq!(variants[0].ty, "OpenNet");
        assert_eq!(variants[0].value.as_deref(), Some("OpenNet"));
        assert_eq!(variants[0].name.as_deref(), Some("Open"));
        let Kind::Object(fields) = &c.drafts["PskNet"].kind else {
            panic!("not an object")
        };
        let names: Vec<_> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.required))
            .collect();
        assert_eq!(
            names,
            [
                ("id", false),
                ("type", true),
                ("passphrase", true),
                ("mode", false)
            ]
        );
        assert_eq!(fields[2].constraints.len(), 2);
        assert_eq!(fields[3].ty, "PskNetMode");
        assert_eq!(
            c.drafts["PskNetMode"].kind,
            Kind::Enum(vec!["A".into(), "B".into()])
        );
    }

    #[test]
    fn names_read_as_rust_and_one_of_an_open_object_is_the_object() {
        let docs = doc(DOC);
        let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
        let body = Schema::from_yaml("$ref: '#/components/schemas/Wrapper'");
        assert_eq!(c.body("f.yaml", &body, "X").as_deref(), Some("Venue"));
        let Kind::Object(fields) = &c.drafts["Venue"].kind else {
            panic!("not an object")
        };
        assert_eq!(fields[2].ty, "array<string>");
        assert_eq!(fields[3].ty, "map<int64>");
        assert!(!fields[0].required, "read-only fields are never required");
        let raw = Schema::from_yaml("type: object");
        assert_eq!(c.body("f.yaml", &raw, "X"), None);
    }

    #[test]
    fn existing_types_gain_missing_fields_and_collisions_get_new_names() {
        let docs = doc(DOC);
        let mut existing = BTreeMap::new();
        existing.insert("Venue".to_owned(), BTreeSet::from(["name".to_owned()]));
        let taken = BTreeSet::from(["Venue".to_owned(), "OpenNet".to_owned()]);
        let mut c = Converter::new(&docs, taken, existing);
        let body = Schema::from_yaml("$ref: '#/components/schemas/VenueDto_V1_1'");
        assert_eq!(c.body("f.yaml", &body, "X").as_deref(), Some("Venue"));
        let added: Vec<_> = c.additions["Venue"]
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(added, ["id", "tags", "extra"]);
        let open = Schema::from_yaml("$ref: '#/components/schemas/OpenNet'");
        assert_eq!(c.body("f.yaml", &open, "X").as_deref(), Some("FOpenNet"));
    }

    const TWINS: &str = r#"
components:
  schemas:
    AaaWifiWlan:
      type: object
      properties:
        mode: {type: string, enum: [ON, OFF]}
        level: {type: string, enum: [LOW, HIGH]}
    PskWifiWlan:
      type: object
      properties:
        mode: {type: string, enum: [ON, OFF]}
        level: {type: string, enum: [LOW, HIGH]}
    OpenWifiWlan:
      type: object
      properties:
        mode: {type: string, enum: [OFF, ON]}
        level: {type: string, enum: [LOW, HIGH]}
        extra: {type: string}
"#;

    fn convert_all(c: &mut Converter<'_>, names: &[&str]) -> Vec<String> {
        let out = names
            .iter()
            .map(|n| {
                let body = Schema::from_yaml(&format!("$ref: '#/components/schemas/{n}'"));
                c.body("f.yaml", &body, "X").unwrap()
            })
            .collect();
        c.name_shared();
        out
    }

    #[test]
    fn identical_inline_shapes_share_one_type_named_after_their_common_ending() {
        let docs = doc(TWINS);
        let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
        let got = convert_all(&mut c, &["AaaWifiWlan", "OpenWifiWlan"]);
        assert_eq!(got, ["AaaWifiWlan", "OpenWifiWlan"]);
        let fields = |name: &str| match &c.drafts[name].kind {
            Kind::Object(f) => f.iter().map(|f| f.ty.clone()).collect::<Vec<_>>(),
            other => panic!("not an object: {other:?}"),
        };
        // `level` has one shape in both: one type, named after `WifiWlanLevel`, the ending its
        // owners' names share; `mode` lists its values in another order: two types.
        assert_eq!(fields("AaaWifiWlan"), ["AaaWifiWlanMode", "WifiWlanLevel"]);
        assert_eq!(
            fields("OpenWifiWlan")[..2],
            ["OpenWifiWlanMode", "WifiWlanLevel"]
        );
        let enums = c
            .drafts
            .values()
            .filter(|d| matches!(d.kind, Kind::Enum(_)))
            .count();
        assert_eq!(enums, 3);
    }

    #[test]
    fn identical_sibling_objects_share_one_type() {
        let docs = doc(TWINS);
        let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
        let got = convert_all(&mut c, &["AaaWifiWlan", "PskWifiWlan", "OpenWifiWlan"]);
        // `AaaWifiWlan` and `PskWifiWlan` differ only in their first word and have one shape: they
        // share `WifiWlan`; `OpenWifiWlan` has another field and keeps its own type.
        assert_eq!(got, ["AaaWifiWlan", "AaaWifiWlan", "OpenWifiWlan"]);
        assert!(c.drafts.contains_key("WifiWlan"), "{:?}", c.drafts.keys());
        assert!(!c.drafts.contains_key("AaaWifiWlan"));
        assert!(c.drafts.contains_key("OpenWifiWlan"));
    }

    #[test]
    fn a_curated_root_keeps_its_name_and_names_later_copies() {
        let docs = doc(TWINS);
        let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
        let inline = Schema::from_yaml("{type: string, enum: [LOW, HIGH]}");
        assert_eq!(
            c.root("f.yaml", &inline, "Loudness").as_deref(),
            Some("Loudness")
        );
        assert_eq!(
            c.root("f.yaml", &inline, "Volume").as_deref(),
            Some("Volume"),
            "a name the curated spec gives is never merged away"
        );
        convert_all(&mut c, &["AaaWifiWlan"]);
        let Kind::Object(fields) = &c.drafts["AaaWifiWlan"].kind else {
            panic!("not an object")
        };
        assert_eq!(fields[1].ty, "Loudness");
    }

    #[test]
    fn common_endings_start_words_and_span_two() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            common_suffix(&names(&["AaaWifiWlanMode", "Hotspot20WifiWlanMode"])).as_deref(),
            Some("WifiWlanMode")
        );
        assert_eq!(
            common_suffix(&names(&[
                "Radio24GHzSettingsTxPower",
                "Radio5GHzSettingsTxPower"
            ]))
            .as_deref(),
            Some("SettingsTxPower")
        );
        assert_eq!(common_suffix(&names(&["PortMode", "LagMode"])), None);
        assert_eq!(
            common_suffix(&names(&["PortMode", "PortMode"])).as_deref(),
            Some("PortMode")
        );
        assert!(siblings("AaaWifiWlan", "PskWifiWlan"));
        assert!(!siblings("ApIotSettings", "ApUsbSettings"));
    }

    /// A large enumeration with repeated values keeps each value once, in order (the set that
    /// remembers them makes this linear: 100,000 values with 50,000 repeats).
    #[test]
    fn large_enumerations_keep_each_value_once() {
        let values: Vec<String> = (0..100_000).map(|i| format!("V{}", i % 50_000)).collect();
        let text = format!("{{type: string, enum: [{}]}}", values.join(", "));
        let schema = Schema::from_yaml(&text);
        let got = string_enum(&schema).unwrap();
        assert_eq!(got.len(), 50_000);
        assert_eq!(got[..3], ["V0", "V1", "V2"]);
        assert_eq!(got[49_999], "V49999");
    }
}
