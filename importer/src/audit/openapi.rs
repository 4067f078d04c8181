//! Reading the vendor's OpenAPI 3 descriptions: each operation reduced to the facts the audit
//! compares (2xx statuses, request and success media types, the paging shape, the error-body
//! shape of its 4xx answers), from the typed model of [`crate::openapi`].

use crate::openapi::{Document, MediaType, Operation, Response, Schema};
pub use crate::openapi::{description_files, normalise_path};
use indexmap::IndexMap;
use ruckus_codegen::closed::{FamilyKind, PageStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::LazyLock;

/// The operations of every description file in a directory.
pub struct Descriptions {
    /// Description file names, sorted.
    pub files: Vec<String>,
    /// Operations, by file then path then method.
    pub ops: Vec<DescOp>,
    /// Files that could not be read, with the reason.
    pub warnings: Vec<String>,
}

/// One operation of a description.
pub struct DescOp {
    pub file: String,
    pub operation_id: String,
    /// Upper case (`GET`).
    pub method: String,
    /// As the description writes it.
    pub path: String,
    /// The 2xx statuses it declares.
    pub statuses: BTreeSet<u16>,
    pub request: Option<DescBody>,
    /// Media types of the 2xx responses, per status (`None`: that status has no content).
    pub success_media: BTreeMap<u16, BTreeSet<String>>,
    /// Error-body shapes of its 4xx answers (only the shapes recognised).
    pub error_shapes: BTreeSet<FamilyKind>,
    pub paging: Option<DescPaging>,
    /// Whether the request body declares a JSON schema with a shape.
    pub request_schema: bool,
    /// Whether a 2xx answer (not 204) declares a JSON schema with a shape.
    pub response_schema: bool,
    /// The description marks the operation deprecated.
    pub deprecated: bool,
}

pub struct DescBody {
    pub required: bool,
    pub media: BTreeSet<String>,
}

/// Whether a body declares a JSON schema with a shape (a reference, properties, items, an
/// enumeration, a union or a scalar type), not just "an object".
fn declares_schema(doc: &Document, content: &IndexMap<String, MediaType>) -> bool {
    content
        .iter()
        .filter(|(k, _)| k.ends_with("json"))
        .filter_map(|(_, m)| m.schema.as_ref())
        .any(|s| {
            let r = doc.resolve(s);
            r.properties.is_some()
                || r.all_of.is_some()
                || r.one_of.is_some()
                || r.any_of.is_some()
                || r.items.is_some()
                || r.enumeration.is_some()
                || r.single_type().is_some_and(|t| t != "object")
                || r.value_schema().is_some()
        })
}

/// A paging shape read from the parameters and schemas; `items` is the list field, when one
/// stands out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescPaging {
    pub style: PageStyle,
    pub items: Option<String>,
}

impl DescOp {
    /// `(METHOD, path)` with every `{param}` written `{}`.
    pub fn key(&self) -> (String, String) {
        (self.method.clone(), normalise_path(&self.path))
    }

    /// `<file> <operationId>`.
    pub fn source(&self) -> String {
        format!("{} {}", self.file, self.operation_id)
    }
}

/// Reads every `*.yaml`/`*.yml`/`*.json` file of `dir`; `None` when the directory is absent or
/// holds no description. A file that cannot be read, parsed or is over a limit becomes a warning.
pub fn load(dir: &Path) -> Option<Descriptions> {
    let files = description_files(dir)?;
    let mut out = Descriptions {
        files: Vec::new(),
        ops: Vec::new(),
        warnings: Vec::new(),
    };
    for name in files {
        match Document::read(&dir.join(&name)) {
            Ok(doc) if doc.paths.is_some() => {
                out.ops.extend(operations(&name, &doc));
                out.files.push(name);
            }
            Ok(_) => out.warnings.push(format!(
                "{name}: no `paths` mapping; not an OpenAPI description"
            )),
            Err(e) => out.warnings.push(e),
        }
    }
    Some(out)
}

