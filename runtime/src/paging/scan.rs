//! Reading a page body in one pass: its items field and its paging keys,
//! skipping everything else.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// The top-level keys of a page that paging reads.
const PAGING_KEYS: [&str; 8] = [
    "paging",
    "pageSize",
    "totalCount",
    "size",
    "number",
    "last",
    "totalPages",
    "totalElements",
];

/// A page body read in one pass without building all of it: its items field (decoded as `X`)
/// and its [`PAGING_KEYS`] (as a JSON object); everything else is skipped. A body that is not
/// an object has neither.
pub(super) struct Scanned<X> {
    pub(super) items: Option<X>,
    pub(super) keys: Value,
}

impl<X: DeserializeOwned> Scanned<X> {
    pub(super) fn read(body: &[u8], items: &str) -> Result<Scanned<X>, serde_json::Error> {
        use serde::de::DeserializeSeed;
        let mut de = serde_json::Deserializer::from_slice(body);
        let scanned = ScanSeed::<X> {
            items,
            _items: std::marker::PhantomData,
        }
        .deserialize(&mut de)?;
        de.end()?;
        Ok(scanned)
    }
}

struct ScanSeed<'s, X> {
    items: &'s str,
    _items: std::marker::PhantomData<X>,
}

impl<'de, X: DeserializeOwned> serde::de::DeserializeSeed<'de> for ScanSeed<'_, X> {
    type Value = Scanned<X>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Scanned<X>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, X: DeserializeOwned> serde::de::Visitor<'de> for ScanSeed<'_, X> {
    type Value = Scanned<X>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Scanned<X>, A::Error> {
        let mut items = None;
        let mut keys = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == self.items {
                items = Some(map.next_value::<X>()?);
            } else if PAGING_KEYS.contains(&key.as_str()) {
                let value = map.next_value::<Value>()?;
                keys.insert(key, value);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(Scanned {
            items,
            keys: Value::Object(keys),
        })
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Scanned<X>, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Scanned::none())
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Scanned<X>, E> {
        Ok(Scanned::none())
    }
}

impl<X> Scanned<X> {
    fn none() -> Scanned<X> {
        Scanned {
            items: None,
            keys: Value::Null,
        }
    }
}

/// The number of elements of a JSON array, read without keeping them (0 for any other value).
pub(super) struct Count(pub(super) usize);

impl<'de> serde::Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        d.deserialize_any(CountVisitor)
    }
}

struct CountVisitor;

impl<'de> serde::de::Visitor<'de> for CountVisitor {
    type Value = Count;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
        let mut n = 0;
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(Count(n))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Count, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Count(0))
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Count, E> {
        Ok(Count(0))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Count, E> {
        Ok(Count(0))
    }
}
