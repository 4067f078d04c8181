//! Support for decoding generated object models.
//!
//! A generated model's `Deserialize` reads the JSON object into a map once and then takes its
//! fields out of it by wire name in one non-generic function per model (what is left is the
//! model's `additional_fields` when it keeps unknown fields). Compared with a derived
//! `Deserialize`, the code per model is small and compiled once instead of once per
//! deserializer, which keeps the build time of a crate with a thousand models in check.
//! Its `Serialize` likewise writes the fields in one non-generic function ([`Writer`]); only
//! the steps that touch the deserializer or serializer ([`Fields::decode`], [`Writer::encode`])
//! are generic, so they are compiled once per deserializer, not once per model. Generated code
//! calls these by their paths (`ruckus_one_runtime::internal::object::Fields`); they are not
//! meant for application code.

// Generic functions here are compiled once per field type of the client's models (about 900
// types) in every debug build of the client: `?` costs two more generic functions each time.
#![allow(
    clippy::question_mark,
    reason = "`match` instead of `?` in generic code; see above"
)]

use crate::RawJson;
use serde::de::{self, DeserializeOwned};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer, ser};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt;

/// The fields of one JSON object being decoded into a model, each kept as its JSON text until
/// it is taken (so what is left goes back exactly as received).
pub struct Fields {
    map: BTreeMap<String, RawJson>,
    error: Option<FieldError>,
}

/// Why a field did not decode: its wire name and what went wrong.
#[derive(Debug)]
struct FieldError {
    field: String,
    problem: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.problem)
    }
}

impl Fields {
    /// Reads the JSON object a model is decoded from (generic over the deserializer only).
    /// Models decode from serde_json's deserializers (text, bytes, readers and `Value`s).
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::<String, RawJson>::deserialize(deserializer)
            .map(|map| Fields { map, error: None })
    }

    /// A model's whole `Deserialize`: reads the object, then `fields` takes the model's fields
    /// out of it (answering `None` when a required one is missing or does not decode). The
    /// first field that failed, required or optional, is the error, naming `model` and the
    /// field. One call per model keeps the glue (`?`, `map_err`) out of the generated code.
    pub fn decode<'de, D: Deserializer<'de>, T>(
        deserializer: D,
        model: &str,
        fields: fn(&mut Fields) -> Option<T>,
    ) -> Result<T, D::Error> {
        let mut f = match Fields::read(deserializer) {
            Ok(f) => f,
            Err(e) => return Err(e),
        };
        match fields(&mut f) {
            Some(v) if f.error.is_none() => Ok(v),
            _ => Err(de::Error::custom(f.failure(model))),
        }
    }

    /// The message of the first field that failed, naming `model`.
    fn failure(&mut self, model: &str) -> String {
        match self.error.take() {
            Some(error) => format!("`{model}` {error}"),
            None => format!("`{model}`: a required field is missing"),
        }
    }

    /// A field that must be present (and not `null` unless `T` accepts it). `None` when it is
    /// missing or does not decode, which is recorded as the model's error.
    pub fn required<T: DeserializeOwned>(&mut self, field: &str) -> Option<T> {
        self.required_as(field, decode::<T>)
    }

    /// A field that may be absent or `null` (both give `None`). A value that does not decode
    /// is recorded as the model's error.
    pub fn optional<T: DeserializeOwned>(&mut self, field: &str) -> Option<T> {
        self.optional_as(field, decode::<T>)
    }

    /// A list that must be present, as [`required`](Self::required).
    pub fn required_list<T: DeserializeOwned>(&mut self, field: &str) -> Option<Vec<T>> {
        self.required_as(field, decode_list::<T>)
    }

    /// A list that may be absent or `null`, as [`optional`](Self::optional).
    pub fn optional_list<T: DeserializeOwned>(&mut self, field: &str) -> Option<Vec<T>> {
        self.optional_as(field, decode_list::<T>)
    }

    fn required_as<V>(&mut self, field: &str, decode: Decode<V>) -> Option<V> {
        let Some(value) = self.map.remove(field) else {
            self.error.get_or_insert_with(|| missing(field));
            return None;
        };
        match decode(value.as_json()) {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(field, e);
                None
            }
        }
    }

    fn optional_as<V>(&mut self, field: &str, decode: Decode<V>) -> Option<V> {
        let Some(value) = self.present(field) else {
            return None;
        };
        match decode(value.as_json()) {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(field, e);
                None
            }
        }
    }

    /// The field's value unless it is absent or `null`.
    fn present(&mut self, field: &str) -> Option<RawJson> {
        self.map.remove(field).filter(|v| !v.is_null())
    }

    /// Records the first field that did not decode.
    fn fail(&mut self, field: &str, e: serde_json::Error) {
        self.error.get_or_insert_with(|| invalid(field, e));
    }

    /// The fields not taken: a model's `additional_fields`.
    pub fn rest(&mut self) -> BTreeMap<String, RawJson> {
        std::mem::take(&mut self.map)
    }
}

