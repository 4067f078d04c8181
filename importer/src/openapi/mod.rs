//! The vendor's OpenAPI descriptions as typed values: the subset `audit` and `import` read, with
//! every `$ref` resolved here and nowhere else.
//!
//! Why a model of our own: `oas3` keeps an object's properties in a `BTreeMap` (sorted, so the
//! field order of every imported type would change) and has no `nullable` (it reads 3.1, where
//! that keyword is gone, while 26 of the 30 files are 3.0); `openapiv3` reads 3.0 only (four
//! files are 3.1). What we read is small: paths and operations, bodies, answers, parameters and
//! schemas. Properties, schemas and media types keep their document order ([`IndexMap`]).
//!
//! Reading is lenient, as the untyped reading before it was: a key whose value has the wrong kind
//! (a `required` that is not a list, a bound that is not a number) counts as absent, so one odd
//! value never costs a whole file. Reading is bounded ([`limits`]): a file larger than a size
//! cap or nested deeper than a fixed depth is refused with an error naming it, before the YAML
//! parser sees it.

pub mod limits;
mod read;

use indexmap::IndexMap;
use serde_yaml::{Number, Value};
use std::path::Path;
use std::sync::LazyLock;

pub use limits::Limits;

/// One description file.
#[derive(Debug, Default)]
pub struct Document {
    /// Path items in document order, each with its operations (`get`, `post`, `put`, `patch`,
    /// `delete`, in document order); `None` when the file has no `paths` mapping.
    pub paths: Option<Vec<PathItem>>,
    pub components: Components,
}

#[derive(Debug, Default)]
pub struct PathItem {
    pub path: String,
    /// `(method in lower case, operation)`.
    pub operations: Vec<(String, Operation)>,
}

#[derive(Debug, Default)]
pub struct Components {
    pub schemas: IndexMap<String, Schema>,
    pub responses: IndexMap<String, RefOr<Response>>,
    pub request_bodies: IndexMap<String, RefOr<RequestBody>>,
    pub parameters: IndexMap<String, RefOr<Parameter>>,
}

/// A `$ref` (the pointer as written) or the thing itself.
#[derive(Debug)]
pub enum RefOr<T> {
    Ref(String),
    Item(T),
}

#[derive(Debug, Default)]
pub struct Operation {
    pub operation_id: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    pub parameters: Vec<RefOr<Parameter>>,
    pub request_body: Option<RefOr<RequestBody>>,
    /// Answers with a numeric status (`default` and ranges such as `2XX` are left out), in
    /// document order.
    pub responses: Vec<(u16, RefOr<Response>)>,
}

#[derive(Debug, Default)]
pub struct Parameter {
    pub name: Option<String>,
    /// `in`: `query`, `path`, `header`, `cookie`.
    pub location: Option<String>,
    pub required: bool,
    pub schema: Option<Schema>,
}

#[derive(Debug, Default)]
pub struct RequestBody {
    pub required: bool,
    pub content: IndexMap<String, MediaType>,
}

#[derive(Debug, Default)]
pub struct Response {
    pub content: IndexMap<String, MediaType>,
}

#[derive(Debug, Default)]
pub struct MediaType {
    pub schema: Option<Schema>,
}

/// `type`: one name (3.0, and 3.1's usual form) or a list of names (3.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaType {
    One(String),
    Many(Vec<String>),
}

/// `additionalProperties`: a flag or a schema.
#[derive(Debug)]
pub enum AdditionalProperties {
    Bool(bool),
    Schema(Box<Schema>),
}

#[derive(Debug, Default)]
pub struct Discriminator {
    pub property_name: Option<String>,
    /// `mapping`, in document order: tag value -> the `$ref` as written.
    pub mapping: Vec<(String, String)>,
}

/// Bounds, each kept only when it is a number.
#[derive(Debug, Default, Clone)]
pub struct Bounds {
    pub min_length: Option<Number>,
    pub max_length: Option<Number>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub min_items: Option<Number>,
    pub max_items: Option<Number>,
}

/// A schema as written: a `$ref` keeps its siblings (`nullable` or `readOnly` next to a `$ref`
/// is read), and resolving it is [`Document::resolve`]'s job.
#[derive(Debug, Default)]
pub struct Schema {
    /// `$ref`, as written.
    pub reference: Option<String>,
    pub ty: Option<SchemaType>,
    pub format: Option<String>,
    /// `enum`: each value, `None` for one that is not a string.
    pub enumeration: Option<Vec<Option<String>>>,
    /// `properties` in document order (`Some` and empty for `properties: {}`).
    pub properties: Option<IndexMap<String, Schema>>,
    pub required: Vec<String>,
    pub all_of: Option<Vec<Schema>>,
    pub one_of: Option<Vec<Schema>>,
    pub any_of: Option<Vec<Schema>>,
    pub items: Option<Box<Schema>>,
    pub additional_properties: Option<AdditionalProperties>,
    pub discriminator: Option<Discriminator>,
    pub nullable: bool,
    pub read_only: bool,
    pub write_only: bool,
    pub deprecated: bool,
    pub bounds: Bounds,
    /// `default`, when it is a boolean, a number or a string.
    pub default: Option<Value>,
    /// How many keys the schema object has: `{}` says nothing, `{description: ..}` says
    /// "something" without a shape.
    pub keys: usize,
}

/// A schema that says nothing (`{}`): what an unknown name or a flag-only value stands for.
pub static EMPTY: LazyLock<Schema> = LazyLock::new(Schema::default);

