//! What the resource layer's field rules do to a document: a live answer made comparable
//! (service-set and volatile fields out, defaults out, references as names, secrets as
//! placeholders), and a desired document made ready to send (names as ids, secrets from the
//! environment).

use crate::error::Error;
use crate::model::{Address, Secrets, State};
use crate::pointer;
use ruckus_one_catalog::{FieldFlag, ResourceKind, ResourceShape};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Where secret values come from at apply time: the process environment, or (for tests and
/// programs that hold secrets elsewhere) a function. Its `Debug` shows nothing.
#[derive(Clone)]
pub struct Env(Arc<Lookup>);

/// A variable's value by its name.
type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

impl Env {
    /// The process environment.
    pub fn process() -> Env {
        Env(Arc::new(|name| std::env::var(name).ok()))
    }

    /// The variables of `vars`.
    pub fn from_map(vars: BTreeMap<String, String>) -> Env {
        Env(Arc::new(move |name| vars.get(name).cloned()))
    }

    /// The live values of the secrets of `state`, each under the variable its placeholder
    /// names: what an apply of `state`'s export to another tenant sends (a copy of a tenant,
    /// the seeding of a simulator).
    pub fn of_secrets(state: &State) -> Env {
        let mut vars = BTreeMap::new();
        for obj in state.objects.values() {
            for (at, value) in &obj.secrets.0 {
                let text = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned);
                vars.insert(secret_variable(&obj.address, at), text);
            }
        }
        Env::from_map(vars)
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<String> {
        (self.0)(name)
    }
}

impl fmt::Debug for Env {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Env")
    }
}

/// The environment variable that holds the secret at `field` (a concrete pointer) of the
/// object at `address`: `RUCKUS_SECRET_<KIND>_<PARENTS>_<NAME>_<FIELD>`, upper case, every
/// run of other characters as one `_`.
pub fn secret_variable(address: &Address, field: &str) -> String {
    let mut words = vec![address.kind.as_str()];
    words.extend(address.parents.iter().map(String::as_str));
    words.push(&address.name);
    words.push(field);
    let mut out = String::from("RUCKUS_SECRET");
    for w in words {
        out.push('_');
        let mut gap = false;
        for c in w.chars() {
            if c.is_ascii_alphanumeric() {
                if gap && !out.ends_with('_') {
                    out.push('_');
                }
                gap = false;
                out.push(c.to_ascii_uppercase());
            } else {
                gap = true;
            }
        }
        while out.ends_with('_') {
            out.pop();
        }
    }
    out
}

/// The placeholder a file holds for a secret.
pub fn placeholder(variable: &str) -> String {
    format!("${{env:{variable}}}")
}

/// The variable a placeholder names.
pub(crate) fn placeholder_variable(v: &Value) -> Option<&str> {
    v.as_str()?.strip_prefix("${env:")?.strip_suffix('}')
}

fn paths_of(kind: &ResourceKind, flags: &[FieldFlag]) -> Vec<String> {
    kind.fields
        .iter()
        .filter(|f| flags.contains(&f.flag))
        .map(|f| f.path.clone())
        .collect()
}

/// Removes every match of `pattern` (last first, so array indices stay right).
fn remove_all(doc: &mut Value, pattern: &str) {
    for at in pointer::expand(doc, pattern).iter().rev() {
        pointer::remove(doc, at);
    }
}

/// Removes what is never compared (service-set, volatile, write-only fields; the id field
/// unless it names the object) and defaults, then nulls; keys sorted.
fn strip(kind: &ResourceKind, doc: &mut Value) {
    let never = [
        FieldFlag::ServiceSet,
        FieldFlag::Volatile,
        FieldFlag::WriteOnly,
    ];
    for path in paths_of(kind, &never) {
        remove_all(doc, &path);
    }
    // The id is the service's, unless it is the identity too (an AP's serial number).
    if kind.shape == ResourceShape::Collection
        && let Some(id) = &kind.id_field
        && !kind.identity.contains(id)
    {
        remove_all(doc, id);
    }
    for rule in kind.fields.iter().filter(|f| f.flag == FieldFlag::Default) {
        let Some(default) = &rule.default else {
            continue;
        };
        for at in pointer::expand(doc, &rule.path).iter().rev() {
            if doc.pointer(at) == Some(default) {
                pointer::remove(doc, at);
            }
        }
    }
    pointer::prune_nulls(doc);
}

/// A live answer as a file holds it. `name_of(kind, id)` names a referenced object (`None`:
/// unknown, the id is kept).
pub(crate) fn comparable(
    kind: &ResourceKind,
    address: &Address,
    raw: &Value,
    name_of: &dyn Fn(&str, &str) -> Option<String>,
) -> (Value, Secrets) {
    let mut doc = raw.clone();
    if let (Some(param), Value::Object(m)) = (&kind.parent_param, &mut doc) {
        if !kind
            .references
            .iter()
            .any(|r| r.field.as_deref() == Some(&format!("/{param}")))
        {
            m.remove(param);
        }
    }
    strip(kind, &mut doc);
    let mut secrets = BTreeMap::new();
    for path in paths_of(kind, &[FieldFlag::Secret]) {
        for at in pointer::expand(&doc, &path) {
            if let Some(v) = doc.pointer(&at).cloned() {
                secrets.insert(at.clone(), v);
            }
            let variable = secret_variable(address, &at);
            pointer::set(&mut doc, &at, Value::String(placeholder(&variable)));
        }
    }
    for r in &kind.references {
        let Some(field) = &r.field else { continue };
        for at in pointer::expand(&doc, field) {
            let id = doc.pointer(&at).and_then(crate::connection::id_text);
            if let Some(name) = id.and_then(|id| name_of(&r.kind, &id)) {
                pointer::set(&mut doc, &at, Value::String(name));
            }
        }
    }
    (pointer::sorted(&doc), Secrets(secrets))
}

