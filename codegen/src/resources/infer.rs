//! Drafts of resource kinds, inferred from the operation tables: each resource family whose
//! route roles (see `emit/catalog/family.rs`) make a collection (create, read, delete, perhaps
//! update and list), a settings document (settings read and write) or an activation (a `PUT`
//! upsert and a `DELETE` on `/parents/{}/things/{thingId}`). The curated `resources.yaml`
//! chooses which drafts are in the layer and corrects them.

use ruckus_one_catalog::{
    LifecycleStatus, Method, ResourceOperations, ResourceShape, Role, Route, Table, UpdateStyle,
};
use std::collections::BTreeMap;

/// What the routes of one family make.
#[derive(Debug, Clone)]
pub struct Draft {
    pub api: String,
    pub family: String,
    pub shape: ResourceShape,
    pub operations: ResourceOperations,
    pub update_style: Option<UpdateStyle>,
    /// The family its parent's objects are in, and the path parameter naming the parent.
    pub parent: Option<(String, String)>,
    /// The path parameter of the object's own id (a collection), or of the object an
    /// activation links (the last one of its path).
    pub id_param: Option<String>,
    /// Why: the routes and their roles, for the provenance.
    pub why: String,
}

/// Every draft of every table, by (API, family).
pub fn drafts(tables: &[Table]) -> BTreeMap<(String, String), Draft> {
    let mut out = BTreeMap::new();
    for table in tables {
        let mut families: BTreeMap<&str, Vec<&Route>> = BTreeMap::new();
        for r in table.routes.iter().filter(|r| !r.family.is_empty()) {
            families.entry(r.family.as_str()).or_default().push(r);
        }
        for (family, routes) in families {
            if let Some(d) = draft(&table.api.name, family, &routes) {
                out.insert((d.api.clone(), d.family.clone()), d);
            }
        }
    }
    out
}

/// The route of `role` (and `method`, when given) to use: a stable one before a deprecated
/// one, else the first in the table's order.
fn pick<'a>(routes: &[&'a Route], role: Role, method: Option<Method>) -> Option<&'a Route> {
    let all: Vec<&Route> = routes
        .iter()
        .copied()
        .filter(|r| r.role == role && method.is_none_or(|m| r.method == m))
        .filter(|r| r.lifecycle != LifecycleStatus::Removed)
        .collect();
    all.iter()
        .find(|r| r.lifecycle == LifecycleStatus::Stable)
        .or(all.first())
        .copied()
}

/// Each slot's route, by the slot's name.
type Slots<'a> = [Option<(&'static str, &'a Route)>; 5];