/// Every operation of one description, by path then method.
pub(crate) fn operations(file: &str, doc: &Document) -> Vec<DescOp> {
    let mut ops: Vec<DescOp> = doc
        .operations()
        .map(|(path, method, op)| operation(doc, file, path, method, op))
        .collect();
    ops.sort_by(|a, b| (&a.path, &a.method).cmp(&(&b.path, &b.method)));
    ops
}

pub(crate) fn operation(
    doc: &Document,
    file: &str,
    path: &str,
    method: &str,
    op: &Operation,
) -> DescOp {
    let body = op.request_body.as_ref().map(|b| doc.request_body(b));
    let request = body.map(|b| DescBody {
        required: b.is_some_and(|b| b.required),
        media: b
            .map(|b| b.content.keys().cloned().collect())
            .unwrap_or_default(),
    });
    let mut success_media = BTreeMap::new();
    let mut error_shapes = BTreeSet::new();
    let mut response_schema = false;
    for (status, response) in responses(doc, op) {
        if (200..300).contains(&status) && status != 204 {
            response_schema |= declares_schema(doc, &response.content);
        }
        if status == 204 {
            // 204 No Content has no body (RFC 9110), whatever content a description lists.
            success_media.insert(status, BTreeSet::new());
        } else if (200..300).contains(&status) {
            success_media.insert(status, response.content.keys().cloned().collect());
        } else if (400..500).contains(&status) {
            for schema in schemas(doc, &response.content) {
                error_shapes.extend(error_shape(doc, schema));
            }
        }
    }
    let mut out = DescOp {
        file: file.to_owned(),
        operation_id: op.operation_id.clone().unwrap_or_else(|| "-".to_owned()),
        method: method.to_uppercase(),
        path: path.to_owned(),
        statuses: success_media.keys().copied().collect(),
        request,
        success_media,
        error_shapes,
        paging: None,
        request_schema: body
            .flatten()
            .is_some_and(|b| declares_schema(doc, &b.content)),
        response_schema,
        deprecated: op.deprecated,
    };
    out.paging = paging(doc, op, &out);
    out
}

/// The responses of an operation with their numeric status, resolved (one whose `$ref` leads
/// nowhere has no content).
fn responses<'a>(doc: &'a Document, op: &'a Operation) -> Vec<(u16, &'a Response)> {
    static NONE: LazyLock<Response> = LazyLock::new(Response::default);
    op.responses
        .iter()
        .map(|(status, r)| (*status, doc.response(r).unwrap_or(&NONE)))
        .collect()
}

/// The schemas of every media type of a request body or response, resolved.
fn schemas<'a>(doc: &'a Document, content: &'a IndexMap<String, MediaType>) -> Vec<&'a Schema> {
    content
        .values()
        .filter_map(|m| m.schema.as_ref())
        .map(|s| doc.resolve(s))
        .collect()
}

/// The properties of a schema, resolved, including those of `allOf`/`oneOf`/`anyOf` members.
pub fn properties<'a>(doc: &'a Document, schema: &'a Schema) -> BTreeMap<String, &'a Schema> {
    let mut out = BTreeMap::new();
    collect_properties(doc, schema, 0, &mut out);
    out
}

fn collect_properties<'a>(
    doc: &'a Document,
    schema: &'a Schema,
    depth: usize,
    out: &mut BTreeMap<String, &'a Schema>,
) {
    let schema = doc.resolve(schema);
    if depth > 8 {
        return;
    }
    for (k, v) in schema.properties.iter().flatten() {
        out.entry(k.clone()).or_insert_with(|| doc.resolve(v));
    }
    for members in [&schema.all_of, &schema.one_of, &schema.any_of] {
        for member in members.iter().flatten() {
            collect_properties(doc, member, depth + 1, out);
        }
    }
}

fn is_array(v: &Schema) -> bool {
    v.single_type() == Some("array") || v.items.is_some()
}

