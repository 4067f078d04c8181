//! Drafting operations: every route of the descriptions that no spec operation has (same
//! method and path, parameter names ignored, as `cargo xtask audit` matches them) becomes an
//! operation of the imported file of the area it belongs to ([`place`]): its id from the
//! `operationId`, a neutral line of our own, its parameters, statuses, media types and
//! versions, paging, and body types (the bodies' schemas are roots of the type import).
//!
//! The curated files' operations stay as they are, and the import reads them only, so what it
//! drafts does not depend on what it drafted before. Curated `overrides:` name a drafted
//! operation by its id: `skip:` (with the reason) leaves its route out, `area:` moves it.

mod bodies;
mod multipart;
mod place;
mod shape;

pub use bodies::convert_bodies;
pub use place::Placement;

use crate::openapi::{Document, Operation as DescOperation, Schema, normalise_path};
use ruckus_codegen::names;
use ruckus_codegen::spec::{Api, Area, FamilyKind, Method, Operation, Override, TypeExpr};
use std::collections::{BTreeMap, BTreeSet};

/// A drafted operation, before the type import fills in its body types.
pub struct DraftOp<'v> {
    pub area: String,
    pub file: &'v str,
    pub op: Operation,
    /// The request body's schema, when it is JSON and declares one.
    pub request: Option<&'v Schema>,
    /// The success answer's schema, when it is JSON and declares one.
    pub response: Option<&'v Schema>,
}

/// What drafting found: the operations, and the routes left out with the reason.
#[derive(Default)]
pub struct Drafted<'v> {
    pub ops: Vec<DraftOp<'v>>,
    pub exceptions: Vec<String>,
}

/// A route of a description the spec lacks.
struct Route<'v> {
    file: &'v str,
    doc: &'v Document,
    path: &'v str,
    method: Method,
    op: &'v DescOperation,
    /// The spec's delegated tenant header (`auth.tenant_header`), which the client sets itself.
    tenant_header: &'v str,
}

/// The routes of `api` the spec lacks, drafted. `spec_keys`: every spec operation's
/// `(METHOD, normalised path with the API prefix)`, of every API; `files`: the description
/// files whose routes belong to this API; `tenant_header`: the spec's `auth.tenant_header`.
pub fn draft<'v>(
    docs: &'v BTreeMap<String, Document>,
    api: &Api,
    areas: &[&Area],
    spec_keys: &BTreeSet<(String, String)>,
    files: &BTreeSet<String>,
    placement: &Placement,
    tenant_header: &'v str,
) -> Drafted<'v> {
    let mut out = Drafted::default();
    let services = crate::import::service_files(api);
    let skips = skips(areas);
    let mut ids = Ids::new(areas);
    let envelope = async_envelope(areas);
    let mut drafted_keys = BTreeSet::new();
    let mut used = BTreeSet::new();
    for (file, doc) in docs.iter().filter(|(f, _)| files.contains(*f)) {
        for (path, method, op) in doc.operations() {
            let key = (method.to_uppercase(), normalise_path(path));
            if op.deprecated || spec_keys.contains(&key) || drafted_keys.contains(&key) {
                continue;
            }
            let shown = format!("{} {path} ({file} {})", key.0, op_id(op));
            let Some(rel) = path.strip_prefix(api.prefix.value.as_str()) else {
                continue;
            };
            let Some(method) = Method::parse(&key.0) else {
                out.exceptions
                    .push(format!("{shown}: method not supported"));
                continue;
            };
            drafted_keys.insert(key);
            let id = ids.claim(op, method, rel, file);
            if let Some(why) = skips.get(&id) {
                out.exceptions
                    .push(format!("{shown}: skipped (`{id}`): {why}"));
                used.insert(id);
                continue;
            }
            let route = Route {
                file,
                doc,
                path: rel,
                method,
                op,
                tenant_header,
            };
            let area = match placement.area_of(&id, file, path, areas) {
                Ok(a) => a,
                Err(why) => {
                    out.exceptions.push(format!("{shown}: {why}"));
                    continue;
                }
            };
            match operation(&route, id, api) {
                Ok((mut op, request, response)) => out.ops.push(DraftOp {
                    op: {
                        op.service = service_of(&services, areas, &area, file);
                        if response.is_none() {
                            type_accepted(&mut op, envelope.as_deref());
                        }
                        op
                    },
                    area,
                    file,
                    request,
                    response,
                }),
                Err(why) => out.exceptions.push(format!("{shown}: {why}")),
            }
        }
    }
    for id in skips.keys().filter(|id| !used.contains(*id)) {
        out.exceptions.push(format!(
            "`skip:` of `{id}` matches no route the spec lacks (remove the override)"
        ));
    }
    out
}

