//! The fields of a schema of the tables, as JSON pointers: whether a pointer names a field
//! (following `$ref`s and every variant of `oneOf`, `anyOf` and `allOf`; `*` stands for the
//! members of an array) and every field down to a depth, with its schema as written.

use ruckus_one_catalog::Table;
use serde_json::Value;

/// How many `$ref`s and nestings a walk follows before it stops (the schemas nest far less;
/// this only ends a self-referencing one).
const MAX_DEPTH: usize = 24;

/// The schemas `schema` stands for: itself, what its `$ref` names, its variants, recursively.
fn alternatives<'a>(table: &'a Table, schema: &'a Value, depth: usize, out: &mut Vec<&'a Value>) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        if let Some(target) = table.resolve(r) {
            alternatives(table, target, depth + 1, out);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for v in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            alternatives(table, v, depth + 1, out);
        }
    }
    out.push(schema);
}

/// The schemas one step down `segment` (`*`: an array's items) from `schema`.
fn step<'a>(table: &'a Table, schema: &'a Value, segment: &str) -> Vec<&'a Value> {
    let mut alts = Vec::new();
    alternatives(table, schema, 0, &mut alts);
    alts.into_iter()
        .filter_map(|s| match segment {
            "*" => s.get("items"),
            name => s.get("properties").and_then(|p| p.get(name)),
        })
        .collect()
}

/// The segments of a JSON pointer (`/a/*/b`), `~1` and `~0` decoded; `None` when it does not
/// start with `/`.
pub fn segments(pointer: &str) -> Option<Vec<String>> {
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// Whether `pointer` names a field of `schema` (in some variant).
pub fn has(table: &Table, schema: &Value, pointer: &str) -> bool {
    let Some(segs) = segments(pointer) else {
        return false;
    };
    let mut current = vec![schema];
    for seg in &segs {
        current = current
            .into_iter()
            .flat_map(|s| step(table, s, seg))
            .collect();
        if current.is_empty() {
            return false;
        }
    }
    true
}

/// Whether `schema` names any field (an untyped body names none, so no pointer can be
/// checked against it).
pub fn typed(table: &Table, schema: &Value) -> bool {
    let mut alts = Vec::new();
    alternatives(table, schema, 0, &mut alts);
    alts.iter().any(|s| {
        s.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty())
    })
}

/// One field found by [`fields`]: its pointer and its schemas as written (one per variant
/// that has it), a `$ref`'s siblings such as `default` included.
pub struct Field<'a> {
    pub pointer: String,
    pub schemas: Vec<&'a Value>,
}

impl Field<'_> {
    /// The last segment: the field's own name (`*` for array members).
    pub fn name(&self) -> &str {
        self.pointer.rsplit('/').next().unwrap_or_default()
    }

    /// The first `default` a schema of the field gives.
    pub fn default(&self) -> Option<&Value> {
        self.schemas.iter().find_map(|s| s.get("default"))
    }

    /// Whether a schema of the field (or what its `$ref` names) says `format: password`.
    pub fn password(&self, table: &Table) -> bool {
        self.schemas.iter().any(|s| {
            let mut alts = Vec::new();
            alternatives(table, s, 0, &mut alts);
            alts.iter()
                .any(|a| a.get("format").and_then(Value::as_str) == Some("password"))
        })
    }

    /// Whether the field holds text.
    pub fn string(&self, table: &Table) -> bool {
        self.schemas.iter().any(|s| {
            let mut alts = Vec::new();
            alternatives(table, s, 0, &mut alts);
            alts.iter().any(|a| match a.get("type") {
                Some(Value::String(t)) => t == "string",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
                _ => false,
            })
        })
    }
}

/// Every field of `schema` down to `depth` segments, in the schemas' order, each pointer
/// once (arrays' members as `*`).
pub fn fields<'a>(table: &'a Table, schema: &'a Value, depth: usize) -> Vec<Field<'a>> {
    let mut out: Vec<Field<'a>> = Vec::new();
    walk(table, schema, String::new(), depth, &mut out);
    out
}

fn walk<'a>(
    table: &'a Table,
    schema: &'a Value,
    at: String,
    depth: usize,
    out: &mut Vec<Field<'a>>,
) {
    if depth == 0 {
        return;
    }
    let mut alts = Vec::new();
    alternatives(table, schema, 0, &mut alts);
    let mut children: Vec<(String, &'a Value)> = Vec::new();
    for s in alts {
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (name, sub) in props {
                let escaped = name.replace('~', "~0").replace('/', "~1");
                children.push((format!("{at}/{escaped}"), sub));
            }
        }
        if let Some(items) = s.get("items") {
            children.push((format!("{at}/*"), items));
        }
    }
    for (pointer, sub) in children {
        match out.iter_mut().find(|f| f.pointer == pointer) {
            Some(f) => f.schemas.push(sub),
            None => out.push(Field {
                pointer: pointer.clone(),
                schemas: vec![sub],
            }),
        }
        walk(table, sub, pointer, depth - 1, out);
    }
}
