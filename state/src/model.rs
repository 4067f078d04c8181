//! Objects as the engine sees them: each named by its kind, its parents' names and its own
//! name (never by an id), with its document (the comparable fields, references as names,
//! secrets as `${env:...}` placeholders).

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// Where an object is: its kind, the names of its parents from the top (a venue's name for
/// an AP group), and its own name (its identity fields' values; for an activation, the name
/// of the object it activates; `settings` for a settings kind).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Address {
    /// The resource kind (`ap_group`).
    pub kind: String,
    /// The names of the parents, outermost first.
    pub parents: Vec<String>,
    /// The object's own name within its parent.
    pub name: String,
}

impl Address {
    /// The address of this object's parent, of kind `parent_kind`.
    pub fn parent(&self, parent_kind: &str) -> Option<Address> {
        let (name, parents) = self.parents.split_last()?;
        Some(Address {
            kind: parent_kind.to_owned(),
            parents: parents.to_vec(),
            name: name.clone(),
        })
    }

    /// The parent chain of a child of this object.
    pub fn chain(&self) -> Vec<String> {
        let mut c = self.parents.clone();
        c.push(self.name.clone());
        c
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.kind)?;
        for p in &self.parents {
            write!(f, "{p}/")?;
        }
        write!(f, "{}", self.name)
    }
}

/// Live values of an object's secret fields, by concrete JSON pointer. Never shown: its
/// `Debug` names the fields only.
#[derive(Clone, Default, PartialEq)]
pub struct Secrets(pub(crate) BTreeMap<String, Value>);

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.keys()).finish()
    }
}

/// One object: desired (read from files; no id) or live (read from the service).
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    /// Where the object is.
    pub address: Address,
    /// The service's id of a live collection object (or of the object an activation
    /// activates).
    pub id: Option<String>,
    /// The comparable document: what a file holds.
    pub doc: Value,
    /// The live values of its secret fields (empty for a desired object).
    pub secrets: Secrets,
}

/// A set of objects by address.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct State {
    /// Every object, by address (so in a stable order).
    pub objects: BTreeMap<Address, Object>,
}

impl State {
    /// Adds `object` (replacing one at the same address).
    pub fn insert(&mut self, object: Object) {
        self.objects.insert(object.address.clone(), object);
    }

    /// The object at `address`.
    pub fn get(&self, address: &Address) -> Option<&Object> {
        self.objects.get(address)
    }

    /// The objects of `kind`.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Object> {
        self.objects
            .values()
            .filter(move |o| o.address.kind == kind)
    }

    /// How many objects there are.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// Whether there is no object.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }
}
