//! One API: its settings (error families, prefix, hosts, auth, status codes, activity
//! operation) and its areas, each with its types and operations.

use super::rules::{MAX_REPEATED_CHARS, MAX_TITLE_CHARS, path_chars, plain_name, url_chars};
use super::types::Inline;
use super::{ApiCtx, At, Validator};
use crate::emit::reserved;
use crate::ir::{
    ApiIr, AreaIr, AuthKind, FamilyIr, HostsIr, Lifecycle, Method, OpIr, Provenance, ResponseKind,
    TypeIr, Valued,
};
use crate::names;
use crate::source::SourceFile;
use crate::spec;
use std::collections::{BTreeMap, BTreeSet};

/// An API's area files as loaded.
type Files = [(SourceFile, spec::Area)];

impl Validator {
    pub(super) fn api(
        &mut self,
        api: &spec::Api,
        areas: &Files,
        at: &At<'_>,
        root: &std::path::Path,
    ) -> ApiIr {
        let families = self.families(api, at);
        let services = self.services(api, at);
        self.title(&api.title, &at.with(&["title:"]));
        let vendor = &api.media_vendor.value;
        if !plain_name(vendor, "-.", MAX_REPEATED_CHARS) {
            self.err(
                &at.with(&["media_vendor:"]),
                format!("media vendor `{vendor}` may only contain letters, digits, `-` and `.`"),
            );
        }
        let mut ctx = ApiCtx {
            types: BTreeMap::new(),
            vendor: api.media_vendor.value.clone(),
            families: BTreeMap::new(),
            default_family: api.default_error_family.clone(),
            op_ids: BTreeSet::new(),
            services: services.iter().map(|s| s.name.clone()).collect(),
            area_service: None,
        };
        for f in &families {
            ctx.families.entry(f.name.clone()).or_insert(f.kind);
        }
        self.declare_types(api, areas, &mut ctx);
        for f in &families {
            if let Some(body) = &f.body
                && !ctx.types.contains_key(body)
            {
                self.err(
                    &at.with(&["error_families:", &format!("name: {}", f.name), "body:"]),
                    format!("unknown type `{body}`"),
                );
            }
        }
        let area_irs: Vec<AreaIr> = areas
            .iter()
            .map(|(file, area)| self.area(&api.name, file, area, root, &mut ctx))
            .collect();
        let mut area_irs = area_irs;
        waiting_uses_activities(api, &mut area_irs);
        super::cross::shared_type_users(&mut area_irs);
        self.cross_area_checks(&area_irs, areas, &ctx);
        super::cross::union_owns_tags(&mut area_irs);
        let activity_operation = self.activity_operation(api, &area_irs, at);
        let activity_query_operation = self.activity_query_operation(api, &area_irs, at);
        ApiIr {
            activity_operation,
            activity_query_operation,
            services,
            tenant_limit: self.tenant_limit(api, at),
            auth: self.api_auth(api, at),
            status_codes: self.status_codes(api, at),
            client: format!("{}Client", names::camel(&api.name)),
            name: api.name.clone(),
            title: api.title.clone(),
            description: api.description.clone(),
            source: api.source.clone(),
            prefix: self.prefix(api, at),
            hosts: self.hosts(api, at),
            media_vendor: self.setting(&at.with(&["media_vendor:"]), &api.media_vendor),
            families,
            default_family: api.default_error_family.clone(),
            areas: area_irs,
        }
    }

    fn families(&mut self, api: &spec::Api, at: &At<'_>) -> Vec<FamilyIr> {
        let mut families = Vec::new();
        let mut names = BTreeSet::new();
        for f in &api.error_families {
            let fat = at.with(&["error_families:", &format!("name: {}", f.name)]);
            if !names.insert(f.name.clone()) {
                self.err(&fat, format!("duplicate error family `{}`", f.name));
            }
            if !plain_name(&f.name, "-_", MAX_REPEATED_CHARS) {
                self.err(
                    &fat,
                    format!(
                        "error family name `{}` must be 1 to {MAX_REPEATED_CHARS} letters, digits, `-` or `_`",
                        f.name
                    ),
                );
            }
            families.push(FamilyIr {
                name: f.name.clone(),
                kind: f.kind,
                description: f.description.clone(),
                body: f.body.clone(),
                provenance: self.provenance(&fat, f.provenance.as_deref()),
            });
        }
        if !names.contains(&api.default_error_family) {
            self.err(
                &at.with(&["default_error_family:"]),
                format!(
                    "default error family `{}` is not declared",
                    api.default_error_family
                ),
            );
        }
        families
    }

