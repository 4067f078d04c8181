//! Support for generated union types: a value that is one of several named types.
//!
//! A generated union is an enum with one variant per type and an `Unknown` variant that keeps
//! a value matching none of them as raw JSON. Its `Deserialize` buffers the value as a
//! [`serde_json::Value`] and then either reads the discriminator with [`tag`] and decodes the
//! variant it selects with [`decode`], or, without a discriminator, tries the variants in order
//! with [`try_decode`]. Generated code calls these functions by their paths
//! (`ruckus_one_runtime::union::tag`); they are not meant for application code.

use serde::de::{self, DeserializeOwned};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The string value of the field `discriminator` when `value` is an object that has one.
///
/// A missing field, a field that is not a string, or a value that is not an object gives
/// `None`: the generated union then keeps the value in its `Unknown` variant.
pub fn tag<'v>(value: &'v Value, discriminator: &str) -> Option<&'v str> {
    value.as_object()?.get(discriminator)?.as_str()
}

/// Decodes `value` as the variant type `T` its tag selected.
///
/// A failure is an error of the outer deserializer naming the union type and the tag, so a
/// malformed value of a known kind is reported as such instead of silently becoming `Unknown`.
pub fn decode<T, E>(value: Value, union: &str, tag: &str) -> Result<T, E>
where
    T: DeserializeOwned,
    E: de::Error,
{
    T::deserialize(value).map_err(|e| E::custom(format_args!("`{union}` tagged `{tag}`: {e}")))
}

/// Decodes `value` as the variant type `T` its tag selected, without the tag: a union with a
/// discriminator owns its tag (it writes it back with [`serialize_tagged`]), so the variant
/// type holds no field that could contradict it.
pub fn decode_tagged<T, E>(
    mut value: Value,
    discriminator: &str,
    union: &str,
    tag: &str,
) -> Result<T, E>
where
    T: DeserializeOwned,
    E: de::Error,
{
    if let Value::Object(map) = &mut value {
        map.remove(discriminator);
    }
    decode(value, union, tag)
}

/// Writes a variant of a union with a discriminator: the tag first, then the variant's fields.
pub fn serialize_tagged<T, S>(
    value: &T,
    discriminator: &str,
    tag: &str,
    serializer: S,
) -> Result<S::Ok, S::Error>
where
    T: Serialize,
    S: Serializer,
{
    use serde::ser::{Error as _, SerializeMap as _};
    let fields = match serde_json::to_value(value).map_err(S::Error::custom)? {
        Value::Object(map) => map,
        other => {
            return Err(S::Error::custom(format_args!(
                "a variant tagged `{tag}` must be an object, not {other}"
            )));
        }
    };
    let mut map = serializer.serialize_map(Some(fields.len() + 1))?;
    map.serialize_entry(discriminator, tag)?;
    for (k, v) in fields.iter().filter(|(k, _)| *k != discriminator) {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// `Debug` of a value a union keeps as `Unknown`: the JSON with every field named in `secrets`
/// (the secret fields of the union's variant types, at any depth) shown as `***`.
pub fn debug_unknown(
    f: &mut std::fmt::Formatter<'_>,
    value: &Value,
    secrets: &[&str],
) -> std::fmt::Result {
    fn masked(value: &Value, secrets: &[&str]) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| {
                        let v = if secrets.contains(&k.as_str()) && !v.is_null() {
                            Value::String("***".into())
                        } else {
                            masked(v, secrets)
                        };
                        (k.clone(), v)
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(|v| masked(v, secrets)).collect()),
            other => other.clone(),
        }
    }
    f.debug_tuple("Unknown")
        .field(&masked(value, secrets))
        .finish()
}

