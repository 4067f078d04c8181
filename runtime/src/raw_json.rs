//! [`RawJson`]: a JSON value kept as the text it came in, so it goes back exactly as received.

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;
use std::fmt;

/// A JSON value the client does not model, kept as its JSON text: a field of a model that the
/// spec does not name (`additional_fields`) or a union value that matches none of its variants
/// (`Unknown`).
///
/// The text is written back exactly as received (only whitespace between tokens is dropped),
/// so a number no `f64` or `u64` holds (`18446744073709551616`, `1e400`, `-0`, a long
/// decimal) survives a read-modify-write. It does so without serde_json's
/// `arbitrary_precision` feature, which would change how every other crate of the build
/// decodes JSON.
///
/// Read it with [`decode`](Self::decode) (`decode::<serde_json::Value>()` for a tree) or
/// compare it with a [`serde_json::Value`]; make one from a `Value` with `From`.
///
/// Models keep such values exactly when they are written with serde_json (`to_string`,
/// `to_vec`, `to_writer`; `to_value` parses them into a [`Value`]). For another format,
/// convert with `serde_json::to_value` first.
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// Parses JSON text (whitespace between tokens is dropped).
    pub fn parse(text: &str) -> Result<Self, serde_json::Error> {
        let raw: Box<RawValue> = serde_json::from_str(text)?;
        Ok(Self::compacted(raw))
    }

    /// The JSON text.
    pub fn as_json(&self) -> &str {
        self.0.get()
    }

    /// Decodes the value as `T` (`serde_json::Value` for a tree of values).
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }

    /// Whether the value is JSON `null`.
    pub fn is_null(&self) -> bool {
        self.0.get() == "null"
    }

    /// The value's JSON text when it is a string: `Some("AP")` for `"AP"`.
    pub fn as_str(&self) -> Option<String> {
        if self.0.get().starts_with('"') {
            self.decode().ok()
        } else {
            None
        }
    }

    /// The JSON text of any serializable value, written by serde_json.
    pub(crate) fn of<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(value).map(RawJson)
    }

    /// The text serde_json's compact serializer wrote (checked to be one JSON value).
    pub(crate) fn written(text: Vec<u8>) -> Result<Self, serde_json::Error> {
        let text = String::from_utf8(text).map_err(serde::ser::Error::custom)?;
        RawValue::from_string(text).map(RawJson)
    }

    fn compacted(raw: Box<RawValue>) -> Self {
        match compact(raw.get()) {
            Some(text) => RawJson(RawValue::from_string(text).unwrap_or(raw)),
            None => RawJson(raw),
        }
    }
}

/// The JSON text without whitespace between tokens, or `None` when there is none to drop.
/// `text` is valid JSON, so a byte is inside a string exactly when an odd number of unescaped
/// quotes precede it.
fn compact(text: &str) -> Option<String> {
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    if !text.bytes().any(blank) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii() && blank(c as u8) {
            continue;
        }
        out.push(c);
    }
    Some(out)
}

impl From<Value> for RawJson {
    fn from(value: Value) -> Self {
        RawJson::from(&value)
    }
}

impl From<&Value> for RawJson {
    fn from(value: &Value) -> Self {
        // A `Value` always serializes (its keys are strings, its numbers finite).
        RawJson::of(value).unwrap_or_else(|_| RawJson::null())
    }
}