fn is_object(v: &Schema) -> bool {
    v.single_type() == Some("object") || v.properties.is_some() || v.additional_properties.is_some()
}
/// The error-body shape a 4xx schema declares, by its properties. The more specific shapes are
/// tried first: a body with `status`, `message` and `debugMessage` that also has an `errors`
/// array is `status_message`.
fn error_shape(doc: &Document, schema: &Schema) -> Option<FamilyKind> {
    let props = properties(doc, schema);
    let has = |k: &str| props.contains_key(k);
    let errors = props.get("errors");
    if has("detailedMessage") || has("validationErrors") {
        Some(FamilyKind::Portal)
    } else if has("status") && has("message") && (has("subErrors") || has("debugMessage")) {
        Some(FamilyKind::StatusMessage)
    } else if errors.is_some_and(|e| is_array(e)) {
        Some(FamilyKind::ErrorsArray)
    } else if errors.is_some_and(|e| is_object(e)) {
        Some(FamilyKind::ErrorsMap)
    } else if props.get("error").is_some_and(|e| is_object(e)) {
        Some(FamilyKind::ErrorObject)
    } else if has("code") && has("message") {
        Some(FamilyKind::FlatObject)
    } else {
        None
    }
}

/// Fields of a page that are lists but not its items.
const NOT_ITEMS: &[&str] = &["fields", "errors", "subsequentQueries"];
/// Item fields in order of preference when a page has several lists.
const ITEMS: &[&str] = &["data", "content", "items", "list"];

/// The list fields (arrays) of the success responses' schemas, page metadata lists excluded.
fn list_fields(doc: &Document, op: &Operation) -> BTreeSet<String> {
    let mut lists = BTreeSet::new();
    for (status, response) in responses(doc, op) {
        if !(200..300).contains(&status) {
            continue;
        }
        for schema in schemas(doc, &response.content) {
            for (name, prop) in properties(doc, schema) {
                if is_array(prop) && !NOT_ITEMS.contains(&name.as_str()) {
                    lists.insert(name);
                }
            }
        }
    }
    lists
}

/// The items field among a page's lists: a well-known name, or the only list.
fn pick_items(lists: &BTreeSet<String>) -> Option<String> {
    if let Some(known) = ITEMS.iter().find(|i| lists.contains(**i)) {
        return Some((*known).to_owned());
    }
    match lists.len() {
        1 => lists.first().cloned(),
        _ => None,
    }
}

/// The paging shape the description suggests:
/// - `query_body`: a POST whose request schema has `page` and `pageSize`, answered with a list
///   field;
/// - `spring`: `page` and `size` query parameters, answered with `content`;
/// - `page_params`: `page` and `pageSize` query parameters (items when a list stands out).
fn paging(doc: &Document, op: &Operation, facts: &DescOp) -> Option<DescPaging> {
    let query: BTreeSet<&str> = op
        .parameters
        .iter()
        .filter_map(|p| doc.parameter(p))
        .filter(|p| p.location.as_deref() == Some("query"))
        .filter_map(|p| p.name.as_deref())
        .collect();
    let lists = list_fields(doc, op);
    let items = pick_items(&lists);
    let body_pages = facts.method == "POST"
        && op
            .request_body
            .as_ref()
            .and_then(|b| doc.request_body(b))
            .is_some_and(|b| {
                schemas(doc, &b.content).into_iter().any(|s| {
                    let props = properties(doc, s);
                    props.contains_key("page") && props.contains_key("pageSize")
                })
            });
    let (style, items) = if body_pages && items.is_some() {
        (PageStyle::QueryBody, items)
    } else if query.contains("page") && query.contains("size") && lists.contains("content") {
        (PageStyle::Spring, Some("content".to_owned()))
    } else if query.contains("page") && query.contains("pageSize") {
        (PageStyle::QueryParams, items)
    } else {
        return None;
    };
    Some(DescPaging { style, items })
}