    /// First pass: every area name and named type of the API, so references may cross areas.
    fn declare_types(&mut self, api: &spec::Api, areas: &Files, ctx: &mut ApiCtx) {
        let client = format!("{}Client", names::camel(&api.name));
        let mut area_names = BTreeSet::new();
        for (file, area) in areas {
            if reserved::CLIENT_METHODS.contains(&area.area.as_str()) {
                self.err(
                    &At::file(file).with(&["area:"]),
                    format!(
                        "area `{}` is reserved: the API client already has a method of that name",
                        area.area
                    ),
                );
            }
            if names::snake(&area.area).as_deref() != Some(area.area.as_str())
                || !area_names.insert(area.area.clone())
            {
                self.err(
                    &At::file(file).with(&["area:"]),
                    format!(
                        "area `{}` must be a unique snake_case Rust identifier",
                        area.area
                    ),
                );
            }
            for t in &area.types {
                let tat = At::type_def(file, t);
                if reserved::TYPE_NAMES.contains(&t.name.as_str()) || t.name == client {
                    self.err(
                        &tat,
                        format!(
                            "type name `{}` is reserved: generated code uses an item of that name",
                            t.name
                        ),
                    );
                } else if names::camel(&t.name) != t.name || !names::is_ident(&t.name) {
                    self.err(
                        &tat,
                        format!(
                            "type name `{}` must be an UpperCamelCase Rust identifier",
                            t.name
                        ),
                    );
                }
                if ctx
                    .types
                    .insert(t.name.clone(), area.area.clone())
                    .is_some()
                {
                    self.err(
                        &tat,
                        format!("duplicate type `{}` in API `{}`", t.name, api.name),
                    );
                }
            }
        }
    }

    /// Second pass over one area: its types (sorted by name) and operations.
    fn area(
        &mut self,
        api: &str,
        file: &SourceFile,
        area: &spec::Area,
        root: &std::path::Path,
        ctx: &mut ApiCtx,
    ) -> AreaIr {
        self.title(&area.title, &At::file(file).with(&["title:"]));
        self.area_service(area, &At::file(file), ctx);
        ctx.area_service = area.service.clone();
        let mut types: Vec<TypeIr> = Vec::new();
        for t in &area.types {
            let tat = At::type_def(file, t);
            let mut inline = Vec::new();
            let mut inl = Inline {
                area: &area.area,
                types: &mut inline,
            };
            if let Some(ty) = self.type_def(t, &tat, ctx, &mut inl) {
                types.push(ty);
            }
            types.append(&mut inline);
        }
        let mut operations: Vec<OpIr> = Vec::new();
        for (i, op) in area.operations.iter().enumerate() {
            let oat = At::operation(file, op);
            if !ctx.op_ids.insert(op.id.clone()) {
                let earlier_here = area.operations[..i]
                    .iter()
                    .filter(|o| o.id == op.id)
                    .count();
                self.err(
                    &oat.nth(earlier_here + 1),
                    format!("duplicate operation id `{}`", op.id),
                );
                continue;
            }
            let mut inline = Vec::new();
            let mut inl = Inline {
                area: &area.area,
                types: &mut inline,
            };
            if let Some(o) = self.operation(op, &oat, ctx, &mut inl) {
                operations.push(o);
            }
            types.append(&mut inline);
        }
        // Named and inline types in name order: where a type is written (an area file, its
        // imported file, inline) does not move it in the output.
        types.sort_by(|a, b| a.name.cmp(&b.name));
        let spec_file = file
            .path
            .strip_prefix(root)
            .unwrap_or(&file.path)
            .to_string_lossy()
            .replace('\\', "/");
        let generates = operations.iter().any(|o| o.is_generated());
        AreaIr {
            handler: generates.then(|| format!("{}Client", names::camel(&area.area))),
            feature: format!("{api}-{}", area.area).replace('_', "-"),
            uses: super::cross::area_uses(&area.area, &types, &operations),
            name: area.area.clone(),
            title: area.title.clone(),
            description: area.description.clone(),
            spec_file,
            types,
            operations,
        }
    }

    fn prefix(&mut self, api: &spec::Api, at: &At<'_>) -> Valued {
        let prefix_at = at.with(&["prefix:"]);
        let prefix = &api.prefix.value;
        if !prefix.is_empty() && (!prefix.starts_with('/') || prefix.ends_with('/')) {
            self.err(
                &prefix_at,
                format!("prefix `{prefix}` must start with `/` and not end with one (or be empty)"),
            );
        } else if let Err(msg) = path_chars(prefix, "prefix", false) {
            self.err(&prefix_at, msg);
        } else if prefix.chars().count() > MAX_REPEATED_CHARS {
            self.err(
                &prefix_at,
                format!("prefix is longer than {MAX_REPEATED_CHARS} characters"),
            );
        }
        Valued {
            value: prefix.clone(),
            provenance: self.provenance(&prefix_at, api.prefix.provenance.as_deref()),
        }
    }

