//! OpenAPI schemas → draft spec types: `$ref`s become named types (deduplicated by shape),
//! `allOf` is flattened, `oneOf`/`anyOf` and discriminated bases become unions, inline objects
//! and enums get `<Owner><Field>` names. An inline shape identical to one met before reuses its
//! type (values in the same order: the order is the description's and the variants'), and
//! [`Converter::name_shared`] names a shared type after its owners' common ending. Facts only:
//! names, types, required, nullable, bounds, enumerations; the descriptions' prose is never
//! carried over.

mod fields;
mod shapes;
mod unions;

pub(crate) use fields::is_credential;
pub use fields::property;
use fields::string_enum;
use shapes::shape_key;
use unions::subtypes;

use super::naming;
use crate::openapi::{Document, EMPTY, Schema};
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
    /// Where the field was read when it is not the type's schema (a payload).
    pub provenance: Option<String>,
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
    /// The description file of the service of a curated type's area, where it has one: a
    /// schema of the type's name from another service's file is another type
    /// (the switch service's `VenueDto` is no venue of the venue service).
    existing_files: BTreeMap<String, String>,
    by_source: BTreeMap<(String, String), String>,
    /// The named schemas being converted, innermost last.
    schemas: Vec<String>,
    /// The description operation whose bodies are being converted (`operationId`).
    operation: String,
    pub drafts: BTreeMap<String, Draft>,
    /// Fields a description gives a curated type that it lacks, by type, with the schema
    /// they were read from (`<file> <Schema or operationId>`, the first one met).
    /// Each field with the schema it came from.
    pub additions: BTreeMap<String, (String, Vec<(DraftField, String)>)>,
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
            existing_files: BTreeMap::new(),
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

    /// Binds a schema to a curated type of its name only in the file given for that type
    /// (its area's service's description); types not listed bind in any file.
    pub fn restrict_existing(&mut self, files: BTreeMap<String, String>) {
        self.existing_files = files;
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
        if self.existing.contains_key(&clean.name)
            && self
                .existing_files
                .get(&clean.name)
                .is_none_or(|home| home == file)
        {
            self.by_source.insert(key, clean.name.clone());
            self.reconcile(&clean.name, file, schema, &source);
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

    /// Names an object type the payloads show (`source`: `payloads <file>`): a drafted type
    /// of the same shape is reused; else it takes `wanted`, or `wanted` numbered, avoiding the
    /// names in `avoid` too (those overrides give imported types).
    pub fn payload_type(
        &mut self,
        wanted: &str,
        fields: Vec<DraftField>,
        source: &str,
        avoid: &BTreeSet<String>,
    ) -> String {
        let kind = Kind::Object(fields);
        let shape = shape_key(&kind);
        if let Some(same) = self.shapes.get(&shape) {
            return same.clone();
        }
        let free = |c: &String| {
            !self.taken.contains(c) && !self.reserved.contains(c) && !avoid.contains(c)
        };
        let name = std::iter::once(wanted.to_owned())
            .chain((2..).map(|n| format!("{wanted}{n}")))
            .find(|c| free(c))
            .unwrap_or_else(|| wanted.to_owned());
        self.taken.insert(name.clone());
        self.shapes.insert(shape, name.clone());
        self.drafts.insert(
            name.clone(),
            Draft {
                name: name.clone(),
                wanted: wanted.to_owned(),
                source: source.to_owned(),
                kind,
            },
        );
        name
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

/// Whether a type expression is only "some JSON".
pub fn is_raw(ty: &str) -> bool {
    matches!(ty, "json" | "array<json>" | "map<json>")
}

#[cfg(test)]
mod tests;
