//! Support for generated union types: a value that is one of several named types.
//!
//! A generated union is an enum with one variant per type and an `Unknown` variant that keeps
//! a value matching none of them as raw JSON. Its `Deserialize` buffers the value as a
//! [`serde_json::Value`] and then either reads the discriminator with [`tag`] and decodes the
//! variant it selects with [`decode`], or, without a discriminator, tries the variants in order
//! with [`try_decode`]. Generated code calls these functions by their paths
//! (`ruckus_one_runtime::union::tag`); they are not meant for application code.

use serde::de::{self, DeserializeOwned};
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
}