/// The type the curated operations of the API answer 202 with most often (the asynchronous
/// result envelope), when they answer one.
fn async_envelope(areas: &[&Area]) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for r in areas
        .iter()
        .flat_map(|a| &a.operations)
        .flat_map(|o| &o.responses)
    {
        if let (202, Some(TypeExpr::Name(n))) = (r.status, &r.ty) {
            *counts.entry(n.as_str()).or_default() += 1;
        }
    }
    let best = counts.iter().max_by_key(|(_, n)| **n)?;
    Some((*best.0).to_owned())
}

/// A drafted 202 answer the description shows without a schema (an example only) is the
/// API's asynchronous result envelope, as its curated 202 answers are.
fn type_accepted(op: &mut Operation, envelope: Option<&str>) {
    let Some(envelope) = envelope else { return };
    for r in op.responses.iter_mut().filter(|r| r.status == 202) {
        if r.ty == Some(TypeExpr::Name("json".into())) {
            r.ty = Some(TypeExpr::Name(envelope.to_owned()));
            r.provenance = Some(format!(
                "inferred: the description shows the 202 answer by an example only; the API's curated 202 answers are `{envelope}`"
            ));
        }
    }
}

/// `skip:` overrides: drafted id -> reason.
fn skips(areas: &[&Area]) -> BTreeMap<String, String> {
    areas
        .iter()
        .flat_map(|a| &a.overrides)
        .filter_map(Override::as_operation)
        .filter_map(|o| Some((o.target.clone(), o.skip.clone()?)))
        .collect()
}

fn op_id(op: &DescOperation) -> &str {
    op.operation_id.as_deref().unwrap_or("-")
}

/// The operation ids in use, and the type names a drafted builder may not take.
struct Ids {
    taken: BTreeSet<String>,
    types: BTreeSet<String>,
}

impl Ids {
    fn new(areas: &[&Area]) -> Self {
        let mut taken: BTreeSet<String> = areas
            .iter()
            .flat_map(|a| &a.operations)
            .map(|o| o.id.clone())
            .collect();
        taken.extend(
            ["new", "runtime", "raw", "wait_for_activity"]
                .iter()
                .map(|s| (*s).to_owned()),
        );
        let mut types: BTreeSet<String> = areas
            .iter()
            .flat_map(|a| &a.types)
            .map(|t| t.name.clone())
            .collect();
        types.extend(
            ruckus_codegen::RESERVED_TYPE_NAMES
                .iter()
                .map(|s| (*s).to_owned()),
        );
        Ids { taken, types }
    }

    /// A snake_case id from the `operationId` (from the method and path without one), unique
    /// in the API: a taken one gets the description's name (`_wifi`), then a number.
    fn claim(&mut self, op: &DescOperation, method: Method, path: &str, file: &str) -> String {
        // `getVenue_1_1`: the numbered copies a generator makes of one name say nothing. A
        // version glued to the name (`getVenueV1`) is kept whole: `get_venue_v1`.
        let from = match &op.operation_id {
            Some(id) => without_copy_numbers(id).to_owned(),
            None => format!("{} {path}", method.as_str().to_lowercase()),
        };
        let mut base = names::snake_words(&from);
        if !base.starts_with(|c: char| c.is_ascii_lowercase()) {
            base = format!("op_{base}");
        }
        let prefix = names::snake_words(&super::naming::file_prefix(file));
        let candidates = std::iter::once(base.clone())
            .chain(std::iter::once(format!("{base}_{prefix}")))
            .chain((2..).map(|n| format!("{base}_{prefix}_{n}")));
        for id in candidates {
            let free = !self.taken.contains(&id) && !self.types.contains(&names::camel(&id));
            if free {
                self.taken.insert(id.clone());
                return id;
            }
        }
        base
    }
}

/// `getVenue` of `getVenue_1_1`: without the trailing `_<digits>` groups.
fn without_copy_numbers(id: &str) -> &str {
    let mut rest = id;
    while let Some((head, tail)) = rest.rsplit_once('_') {
        if tail.is_empty() || !tail.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        rest = head;
    }
    rest
}