/// A desired document normalized as a live one is (defaults and nulls out, keys sorted).
pub(crate) fn desired(kind: &ResourceKind, doc: &Value) -> Value {
    let mut doc = doc.clone();
    strip(kind, &mut doc);
    pointer::sorted(&doc)
}

/// The body to send for a desired document: each reference's name replaced by the id
/// `id_of(kind, name)` gives, each secret placeholder by its variable's value.
pub(crate) fn wire(
    kind: &ResourceKind,
    address: &Address,
    doc: &Value,
    id_of: &dyn Fn(&str, &str) -> Option<String>,
    env: &Env,
) -> Result<Value, Error> {
    let mut body = doc.clone();
    for r in &kind.references {
        let Some(field) = &r.field else { continue };
        for at in pointer::expand(&body, field) {
            let Some(name) = body.pointer(&at).and_then(Value::as_str).map(str::to_owned) else {
                continue;
            };
            let id = id_of(&r.kind, &name).ok_or_else(|| Error::UnresolvedReference {
                object: address.to_string(),
                target: format!("{} {name}", r.kind),
            })?;
            pointer::set(&mut body, &at, Value::String(id));
        }
    }
    for path in paths_of(kind, &[FieldFlag::Secret]) {
        for at in pointer::expand(&body, &path) {
            let Some(variable) = body.pointer(&at).and_then(placeholder_variable) else {
                continue;
            };
            let value = env.get(variable).ok_or_else(|| Error::MissingSecret {
                variable: variable.to_owned(),
            })?;
            pointer::set(&mut body, &at, Value::String(value));
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_variables_are_upper_case_words() {
        let a = Address {
            kind: "wifi_network".into(),
            parents: vec![],
            name: "Guest Wi-Fi".into(),
        };
        assert_eq!(
            secret_variable(&a, "/wlan/passphrase"),
            "RUCKUS_SECRET_WIFI_NETWORK_GUEST_WI_FI_WLAN_PASSPHRASE"
        );
        let p = placeholder("X");
        assert_eq!(placeholder_variable(&Value::String(p)), Some("X"));
    }

    fn kind() -> ResourceKind {
        serde_json::from_value(serde_json::json!({
            "name": "ap_group", "api": "network", "title": "t", "shape": "collection",
            "parent": "venue", "parent_param": "venueId", "identity": ["/name"],
            "id_field": "/id", "id_param": "apGroupId", "operations": {},
            "references": [{"kind": "vlan_pool", "field": "/vlanPoolIds/*"}],
            "fields": [
                {"path": "/createdDate", "flag": "service_set", "provenance": "x"},
                {"path": "/psk", "flag": "secret", "provenance": "x"},
                {"path": "/isDefault", "flag": "default", "default": false, "provenance": "x"}
            ],
            "provenance": "x"
        }))
        .unwrap()
    }

    #[test]
    fn an_id_that_is_the_identity_stays_in_the_document() {
        let mut kind = kind();
        kind.identity = vec!["/serialNumber".into()];
        kind.id_field = Some("/serialNumber".into());
        let a = Address {
            kind: "ap".into(),
            parents: vec!["Lobby".into()],
            name: "S1".into(),
        };
        let raw = serde_json::json!({"serialNumber": "S1", "name": "AP"});
        let (doc, _) = comparable(&kind, &a, &raw, &|_, _| None);
        assert_eq!(doc, raw);
        kind.identity = vec!["/name".into()];
        let (doc, _) = comparable(&kind, &a, &raw, &|_, _| None);
        assert_eq!(doc, serde_json::json!({"name": "AP"}));
    }

    #[test]
    fn references_become_names_and_names_become_ids_again() {
        let kind = kind();
        let a = Address {
            kind: "ap_group".into(),
            parents: vec!["Lobby".into()],
            name: "G".into(),
        };
        let raw = serde_json::json!({
            "id": "g-1", "name": "G", "venueId": "v-1", "createdDate": "today",
            "isDefault": false, "psk": "hunter22", "vlanPoolIds": ["p-1", "p-9"]
        });
        let names =
            |k: &str, id: &str| (k == "vlan_pool" && id == "p-1").then(|| "Pool".to_owned());
        let (doc, secrets) = comparable(&kind, &a, &raw, &names);
        let var = "RUCKUS_SECRET_AP_GROUP_LOBBY_G_PSK";
        assert_eq!(
            doc,
            serde_json::json!({"name": "G", "psk": placeholder(var), "vlanPoolIds": ["Pool", "p-9"]})
        );
        assert!(!format!("{secrets:?}").contains("hunter22"));
        let ids = |k: &str, name: &str| match (k, name) {
            ("vlan_pool", "Pool") => Some("p-1".to_owned()),
            ("vlan_pool", "p-9") => Some("p-9".to_owned()),
            _ => None,
        };
        let env = Env::from_map(BTreeMap::from([(var.to_owned(), "hunter22".to_owned())]));
        let body = wire(&kind, &a, &doc, &ids, &env).unwrap();
        assert_eq!(body["vlanPoolIds"], serde_json::json!(["p-1", "p-9"]));
        assert_eq!(body["psk"], "hunter22");
        let unknown = serde_json::json!({"name": "G", "vlanPoolIds": ["Nowhere"]});
        let e = wire(&kind, &a, &unknown, &ids, &env).unwrap_err();
        assert!(e.to_string().contains("vlan_pool Nowhere"), "{e}");
    }
}
