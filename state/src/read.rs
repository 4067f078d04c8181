//! Reading the live state of a scope through the runtime: each kind under each parent
//! listed, each object read (several at once, paced by the runtime), made comparable (see
//! [`fields`](crate::fields)).

use crate::connection::{Connection, Params, id_text};
use crate::error::Error;
use crate::fields;
use crate::kinds::{self, param_refs};
use crate::model::{Address, Object, Secrets, State};
use crate::scope::Scope;
use futures_util::{StreamExt, stream};
use ruckus_one_catalog::{ResourceKind, ResourceShape, Resources};
use serde_json::{Map, Value, json};
use std::collections::{BTreeSet, HashMap};

/// One object as answered, before it is made comparable.
struct Raw {
    address: Address,
    /// The path parameters its children are listed with (its parents' ids and its own).
    params: Params,
    id: Option<String>,
    raw: Value,
}

/// The live objects of `scope`, each made comparable. Lists are made one at a time, reads of
/// the listed objects several at once; the runtime paces every call.
pub async fn read(
    conn: &Connection<'_>,
    resources: &Resources,
    scope: &Scope,
) -> Result<State, Error> {
    let mut raws: Vec<Raw> = Vec::new();
    // (kind, id) -> name: references are written as names.
    let mut names: HashMap<(String, String), String> = HashMap::new();
    for name in kinds::order(resources) {
        let kind = kinds::kind(resources, name)?;
        let parents: Vec<(Vec<String>, Params)> = match &kind.parent {
            None => vec![(Vec::new(), Params::new())],
            Some(p) => raws
                .iter()
                .filter(|r| &r.address.kind == p)
                .map(|r| (r.address.chain(), under(kind, r)))
                .collect(),
        };
        for (chain, params) in parents {
            let found = read_under(conn, kind, &chain, &params, &names).await?;
            for r in found {
                if r.address.parents.is_empty() && !scope.reads(&kind.name, &r.address.name) {
                    continue;
                }
                if let Some(id) = &r.id {
                    names.insert((kind.name.clone(), id.clone()), r.address.name.clone());
                }
                raws.push(r);
            }
        }
    }
    let mut state = State::default();
    for r in raws {
        let kind = kinds::kind(resources, &r.address.kind)?;
        let name_of = |k: &str, id: &str| names.get(&(k.to_owned(), id.to_owned())).cloned();
        let (doc, secrets) = match kind.shape {
            ResourceShape::Activation => (r.raw, Secrets::default()),
            _ => fields::comparable(kind, &r.address, &r.raw, &name_of),
        };
        state.insert(Object {
            address: r.address,
            id: r.id,
            doc,
            secrets,
        });
    }
    Ok(state)
}

/// The path parameters of a list of `kind` under `parent`: the parent's own, and the
/// parent's id under the name `kind`'s routes give it (an identity group is `{id}` in its own
/// routes, `{groupId}` in its identities').
fn under(kind: &ResourceKind, parent: &Raw) -> Params {
    let mut params = parent.params.clone();
    if let (Some(param), Some(id)) = (&kind.parent_param, &parent.id) {
        params.insert(param.clone(), id.clone());
    }
    params
}

/// The objects of `kind` under the parent whose chain of names is `chain`.
async fn read_under(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    chain: &[String],
    params: &Params,
    names: &HashMap<(String, String), String>,
) -> Result<Vec<Raw>, Error> {
    let ops = &kind.operations;
    match kind.shape {
        ResourceShape::Settings => {
            let Some(read) = &ops.read else {
                return Ok(Vec::new());
            };
            let Some(doc) = conn.read(&kind.api, read, params).await? else {
                return Ok(Vec::new());
            };
            Ok(vec![Raw {
                address: address(kind, chain, kinds::SETTINGS_NAME),
                params: params.clone(),
                id: None,
                raw: doc,
            }])
        }
        ResourceShape::Activation => {
            let Some((param, target)) = param_refs(kind).next() else {
                return Err(Error::Resources(format!(
                    "activation {} names no path parameter reference",
                    kind.name
                )));
            };
            let mut out = Vec::new();
            for row in list(conn, kind, params).await? {
                let Some(id) = row_id(kind, &row) else {
                    continue;
                };
                let name = names
                    .get(&(target.to_owned(), id.clone()))
                    .cloned()
                    .unwrap_or_else(|| id.clone());
                out.push(Raw {
                    address: address(kind, chain, &name),
                    params: params.clone(),
                    id: Some(id),
                    raw: json!({ param: name }),
                });
            }
            Ok(out)
        }
        ResourceShape::Collection => read_collection(conn, kind, chain, params).await,
    }
}