    fn hosts(&mut self, api: &spec::Api, at: &At<'_>) -> HostsIr {
        let h = &api.hosts;
        for (region, host) in [
            ("asia", &h.asia),
            ("europe", &h.europe),
            ("north_america", &h.north_america),
        ] {
            let hat = at.with(&["hosts:", &format!("{region}:")]);
            if !(host.starts_with("https://") || host.starts_with("http://")) || host.ends_with('/')
            {
                self.err(
                    &hat,
                    format!("host `{host}` must be an http(s) URL without a trailing `/`"),
                );
            } else if let Err(msg) = url_chars(host, "host", false) {
                self.err(&hat, msg);
            }
        }
        HostsIr {
            asia: h.asia.clone(),
            europe: h.europe.clone(),
            north_america: h.north_america.clone(),
            provenance: self.provenance(&at.with(&["hosts:"]), h.provenance.as_deref()),
        }
    }

    /// A title is one line of at most [`MAX_TITLE_CHARS`] characters (it is repeated in
    /// headings and lists; a long text belongs in the `description`).
    fn title(&mut self, title: &str, at: &At<'_>) {
        if title.contains('\n') || title.chars().count() > MAX_TITLE_CHARS {
            self.err(
                at,
                format!(
                    "a title must be one line of at most {MAX_TITLE_CHARS} characters; put longer text in `description`"
                ),
            );
        }
    }

    fn api_auth(&mut self, api: &spec::Api, at: &At<'_>) -> Valued<AuthKind> {
        match &api.auth {
            None => Valued {
                value: AuthKind::ClientCredentials,
                provenance: Provenance::Documented,
            },
            Some(a) => Valued {
                value: a.value,
                provenance: self.provenance(&at.with(&["auth:"]), a.provenance.as_deref()),
            },
        }
    }

    fn status_codes(&mut self, api: &spec::Api, at: &At<'_>) -> Vec<(u16, String, Provenance)> {
        let mut status_codes: Vec<(u16, String, Provenance)> = Vec::new();
        for sc in &api.status_codes {
            let sat = at.with(&["status_codes:", &format!("status: {}", sc.status)]);
            if !(100..=599).contains(&sc.status)
                || status_codes.iter().any(|(s, _, _)| *s == sc.status)
            {
                self.err(
                    &sat,
                    format!(
                        "status {} is not an HTTP status or is listed twice",
                        sc.status
                    ),
                );
            }
            let provenance = self.provenance(&sat, sc.provenance.as_deref());
            status_codes.push((sc.status, sc.meaning.clone(), provenance));
        }
        status_codes
    }

    fn activity_operation(
        &mut self,
        api: &spec::Api,
        areas: &[AreaIr],
        at: &At<'_>,
    ) -> Option<String> {
        let id = api.activity_operation.as_ref()?;
        let op = areas
            .iter()
            .flat_map(|a| &a.operations)
            .find(|o| &o.id == id);
        let fits = op.is_some_and(|o| {
            o.method == Method::Get
                && o.path_params.len() == 1
                && o.success.kind == ResponseKind::Json
                && o.is_generated()
                && !matches!(o.lifecycle, Lifecycle::Experimental { .. })
        });
        if !fits {
            self.err(
                &at.with(&["activity_operation:"]),
                format!("activity operation `{id}` must be a generated, non-experimental GET with one path parameter and a JSON response"),
            );
        }
        Some(id.clone())
    }
}

/// An area whose asynchronous operations wait for activities uses the activity operation's
/// area (its `send_and_wait` polls it), so that area's feature comes with it.
fn waiting_uses_activities(api: &spec::Api, areas: &mut [AreaIr]) {
    let Some(id) = &api.activity_operation else {
        return;
    };
    let Some(home) = areas
        .iter()
        .find(|a| a.operations.iter().any(|o| &o.id == id))
        .map(|a| a.name.clone())
    else {
        return;
    };
    for area in areas.iter_mut().filter(|a| a.name != home) {
        let waits = area
            .operations
            .iter()
            .any(|o| o.is_generated() && o.asynchronous);
        if waits && !area.uses.contains(&home) {
            area.uses.push(home.clone());
            area.uses.sort();
        }
    }
}
