//! Reading the vendor's OpenAPI 3 descriptions: each operation reduced to the facts the audit
//! compares (2xx statuses, request and success media types, the paging shape, the error-body
//! shape of its 4xx answers). `$ref`s are followed within a file.

use ruckus_codegen::closed::{FamilyKind, PageStyle};
use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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
}

pub struct DescBody {
    pub required: bool,
    pub media: BTreeSet<String>,
}

/// Whether a body declares a JSON schema with a shape (a reference, properties, items, an
/// enumeration, a union or a scalar type), not just "an object".
fn declares_schema(doc: &Value, holder: &Value) -> bool {
    let Some(content) = holder.get("content").and_then(Value::as_mapping) else {
        return false;
    };
    content
        .iter()
        .filter(|(k, _)| k.as_str().is_some_and(|k| k.ends_with("json")))
        .filter_map(|(_, m)| m.get("schema"))
        .any(|s| {
            let r = resolve(doc, s);
            ["properties", "allOf", "oneOf", "anyOf", "items", "enum"]
                .iter()
                .any(|k| r.get(*k).is_some())
                || r.get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t != "object")
                || r.get("additionalProperties")
                    .is_some_and(|a| a.as_mapping().is_some_and(|m| !m.is_empty()))
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

/// Reads every `*.yaml`/`*.yml`/`*.json` file of `dir`; `None` when the directory is absent or
/// holds no description. A file that cannot be read or parsed becomes a warning.
pub fn load(dir: &Path) -> Option<Descriptions> {
    let files = description_files(dir)?;
    let mut out = Descriptions {
        files: Vec::new(),
        ops: Vec::new(),
        warnings: Vec::new(),
    };
    for name in files {
        let path = dir.join(&name);
        let parsed = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_yaml::from_str::<Value>(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(doc) if doc.get("paths").is_some_and(Value::is_mapping) => {
                out.ops.extend(operations(&name, &doc));
                out.files.push(name);
            }
            Ok(_) => out.warnings.push(format!(
                "{name}: no `paths` mapping; not an OpenAPI description"
            )),
            Err(e) => out.warnings.push(format!("{name}: {e}")),
        }
    }
    Some(out)
}

const METHODS: &[&str] = &["get", "post", "put", "patch", "delete"];

/// Every operation of one description, by path then method.
fn operations(file: &str, doc: &Value) -> Vec<DescOp> {
    let mut ops = Vec::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_mapping) else {
        return ops;
    };
    for (path, item) in paths {
        let (Some(path), Some(item)) = (path.as_str(), item.as_mapping()) else {
            continue;
        };
        for (method, op) in item {
            let Some(method) = method.as_str().filter(|m| METHODS.contains(m)) else {
                continue;
            };
            ops.push(operation(doc, file, path, method, op));
        }
    }
    ops.sort_by(|a, b| (&a.path, &a.method).cmp(&(&b.path, &b.method)));
    ops
}

fn operation(doc: &Value, file: &str, path: &str, method: &str, op: &Value) -> DescOp {
    let request = op.get("requestBody").map(|b| {
        let b = resolve(doc, b);
        DescBody {
            required: b.get("required").and_then(Value::as_bool).unwrap_or(false),
            media: media_types(b),
        }
    });
    let mut success_media = BTreeMap::new();
    let mut error_shapes = BTreeSet::new();
    let mut response_schema = false;
    for (status, response) in responses(doc, op) {
        if (200..300).contains(&status) && status != 204 {
            response_schema |= declares_schema(doc, response);
        }
        if status == 204 {
            // 204 No Content has no body (RFC 9110), whatever content a description lists.
            success_media.insert(status, BTreeSet::new());
        } else if (200..300).contains(&status) {
            success_media.insert(status, media_types(response));
        } else if (400..500).contains(&status) {
            for schema in schemas(doc, response) {
                error_shapes.extend(error_shape(doc, schema));
            }
        }
    }
    let mut out = DescOp {
        file: file.to_owned(),
        operation_id: op
            .get("operationId")
            .and_then(Value::as_str)
            .unwrap_or("-")
            .to_owned(),
        method: method.to_uppercase(),
        path: path.to_owned(),
        statuses: success_media.keys().copied().collect(),
        request,
        success_media,
        error_shapes,
        paging: None,
        request_schema: op
            .get("requestBody")
            .is_some_and(|b| declares_schema(doc, resolve(doc, b))),
        response_schema,
    };
    out.paging = paging(doc, op, &out);
    out
}

/// The responses of an operation with their numeric status (`default` and ranges skipped).
fn responses<'a>(doc: &'a Value, op: &'a Value) -> Vec<(u16, &'a Value)> {
    let Some(map) = op.get("responses").and_then(Value::as_mapping) else {
        return Vec::new();
    };
    map.iter()
        .filter_map(|(k, v)| {
            let status = match k {
                Value::String(s) => s.parse().ok(),
                Value::Number(n) => n.as_u64().and_then(|n| u16::try_from(n).ok()),
                _ => None,
            }?;
            Some((status, resolve(doc, v)))
        })
        .collect()
}