impl RawJson {
    fn null() -> Self {
        RawJson(RawValue::NULL.to_owned())
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Eq for RawJson {}

impl std::hash::Hash for RawJson {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.get().hash(state);
    }
}

/// Equal when the text decodes to that value (a number a `Value` cannot hold never is).
impl PartialEq<Value> for RawJson {
    fn eq(&self, other: &Value) -> bool {
        self.decode::<Value>().is_ok_and(|v| v == *other)
    }
}

impl PartialEq<RawJson> for Value {
    fn eq(&self, other: &RawJson) -> bool {
        other == self
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

/// Serde_json writes the text as it is. A scalar whose text the format's own writing gives
/// back (a string, `true`, `null`, `12`, `2.5`) is written as that scalar, so formats other
/// than JSON (a form body) take it too; objects, arrays and numbers no `f64` or `i64` spells
/// the same way stay JSON text, which only serde_json writes as such.
impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.0.get();
        match text.as_bytes().first() {
            Some(b'"') => match self.decode::<String>() {
                Ok(s) => serializer.serialize_str(&s),
                Err(_) => self.0.serialize(serializer),
            },
            Some(b't') => serializer.serialize_bool(true),
            Some(b'f') => serializer.serialize_bool(false),
            Some(b'n') => serializer.serialize_unit(),
            Some(b'-' | b'0'..=b'9') => match plain_number(text) {
                Some(Plain::Int(n)) => serializer.serialize_i64(n),
                Some(Plain::Uint(n)) => serializer.serialize_u64(n),
                Some(Plain::Float(n)) => serializer.serialize_f64(n),
                None => self.0.serialize(serializer),
            },
            _ => self.0.serialize(serializer),
        }
    }
}

enum Plain {
    Int(i64),
    Uint(u64),
    Float(f64),
}

/// The number `text` holds when writing it back as an integer or `f64` spells it the same way.
fn plain_number(text: &str) -> Option<Plain> {
    let same = |written: String| written == text;
    if let Ok(n) = text.parse::<i64>() {
        return same(n.to_string()).then_some(Plain::Int(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return same(n.to_string()).then_some(Plain::Uint(n));
    }
    let n = text.parse::<f64>().ok().filter(|n| n.is_finite())?;
    serde_json::to_string(&n)
        .ok()
        .filter(|w| *w == text)
        .map(|_| Plain::Float(n))
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(RawJson::compacted)
    }
}

/// The entries of a JSON object in the order they came, each value as its text; `None` when
/// the value is not an object.
pub(crate) fn object_entries(value: &RawJson) -> Option<Vec<(String, RawJson)>> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(String, RawJson)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
            while let Some(entry) = map.next_entry::<String, RawJson>()? {
                entries.push(entry);
            }
            Ok(entries)
        }
    }
    if !value.as_json().starts_with('{') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(value.as_json());
    de.deserialize_map(Entries).ok()
}

/// The elements of a JSON array, each as its text; `None` when the value is not an array.
pub(crate) fn array_items(value: &RawJson) -> Option<Vec<RawJson>> {
    if !value.as_json().starts_with('[') {
        return None;
    }
    value.decode().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_the_text_without_blanks_between_tokens() {
        let raw = RawJson::parse("{ \"a b\" : [1 ,\n 2e400 ], \"s\":\"x \\\" y\" }").unwrap();
        assert_eq!(raw.as_json(), r#"{"a b":[1,2e400],"s":"x \" y"}"#);
        assert_eq!(serde_json::to_string(&raw).unwrap(), raw.as_json());
        assert!(RawJson::parse("{").is_err());
    }

    #[test]
    fn compares_with_values_by_what_they_decode_to() {
        let raw = RawJson::parse(r#"{"b": 1, "a": "x"}"#).unwrap();
        assert_eq!(raw, json!({"a": "x", "b": 1}));
        assert_ne!(raw, json!({"a": "x"}));
        assert_ne!(RawJson::parse("1e400").unwrap(), json!(1));
        assert_eq!(RawJson::from(json!([1, "two"])).as_json(), r#"[1,"two"]"#);
        assert_eq!(
            RawJson::parse(r#""AP""#).unwrap().as_str().as_deref(),
            Some("AP")
        );
        assert_eq!(RawJson::parse("1").unwrap().as_str(), None);
        assert!(RawJson::parse("null").unwrap().is_null());
    }

    #[test]
    fn reads_entries_in_order_and_items() {
        let raw = RawJson::parse(r#"{"z": 1, "a": {"n": -0}}"#).unwrap();
        let entries = object_entries(&raw).unwrap();
        let keys: Vec<_> = entries
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_json()))
            .collect();
        assert_eq!(keys, [("z", "1"), ("a", r#"{"n":-0}"#)]);
        assert_eq!(object_entries(&RawJson::parse("[1]").unwrap()), None);
        let items = array_items(&RawJson::parse("[1, {}]").unwrap()).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(array_items(&raw), None);
    }

    #[test]
    fn writes_scalars_as_scalars_where_the_text_is_the_same() {
        for text in [
            "\"a\\u00e9\"",
            "true",
            "12",
            "-3",
            "2.5",
            "1.0",
            "18446744073709551615",
        ] {
            let raw = RawJson::parse(text).unwrap();
            let form = serde_urlencoded::to_string([("v", &raw)]).unwrap();
            assert!(form.starts_with("v="), "{text}: {form}");
        }
        for text in [
            "null",
            "-0",
            "1E7",
            "1e400",
            "18446744073709551616",
            "0.10",
            r#"{"a":1}"#,
        ] {
            let raw = RawJson::parse(text).unwrap();
            assert_eq!(serde_json::to_string(&raw).unwrap(), text);
        }
        let raw = RawJson::parse("\"\\u00e9\"").unwrap();
        assert_eq!(
            serde_json::to_string(&raw).unwrap(),
            "\"é\"",
            "a string is the same string"
        );
    }

    #[test]
    fn decodes_from_a_value_too() {
        let raw: RawJson = serde_json::from_value(json!({"a": [true]})).unwrap();
        assert_eq!(raw.as_json(), r#"{"a":[true]}"#);
    }
}