/// One route as a spec operation (body types not yet filled in), with its body schemas.
fn operation<'v>(
    r: &Route<'v>,
    id: String,
    api: &Api,
) -> Result<(Operation, Option<&'v Schema>, Option<&'v Schema>), String> {
    let source = format!("{} {}", r.file, op_id(r.op));
    let bodies = shape::bodies(r, &api.media_vendor.value)?;
    let facts = crate::audit::openapi::operation(r.doc, r.file, r.path, r.method.as_str(), r.op);
    let name = super::naming::human(&names::camel(&id));
    let op = Operation {
        name,
        description: Some(description(r.method, r.path)),
        method: r.method,
        path: r.path.to_owned(),
        provenance: Some(format!("reference: {source}")),
        operation_id: r.op.operation_id.clone(),
        lifecycle: None,
        parameters: shape::parameters(r),
        request: bodies.request,
        responses: bodies.responses,
        media_types: bodies.media_types,
        media_types_provenance: bodies.versioned.then(|| format!("reference: {source}")),
        error_family: error_family(api, &facts.error_shapes),
        pagination: shape::pagination(facts.paging, &source),
        notes: Vec::new(),
        service: None,
        origin: None,
        id,
    };
    Ok((op, bodies.request_schema, bodies.response_schema))
}

/// The service of a drafted operation where it is not its area's: the one whose provenance
/// names the operation's description file (`reference: <file> ...`).
fn service_of(
    services: &BTreeMap<String, String>,
    areas: &[&Area],
    area: &str,
    file: &str,
) -> Option<String> {
    let named = services
        .iter()
        .find_map(|(service, f)| (f == file).then(|| service.clone()))?;
    let area_service = areas
        .iter()
        .find(|a| a.area == area)
        .and_then(|a| a.service.as_deref());
    (area_service != Some(named.as_str())).then_some(named)
}

/// The API's family for the error bodies the description shows, where its default family
/// decodes none of them.
fn error_family(api: &Api, shapes: &BTreeSet<FamilyKind>) -> Option<String> {
    let kind_of = |name: &str| {
        api.error_families
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.kind)
    };
    if shapes.is_empty() || kind_of(&api.default_error_family).is_some_and(|k| shapes.contains(&k))
    {
        return None;
    }
    api.error_families
        .iter()
        .find(|f| shapes.contains(&f.kind))
        .map(|f| f.name.clone())
}

/// A neutral line of our own: what the method does to the path.
fn description(method: Method, path: &str) -> String {
    let verb = match method {
        Method::Get => "Reads",
        Method::Post if path.ends_with("/query") => "Queries",
        Method::Post => "Posts to",
        Method::Put => "Replaces",
        Method::Patch => "Updates",
        Method::Delete => "Deletes",
    };
    format!("{verb} `{path}` (drafted from the official description).")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(id: Option<&str>) -> DescOperation {
        DescOperation {
            operation_id: id.map(str::to_owned),
            ..Default::default()
        }
    }

    #[test]
    fn ids_come_from_the_operation_id_without_numbered_copies_and_stay_unique() {
        let mut ids = Ids::new(&[]);
        let file = "wifi_api-17.3.3.205.yaml";
        let claim =
            |ids: &mut Ids, id| ids.claim(&desc(id), Method::Get, "/venues/{venueId}", file);
        assert_eq!(
            claim(&mut ids, Some("getVenueSetting_1_1")),
            "get_venue_setting"
        );
        assert_eq!(
            claim(&mut ids, Some("getVenueSetting")),
            "get_venue_setting_wifi"
        );
        assert_eq!(
            claim(&mut ids, Some("getVenueSetting_2")),
            "get_venue_setting_wifi_2"
        );
        assert_eq!(claim(&mut ids, None), "get_venues_venue_id");
        // The client's own methods are never taken.
        assert_eq!(claim(&mut ids, Some("raw")), "raw_wifi");
        // Version markers and acronyms stay whole (issue 31: `_v`, `get_msp_e_cs`, `download_ca_p`).
        assert_eq!(
            claim(&mut ids, Some("getRadiusServerProfileTemplateV1")),
            "get_radius_server_profile_template_v1"
        );
        assert_eq!(claim(&mut ids, Some("getMSP-ECs")), "get_msp_ecs");
        assert_eq!(claim(&mut ids, Some("downloadCaP12_1")), "download_ca_p12");
    }

    #[test]
    fn descriptions_are_a_neutral_line_of_our_own() {
        assert_eq!(
            description(Method::Post, "/workflows/query"),
            "Queries `/workflows/query` (drafted from the official description)."
        );
        assert_eq!(
            description(Method::Delete, "/workflows/{workflowId}"),
            "Deletes `/workflows/{workflowId}` (drafted from the official description)."
        );
    }
}
