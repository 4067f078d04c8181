//! Support for decoding generated object models.
//!
//! A generated model's `Deserialize` reads the JSON object into a map once and then takes its
//! fields out of it by wire name in one non-generic function per model (what is left is the
//! model's `additional_fields` when it keeps unknown fields). Compared with a derived
//! `Deserialize`, the code per model is small and compiled once instead of once per
//! deserializer, which keeps the build time of a crate with a thousand models in check.
//! Its `Serialize` likewise writes the fields into a map in one non-generic function
//! ([`encode`], [`Writer`]). Generated code calls these by their paths
//! (`ruckus_one_runtime::object::decode`); they are not meant for application code.

use serde::de::{self, DeserializeOwned};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer, ser};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// The fields of one JSON object being decoded into a model.
pub struct Fields {
    map: Map<String, Value>,
}

/// Why a field did not decode: its wire name and what went wrong.
#[derive(Debug)]
pub struct FieldError {
    field: String,
    problem: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.problem)
    }
}

impl Fields {
    /// A field that must be present (and not `null` unless `T` accepts it).
    pub fn required<T: DeserializeOwned>(&mut self, field: &str) -> Result<T, FieldError> {
        match self.map.remove(field) {
            Some(value) => T::deserialize(value).map_err(|e| invalid(field, e)),
            None => Err(FieldError {
                field: field.to_owned(),
                problem: "missing".to_owned(),
            }),
        }
    }

    /// A field that may be absent or `null` (both give `None`).
    pub fn optional<T: DeserializeOwned>(&mut self, field: &str) -> Result<Option<T>, FieldError> {
        match self.map.remove(field) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(value)
                .map(Some)
                .map_err(|e| invalid(field, e)),
        }
    }

    /// The fields not taken: a model's `additional_fields`.
    pub fn rest(&mut self) -> BTreeMap<String, Value> {
        std::mem::take(&mut self.map).into_iter().collect()
    }
}

fn invalid(field: &str, e: serde_json::Error) -> FieldError {
    FieldError {
        field: field.to_owned(),
        problem: e.to_string(),
    }
}

/// Decodes a JSON object into the model `build` makes from its fields; errors name the model
/// (`model`) and the field.
pub fn decode<'de, D, T>(
    deserializer: D,
    model: &'static str,
    build: fn(&mut Fields) -> Result<T, FieldError>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let map = Map::<String, Value>::deserialize(deserializer)?;
    build(&mut Fields { map }).map_err(|e| de::Error::custom(format_args!("`{model}` {e}")))
}

/// The fields of one JSON object being written from a model, in the model's field order.
#[derive(Default)]
pub struct Writer {
    entries: Vec<(String, Value)>,
    error: Option<String>,
}

impl Writer {
    /// A field written whatever its value (a required field; `None` of a nullable one is
    /// `null`).
    pub fn field<T: Serialize + ?Sized>(&mut self, field: &str, value: &T) {
        match serde_json::to_value(value) {
            Ok(v) => self.entries.push((field.to_owned(), v)),
            Err(e) => {
                self.error
                    .get_or_insert_with(|| format!("field `{field}`: {e}"));
            }
        }
    }

    /// An optional field: left out when `None`.
    pub fn optional<T: Serialize>(&mut self, field: &str, value: &Option<T>) {
        if let Some(v) = value {
            self.field(field, v);
        }
    }

    /// A model's `additional_fields`: written after the named fields, never over one.
    pub fn rest(&mut self, fields: &BTreeMap<String, Value>) {
        let named = self.entries.len();
        for (k, v) in fields {
            if !self.entries[..named].iter().any(|(n, _)| n == k) {
                self.entries.push((k.clone(), v.clone()));
            }
        }
    }
}

/// Serializes the model `value` as the JSON object `write` fills.
pub fn encode<S, T>(serializer: S, value: &T, write: fn(&T, &mut Writer)) -> Result<S::Ok, S::Error>
where
    S: Serializer,
{
    let mut w = Writer::default();
    write(value, &mut w);
    if let Some(e) = w.error {
        return Err(ser::Error::custom(e));
    }
    let mut map = serializer.serialize_map(Some(w.entries.len()))?;
    for (k, v) in &w.entries {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Port {
        name: String,
        speed: Option<i64>,
        rest: BTreeMap<String, Value>,
    }

    impl<'de> Deserialize<'de> for Port {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            fn fields(f: &mut Fields) -> Result<Port, FieldError> {
                Ok(Port {
                    name: f.required("name")?,
                    speed: f.optional("speed")?,
                    rest: f.rest(),
                })
            }
            decode(d, "Port", fields)
        }
    }

    impl Serialize for Port {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            fn fields(p: &Port, w: &mut Writer) {
                w.field("name", &p.name);
                w.optional("speed", &p.speed);
                w.rest(&p.rest);
            }
            encode(s, self, fields)
        }
    }

    #[test]
    fn writes_set_fields_then_the_rest_without_overwriting() {
        let port = Port {
            name: "1/1/1".into(),
            speed: None,
            rest: BTreeMap::from([
                ("poe".to_owned(), json!(true)),
                ("name".to_owned(), json!("shadowed")),
            ]),
        };
        assert_eq!(
            serde_json::to_string(&port).unwrap(),
            r#"{"name":"1/1/1","poe":true}"#,
            "named fields first, in order; an additional field never replaces one"
        );
    }

    #[test]
    fn takes_fields_by_name_and_keeps_the_rest() {
        let port: Port =
            serde_json::from_value(json!({"name": "1/1/1", "speed": null, "poe": true})).unwrap();
        assert_eq!(port.name, "1/1/1");
        assert_eq!(port.speed, None);
        assert_eq!(port.rest, BTreeMap::from([("poe".to_owned(), json!(true))]));
        let port: Port = serde_json::from_str(r#"{"name": "a", "speed": 10}"#).unwrap();
        assert_eq!(port.speed, Some(10));
    }

    #[test]
    fn errors_name_the_model_and_the_field() {
        let missing = serde_json::from_value::<Port>(json!({"speed": 1})).unwrap_err();
        assert_eq!(missing.to_string(), "`Port` field `name`: missing");
        let wrong = serde_json::from_str::<Port>(r#"{"name": "a", "speed": "fast"}"#).unwrap_err();
        assert!(
            wrong
                .to_string()
                .starts_with("`Port` field `speed`: invalid type"),
            "{wrong}"
        );
        assert!(serde_json::from_value::<Port>(json!([1])).is_err());
    }
}