const SCHEMAS: &str = "#/components/schemas/";
/// How many `$ref`s in a row are followed (a loop of references ends there).
const MAX_HOPS: usize = 32;

impl Schema {
    /// The schema name of a `$ref` to `#/components/schemas/<name>`, as written.
    pub fn ref_name(&self) -> Option<&str> {
        self.reference.as_deref()?.strip_prefix(SCHEMAS)
    }

    /// `type` when it is one name (a 3.1 list of names is no one type).
    pub fn single_type(&self) -> Option<&str> {
        match &self.ty {
            Some(SchemaType::One(t)) => Some(t),
            _ => None,
        }
    }

    /// `additionalProperties` when it is a schema with at least one key.
    pub fn value_schema(&self) -> Option<&Schema> {
        match &self.additional_properties {
            Some(AdditionalProperties::Schema(s)) if s.keys > 0 => Some(s),
            _ => None,
        }
    }

    /// `oneOf`, else `anyOf`.
    pub fn alternatives(&self) -> Option<&[Schema]> {
        self.one_of.as_deref().or(self.any_of.as_deref())
    }
}

#[cfg(test)]
impl Schema {
    /// A schema from YAML text (for tests; bad text gives an empty schema).
    pub fn from_yaml(text: &str) -> Schema {
        serde_yaml::from_str(text)
            .ok()
            .and_then(|v| read::schema(&v, Limits::default().max_depth).ok())
            .unwrap_or_default()
    }
}

impl Document {
    /// Reads a description file, within the default limits.
    pub fn read(path: &Path) -> Result<Document, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Document::parse(&name, &text, &Limits::default())
    }

    /// Parses a description's text; errors name the file.
    pub fn parse(name: &str, text: &str, limits: &Limits) -> Result<Document, String> {
        limits.check(text).map_err(|e| format!("{name}: {e}"))?;
        let value: Value = serde_yaml::from_str(text).map_err(|e| format!("{name}: {e}"))?;
        read::document(&value, limits.max_depth).map_err(|e| format!("{name}: {e}"))
    }

    /// The operations in document order: `(path, method in lower case, operation)`.
    pub fn operations(&self) -> impl Iterator<Item = (&str, &str, &Operation)> {
        self.paths.iter().flatten().flat_map(|item| {
            item.operations
                .iter()
                .map(move |(m, op)| (item.path.as_str(), m.as_str(), op))
        })
    }

    /// The schema `#/components/schemas/<name>`.
    pub fn schema_named(&self, name: &str) -> Option<&Schema> {
        self.components.schemas.get(name)
    }

    /// Follows a schema's `$ref`s; one that leads nowhere leaves the schema as it is.
    pub fn resolve<'a>(&'a self, mut schema: &'a Schema) -> &'a Schema {
        for _ in 0..MAX_HOPS {
            let Some(target) = schema
                .reference
                .as_deref()
                .and_then(|r| self.target(r, SCHEMAS, &self.components.schemas))
            else {
                return schema;
            };
            schema = target;
        }
        schema
    }

    pub fn request_body<'a>(&'a self, r: &'a RefOr<RequestBody>) -> Option<&'a RequestBody> {
        self.follow(
            r,
            "#/components/requestBodies/",
            &self.components.request_bodies,
        )
    }

    pub fn response<'a>(&'a self, r: &'a RefOr<Response>) -> Option<&'a Response> {
        self.follow(r, "#/components/responses/", &self.components.responses)
    }

    pub fn parameter<'a>(&'a self, r: &'a RefOr<Parameter>) -> Option<&'a Parameter> {
        self.follow(r, "#/components/parameters/", &self.components.parameters)
    }

    /// The answer of an operation with `status`, resolved.
    pub fn answer<'a>(&'a self, op: &'a Operation, status: u16) -> Option<&'a Response> {
        let (_, r) = op.responses.iter().find(|(s, _)| *s == status)?;
        self.response(r)
    }

    fn follow<'a, T>(
        &'a self,
        mut r: &'a RefOr<T>,
        prefix: &str,
        map: &'a IndexMap<String, RefOr<T>>,
    ) -> Option<&'a T> {
        for _ in 0..MAX_HOPS {
            match r {
                RefOr::Item(t) => return Some(t),
                RefOr::Ref(pointer) => r = self.target(pointer, prefix, map)?,
            }
        }
        None
    }

    /// The entry of `map` a pointer `<prefix><name>` names (`~1` and `~0` unescaped).
    fn target<'a, T>(
        &self,
        pointer: &str,
        prefix: &str,
        map: &'a IndexMap<String, T>,
    ) -> Option<&'a T> {
        let name = pointer.strip_prefix(prefix)?;
        if name.contains('~') {
            map.get(&name.replace("~1", "/").replace("~0", "~"))
        } else {
            map.get(name)
        }
    }
}

/// The names of the `*.yaml`/`*.yml`/`*.json` files of `dir`, sorted; `None` when the directory
/// is absent or holds none.
pub fn description_files(dir: &Path) -> Option<Vec<String>> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".json"))
        .collect();
    files.sort();
    (!files.is_empty()).then_some(files)
}

/// A path with every `{param}` written `{}`, so that parameter names do not matter.
pub fn normalise_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_param = false;
    for c in path.chars() {
        match (c, in_param) {
            ('{', _) => {
                in_param = true;
                out.push_str("{}");
            }
            ('}', true) => in_param = false,
            (_, true) => {}
            (c, false) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
