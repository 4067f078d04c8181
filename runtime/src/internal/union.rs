//! Support for generated union types: a value that is one of several named types.
//!
//! A generated union is an enum with one variant per type and an `Unknown` variant that keeps
//! a value matching none of them as its JSON text ([`RawJson`]). Its `Deserialize` buffers the
//! value as text and then either reads the discriminator with [`tag`] and decodes the variant
//! it selects with [`decode_tagged`], or, without a discriminator, tries the variants in order
//! with [`try_decode`]. Generated code calls these functions by their paths
//! (`ruckus_one_runtime::internal::union::tag`); they are not meant for application code.

use crate::RawJson;
use crate::raw_json::{array_items, object_entries};
use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::{Deserializer, Serialize, Serializer};
use std::fmt;

/// The string value of the field `discriminator` when `value` is an object that has one.
///
/// A missing field, a field that is not a string, or a value that is not an object gives
/// `None`: the generated union then keeps the value in its `Unknown` variant.
pub fn tag(value: &RawJson, discriminator: &str) -> Option<String> {
    struct Tag<'a>(&'a str);
    impl<'de> Visitor<'de> for Tag<'_> {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(key) = map.next_key::<std::borrow::Cow<'_, str>>()? {
                if key == self.0 && found.is_none() {
                    found = Some(map.next_value::<RawJson>()?.as_str());
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found.flatten())
        }
    }
    if !value.as_json().starts_with('{') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(value.as_json());
    de.deserialize_map(Tag(discriminator)).ok().flatten()
}

/// Decodes `value` as the variant type `T` its tag selected.
///
/// A failure is an error of the outer deserializer naming the union type and the tag, so a
/// malformed value of a known kind is reported as such instead of silently becoming `Unknown`.
pub fn decode<T, E>(value: &RawJson, union: &str, tag: &str) -> Result<T, E>
where
    T: DeserializeOwned,
    E: de::Error,
{
    value
        .decode()
        .map_err(|e| E::custom(format_args!("`{union}` tagged `{tag}`: {e}")))
}

/// Decodes `value` as the variant type `T` its tag selected, without the tag: a union with a
/// discriminator owns its tag (it writes it back with [`serialize_tagged`]), so the variant
/// type holds no field that could contradict it.
pub fn decode_tagged<T, E>(
    value: &RawJson,
    discriminator: &str,
    union: &str,
    tag: &str,
) -> Result<T, E>
where
    T: DeserializeOwned,
    E: de::Error,
{
    match object_entries(value) {
        Some(entries) => {
            let mut text = String::with_capacity(value.as_json().len());
            text.push('{');
            for (k, v) in entries.iter().filter(|(k, _)| k != discriminator) {
                if text.len() > 1 {
                    text.push(',');
                }
                text.push_str(&serde_json::to_string(k).map_err(E::custom)?);
                text.push(':');
                text.push_str(v.as_json());
            }
            text.push('}');
            let without_tag = RawJson::parse(&text).map_err(E::custom)?;
            decode(&without_tag, union, tag)
        }
        None => decode(value, union, tag),
    }
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
    let raw = RawJson::of(value).map_err(S::Error::custom)?;
    let Some(fields) = object_entries(&raw) else {
        return Err(S::Error::custom(format_args!(
            "a variant tagged `{tag}` must be an object, not {raw}"
        )));
    };
    let mut map = serializer.serialize_map(Some(fields.len() + 1))?;
    map.serialize_entry(discriminator, tag)?;
    for (k, v) in fields.iter().filter(|(k, _)| k != discriminator) {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// `Debug` of a value a union keeps as `Unknown`: the JSON with every field named in `secrets`
/// (the secret fields of the union's variant types, at any depth) shown as `***`.
pub fn debug_unknown(
    f: &mut std::fmt::Formatter<'_>,
    value: &RawJson,
    secrets: &[&str],
) -> std::fmt::Result {
    fn masked(value: &RawJson, secrets: &[&str], out: &mut String) {
        if let Some(entries) = object_entries(value) {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
                if secrets.contains(&k.as_str()) && !v.is_null() {
                    out.push_str("\"***\"");
                } else {
                    masked(v, secrets, out);
                }
            }
            out.push('}');
        } else if let Some(items) = array_items(value) {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                masked(v, secrets, out);
            }
            out.push(']');
        } else {
            out.push_str(value.as_json());
        }
    }
    let mut text = String::new();
    masked(value, secrets, &mut text);
    f.debug_tuple("Unknown")
        .field(&format_args!("{text}"))
        .finish()
}

/// Decodes `value` as `T` if it can: a union without a discriminator tries its variants in
/// order with this and takes the first that decodes.
pub fn try_decode<T: DeserializeOwned>(value: &RawJson) -> Option<T> {
    value.decode().ok()
}

