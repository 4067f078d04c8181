//! Finding one object by what a person calls it: its id, its name (the identity its kind has in
//! the resource layer), or, for a device, its serial number or MAC address in any usual
//! spelling (`aa:bb:cc:dd:ee:ff`, `AA-BB-CC-DD-EE-FF`, `aabbccddeeff`, `aabb.ccdd.eeff`).
//!
//! The objects are listed under their parent with the kind's list operation (a query across
//! parents is filtered by the parent's id, or not at all when the parent is not known: the
//! row then says which parent the object is under).

use crate::connection::{Connection, Params, id_text};
use crate::error::Error;
use crate::kinds;
use ruckus_one_catalog::{Catalog, ResourceKind, Resources};
use serde_json::Value;

/// One object found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Its id (what its path parameter takes).
    pub id: String,
    /// Its name (identity values joined by `/`), when it has one.
    pub name: Option<String>,
    /// The row its list answered with (holds the parent's id when listed across parents).
    pub row: Value,
}

/// What a lookup came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// Exactly one object is meant.
    Found(Found),
    /// Several objects have that name: each of them.
    Ambiguous(Vec<Found>),
    /// No object has that id or name.
    NotFound,
}

/// Whether `text` has the form RUCKUS One gives ids (a UUID, or 32 hexadecimal digits): such a
/// text is used as an id without a lookup.
pub fn looks_like_id(text: &str) -> bool {
    let hex = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_hexdigit());
    let parts: Vec<&str> = text.split('-').collect();
    hex(text, 32)
        || (parts.len() == 5 && [8, 4, 4, 4, 12].iter().zip(&parts).all(|(n, p)| hex(p, *n)))
}

/// A MAC address in any usual spelling as 12 lower-case hexadecimal digits; `None` when
/// `text` is not one. Separators are colons, dashes or dots (Cisco's `aabb.ccdd.eeff`), used
/// consistently, or none.
pub fn mac_key(text: &str) -> Option<String> {
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, ':' | '-' | '.'))
        .collect();
    if digits.len() != 12 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let groups: Vec<usize> = text.split([':', '-', '.']).map(str::len).collect();
    let separators: std::collections::BTreeSet<char> =
        text.chars().filter(|c| !c.is_ascii_hexdigit()).collect();
    let shape_ok = match groups.as_slice() {
        [12] => true,
        g if g.len() == 6 => g.iter().all(|n| *n == 2),
        g if g.len() == 3 => g.iter().all(|n| *n == 4),
        _ => false,
    };
    (shape_ok && separators.len() <= 1).then(|| digits.to_ascii_lowercase())
}

/// The fields of a listed device that may hold its MAC address.
const MAC_FIELDS: [&str; 4] = ["mac", "macAddress", "apMac", "switchMac"];

/// The kind each path parameter of `path` (an operation of `api`) names: a parameter names the
/// kind whose read, update or delete path is `path` up to and including that parameter
/// (`{venueId}` of `/venues/{venueId}/aps/{serialNumber}` names a venue, `{serialNumber}` an
/// AP). Parameters that name no kind are left out. `route_path` gives the path of an operation
/// of `api` by its id (a reader of part of the catalog passes its own; [`route_path`] reads the
/// whole catalog).
pub fn kinds_of_path<'r>(
    resources: &'r Resources,
    api: &str,
    path: &str,
    route_path: &dyn Fn(&str) -> Option<String>,
) -> Vec<(String, &'r ResourceKind)> {
    let mut out = Vec::new();
    let mut prefix = String::new();
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        prefix.push('/');
        prefix.push_str(segment);
        let Some(param) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) else {
            continue;
        };
        let here = shape(&prefix);
        // A kind's own routes name its id as it does (a cheap test before any route is read).
        let found = resources
            .kinds
            .iter()
            .filter(|k| k.api == api && k.id_param.as_deref() == Some(param))
            .find(|k| {
                let o = &k.operations;
                [&o.read, &o.update, &o.delete]
                    .into_iter()
                    .flatten()
                    .filter_map(|id| route_path(id))
                    .any(|p| shape(&p) == here)
            });
        if let Some(kind) = found {
            out.push((param.to_owned(), kind));
        }
    }
    out
}

/// The path of operation `id` of `api`, from the whole catalog.
pub fn route_path(api: &str, id: &str) -> Option<String> {
    let catalog = Catalog::get().ok()?;
    let (_, table) = catalog.api(api)?;
    table.route(id).map(|r| r.path.clone())
}

/// The name of an object of `kind` from its document (its identity values joined by `/`).
pub fn name_of(kind: &ResourceKind, doc: &Value) -> Option<String> {
    kinds::name_of(kind, doc)
}

/// The kind whose create, read, update, delete or list operation is `id` (of `api`).
pub fn kind_of_operation<'r>(
    resources: &'r Resources,
    api: &str,
    id: &str,
) -> Option<&'r ResourceKind> {
    resources.kinds.iter().find(|k| {
        let o = &k.operations;
        k.api == api
            && [&o.create, &o.read, &o.update, &o.delete, &o.list]
                .iter()
                .any(|x| x.as_deref() == Some(id))
    })
}