// The generic functions below are compiled once per field type of the client's models (about
// 900 types), so they avoid `?`, `map_err` and iterator adapters over `T`: each of those is
// one more function per type in a debug build.

/// How a field's JSON text becomes its value.
type Decode<V> = fn(&str) -> Result<V, serde_json::Error>;

/// Decodes one value's JSON text. The text is one whole value already, so unlike
/// `serde_json::from_str` nothing after it is checked.
fn decode<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    T::deserialize(&mut serde_json::Deserializer::from_str(text))
}

/// Decodes a JSON array's text element by element: the array is split into the elements'
/// texts by one function for every list ([`each_element`]), so a list of `T` costs this and
/// one closure per `T` instead of serde's sequence machinery.
fn decode_list<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, serde_json::Error> {
    let mut out = Vec::new();
    let failed = each_element(text, &mut |element| match decode(element) {
        Ok(v) => {
            out.push(v);
            None
        }
        Err(e) => Some(e),
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Calls `each` with the text of every element of the JSON array `text`, up to the first error.
fn each_element(
    text: &str,
    each: &mut dyn FnMut(&str) -> Option<serde_json::Error>,
) -> Option<serde_json::Error> {
    let elements = match elements(text) {
        Ok(elements) => elements,
        Err(e) => return Some(e),
    };
    elements.iter().find_map(|element| each(element.get()))
}

fn elements(text: &str) -> Result<Vec<&RawValue>, serde_json::Error> {
    serde_json::from_str(text)
}

fn missing(field: &str) -> FieldError {
    FieldError {
        field: field.to_owned(),
        problem: "missing".to_owned(),
    }
}

fn invalid(field: &str, e: serde_json::Error) -> FieldError {
    FieldError {
        field: field.to_owned(),
        problem: e.to_string(),
    }
}

/// Writes element `i` of a list to the text (see [`Writer::list`]).
type WriteElement<'v> = dyn FnMut(usize, &mut Vec<u8>) -> Result<(), serde_json::Error> + 'v;

/// The fields of one JSON object being written from a model, in the model's field order, each
/// as its JSON text (a nested model's unknown values stay exact).
/// A generated model's fields, written one by one (its `Serialize` is [`Writer::encode`]).
pub trait WriteFields {
    /// Writes the model's fields into `w`, in order.
    fn write_fields(&self, w: &mut Writer);
}

#[derive(Default)]
pub struct Writer {
    entries: Vec<(String, RawJson)>,
    error: Option<String>,
}

impl Writer {
    /// A field written whatever its value (a required field; `None` of a nullable one is
    /// `null`).
    pub fn field<T: Serialize + ?Sized>(&mut self, field: &str, value: &T) {
        let mut text = Vec::new();
        let written = value.serialize(&mut serde_json::Serializer::new(&mut text));
        self.push(field, text, written);
    }

    /// An optional field: left out when `None`.
    pub fn optional<T: Serialize>(&mut self, field: &str, value: &Option<T>) {
        if let Some(v) = value {
            self.field(field, v);
        }
    }

    /// A required list, written element by element (see `decode_list`).
    pub fn list<T: Serialize>(&mut self, field: &str, values: &[T]) {
        self.write_list(field, values.len(), &mut |i, text| match values.get(i) {
            Some(value) => value.serialize(&mut serde_json::Serializer::new(text)),
            None => Ok(()),
        });
    }

    /// A list of `len` elements, `each` writing element `i` to the text.
    fn write_list(&mut self, field: &str, len: usize, each: &mut WriteElement<'_>) {
        let mut text = vec![b'['];
        let mut written = Ok(());
        for i in 0..len {
            if i > 0 {
                text.push(b',');
            }
            written = each(i, &mut text);
            if written.is_err() {
                break;
            }
        }
        text.push(b']');
        self.push(field, text, written);
    }

    /// An optional list: left out when `None`.
    pub fn optional_list<T: Serialize>(&mut self, field: &str, values: &Option<Vec<T>>) {
        if let Some(v) = values {
            self.list(field, v);
        }
    }

    /// A `number` field: `None` is `null`. A whole value is written without a fraction
    /// (`1000`, not `1000.0`), so a number read as an integer goes back as one.
    pub fn number(&mut self, field: &str, value: Option<f64>) {
        self.entries.push((field.to_owned(), number_value(value)));
    }

    /// An optional `number` field: left out when `None`; written as [`number`](Self::number).
    pub fn optional_number(&mut self, field: &str, value: Option<f64>) {
        if value.is_some() {
            self.number(field, value);
        }
    }

    fn push(&mut self, field: &str, text: Vec<u8>, written: Result<(), serde_json::Error>) {
        match written.and_then(|()| RawJson::written(text)) {
            Ok(v) => self.entries.push((field.to_owned(), v)),
            Err(e) if self.error.is_none() => self.error = Some(format!("field `{field}`: {e}")),
            Err(_) => {}
        }
    }

    /// A model's `additional_fields`: written after the named fields, never over one.
    pub fn rest(&mut self, fields: &BTreeMap<String, RawJson>) {
        let named = self.entries.len();
        for (k, v) in fields {
            if !self.entries[..named].iter().any(|(n, _)| n == k) {
                self.entries.push((k.clone(), v.clone()));
            }
        }
    }

    /// A model's whole `Serialize`: the model writes its fields, then the object is written
    /// to `serializer`. Compiled once per serializer, not once per model.
    pub fn encode<S: Serializer>(
        serializer: S,
        model: &dyn WriteFields,
    ) -> Result<S::Ok, S::Error> {
        let mut w = Writer::default();
        model.write_fields(&mut w);
        w.finish(serializer)
    }

    /// Serializes the fields written as one JSON object (generic over the serializer only).
    fn finish<S: Serializer>(self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(e) = self.error {
            return Err(ser::Error::custom(e));
        }
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Whole numbers within the range an `f64` holds exactly (±2^53) become integers; others stay
/// floating point; a value JSON cannot hold (NaN, infinity) becomes `null`, as serde_json writes it.
fn number_value(value: Option<f64>) -> RawJson {
    use serde_json::Value;
    const EXACT: f64 = 9_007_199_254_740_992.0;
    RawJson::from(match value {
        Some(v) if v.fract() == 0.0 && v.abs() <= EXACT && !(v == 0.0 && v.is_sign_negative()) => {
            Value::from(v as i64)
        }
        Some(v) => serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        None => Value::Null,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Port {
        name: String,
        speed: Option<i64>,
        rest: BTreeMap<String, RawJson>,
    }

    impl<'de> Deserialize<'de> for Port {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            fn fields(f: &mut Fields) -> Option<Port> {
                let Some(name) = f.required("name") else {
                    return None;
                };
                Some(Port {
                    name,
                    speed: f.optional("speed"),
                    rest: f.rest(),
                })
            }
            Fields::decode(d, "Port", fields)
        }
    }

    impl WriteFields for Port {
        fn write_fields(&self, w: &mut Writer) {
            w.field("name", &self.name);
            w.optional("speed", &self.speed);
            w.rest(&self.rest);
        }
    }

    impl Serialize for Port {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            Writer::encode(s, self)
        }
    }

    #[test]
    fn writes_set_fields_then_the_rest_without_overwriting() {
        let port = Port {
            name: "1/1/1".into(),
            speed: None,
            rest: BTreeMap::from([
                ("poe".to_owned(), json!(true).into()),
                ("name".to_owned(), json!("shadowed").into()),
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
        assert_eq!(
            port.rest,
            BTreeMap::from([("poe".to_owned(), json!(true).into())])
        );
        let port: Port = serde_json::from_str(r#"{"name": "a", "speed": 10}"#).unwrap();
        assert_eq!(port.speed, Some(10));
    }

    /// Numbers no `f64` or `i64` holds: 2^64, more digits than a double
    /// keeps, `-0`, an exponent out of a double's range, an exponent's spelling.
    pub(crate) const EXACT_NUMBERS: &[&str] = &[
        "18446744073709551616",
        "-9223372036854775809",
        "3.14159265358979323846264338327950288",
        "0.1000000000000000000000001",
        "-0",
        "-0.0",
        "1.0",
        "1e+400",
        "1E7",
        "1e-7",
        "-2.5e-300",
        "100000000000000000000000000000000000000000000000000000000001",
    ];

    #[test]
    fn unknown_fields_keep_numbers_exactly() {
        for number in EXACT_NUMBERS {
            let text = format!(r#"{{"name":"a","speed":10,"big":{number},"list":[{number}]}}"#);
            let port: Port = serde_json::from_str(&text).expect(number);
            assert_eq!(port.speed, Some(10));
            assert_eq!(serde_json::to_string(&port).unwrap(), text, "{number}");
        }
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

    #[test]
    fn whole_numbers_are_written_as_integers() {
        let mut w = Writer::default();
        w.number("a", Some(1000.0));
        w.number("b", Some(2.5));
        w.number("c", None);
        w.optional_number("d", None);
        w.optional_number("e", Some(-3.0));
        w.number("f", Some(f64::NAN));
        w.number("g", Some(-0.0));
        w.number("h", Some(1e300));
        let mut text = Vec::new();
        w.finish(&mut serde_json::Serializer::new(&mut text))
            .unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            r#"{"a":1000,"b":2.5,"c":null,"e":-3,"f":null,"g":-0.0,"h":1e+300}"#
        );
    }
}