/// The keys of a request body's or response's `content`.
fn media_types(v: &Value) -> BTreeSet<String> {
    v.get("content")
        .and_then(Value::as_mapping)
        .map(|c| {
            c.keys()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The schemas of every media type of a request body or response, resolved.
fn schemas<'a>(doc: &'a Value, v: &'a Value) -> Vec<&'a Value> {
    v.get("content")
        .and_then(Value::as_mapping)
        .map(|c| {
            c.values()
                .filter_map(|m| m.get("schema"))
                .map(|s| resolve(doc, s))
                .collect()
        })
        .unwrap_or_default()
}

/// Follows `$ref`s (`#/...` pointers within the file); an unresolvable one stays as it is.
pub fn resolve<'a>(doc: &'a Value, mut v: &'a Value) -> &'a Value {
    for _ in 0..32 {
        let Some(pointer) = v.get("$ref").and_then(Value::as_str) else {
            return v;
        };
        let Some(pointer) = pointer.strip_prefix("#/") else {
            return v;
        };
        let mut target = doc;
        for segment in pointer.split('/') {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            match target.get(segment.as_str()) {
                Some(t) => target = t,
                None => return v,
            }
        }
        v = target;
    }
    v
}

/// The properties of a schema, resolved, including those of `allOf`/`oneOf`/`anyOf` members.
pub fn properties<'a>(doc: &'a Value, schema: &'a Value) -> BTreeMap<String, &'a Value> {
    let mut out = BTreeMap::new();
    collect_properties(doc, schema, 0, &mut out);
    out
}

fn collect_properties<'a>(
    doc: &'a Value,
    schema: &'a Value,
    depth: usize,
    out: &mut BTreeMap<String, &'a Value>,
) {
    let schema = resolve(doc, schema);
    if depth > 8 {
        return;
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_mapping) {
        for (k, v) in props {
            if let Some(k) = k.as_str() {
                out.entry(k.to_owned()).or_insert_with(|| resolve(doc, v));
            }
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for member in schema
            .get(key)
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            collect_properties(doc, member, depth + 1, out);
        }
    }
}

fn schema_type(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str)
}

fn is_array(v: &Value) -> bool {
    schema_type(v) == Some("array") || v.get("items").is_some()
}

fn is_object(v: &Value) -> bool {
    schema_type(v) == Some("object")
        || v.get("properties").is_some()
        || v.get("additionalProperties").is_some()
}

/// The error-body shape a 4xx schema declares, by its properties. The more specific shapes are
/// tried first: a body with `status`, `message` and `debugMessage` that also has an `errors`
/// array is `status_message`.
fn error_shape(doc: &Value, schema: &Value) -> Option<FamilyKind> {
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
fn list_fields(doc: &Value, op: &Value) -> BTreeSet<String> {
    let mut lists = BTreeSet::new();
    for (status, response) in responses(doc, op) {
        if !(200..300).contains(&status) {
            continue;
        }
        for schema in schemas(doc, response) {
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
fn paging(doc: &Value, op: &Value, facts: &DescOp) -> Option<DescPaging> {
    let query: BTreeSet<&str> = op
        .get("parameters")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .map(|p| resolve(doc, p))
        .filter(|p| p.get("in").and_then(Value::as_str) == Some("query"))
        .filter_map(|p| p.get("name").and_then(Value::as_str))
        .collect();
    let lists = list_fields(doc, op);
    let items = pick_items(&lists);
    let body_pages = facts.method == "POST"
        && op.get("requestBody").is_some_and(|b| {
            schemas(doc, resolve(doc, b)).into_iter().any(|s| {
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
