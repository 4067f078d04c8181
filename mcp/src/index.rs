//! The operations as the server sees them: every route of every API, with what calling it does
//! (reads, writes or deletes), the one rule the tools, their annotations and the policy use.

use ruckus_one_catalog::{Catalog, Method, Role, Route, Table};

/// What calling an operation does to the account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// Changes nothing (a `GET`, or a query sent as `POST`).
    Read,
    /// Creates or changes something.
    Write,
    /// Removes something.
    Delete,
}

/// The invoke tool of each effect.
pub(crate) const INVOKE_READ: &str = "invoke_read";
pub(crate) const INVOKE_WRITE: &str = "invoke_write";
pub(crate) const INVOKE_DELETE: &str = "invoke_delete";

impl Effect {
    /// What `route` does: a `DELETE` deletes; an operation that only reads (the catalog's
    /// `reads`: a `GET` or a query sent as `POST`) reads; of the others, those the generator
    /// inferred delete (a bulk delete sent as `POST`) delete, and the rest write.
    pub fn of(route: &Route) -> Effect {
        if route.method == Method::Delete {
            return Effect::Delete;
        }
        if route.reads {
            return Effect::Read;
        }
        match route.role {
            Role::Delete | Role::BulkDelete => Effect::Delete,
            _ => Effect::Write,
        }
    }

    /// `read`, `write` or `delete`.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Delete => "delete",
        }
    }

    /// The invoke tool that calls operations of this effect.
    pub fn tool(self) -> &'static str {
        match self {
            Effect::Read => INVOKE_READ,
            Effect::Write => INVOKE_WRITE,
            Effect::Delete => INVOKE_DELETE,
        }
    }
}

/// Whether sending the call twice does what sending it once does (only the tests ask).
#[cfg(test)]
pub(crate) fn is_idempotent(route: &Route) -> bool {
    Effect::of(route) == Effect::Read || matches!(route.method, Method::Put | Method::Delete)
}

/// One operation with its API's table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Op {
    pub table: &'static Table,
    pub route: &'static Route,
    /// Another API has an operation of the same id: the id is written `<api>.<id>`.
    pub qualified: bool,
}

impl Op {
    pub(crate) fn effect(&self) -> Effect {
        Effect::of(self.route)
    }

    /// The id the tools use: the route id, which is unique across APIs except where two
    /// APIs share one; then `<api>.<id>`.
    pub(crate) fn id(&self) -> String {
        if self.qualified {
            format!("{}.{}", self.table.api.name, self.route.id)
        } else {
            self.route.id.clone()
        }
    }
}

/// Every operation of the compiled-in tables.
#[derive(Debug)]
pub(crate) struct Index {
    pub ops: Vec<Op>,
}

impl Index {
    /// The index of `catalog` (operations the spec marks removed are left out).
    pub(crate) fn new(catalog: &'static Catalog) -> Index {
        let routes: Vec<(&'static Table, &'static Route)> = catalog
            .routes()
            .filter(|(_, r)| r.lifecycle != ruckus_one_catalog::LifecycleStatus::Removed)
            .collect();
        let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (_, route) in &routes {
            *count.entry(route.id.as_str()).or_default() += 1;
        }
        let ops = routes
            .iter()
            .map(|&(table, route)| Op {
                table,
                route,
                qualified: count[route.id.as_str()] > 1,
            })
            .collect();
        Index { ops }
    }

    /// The operation whose id is `id` (`<api>.<id>` also accepted).
    pub(crate) fn get(&self, id: &str) -> Option<Op> {
        let (api, id) = match id.split_once('.') {
            Some((api, id)) => (Some(api), id),
            None => (None, id),
        };
        let mut found = self
            .ops
            .iter()
            .filter(|op| op.route.id == id && api.is_none_or(|a| a == op.table.api.name));
        let first = found.next().copied();
        // An id two APIs share must be qualified.
        match found.next() {
            Some(_) => None,
            None => first,
        }
    }

    /// The areas with how many operations each has, by API.
    pub(crate) fn areas(&self) -> Vec<(&'static str, &'static str, usize)> {
        let mut areas: Vec<(&'static str, &'static str, usize)> = Vec::new();
        for op in &self.ops {
            let (api, area) = (op.table.api.name.as_str(), op.route.area.as_str());
            match areas.iter_mut().find(|(a, b, _)| *a == api && *b == area) {
                Some(entry) => entry.2 += 1,
                None => areas.push((api, area, 1)),
            }
        }
        areas
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        Index::new(Catalog::get().unwrap())
    }

    #[test]
    fn effects_follow_role_and_method() {
        let index = index();
        let effect = |id: &str| index.get(id).unwrap().effect();
        assert_eq!(effect("query_venues"), Effect::Read);
        assert_eq!(effect("get_venue"), Effect::Read);
        assert_eq!(effect("create_venue"), Effect::Write);
        assert_eq!(effect("delete_venue"), Effect::Delete);
        assert_eq!(effect("query_activities"), Effect::Read);
        // Every DELETE deletes, whatever its role.
        for op in &index.ops {
            if op.route.method == Method::Delete {
                assert_eq!(op.effect(), Effect::Delete, "{}", op.route.id);
            }
        }
    }

    #[test]
    fn canned_query_posts_read() {
        let index = index();
        let op = index.get("find_activity_devices").unwrap();
        assert_eq!(op.route.role, Role::Canned);
        assert_eq!(op.effect(), Effect::Read);
        assert!(is_idempotent(op.route));
        assert!(!is_idempotent(index.get("create_venue").unwrap().route));
    }
}
