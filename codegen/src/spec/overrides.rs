//! The curated corrections of imported types and drafted operations (`overrides:` of an area
//! file), applied on top of the import (which can run again without losing them).
//!
//! A closed set: one variant per target, each with only the keys that target takes. An entry
//! names its target with its first key, `type:` or `operation:`; its other keys are then read
//! against that target's struct as they stream by, so a key the target does not take (`skip:` on
//! a type, `open:` on an operation, a second target, a misspelt key) is refused at its own line.

use super::*;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use std::fmt;

/// One entry of `overrides:`.
#[derive(Debug)]
pub enum Override {
    /// `type: <name>`: a correction of an imported type.
    Type(TypeOverride),
    /// `operation: <id>`: a correction of a drafted operation.
    Operation(OperationOverride),
}

impl Override {
    /// The correction of an imported type, if this is one.
    pub fn as_type(&self) -> Option<&TypeOverride> {
        match self {
            Override::Type(o) => Some(o),
            Override::Operation(_) => None,
        }
    }

    /// The correction of a drafted operation, if this is one.
    pub fn as_operation(&self) -> Option<&OperationOverride> {
        match self {
            Override::Operation(o) => Some(o),
            Override::Type(_) => None,
        }
    }
}

/// A correction of one imported type (`type:`); every other key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeOverride {
    /// The imported type's name, as the imported file has it (the entry's `type:`).
    #[serde(skip)]
    pub target: String,
    /// Why the correction is made (for reviewers; not rendered).
    #[serde(default)]
    pub note: Option<String>,
    /// A new Rust name for the type.
    #[serde(default)]
    pub rename: Option<String>,
    /// Another type of the API (curated or imported) to use instead: this one is left out and
    /// every imported reference to it names that type. Goes with no other correction.
    #[serde(default)]
    pub replace_with: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    /// Replaces the type's provenance.
    #[serde(default)]
    pub provenance: Option<String>,
    #[serde(default)]
    pub open: Option<bool>,
    /// Corrections of fields, by wire name.
    #[serde(default)]
    pub fields: Vec<FieldOverride>,
    /// Wire names of fields to leave out.
    #[serde(default)]
    pub remove_fields: Vec<String>,
    /// Enum values the import lacks, appended.
    #[serde(default)]
    pub values: Vec<EnumValue>,
    /// Union variants: a variant's tag value or Rust name, by variant type.
    #[serde(default)]
    pub variants: Vec<VariantOverride>,
}

/// A correction of one drafted operation (`operation:`), named by the id its imported file gives
/// it (anywhere in the API); every other key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperationOverride {
    /// The drafted operation's id, as the imported file has it (the entry's `operation:`).
    #[serde(skip)]
    pub target: String,
    /// The area the import places the operation in (an area of the API).
    #[serde(default)]
    pub area: Option<String>,
    /// The route is not drafted, for this reason (listed by the import).
    #[serde(default)]
    pub skip: Option<String>,
    /// The operation's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Why the correction is made (for reviewers; not rendered).
    #[serde(default)]
    pub note: Option<String>,
    /// The operation's new id.
    #[serde(default)]
    pub rename: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
}

/// A correction of one field of an imported object type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldOverride {
    /// Wire name of the field.
    pub name: String,
    /// The field is not in the import: add it (then `type` is required).
    #[serde(default)]
    pub add: bool,
    #[serde(rename = "type", default)]
    pub ty: Option<TypeExpr>,
    #[serde(default)]
    pub required: Option<bool>,
    #[serde(default)]
    pub nullable: Option<bool>,
    #[serde(default)]
    pub secret: Option<bool>,
    #[serde(default)]
    pub description: Option<String>,
    /// Provenance of the correction (`reference: payloads <file>`, `inferred: <why>`).
    #[serde(default)]
    pub provenance: Option<String>,
    #[serde(default)]
    pub deprecated: Option<String>,
    /// Replaces the field's constraints.
    #[serde(default)]
    pub constraints: Option<BTreeMap<String, serde_yaml::Value>>,
}

/// A correction of one union variant, chosen by its type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantOverride {
    #[serde(rename = "type")]
    pub ty: String,
    /// The tag value that selects it.
    #[serde(default)]
    pub value: Option<String>,
    /// Rust variant name.
    #[serde(default)]
    pub name: Option<String>,
}

/// The target an entry names, for the messages about its keys.
struct Target<'a> {
    /// `type` or `operation`: the entry's first key.
    kind: &'static str,
    name: &'a str,
}

impl<'de> Deserialize<'de> for Override {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(Entry)
    }
}

/// Reads an entry's first key, then the rest of it as that target's struct.
struct Entry;