/// Objects read at once (each call still paced by the runtime, by service and tenant).
const READS_AT_ONCE: usize = 8;

async fn read_collection(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    chain: &[String],
    params: &Params,
) -> Result<Vec<Raw>, Error> {
    let mut rows = Vec::new();
    for row in list(conn, kind, params).await? {
        let id = row_id(kind, &row)
            .ok_or_else(|| Error::Answer(format!("a listed {} has no id", kind.name)))?;
        let mut own = params.clone();
        if let Some(p) = &kind.id_param {
            own.insert(p.clone(), id.clone());
        }
        rows.push((id, own, row));
    }
    // Read several at once, answers kept in the listed order.
    // Each read owns its parameters: a future borrowing the rows would not be `Send` for
    // every lifetime (a limit of the compiler's inference), which a server's handler needs.
    let reads: Vec<(Params, Option<Value>)> = rows
        .iter()
        .map(|(_, own, row)| match &kind.operations.read {
            Some(_) => (own.clone(), None),
            None => (Params::new(), Some(row.clone())),
        })
        .collect();
    let docs: Vec<Result<Option<Value>, Error>> = stream::iter(reads)
        .map(|(own, listed)| async move {
            match (&kind.operations.read, listed) {
                (Some(read), _) => conn.read(&kind.api, read, &own).await,
                (None, listed) => Ok(listed),
            }
        })
        .buffered(READS_AT_ONCE)
        .collect()
        .await;
    let mut out = Vec::new();
    for ((id, own, _), doc) in rows.into_iter().zip(docs) {
        // Deleted since it was listed: not there.
        let Some(doc) = doc? else { continue };
        let Some(name) = kinds::name_of(kind, &doc) else {
            return Err(Error::Answer(format!(
                "the {} {id} has no identity ({})",
                kind.name,
                kind.identity.join(", ")
            )));
        };
        out.push(Raw {
            address: address(kind, chain, &name),
            params: own,
            id: Some(id),
            raw: doc,
        });
    }
    Ok(out)
}

fn address(kind: &ResourceKind, chain: &[String], name: &str) -> Address {
    Address {
        kind: kind.name.clone(),
        parents: chain.to_vec(),
        name: name.to_owned(),
    }
}

fn row_id(kind: &ResourceKind, row: &Value) -> Option<String> {
    row.pointer(kind.id_field.as_deref().unwrap_or("/id"))
        .and_then(id_text)
}

/// Every row of `kind` under the parent of `params`. A list that is not under the parent in
/// its path (a query across parents) is filtered by the parent's id, in the query and in the
/// rows.
pub(crate) async fn list(
    conn: &Connection<'_>,
    kind: &ResourceKind,
    params: &Params,
) -> Result<Vec<Value>, Error> {
    let Some(op) = &kind.operations.list else {
        return Ok(Vec::new());
    };
    let (_, route) = conn.route(&kind.api, op)?;
    let parent = kind
        .parent_param
        .as_ref()
        .and_then(|p| Some((p, params.get(p)?)));
    let across = parent.filter(|(p, _)| !route.path_params.iter().any(|x| &x.name == *p));
    let filters = across.map(|(p, id)| {
        let mut m = Map::new();
        m.insert(p.clone(), json!([id]));
        m
    });
    let rows = conn.rows(&kind.api, op, params, filters.as_ref()).await?;
    Ok(match across {
        Some((p, id)) => rows
            .into_iter()
            .filter(|r| r.get(p.as_str()).and_then(id_text).is_none_or(|v| &v == id))
            .collect(),
        None => rows,
    })
}

/// The addresses of `state` (for [`Scope::retain`]).
pub(crate) fn addresses(state: &State) -> BTreeSet<Address> {
    state.objects.keys().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_listed_with_its_parent_id_under_its_own_parameter_name() {
        let identity: ResourceKind = serde_json::from_value(json!({
            "name": "identity", "api": "network", "title": "t", "shape": "collection",
            "parent": "identity_group", "parent_param": "groupId", "identity": ["/name"],
            "id_field": "/id", "id_param": "id", "operations": {}, "provenance": "x"
        }))
        .unwrap();
        let group = Raw {
            address: Address {
                kind: "identity_group".into(),
                parents: vec![],
                name: "Residents".into(),
            },
            params: Params::from([("id".to_owned(), "g-1".to_owned())]),
            id: Some("g-1".into()),
            raw: json!({}),
        };
        let params = under(&identity, &group);
        assert_eq!(params.get("groupId").map(String::as_str), Some("g-1"));
    }
}
