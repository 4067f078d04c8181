//! Answers that validate: [`conform`](Samples::conform) turns a value (stored state, a
//! candidate page, nothing) into one that validates against a schema of the export, keeping what
//! already fits, filling required fields with sample values and replacing what does not fit.
//! Canned answers are `conform(None, schema)`.
//!
//! An answer has the shape of the service's: the service sends every field of an object it
//! answers with (the vendor-written answers show whole objects, not only the required fields),
//! and only those, so an answer's own object and the rows of a list directly in it (a page's
//! rows) get every declared field, filled with a sample where the value lacks it, and lose the
//! fields their schema does not declare (a create body's fields that its read type does not
//! show). Nested objects get their required fields only and keep what they were given (a
//! network's `wlan` reads back as written), which also ends recursive schemas early.

use crate::model::Table;
use ruckus_one_catalog::type_matches;
use serde_json::{Map, Value, json};
use std::cell::Cell;

/// Below this depth, generated values stop at the required minimum (recursive schemas end).
const MAX_DEPTH: usize = 32;

/// How many levels of objects of an answer get every declared field: the answer's own (and
/// the rows of a list directly in it, a page's rows).
pub const WHOLE_LEVELS: usize = 1;

/// Sample values that depend on the simulator (its clock).
pub struct Samples<'a> {
    /// The API's table, whose named schemas the `$ref`s resolve in.
    pub table: &'a Table,
    /// The simulator clock as RFC 3339 (`date-time` samples).
    pub now: &'a str,
    /// How many levels of objects get every declared field ([`WHOLE_LEVELS`] for answers, 0
    /// for values that need only their required fields).
    pub whole: usize,
    /// The objects enclosing the one being built.
    pub level: Cell<usize>,
}

impl<'a> Samples<'a> {
    /// For an answer: its own object (and the rows of a list in it) whole.
    pub fn answer(table: &'a Table, now: &'a str) -> Self {
        Samples {
            table,
            now,
            whole: WHOLE_LEVELS,
            level: Cell::new(0),
        }
    }

    /// For a value that needs only its required fields (an error body, a sample).
    pub fn required_only(table: &'a Table, now: &'a str) -> Self {
        Samples {
            table,
            now,
            whole: 0,
            level: Cell::new(0),
        }
    }

    /// `v` made valid for `schema` (`None`: a value built from the schema alone).
    pub fn conform(&self, v: Option<&Value>, schema: &Value) -> Value {
        self.go(v, schema, 0)
    }

    fn go(&self, v: Option<&Value>, schema: &Value, depth: usize) -> Value {
        let Some(s) = schema.as_object() else {
            return v.cloned().unwrap_or_else(|| json!({}));
        };
        if depth > MAX_DEPTH {
            if let Some(v) = v.filter(|v| self.table.is_valid(v, schema)) {
                return v.clone();
            }
        }
        if let Some(target) = self.table.referenced(schema) {
            return match target {
                Some(target) => {
                    let out = self.go(v, target, depth + 1);
                    // A `format` beside the reference constrains a sample string too.
                    match (v, &out, s.get("format")) {
                        (None, Value::String(_), Some(_)) => self.scalar("string", s),
                        _ => out,
                    }
                }
                None => v.cloned().unwrap_or(Value::Null),
            };
        }
        if let Some(Value::Array(branches)) = s.get("oneOf") {
            return self.one_of(v, s, branches, depth);
        }
        if let Some(Value::Array(branches)) = s.get("anyOf") {
            return self.any_of(v, branches, depth);
        }
        if let Some(Value::Array(values)) = s.get("enum") {
            return match v {
                Some(x) if values.contains(x) => x.clone(),
                _ => values.first().cloned().unwrap_or(Value::Null),
            };
        }
        let ty = s.get("type");
        if v.is_some_and(Value::is_null) && ty.is_some_and(|t| type_matches(t, &Value::Null)) {
            return Value::Null;
        }
        match primary_type(ty) {
            Some("object") => self.object(v, s, depth),
            Some("array") => self.array(v, s, depth),
            Some(t) => match v {
                Some(x) if self.table.is_valid(x, schema) && fits_format(x, s) => x.clone(),
                _ => self.scalar(t, s),
            },
            None if s.contains_key("properties") => self.object(v, s, depth),
            None => v.cloned().unwrap_or_else(|| json!({})),
        }
    }

