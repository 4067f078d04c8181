//! An API's named schemas. Read from JSON they are parsed at once; [`Catalog::get`] gives each
//! its text in the compiled-in table instead (found through the [`Index`]) and parses it when it
//! is first resolved: the schemas are about a quarter of the tables' text and the most costly
//! part to parse, and a simulator or a command uses a few of them.
//!
//! [`Catalog::get`]: crate::Catalog::get
//! [`Index`]: crate::Index

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One schema: parsed, or its text until first use.
#[derive(Debug, Clone)]
struct Entry {
    text: Option<&'static str>,
    value: OnceLock<Value>,
}

impl Entry {
    fn value(&self) -> &Value {
        self.value.get_or_init(|| match self.text {
            // The crate's tests parse every schema of the compiled-in tables through the index.
            Some(text) => serde_json::from_str(text)
                .expect("a schema of the compiled-in tables parses (see the catalog's tests)"),
            None => Value::Null,
        })
    }
}

/// The named schemas (JSON Schema, as in the OpenAPI export, without prose), by name.
#[derive(Debug, Clone, Default)]
pub struct Schemas {
    entries: BTreeMap<String, Entry>,
}

impl Schemas {
    /// Schemas given by their JSON text (each parsed when first asked for).
    pub fn from_texts(texts: impl IntoIterator<Item = (String, &'static str)>) -> Schemas {
        let entries = texts
            .into_iter()
            .map(|(name, text)| {
                let entry = Entry {
                    text: Some(text),
                    value: OnceLock::new(),
                };
                (name, entry)
            })
            .collect();
        Schemas { entries }
    }

    /// The schema named `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries.get(name).map(Entry::value)
    }

    /// How many named schemas the API has, parsed yet or not.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the API has no named schema (a table read without its schemas has none).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every schema by name, in name order (each parsed if it was not yet).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(n, e)| (n.as_str(), e.value()))
    }
}

impl From<Map<String, Value>> for Schemas {
    fn from(map: Map<String, Value>) -> Schemas {
        let entries = map
            .into_iter()
            .map(|(name, value)| {
                let entry = Entry {
                    text: None,
                    value: OnceLock::from(value),
                };
                (name, entry)
            })
            .collect();
        Schemas { entries }
    }
}

impl PartialEq for Schemas {
    fn eq(&self, other: &Schemas) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Serialize for Schemas {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Schemas {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Schemas, D::Error> {
        Map::<String, Value>::deserialize(d).map(Schemas::from)
    }
}