/// The order in which a union without a discriminator tries its variants on `value`: for an
/// object, the variants whose wire fields (`fields`, per variant) name more of its keys come
/// first, ties in declaration order; anything else, declaration order. A variant whose fields
/// are all optional takes any object, so trying the variants in declaration order alone would
/// decode every value as the first of them, its data in `additional_fields`.
pub fn by_fit(value: &RawJson, fields: &[&[&str]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    if let Some(entries) = object_entries(value) {
        let fit = |i: usize| {
            entries
                .iter()
                .filter(|(k, _)| fields[i].contains(&k.as_str()))
                .count()
        };
        order.sort_by_key(|&i| std::cmp::Reverse(fit(i)));
    }
    order
}

/// Reads the value a union is decoded from, as its JSON text (generic over the deserializer).
pub fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<RawJson, D::Error> {
    serde::Deserialize::deserialize(deserializer)
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

    fn raw(value: serde_json::Value) -> RawJson {
        value.into()
    }

    /// What a generated `Deserialize` does with a discriminator.
    fn tagged(value: RawJson) -> Result<Result<Psk, RawJson>, serde_json::Error> {
        Ok(match tag(&value, "type").as_deref() {
            Some("psk") => Ok(decode::<Psk, serde_json::Error>(&value, "Net", "psk")?),
            _ => Err(value),
        })
    }

    #[test]
    fn reads_string_tags_of_objects_only() {
        assert_eq!(
            tag(&raw(json!({"type": "psk"})), "type").as_deref(),
            Some("psk")
        );
        assert_eq!(
            tag(&raw(json!({"a": {"type": "x"}, "type": "psk"})), "type").as_deref(),
            Some("psk")
        );
        assert_eq!(tag(&raw(json!({"type": 1})), "type"), None);
        assert_eq!(tag(&raw(json!({"kind": "psk"})), "type"), None);
        assert_eq!(tag(&raw(json!(["type"])), "type"), None);
        assert_eq!(tag(&raw(json!("psk")), "type"), None);
    }

    #[test]
    fn decodes_the_selected_variant_and_names_the_union_on_failure() {
        let ok = tagged(raw(json!({"type": "psk", "ssid": "home"}))).unwrap();
        assert_eq!(
            ok,
            Ok(Psk {
                ssid: "home".into()
            })
        );
        let unknown = tagged(raw(json!({"type": "sae", "ssid": "home"}))).unwrap();
        assert_eq!(unknown, Err(raw(json!({"type": "sae", "ssid": "home"}))));
        let err = tagged(raw(json!({"type": "psk"}))).unwrap_err().to_string();
        assert!(err.contains("`Net` tagged `psk`"), "{err}");
        assert!(err.contains("missing field `ssid`"), "{err}");
    }

    #[test]
    fn unknown_values_keep_numbers_exactly() {
        for number in crate::internal::object::tests::EXACT_NUMBERS {
            let text = format!(r#"{{"type":"sae","n":[{number}],"id":{number},"ssid":"x"}}"#);
            let unknown = tagged(RawJson::parse(&text).expect(number)).unwrap();
            let Err(value) = unknown else {
                panic!("{unknown:?}")
            };
            assert_eq!(serde_json::to_string(&value).unwrap(), text, "{number}");
            // Without a discriminator: no variant decodes, the value is kept.
            let value = RawJson::parse(&format!("[{number}]")).unwrap();
            assert_eq!(try_decode::<Psk>(&value), None);
            assert_eq!(value.as_json(), format!("[{number}]"));
        }
    }

    #[test]
    fn an_object_tries_the_variants_naming_most_of_its_keys_first() {
        let rf: &[&str] = &["channel", "rssi"];
        let lldp: &[&str] = &["lldpInterface", "lldpVia", "rssi"];
        let value = raw(json!({"lldpInterface": "eth0", "lldpVia": "LLDP"}));
        assert_eq!(by_fit(&value, &[rf, lldp]), [1, 0]);
        let value = raw(json!({"rssi": -60}));
        assert_eq!(
            by_fit(&value, &[rf, lldp]),
            [0, 1],
            "a tie keeps the declared order"
        );
        assert_eq!(by_fit(&raw(json!([1])), &[rf, lldp]), [0, 1]);
    }

    #[test]
    fn tries_without_consuming() {
        let v = raw(json!({"ssid": "x"}));
        assert_eq!(try_decode::<Psk>(&v), Some(Psk { ssid: "x".into() }));
        assert_eq!(try_decode::<Psk>(&raw(json!({"other": 1}))), None);
        assert_eq!(v, json!({"ssid": "x"}));
    }

    #[test]
    fn a_union_owns_its_tag() {
        #[derive(Debug, PartialEq, Deserialize, serde::Serialize)]
        struct Open {
            ssid: String,
            band: Option<String>,
        }
        let v: Open = decode_tagged::<_, serde_json::Error>(
            &raw(json!({"type": "open", "ssid": "x"})),
            "type",
            "Net",
            "open",
        )
        .unwrap();
        assert_eq!(
            v,
            Open {
                ssid: "x".into(),
                band: None
            }
        );
        let back = serialize_tagged(&v, "type", "open", serde_json::value::Serializer).unwrap();
        assert_eq!(back, json!({"type": "open", "ssid": "x", "band": null}));
        let text = serde_json::to_string(&SerializeWith(&v)).unwrap();
        assert_eq!(
            text, r#"{"type":"open","ssid":"x","band":null}"#,
            "tag first, then the fields in order"
        );
    }

    struct SerializeWith<'a, T>(&'a T);
    impl<T: Serialize> Serialize for SerializeWith<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_tagged(self.0, "type", "open", s)
        }
    }

    #[test]
    fn unknown_values_mask_secret_fields_at_any_depth() {
        struct D(RawJson);
        impl std::fmt::Debug for D {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                debug_unknown(f, &self.0, &["passphrase"])
            }
        }
        let text = format!(
            "{:?}",
            D(raw(
                json!({"type": "sae", "wlan": [{"passphrase": "hunter22", "ssid": "home"}]})
            ))
        );
        assert!(!text.contains("hunter22"), "{text}");
        assert_eq!(
            text,
            r#"Unknown({"type":"sae","wlan":[{"passphrase":"***","ssid":"home"}]})"#
        );
    }
}