impl<'de> Visitor<'de> for Entry {
    type Value = Override;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an override: a map starting with `type:` or `operation:`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Override, A::Error> {
        let first: Option<String> = map.next_key()?;
        let kind = match first.as_deref() {
            Some("type") => "type",
            Some("operation") => "operation",
            other => {
                let not = other.map_or_else(String::new, |k| format!(", not `{k}:`"));
                return Err(de::Error::custom(format!(
                    "an override starts with the target it corrects, `type:` (an imported type) or `operation:` (a drafted operation){not}"
                )));
            }
        };
        let name: String = map.next_value()?;
        let rest = Rest {
            map,
            target: Target { kind, name: &name },
        };
        if kind == "type" {
            let o = TypeOverride::deserialize(rest)?;
            Ok(Override::Type(TypeOverride { target: name, ..o }))
        } else {
            let o = OperationOverride::deserialize(rest)?;
            Ok(Override::Operation(OperationOverride { target: name, ..o }))
        }
    }
}

/// The keys of an entry after its target, as a deserializer of the target's struct.
struct Rest<'a, A> {
    map: A,
    target: Target<'a>,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Rest<'_, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.map)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(Keys {
            map: self.map,
            target: self.target,
            fields,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The entry's remaining keys, each checked against the fields of its target's struct.
struct Keys<'a, A> {
    map: A,
    target: Target<'a>,
    fields: &'static [&'static str],
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Keys<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.map.next_key_seed(Key {
            seed,
            target: &self.target,
            fields: self.fields,
        })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// One key, refused inside the YAML deserializer (so the error carries the key's line) when the
/// target does not take it.
struct Key<'a, K> {
    seed: K,
    target: &'a Target<'a>,
    fields: &'static [&'static str],
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for Key<'_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for Key<'_, K> {
    type Value = K::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key of an override")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<K::Value, E> {
        if self.fields.contains(&key) {
            return self.seed.deserialize(key.into_deserializer());
        }
        let Target { kind, name } = self.target;
        Err(E::custom(if key == "type" || key == "operation" {
            format!(
                "an override corrects one target, and this one corrects {kind} `{name}`: give `{key}:` an entry of its own"
            )
        } else {
            let a = if *kind == "operation" { "an" } else { "a" };
            format!(
                "`{key}` does not correct {a} {kind}: an override of {kind} `{name}` takes `{}`",
                self.fields.join("`, `")
            )
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> Result<Vec<Override>, (String, usize)> {
        serde_yaml::from_str(yaml)
            .map_err(|e: serde_yaml::Error| (e.to_string(), e.location().map_or(0, |l| l.line())))
    }

    #[test]
    fn each_entry_is_read_as_the_target_its_first_key_names() {
        let yaml = "- type: Label\n  rename: Tag\n  remove_fields: [x]\n\
                    - operation: get_label\n  rename: read_label\n  skip: private\n";
        let all = parse(yaml).expect("overrides");
        let [Override::Type(t), Override::Operation(o)] = &all[..] else {
            panic!("{all:?}");
        };
        assert_eq!(
            (t.target.as_str(), t.rename.as_deref()),
            ("Label", Some("Tag"))
        );
        assert_eq!(t.remove_fields, ["x"]);
        assert_eq!(
            (o.target.as_str(), o.rename.as_deref()),
            ("get_label", Some("read_label"))
        );
        assert_eq!(o.skip.as_deref(), Some("private"));
    }

    #[test]
    fn a_key_of_the_other_target_is_refused_at_its_line() {
        let (msg, line) = parse("- type: Label\n  note: n\n  skip: private\n").unwrap_err();
        assert!(msg.contains("`skip` does not correct a type"), "{msg}");
        assert!(msg.contains("`replace_with`"), "{msg}");
        assert_eq!(line, 3, "{msg}");
        let (msg, line) = parse("- operation: get_label\n  open: true\n").unwrap_err();
        assert!(
            msg.contains("`open` does not correct an operation"),
            "{msg}"
        );
        assert_eq!(line, 2, "{msg}");
    }

    #[test]
    fn an_entry_naming_two_targets_is_refused_at_the_second() {
        let (msg, line) = parse("- type: Label\n  operation: get_label\n").unwrap_err();
        assert!(msg.contains("corrects type `Label`"), "{msg}");
        assert_eq!(line, 2, "{msg}");
    }

    #[test]
    fn an_entry_must_start_with_its_target() {
        let (msg, line) = parse("- type: Label\n- note: n\n  type: Tone\n").unwrap_err();
        assert!(msg.contains("not `note:`"), "{msg}");
        assert_eq!(line, 2, "{msg}");
    }
}