/// Decodes `value` as `T` if it can: a union without a discriminator tries its variants in
/// order with this and takes the first that decodes.
pub fn try_decode<T: DeserializeOwned>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Psk {
        ssid: String,
    }

    /// What a generated `Deserialize` does with a discriminator.
    fn tagged(value: Value) -> Result<Result<Psk, Value>, serde_json::Error> {
        Ok(match tag(&value, "type") {
            Some("psk") => Ok(decode::<Psk, serde_json::Error>(value, "Net", "psk")?),
            _ => Err(value),
        })
    }

    #[test]
    fn reads_string_tags_of_objects_only() {
        assert_eq!(tag(&json!({"type": "psk"}), "type"), Some("psk"));
        assert_eq!(tag(&json!({"type": 1}), "type"), None);
        assert_eq!(tag(&json!({"kind": "psk"}), "type"), None);
        assert_eq!(tag(&json!(["type"]), "type"), None);
        assert_eq!(tag(&json!("psk"), "type"), None);
    }

    #[test]
    fn decodes_the_selected_variant_and_names_the_union_on_failure() {
        let ok = tagged(json!({"type": "psk", "ssid": "home"})).unwrap();
        assert_eq!(
            ok,
            Ok(Psk {
                ssid: "home".into()
            })
        );
        let unknown = tagged(json!({"type": "sae", "ssid": "home"})).unwrap();
        assert_eq!(unknown, Err(json!({"type": "sae", "ssid": "home"})));
        let err = tagged(json!({"type": "psk"})).unwrap_err().to_string();
        assert!(err.contains("`Net` tagged `psk`"), "{err}");
        assert!(err.contains("missing field `ssid`"), "{err}");
    }

    #[test]
    fn unknown_values_keep_numbers_exactly() {
        for number in crate::object::tests::EXACT_NUMBERS {
            // Keys in the order a `Value` keeps them (sorted).
            let text = format!(r#"{{"id":{number},"n":[{number}],"ssid":"x","type":"sae"}}"#);
            let unknown = tagged(serde_json::from_str(&text).expect(number)).unwrap();
            let Err(value) = unknown else {
                panic!("{unknown:?}")
            };
            assert_eq!(value.to_string(), text, "{number}");
            // Without a discriminator: no variant decodes, the value is kept.
            let value: Value = serde_json::from_str(&format!("[{number}]")).unwrap();
            assert_eq!(try_decode::<Psk>(&value), None);
            assert_eq!(value.to_string(), format!("[{number}]"));
        }
    }

    #[test]
    fn tries_without_consuming() {
        let v = json!({"ssid": "x"});
        assert_eq!(try_decode::<Psk>(&v), Some(Psk { ssid: "x".into() }));
        assert_eq!(try_decode::<Psk>(&json!({"other": 1})), None);
        assert_eq!(v, json!({"ssid": "x"}));
    }

    #[test]
    fn a_union_owns_its_tag() {
        #[derive(Debug, PartialEq, Deserialize, serde::Serialize)]
        struct Open {
            ssid: String,
        }
        let v: Open = decode_tagged::<_, serde_json::Error>(
            json!({"type": "open", "ssid": "x"}),
            "type",
            "Net",
            "open",
        )
        .unwrap();
        assert_eq!(v, Open { ssid: "x".into() });
        let back = serialize_tagged(&v, "type", "open", serde_json::value::Serializer).unwrap();
        assert_eq!(back, json!({"type": "open", "ssid": "x"}));
        let text = serde_json::to_string(&SerializeWith(&v)).unwrap();
        assert!(text.starts_with(r#"{"type":"open""#), "{text}");
    }

    struct SerializeWith<'a, T>(&'a T);
    impl<T: Serialize> Serialize for SerializeWith<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_tagged(self.0, "type", "open", s)
        }
    }

    #[test]
    fn unknown_values_mask_secret_fields_at_any_depth() {
        struct D(Value);
        impl std::fmt::Debug for D {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                debug_unknown(f, &self.0, &["passphrase"])
            }
        }
        let text = format!(
            "{:?}",
            D(json!({"type": "sae", "wlan": {"passphrase": "hunter22", "ssid": "home"}}))
        );
        assert!(!text.contains("hunter22"), "{text}");
        assert!(text.contains("***") && text.contains("home"), "{text}");
    }
}