    fn any_of(&self, v: Option<&Value>, branches: &[Value], depth: usize) -> Value {
        if let Some(x) = v {
            if branches.iter().any(|b| self.table.is_valid(x, b)) {
                return x.clone();
            }
        }
        let first = branches
            .iter()
            .find(|b| b.get("type").and_then(Value::as_str) != Some("null"))
            .or(branches.first());
        first.map_or(Value::Null, |b| self.go(v, b, depth + 1))
    }

    /// A value matching exactly one variant: the discriminator's variant first, then each
    /// variant in order, from the value and then from nothing.
    fn one_of(
        &self,
        v: Option<&Value>,
        s: &Map<String, Value>,
        branches: &[Value],
        depth: usize,
    ) -> Value {
        // Valid for a plain JSON Schema validator (exactly one variant matches: Schemathesis'
        // check) and, with a discriminator, for OpenAPI's rule too (the tag's variant).
        let whole = Value::Object(s.clone());
        let tagged = s.contains_key("discriminator");
        let exactly_one = |c: &Value| {
            branches
                .iter()
                .filter(|b| self.table.is_valid(c, b))
                .count()
                == 1
                && (!tagged || self.table.is_valid(c, &whole))
        };
        if let Some(x) = v {
            if exactly_one(x) {
                return x.clone();
            }
        }
        let mut candidates: Vec<Value> = Vec::new();
        if let Some(c) = self.tagged(v, s, branches, depth, &exactly_one) {
            return c;
        }
        if let Some(d) = s.get("discriminator") {
            let prop = d.get("propertyName").and_then(Value::as_str).unwrap_or("");
            let mapping = d.get("mapping").and_then(Value::as_object);
            let tag = v.and_then(|x| x.get(prop)).and_then(Value::as_str);
            let tags: Vec<(&String, &Value)> =
                mapping.map(|m| m.iter().collect()).unwrap_or_default();
            let chosen = tags
                .iter()
                .find(|(k, _)| Some(k.as_str()) == tag)
                .or(tags.first());
            for (key, target) in chosen.into_iter().chain(tags.iter()) {
                let mut base = v.and_then(Value::as_object).cloned().unwrap_or_default();
                base.insert(prop.to_owned(), Value::String((*key).clone()));
                let target = json!({ "$ref": target });
                let mut c = self.go(Some(&Value::Object(base)), &target, depth + 1);
                with_tag(&mut c, prop, key);
                candidates.push(c);
            }
        }
        for b in branches {
            candidates.push(self.go(v, b, depth + 1));
        }
        for b in branches {
            candidates.push(self.go(None, b, depth + 1));
        }
        if let Some(c) = candidates.iter().find(|c| exactly_one(c)) {
            return c.clone();
        }
        // Variants that overlap (a shared tag enum, all-optional fields): set a field another
        // variant declares to a value the chosen variant takes and that one refuses.
        for c in &candidates {
            for chosen in branches.iter().filter(|b| self.table.is_valid(c, b)) {
                let d = self.disambiguate(c.clone(), chosen, branches);
                if exactly_one(&d) {
                    return d;
                }
            }
        }
        candidates.into_iter().next().unwrap_or(Value::Null)
    }

