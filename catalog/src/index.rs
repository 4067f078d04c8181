//! The index of the tables (`generated/catalog/index.json`): per API, where its header, each
//! area's routes and each named schema are in its table's text (byte ranges). A reader that needs
//! one area (the command line: the area named on its command line) parses that area's routes and
//! the schemas it uses, not the 1.9 MB of the whole table. The generator writes the index with the
//! tables in one run, so the ranges fit the text; a reader checks what it parsed against the
//! index all the same (an out-of-date index is an error, never another area's routes).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A byte range `[start, end)` in an API's table text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span(pub usize, pub usize);

impl Span {
    /// The part of `text` the span covers, if it is within it (on character boundaries).
    pub fn of(self, text: &str) -> Option<&str> {
        text.get(self.0..self.1)
    }
}

/// Where everything of every API is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    /// One entry per API table, in the order of the tables (of `TABLES` when compiled in).
    pub apis: Vec<ApiIndex>,
}

/// One API's table, by part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiIndex {
    /// The API's name (`network`), as in [`ApiInfo::name`](crate::ApiInfo::name).
    pub name: String,
    /// The `api` object ([`ApiInfo`](crate::ApiInfo)).
    pub header: Span,
    /// The areas that have operations, in table order.
    pub areas: Vec<AreaIndex>,
    /// Each named schema's value, by name.
    pub schemas: BTreeMap<String, Span>,
}

/// One area's operations: consecutive routes of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AreaIndex {
    /// The spec area ([`Route::area`](crate::Route::area)).
    pub area: String,
    /// The command line's first word for its operations ([`Route::command`](crate::Route::command)).
    pub command: String,
    /// The operations' ids, in table order.
    pub ids: Vec<String>,
    /// The routes, as the items of a JSON array without its brackets.
    pub routes: Span,
}

impl Index {
    /// The API named `name`.
    pub fn api(&self, name: &str) -> Option<&ApiIndex> {
        self.apis.iter().find(|a| a.name == name)
    }

    /// Every area of every API, with its API.
    pub fn areas(&self) -> impl Iterator<Item = (&ApiIndex, &AreaIndex)> {
        self.apis
            .iter()
            .flat_map(|a| a.areas.iter().map(move |x| (a, x)))
    }

    /// The area whose command word is `command`.
    pub fn by_command(&self, command: &str) -> Option<(&ApiIndex, &AreaIndex)> {
        self.areas().find(|(_, x)| x.command == command)
    }

    /// The area of `api` holding the operation `id`.
    pub fn by_id(&self, api: &str, id: &str) -> Option<&AreaIndex> {
        self.api(api)?
            .areas
            .iter()
            .find(|x| x.ids.iter().any(|i| i == id))
    }
}

#[cfg(feature = "tables")]
mod read {
    use super::{ApiIndex, AreaIndex, Index, Span};
    use crate::{ApiInfo, Error, Route, TABLES};
    use serde::de::DeserializeOwned;
    use std::sync::OnceLock;

    /// The index's JSON text, compiled in.
    const INDEX: &str = include_str!("../tables/index.json");

    fn stale(what: &str) -> Error {
        Error::stale(what)
    }