/// `path` with every parameter written `{}`.
fn shape(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

/// The object of `kind` under the parent of `parent` (its parents' ids by path parameter name;
/// without the parent's id, every parent's objects) that `text` names: its id, else its name
/// (exactly, else ignoring case), else, for a device, its serial number or MAC address.
pub async fn find(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    parent: &Params,
    text: &str,
) -> Result<Lookup, Error> {
    let rows = crate::read::list(conn, kind, parent).await?;
    Ok(choose(kind, rows, text))
}

/// [`find`] on rows already listed.
pub fn choose(kind: &ResourceKind, rows: Vec<Value>, text: &str) -> Lookup {
    let id_field = kind.id_field.as_deref().unwrap_or("/id");
    let found: Vec<Found> = rows
        .into_iter()
        .filter_map(|row| {
            Some(Found {
                id: row.pointer(id_field).and_then(id_text)?,
                name: kinds::name_of(kind, &row),
                row,
            })
        })
        .collect();
    if let Some(f) = found.iter().find(|f| f.id == text) {
        return Lookup::Found(f.clone());
    }
    let exact: Vec<&Found> = found
        .iter()
        .filter(|f| f.name.as_deref() == Some(text))
        .collect();
    let loose: Vec<&Found> = if exact.is_empty() {
        found.iter().filter(|f| loosely_named(f, text)).collect()
    } else {
        exact
    };
    match loose.as_slice() {
        [] => Lookup::NotFound,
        [one] => Lookup::Found((*one).clone()),
        many => Lookup::Ambiguous(many.iter().map(|f| (*f).clone()).collect()),
    }
}

/// `text` names `f` ignoring case, is its `name` (a device's name, its identity being its
/// serial number), or is its MAC address in another spelling.
fn loosely_named(f: &Found, text: &str) -> bool {
    if f.name
        .as_deref()
        .is_some_and(|n| n.eq_ignore_ascii_case(text))
    {
        return true;
    }
    if f.id.eq_ignore_ascii_case(text) || f.row.get("name").and_then(Value::as_str) == Some(text) {
        return true;
    }
    let Some(key) = mac_key(text) else {
        return false;
    };
    MAC_FIELDS.iter().any(|field| {
        f.row
            .get(*field)
            .and_then(Value::as_str)
            .and_then(mac_key)
            .is_some_and(|m| m == key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ap_kind() -> ResourceKind {
        serde_json::from_value(json!({
            "name": "ap", "api": "network", "title": "t", "shape": "collection",
            "parent": "venue", "parent_param": "venueId", "identity": ["/serialNumber"],
            "id_field": "/serialNumber", "id_param": "serialNumber", "operations": {},
            "provenance": "x"
        }))
        .unwrap()
    }

    #[test]
    fn the_parameters_of_an_ap_path_name_its_venue_and_itself() {
        let resources = Catalog::resources().unwrap();
        let path = "/venues/{venueId}/aps/{serialNumber}/ledSettings";
        let kinds = kinds_of_path(resources, "network", path, &|id| route_path("network", id));
        let named: Vec<(&str, &str)> = kinds
            .iter()
            .map(|(p, k)| (p.as_str(), k.name.as_str()))
            .collect();
        assert_eq!(named, [("venueId", "venue"), ("serialNumber", "ap")]);
        let op = kind_of_operation(resources, "network", "update_venue").unwrap();
        assert_eq!(op.name, "venue");
    }

    #[test]
    fn macs_in_every_usual_spelling_are_one_key() {
        for text in [
            "aa:bb:cc:dd:ee:0f",
            "AA-BB-CC-DD-EE-0F",
            "aabbccddee0f",
            "aabb.ccdd.ee0f",
        ] {
            assert_eq!(mac_key(text).as_deref(), Some("aabbccddee0f"), "{text}");
        }
        assert_eq!(mac_key("aa:bb-cc:dd:ee:0f"), None);
        assert_eq!(mac_key("aab:bcc:dd:ee:0f"), None);
        assert_eq!(mac_key("Lobby"), None);
    }

    #[test]
    fn ids_are_uuids_or_32_hex_digits() {
        assert!(looks_like_id("5e300000-0000-4000-8000-000000000002"));
        assert!(looks_like_id("0123456789abcdef0123456789abcdef"));
        assert!(!looks_like_id("Warehouse Lyon"));
        assert!(!looks_like_id("v-1"));
    }

    #[test]
    fn an_ap_is_found_by_serial_or_mac_and_two_names_are_ambiguous() {
        let rows = vec![
            json!({"serialNumber": "S1", "name": "Hall", "mac": "AA:BB:CC:DD:EE:01"}),
            json!({"serialNumber": "S2", "name": "Hall", "mac": "aa:bb:cc:dd:ee:02"}),
        ];
        let kind = ap_kind();
        let by_mac = choose(&kind, rows.clone(), "aabb.ccdd.ee02");
        assert!(matches!(by_mac, Lookup::Found(f) if f.id == "S2"));
        let by_serial = choose(&kind, rows.clone(), "s1");
        assert!(matches!(by_serial, Lookup::Found(f) if f.id == "S1"));
        let by_name = choose(&kind, rows.clone(), "Hall");
        assert!(matches!(by_name, Lookup::Ambiguous(all) if all.len() == 2));
        assert_eq!(choose(&kind, rows, "S3"), Lookup::NotFound);
    }
}