    /// The value in the variant its own tag names, when it has one the discriminator maps:
    /// what was written is read back as the kind it was written as, never as another kind
    /// that happens to validate first. Made to match that variant alone if it matches others
    /// too; `None` when it cannot be.
    fn tagged(
        &self,
        v: Option<&Value>,
        s: &Map<String, Value>,
        branches: &[Value],
        depth: usize,
        exactly_one: &dyn Fn(&Value) -> bool,
    ) -> Option<Value> {
        let d = s.get("discriminator")?;
        let prop = d.get("propertyName").and_then(Value::as_str)?;
        let tag = v?.get(prop).and_then(Value::as_str)?;
        let target = d.get("mapping")?.get(tag)?.as_str()?;
        let target = json!({ "$ref": target });
        let mut c = self.go(v, &target, depth + 1);
        with_tag(&mut c, prop, tag);
        if c.get(prop).and_then(Value::as_str) != Some(tag) {
            return None;
        }
        if exactly_one(&c) {
            return Some(c);
        }
        let chosen = branches.iter().find(|b| **b == target)?;
        let d = self.disambiguate(c, chosen, branches);
        exactly_one(&d).then_some(d)
    }

    fn disambiguate(&self, mut c: Value, chosen: &Value, branches: &[Value]) -> Value {
        let own = self.properties(chosen);
        for other in branches.iter().filter(|b| *b != chosen) {
            if !self.table.is_valid(&c, other) {
                continue;
            }
            let theirs = self.properties(other);
            let spoiler = theirs.iter().find_map(|(name, ps)| {
                let mine = own.get(name);
                let pool = [
                    mine.map(|m| self.go(None, m, MAX_DEPTH)),
                    mine.and_then(|m| self.one_item(m)),
                    Some(json!(false)),
                    Some(json!("x")),
                    Some(json!([])),
                    Some(json!({})),
                    Some(json!(0)),
                ];
                pool.into_iter()
                    .flatten()
                    .filter(|x| mine.is_none_or(|m| self.table.is_valid(x, m)))
                    .find(|x| !self.table.is_valid(x, ps))
                    .map(|x| (name.clone(), x))
            });
            if let (Some((name, x)), Some(m)) = (spoiler, c.as_object_mut()) {
                m.insert(name, x);
            }
        }
        c
    }

    /// A list of one generated item, for an array schema (through `$ref`s).
    fn one_item(&self, schema: &Value) -> Option<Value> {
        let s = self.table.deref(schema);
        let item = s.get("items")?;
        Some(Value::Array(vec![self.go(None, item, MAX_DEPTH / 2)]))
    }

    /// The properties of an object schema, through `$ref`s.
    fn properties(&self, schema: &Value) -> Map<String, Value> {
        self.table
            .deref(schema)
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    }

    fn object(&self, v: Option<&Value>, s: &Map<String, Value>, depth: usize) -> Value {
        let empty = Map::new();
        let src = v.and_then(Value::as_object).unwrap_or(&empty);
        let props = s
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let level = self.level.get();
        let whole = level < self.whole;
        self.level.set(level + 1);
        let mut out = Map::new();
        for (name, ps) in props {
            let needed = required.contains(&name.as_str());
            match src.get(name) {
                Some(Value::Null) if !needed && !self.table.is_valid(&Value::Null, ps) => {}
                Some(x) => {
                    out.insert(name.clone(), self.go(Some(x), ps, depth + 1));
                }
                // A given object's id is never made up: a sample would name an object that
                // does not exist.
                None if needed || (whole && (name != "id" || v.is_none())) => {
                    out.insert(name.clone(), self.go(None, ps, depth + 1));
                }
                None => {}
            }
        }
        // A whole object has exactly its declared fields (the service answers its own objects,
        // not what was sent to create them); deeper ones keep what they were given.
        let closed = whole && !props.is_empty();
        // A required field stays even where the schema does not declare it (a union's tag).
        let kept = |k: &str| !closed || required.contains(&k);
        for (name, x) in src
            .iter()
            .filter(|(k, _)| !props.contains_key(*k) && kept(k))
        {
            match s.get("additionalProperties") {
                Some(Value::Bool(false)) => {}
                Some(extra @ Value::Object(_)) => {
                    out.insert(name.clone(), self.go(Some(x), extra, depth + 1));
                }
                _ => {
                    out.insert(name.clone(), x.clone());
                }
            }
        }
        self.level.set(level);
        Value::Object(out)
    }