/// What the routes of a family make, and the route of each slot.
fn shape_of<'a>(family: &str, routes: &[&'a Route]) -> Option<(ResourceShape, Slots<'a>)> {
    let create = pick(routes, Role::Create, Some(Method::Post));
    let read = pick(routes, Role::Read, Some(Method::Get));
    let delete = pick(routes, Role::Delete, Some(Method::Delete));
    let upsert = pick(routes, Role::Upsert, Some(Method::Put));
    let settings_read = pick(routes, Role::SettingsRead, Some(Method::Get));
    let settings_write = pick(routes, Role::SettingsWrite, None);
    let (shape, ops): (ResourceShape, Slots<'a>) =
        match (create, read, delete, upsert, settings_read, settings_write) {
            (Some(c), Some(r), Some(d), _, _, _) => {
                let put = pick(routes, Role::Replace, Some(Method::Put));
                let patch = pick(routes, Role::Merge, Some(Method::Patch));
                let list = pick(routes, Role::List, Some(Method::Get));
                let query = pick(routes, Role::Query, Some(Method::Post));
                let across = pick(routes, Role::QueryAcross, Some(Method::Post));
                let query = query.or(across);
                let ops = [
                    Some(("create", c)),
                    Some(("read", r)),
                    put.or(patch).map(|u| ("update", u)),
                    Some(("delete", d)),
                    list.or(query).map(|l| ("list", l)),
                ];
                (ResourceShape::Collection, ops)
            }
            (None, _, Some(d), Some(u), _, _) => {
                // A list of the parent's links, when it names the parent as the upsert does.
                let list = pick(routes, Role::List, Some(Method::Get));
                let parent_param = parent(family, &u.path).map(|(_, p)| p);
                let list = list.filter(|l| {
                    parent_param
                        .as_ref()
                        .is_some_and(|p| l.path_params.iter().any(|x| &x.name == p))
                });
                let ops = [
                    Some(("create", u)),
                    read.map(|r| ("read", r)),
                    None,
                    Some(("delete", d)),
                    list.map(|l| ("list", l)),
                ];
                (ResourceShape::Activation, ops)
            }
            (None, _, None, None, Some(r), Some(w)) => {
                let ops = [None, Some(("read", r)), Some(("update", w)), None, None];
                (ResourceShape::Settings, ops)
            }
            _ => return None,
        };
    Some((shape, ops))
}

fn draft(api: &str, family: &str, routes: &[&Route]) -> Option<Draft> {
    let (shape, ops) = shape_of(family, routes)?;
    let mut operations = ResourceOperations::default();
    let mut said = Vec::new();
    for (slot, r) in ops.into_iter().flatten() {
        let id = Some(r.id.clone());
        match slot {
            "create" => operations.create = id,
            "read" => operations.read = id,
            "update" => operations.update = id,
            "delete" => operations.delete = id,
            _ => operations.list = id,
        }
        said.push(format!(
            "{slot} `{}` ({} {}, role {})",
            r.id,
            r.method.as_str(),
            r.path,
            r.role.as_str()
        ));
    }
    let update = ops
        .iter()
        .flatten()
        .find(|(s, _)| *s == "update")
        .map(|(_, r)| *r);
    let update_style = update.map(|u| match u.method {
        Method::Patch => UpdateStyle::Merge,
        _ => UpdateStyle::Replace,
    });
    let any = ops.iter().flatten().map(|(_, r)| *r).next()?;
    let item = ops
        .iter()
        .flatten()
        .map(|(_, r)| *r)
        .find(|r| r.path.ends_with('}') && r.method != Method::Post);
    let id_param = match shape {
        ResourceShape::Settings => None,
        _ => item.and_then(|r| last_param(&r.path)),
    };
    let why = format!(
        "the routes of family `{family}` make {}: {}",
        match shape {
            ResourceShape::Collection => "a collection",
            ResourceShape::Settings => "a settings document",
            ResourceShape::Activation => "an activation",
        },
        said.join(", ")
    );
    Some(Draft {
        api: api.to_owned(),
        family: family.to_owned(),
        shape,
        operations,
        update_style,
        parent: parent(family, &any.path),
        id_param,
        why,
    })
}

/// The path parameter at the end of `path`.
fn last_param(path: &str) -> Option<String> {
    let last = path.rsplit('/').next()?;
    last.strip_prefix('{')?.strip_suffix('}').map(str::to_owned)
}

/// The family of the parent (the family path before its last placeholder) and the parameter
/// at that placeholder in `path`.
fn parent(family: &str, path: &str) -> Option<(String, String)> {
    let fam: Vec<&str> = family.split('/').filter(|s| !s.is_empty()).collect();
    let at = fam.iter().rposition(|s| *s == "{}")?;
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let param = segs.get(at)?.strip_prefix('{')?.strip_suffix('}')?;
    Some((format!("/{}", fam[..at].join("/")), param.to_owned()))
}

/// The family an activation's linked object belongs to: one whose last segment is the one
/// before the activation's item, made of the path it shares with the activation and plain
/// segments (`/wifiNetworks` for `/venues/{}/wifiNetworks`, `/venues/{}/apGroups` for
/// `/venues/{}/wifiNetworks/{}/apGroups`): the one sharing the longest leading path, then the
/// shortest.
pub fn linked_family<'a>(
    activation: &str,
    families: impl Iterator<Item = &'a str>,
) -> Option<String> {
    let segs: Vec<&str> = activation.split('/').filter(|s| !s.is_empty()).collect();
    let last = *segs.last()?;
    families
        .filter(|f| f.rsplit('/').next() == Some(last) && *f != activation)
        .filter_map(|f| {
            let own: Vec<&str> = f.split('/').filter(|s| !s.is_empty()).collect();
            let shared = own.iter().zip(&segs).take_while(|(a, b)| a == b).count();
            let plain = own[shared..].iter().all(|s| *s != "{}");
            plain.then_some((shared, std::cmp::Reverse(own.len()), f))
        })
        .max_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| b.2.cmp(a.2)))
        .map(|(_, _, f)| f.to_owned())
}