    impl Index {
        /// The compiled-in index, parsed on first use.
        pub fn get() -> Result<&'static Index, Error> {
            static INDEX_CELL: OnceLock<Result<Index, Error>> = OnceLock::new();
            INDEX_CELL
                .get_or_init(|| serde_json::from_str(INDEX).map_err(|e| Error::parse("index", e)))
                .as_ref()
                .map_err(Clone::clone)
        }
    }

    impl ApiIndex {
        /// The API's table text.
        fn text(&self) -> Result<&'static str, Error> {
            TABLES
                .iter()
                .find(|(name, _)| *name == self.name)
                .map(|(_, text)| *text)
                .ok_or_else(|| stale(&format!("no table for API `{}`", self.name)))
        }

        fn parse<T: DeserializeOwned>(&self, span: Span, what: &str) -> Result<T, Error> {
            let text = span
                .of(self.text()?)
                .ok_or_else(|| stale(&format!("{what} out of range")))?;
            serde_json::from_str(text).map_err(|e| stale(&format!("{what}: {e}")))
        }

        /// The API's header.
        pub fn info(&self) -> Result<ApiInfo, Error> {
            let info: ApiInfo = self.parse(self.header, "header")?;
            if info.name != self.name {
                return Err(stale(&format!("header of `{}`", self.name)));
            }
            Ok(info)
        }

        /// The routes of `area`, in table order.
        pub fn routes(&self, area: &AreaIndex) -> Result<Vec<Route>, Error> {
            let items = area
                .routes
                .of(self.text()?)
                .ok_or_else(|| stale(&format!("routes of `{}` out of range", area.area)))?;
            let routes: Vec<Route> = serde_json::from_str(&format!("[{items}]"))
                .map_err(|e| stale(&format!("routes of `{}`: {e}", area.area)))?;
            let fits = routes.len() == area.ids.len()
                && routes.iter().zip(&area.ids).all(|(r, id)| {
                    &r.id == id && r.area == area.area && r.command.first() == Some(&area.command)
                });
            if !fits {
                return Err(stale(&format!("routes of `{}`", area.area)));
            }
            Ok(routes)
        }

        /// The API's header as a table without routes, its schemas read from the compiled-in
        /// text when first resolved: what a reader of one area needs to resolve the `$ref`s of
        /// its routes ([`Table::resolve`](crate::Table::resolve),
        /// [`Table::deref`](crate::Table::deref)).
        pub fn header_table(&self) -> Result<crate::Table, Error> {
            Ok(crate::Table {
                generated: String::new(),
                api: self.info()?,
                routes: Vec::new(),
                schemas: self.lazy_schemas()?,
            })
        }

        /// Every named schema, each parsed from its text when first asked for.
        pub(crate) fn lazy_schemas(&self) -> Result<crate::Schemas, Error> {
            let text = self.text()?;
            let mut texts = Vec::with_capacity(self.schemas.len());
            for (schema, span) in &self.schemas {
                let part = span
                    .of(text)
                    .ok_or_else(|| stale(&format!("schema `{schema}` out of range")))?;
                texts.push((schema.clone(), part));
            }
            Ok(crate::Schemas::from_texts(texts))
        }

        /// The named schema `name`, if the API has it.
        pub fn schema(&self, name: &str) -> Result<Option<serde_json::Value>, Error> {
            match self.schemas.get(name) {
                Some(span) => self.parse(*span, &format!("schema `{name}`")).map(Some),
                None => Ok(None),
            }
        }
    }
}

#[cfg(all(test, feature = "tables"))]
mod tests {
    use super::Index;
    use crate::{Catalog, TABLES, Table};

    /// Every part read through the index (and so [`Catalog::get`], whose schemas it finds) is
    /// the same as in the whole table parsed at once.
    #[test]
    fn the_index_reads_what_the_whole_tables_hold() {
        let index = Index::get().expect("index parses");
        let whole: Vec<Table> = TABLES
            .iter()
            .map(|(_, text)| serde_json::from_str(text).expect("table parses"))
            .collect();
        assert_eq!(index.apis.len(), whole.len());
        assert_eq!(Catalog::get().expect("tables parse").apis, whole);
        for table in &whole {
            let api = index.api(&table.api.name).expect("API indexed");
            assert_eq!(api.info().expect("header"), table.api);
            let mut routes = Vec::new();
            for area in &api.areas {
                routes.extend(api.routes(area).expect("area's routes"));
            }
            assert_eq!(routes, table.routes, "{}", table.api.name);
            assert_eq!(api.schemas.len(), table.schemas.len());
            for (name, value) in table.schemas.iter() {
                assert_eq!(api.schema(name).expect("parses").as_ref(), Some(value));
            }
        }
    }

    #[test]
    fn command_words_name_one_area_each() {
        let index = Index::get().expect("index parses");
        let mut words: Vec<&str> = index.areas().map(|(_, a)| a.command.as_str()).collect();
        let before = words.len();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), before);
    }
}