    fn array(&self, v: Option<&Value>, s: &Map<String, Value>, depth: usize) -> Value {
        let any = json!({});
        let item = s.get("items").unwrap_or(&any);
        let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxItems")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        // The rows of a list directly in a whole answer object are whole themselves.
        let level = self.level.get();
        let rows = self.whole > 0 && level == self.whole;
        if rows {
            self.level.set(level - 1);
        }
        let mut out: Vec<Value> = match v.and_then(Value::as_array) {
            Some(items) => items
                .iter()
                .map(|x| self.go(Some(x), item, depth + 1))
                .collect(),
            None => Vec::new(),
        };
        if let Some(max) = max {
            out.truncate(max);
        }
        while out.len() < min {
            out.push(self.go(None, item, depth + 1));
        }
        self.level.set(level);
        Value::Array(out)
    }

    fn scalar(&self, t: &str, s: &Map<String, Value>) -> Value {
        if let Some(d) = s.get("default") {
            if type_matches(&json!(t), d) {
                return d.clone();
            }
        }
        let num = |k: &str| s.get(k).and_then(Value::as_f64);
        match t {
            "string" => Value::String(self.string(s)),
            "integer" => {
                let lo = num("minimum").map_or(0.0, f64::ceil).max(0.0);
                let x = num("maximum").map_or(lo, |hi| lo.min(hi.floor()));
                json!(x as i64)
            }
            "number" => {
                let lo = num("minimum").unwrap_or(0.0).max(0.0);
                json!(num("maximum").map_or(lo, |hi| lo.min(hi)))
            }
            "boolean" => Value::Bool(false),
            _ => Value::Null,
        }
    }

    fn string(&self, s: &Map<String, Value>) -> String {
        let base = match s.get("format").and_then(Value::as_str).unwrap_or("") {
            "date-time" => self.now.to_owned(),
            "date" => self.now.get(..10).unwrap_or("2026-01-01").to_owned(),
            "time" => "00:00:00Z".to_owned(),
            "email" => "user@example.com".to_owned(),
            "uuid" => "00000000-0000-4000-8000-000000000000".to_owned(),
            "uri" | "url" => "https://example.com/".to_owned(),
            "ipv4" => "192.0.2.1".to_owned(),
            "ipv6" => "2001:db8::1".to_owned(),
            "hostname" => "example.com".to_owned(),
            _ => "string".to_owned(),
        };
        let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let mut out: String = match max {
            Some(max) => base.chars().take(max).collect(),
            None => base,
        };
        while out.chars().count() < min {
            out.push('x');
        }
        out
    }
}

/// The first non-null type of a `type` keyword.
fn primary_type(ty: Option<&Value>) -> Option<&str> {
    match ty? {
        Value::String(t) => Some(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// A union's tag on the value built for its variant: the variant's own schema may not declare
/// the tag, and a whole object keeps only what its schema declares.
fn with_tag(v: &mut Value, prop: &str, tag: &str) {
    if let Value::Object(m) = v {
        m.entry(prop.to_owned())
            .or_insert_with(|| Value::String(tag.to_owned()));
    }
}

/// Whether a string answered fits its `format` where a client checks it (`uuid`, `date-time`):
/// a value stored from a request the simulator did not check this way (a path parameter) is
/// answered as a sample instead. Other values and formats fit.
fn fits_format(v: &Value, s: &Map<String, Value>) -> bool {
    let (Some(text), Some(format)) = (v.as_str(), s.get("format").and_then(Value::as_str)) else {
        return true;
    };
    match format {
        "uuid" => {
            let parts: Vec<&str> = text.split('-').collect();
            parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
                && parts
                    .iter()
                    .all(|p| p.chars().all(|c| c.is_ascii_hexdigit()))
        }
        "date-time" => {
            let b = text.as_bytes();
            b.len() >= 20
                && b[..4].iter().all(u8::is_ascii_digit)
                && b[4] == b'-'
                && b[10].eq_ignore_ascii_case(&b'T')
        }
        _ => true,
    }
}
