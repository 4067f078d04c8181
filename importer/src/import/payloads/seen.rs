//! What the values the payloads send at one place look like, merged over every payload: the
//! shape a field's type is read from.

use serde_json::Value;
use std::collections::BTreeMap;

/// The values seen at one place, widened to a type that holds them all.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    /// Only `null`: says nothing of the type.
    Null,
    /// Only blank strings or a request template's placeholders (`""`, `"{{venueId}}"`): a
    /// string, but no evidence against another type a description gives.
    Blank,
    Bool,
    Int,
    Number,
    String,
    Array(Box<Seen>),
    /// Objects: every key any of them has, with its values widened.
    Object(BTreeMap<String, Seen>),
    /// Values of kinds no one type holds (a string here, an object there).
    Json,
}

impl Seen {
    /// The shape of one value.
    pub fn of(value: &Value) -> Seen {
        match value {
            Value::Null => Seen::Null,
            Value::Bool(_) => Seen::Bool,
            Value::Number(n) if n.is_i64() || n.is_u64() => Seen::Int,
            Value::Number(_) => Seen::Number,
            Value::String(s) if is_blank(s) => Seen::Blank,
            Value::String(_) => Seen::String,
            Value::Array(items) => Seen::Array(Box::new(
                items
                    .iter()
                    .map(Seen::of)
                    .fold(Seen::Null, |a, b| a.widen(&b)),
            )),
            Value::Object(map) => {
                Seen::Object(map.iter().map(|(k, v)| (k.clone(), Seen::of(v))).collect())
            }
        }
    }

    /// The shape that holds values of both: an integer and a number are a number; a blank
    /// string gives way to a string; `null` gives way to anything; arrays widen their
    /// elements and objects their keys; anything else that differs is `Json`.
    pub fn widen(&self, other: &Seen) -> Seen {
        match (self, other) {
            _ if self == other => self.clone(),
            (Seen::Null, x) | (x, Seen::Null) => x.clone(),
            (Seen::Blank, Seen::String) | (Seen::String, Seen::Blank) => Seen::String,
            (Seen::Int, Seen::Number) | (Seen::Number, Seen::Int) => Seen::Number,
            (Seen::Array(a), Seen::Array(b)) => Seen::Array(Box::new(a.widen(b))),
            (Seen::Object(a), Seen::Object(b)) => {
                let mut out = a.clone();
                for (k, v) in b {
                    let merged = match out.get(k) {
                        Some(known) => known.widen(v),
                        None => v.clone(),
                    };
                    out.insert(k.clone(), merged);
                }
                Seen::Object(out)
            }
            _ => Seen::Json,
        }
    }

    /// Whether these values fit the scalar type `declared` a description gives (`null` and
    /// blanks fit anything; an integer fits a number). Types that are no scalar take anything.
    pub fn fits_scalar(&self, declared: &str) -> bool {
        match (declared, self) {
            (_, Seen::Null | Seen::Blank) => true,
            ("string", s) => *s == Seen::String,
            ("boolean", s) => *s == Seen::Bool,
            ("integer" | "int64" | "int32", s) => *s == Seen::Int,
            ("number", s) => matches!(s, Seen::Int | Seen::Number),
            _ => true,
        }
    }

    /// Whether the values carry fields a type could name: an object with keys, or a list of
    /// them.
    pub fn has_fields(&self) -> bool {
        match self {
            Seen::Object(map) => !map.is_empty(),
            Seen::Array(inner) => inner.has_fields(),
            _ => false,
        }
    }
}

/// A blank form value or a request template's placeholder.
fn is_blank(s: &str) -> bool {
    let t = s.trim();
    t.is_empty() || (t.starts_with("{{") && t.ends_with("}}"))
}

/// Whether an object's keys are data rather than field names (`{"2_00_Operational": 1}`, keys
/// that are ids or MAC addresses): such an object is a map.
pub fn keys_are_data<'k>(mut keys: impl Iterator<Item = &'k String>) -> bool {
    keys.any(|k| {
        let starts_as_name = k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let name_chars = k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let hex_id = k.len() >= 24 && k.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
        !starts_as_name || !name_chars || hex_id
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_widen_to_a_shape_that_holds_them_all() {
        assert_eq!(Seen::of(&json!("a")), Seen::String);
        assert_eq!(
            Seen::of(&json!([1, 2.5])),
            Seen::Array(Box::new(Seen::Number))
        );
        assert_eq!(Seen::of(&json!([])), Seen::Array(Box::new(Seen::Null)));
        assert_eq!(Seen::Null.widen(&Seen::String), Seen::String);
        assert_eq!(Seen::String.widen(&Seen::Bool), Seen::Json);
        assert_eq!(Seen::Blank.widen(&Seen::String), Seen::String);
        let a = Seen::of(&json!({"rel": "self"}));
        let b = Seen::of(&json!({"href": "/x", "rel": null}));
        let Seen::Object(merged) = a.widen(&b) else {
            panic!("objects widen to an object");
        };
        assert_eq!(merged.get("rel"), Some(&Seen::String));
        assert_eq!(merged.get("href"), Some(&Seen::String));
    }

    #[test]
    fn blanks_and_placeholders_are_no_evidence_against_a_scalar_type() {
        assert!(Seen::of(&json!("")).fits_scalar("integer"));
        assert!(Seen::of(&json!("{{switchId}}")).fits_scalar("integer"));
        assert!(!Seen::of(&json!("12")).fits_scalar("integer"));
        assert!(Seen::Int.fits_scalar("number"));
        assert!(!Seen::Number.fits_scalar("int64"));
    }

    #[test]
    fn keys_that_are_data_make_a_map() {
        let k = |keys: &[&str]| {
            keys_are_data(
                keys.iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .iter(),
            )
        };
        assert!(k(&["2_00_Operational"]));
        assert!(k(&["d613141c780f4b5c9a4f2e0b6b7c8d9e"]));
        assert!(k(&["aa:bb:cc:dd:ee:ff"]));
        assert!(!k(&["apRadioParams24G", "enable50G"]));
        assert!(!k(&["_links"]));
    }
}
