//! JSON pointers with `*` for every member of an array (`/vlanPoolIds/*`), as the resource
//! layer writes field paths.

use serde_json::Value;

fn segments(pattern: &str) -> Vec<String> {
    pattern
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The concrete pointers `pattern` matches in `doc` (only those that exist).
pub(crate) fn expand(doc: &Value, pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    walk(doc, &segments(pattern), String::new(), &mut out);
    out
}

fn walk(v: &Value, rest: &[String], at: String, out: &mut Vec<String>) {
    let Some((first, rest)) = rest.split_first() else {
        out.push(at);
        return;
    };
    match (v, first.as_str()) {
        (Value::Array(items), "*") => {
            for (i, item) in items.iter().enumerate() {
                walk(item, rest, format!("{at}/{i}"), out);
            }
        }
        (Value::Object(m), key) => {
            if let Some(child) = m.get(key) {
                walk(child, rest, format!("{at}/{}", escape(key)), out);
            }
        }
        (Value::Array(items), index) => {
            if let Some(child) = index.parse::<usize>().ok().and_then(|i| items.get(i)) {
                walk(child, rest, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// Removes the value at the concrete pointer `at` (an array member is removed, shifting the
/// rest).
pub(crate) fn remove(doc: &mut Value, at: &str) -> Option<Value> {
    let (parent, last) = at.rsplit_once('/')?;
    let last = last.replace("~1", "/").replace("~0", "~");
    match doc.pointer_mut(parent)? {
        Value::Object(m) => m.remove(&last),
        Value::Array(items) => {
            let i = last.parse::<usize>().ok().filter(|i| *i < items.len())?;
            Some(items.remove(i))
        }
        _ => None,
    }
}

/// Sets the value at the concrete pointer `at`, making the objects on the way.
pub(crate) fn set(doc: &mut Value, at: &str, value: Value) {
    let segs = segments(at);
    let mut cur = doc;
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        if !cur.is_object() && !cur.is_array() {
            *cur = Value::Object(Default::default());
        }
        let next = match cur {
            Value::Object(m) => m.entry(seg.clone()).or_insert(Value::Null),
            Value::Array(items) => match seg.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => item,
                None => return,
            },
            _ => return,
        };
        if last {
            *next = value;
            return;
        }
        cur = next;
    }
}

/// Removes every member of every object that is null, and objects left empty by it, so that
/// an absent field and a null one compare equal.
pub(crate) fn prune_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, child| {
                prune_nulls(child);
                !child.is_null()
            });
        }
        Value::Array(items) => items.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}

/// `v` with every object's keys in sorted order (a stable file, whichever order the JSON
/// library keeps).
pub(crate) fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&m[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stars_match_every_member() {
        let doc = json!({"a": [{"id": 1}, {"id": 2}, {"x": 3}], "b/c": {"d": 1}});
        assert_eq!(expand(&doc, "/a/*/id"), vec!["/a/0/id", "/a/1/id"]);
        assert_eq!(expand(&doc, "/b~1c/d"), vec!["/b~1c/d"]);
        assert!(expand(&doc, "/nothing").is_empty());
    }

    #[test]
    fn set_and_remove_round_trip() {
        let mut doc = json!({});
        set(&mut doc, "/wlan/passphrase", json!("x"));
        assert_eq!(doc, json!({"wlan": {"passphrase": "x"}}));
        assert_eq!(remove(&mut doc, "/wlan/passphrase"), Some(json!("x")));
        assert_eq!(doc, json!({"wlan": {}}));
    }
}
