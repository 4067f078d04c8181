//! Validation: the loaded spec becomes the IR, or a list of diagnostics with file and line.
//!
//! Every check reports and carries on, so one run shows every problem. Nothing here panics on
//! a spec: unsupported shapes are diagnostics.

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::*;
use crate::load::Loaded;
use crate::names::{self, Unique};
use crate::source::SourceFile;
use crate::spec;
use std::collections::{BTreeMap, BTreeSet};

/// Validates `loaded` and builds the IR. `display_root` is stripped from file paths recorded
/// in the IR (so docs name `spec/analytics/users.yaml`, not an absolute path).
pub fn validate(loaded: &Loaded, display_root: &std::path::Path) -> Result<Ir, Vec<Diagnostic>> {
    let mut v = Validator {
        diags: Diagnostics::default(),
    };
    let ir = v.ir(loaded, display_root);
    if v.diags.is_empty() {
        Ok(ir)
    } else {
        Err(v.diags.into_sorted())
    }
}

struct Validator {
    diags: Diagnostics,
}

/// Per-API context: where each named type lives.
struct ApiCtx {
    /// Type name -> area module.
    types: BTreeMap<String, String>,
    vendor: String,
}

/// Where the current element is, for diagnostics and inline type names.
struct At<'a> {
    file: &'a SourceFile,
    anchors: Vec<String>,
    /// Which match of the last anchor (1-based): duplicates are reported where they repeat.
    nth: usize,
}

impl At<'_> {
    fn anchors(&self) -> Vec<&str> {
        self.anchors.iter().map(String::as_str).collect()
    }

    fn with(&self, more: &[&str]) -> Self {
        let mut anchors = self.anchors.clone();
        anchors.extend(more.iter().map(|s| s.to_string()));
        At {
            file: self.file,
            anchors,
            nth: 1,
        }
    }

    /// The same place, at the `nth` match of the last anchor.
    fn nth(mut self, nth: usize) -> Self {
        self.nth = nth;
        self
    }
}

impl Validator {
    fn err(&mut self, at: &At<'_>, message: impl Into<String>) {
        self.diags
            .push(at.file.diag_nth(&at.anchors(), at.nth, message));
    }

    fn ir(&mut self, loaded: &Loaded, display_root: &std::path::Path) -> Ir {
        let top = &loaded.top;
        let tf = &loaded.top_file;
        let root = At {
            file: tf,
            anchors: vec![],
            nth: 1,
        };
        let auth = AuthIr {
            description: top.auth.description.clone(),
            token_url: self.setting(&root.with(&["auth:", "token_url:"]), &top.auth.token_url),
            token_url_without_tenant: self.setting(
                &root.with(&["auth:", "token_url_without_tenant:"]),
                &top.auth.token_url_without_tenant,
            ),
            tenant_header: self.setting(
                &root.with(&["auth:", "tenant_header:"]),
                &top.auth.tenant_header,
            ),
        };
        if !top.auth.token_url.value.contains("{host}")
            || !top.auth.token_url.value.contains("{tenant_id}")
        {
            self.err(
                &root.with(&["auth:", "token_url:"]),
                "`token_url` must contain `{host}` and `{tenant_id}`",
            );
        }
        if !top.auth.token_url_without_tenant.value.contains("{host}") {
            self.err(
                &root.with(&["auth:", "token_url_without_tenant:"]),
                "`token_url_without_tenant` must contain `{host}`",
            );
        }
        let krate = &top.krate;
        if krate.name.is_empty()
            || !krate.name.starts_with(|c: char| c.is_ascii_alphabetic())
            || !krate
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            self.err(
                &root.with(&["crate:", "name:"]),
                format!(
                    "crate name `{}` is not a Cargo package name (letters, digits, `-`, `_`)",
                    krate.name
                ),
            );
        }
        let semver = krate.version.split(['-', '+']).next().unwrap_or_default();
        if semver.split('.').count() != 3
            || !semver
                .split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        {
            self.err(
                &root.with(&["crate:", "version:"]),
                format!(
                    "crate version `{}` is not a semantic version (e.g. 0.1.0)",
                    krate.version
                ),
            );
        }
        let mut api_names = BTreeSet::new();
        let mut apis = Vec::new();
        for (api, areas) in top.apis.iter().zip(&loaded.areas) {
            let at = root.with(&["apis:", &format!("name: {}", api.name)]);
            if names::snake(&api.name).as_deref() != Some(api.name.as_str()) {
                self.err(
                    &at,
                    format!(
                        "API name `{}` must be a snake_case Rust identifier",
                        api.name
                    ),
                );
            }
            if RESERVED_API_NAMES.contains(&api.name.as_str()) {
                self.err(
                    &at,
                    format!("API name `{}` is reserved: it would clash with an item of the generated crate root", api.name),
                );
            }
            if !api_names.insert(api.name.clone()) {
                self.err(&at, format!("duplicate API name `{}`", api.name));
            }
            apis.push(self.api(api, areas, &at, display_root));
        }
        let has_experimental = apis.iter().any(|a: &ApiIr| {
            a.areas.iter().any(|ar| {
                ar.operations
                    .iter()
                    .any(|o| matches!(o.lifecycle, Lifecycle::Experimental { .. }))
            })
        });
        Ir {
            krate: CrateIr {
                name: top.krate.name.clone(),
                version: top.krate.version.clone(),
                description: top.krate.description.clone(),
                has_experimental,
                area_features: top.krate.area_features,
            },
            auth,
            apis,
        }
    }

    fn setting(&mut self, at: &At<'_>, s: &spec::Setting) -> Valued {
        Valued {
            value: s.value.clone(),
            provenance: self.provenance(at, s.provenance.as_deref()),
        }
    }

    fn provenance(&mut self, at: &At<'_>, p: Option<&str>) -> Provenance {
        let Some(p) = p else {
            return Provenance::Documented;
        };
        let p = p.trim();
        if p == "documented" {
            return Provenance::Documented;
        }
        let parsed = if let Some(why) = p.strip_prefix("inferred:") {
            Some((true, why.trim()))
        } else {
            p.strip_prefix("reference:").map(|src| (false, src.trim()))
        };
        match parsed {
            Some((_, "")) => {
                self.err(
                    &at.with(&["provenance:"]),
                    "provenance needs a reason or source after the colon",
                );
                Provenance::Documented
            }
            Some((true, why)) => Provenance::Inferred(why.to_owned()),
            Some((false, src)) => Provenance::Reference(src.to_owned()),
            None => {
                self.err(
                    &at.with(&["provenance:"]),
                    format!("provenance `{p}` must be `documented`, `inferred: <reason>` or `reference: <source>`"),
                );
                Provenance::Documented
            }
        }
    }

    fn api(
        &mut self,
        api: &spec::Api,
        areas: &[(SourceFile, spec::Area)],
        at: &At<'_>,
        root: &std::path::Path,
    ) -> ApiIr {
        // Families.
        let mut families = Vec::new();
        let mut family_names = BTreeSet::new();
        for f in &api.error_families {
            let fat = at.with(&["error_families:", &format!("name: {}", f.name)]);
            if !family_names.insert(f.name.clone()) {
                self.err(&fat, format!("duplicate error family `{}`", f.name));
            }
            let kind = FamilyKind::parse(&f.kind).unwrap_or_else(|| {
                self.err(
                    &fat.with(&["kind:"]),
                    format!(
                        "error family kind `{}` must be errors_array, error_object or status_message",
                        f.kind
                    ),
                );
                FamilyKind::ErrorsArray
            });
            families.push(FamilyIr {
                name: f.name.clone(),
                kind,
                description: f.description.clone(),
                body: f.body.clone(),
                provenance: self.provenance(&fat, f.provenance.as_deref()),
            });
        }
        if !family_names.contains(&api.default_error_family) {
            self.err(
                &at.with(&["default_error_family:"]),
                format!(
                    "default error family `{}` is not declared",
                    api.default_error_family
                ),
            );
        }

        // First pass: every named type of the API, for references across areas.
        let mut ctx = ApiCtx {
            types: BTreeMap::new(),
            vendor: api.media_vendor.value.clone(),
        };
        let mut area_names = BTreeSet::new();
        for (file, area) in areas {
            if names::snake(&area.area).as_deref() != Some(area.area.as_str())
                || !area_names.insert(area.area.clone())
            {
                self.err(
                    &At {
                        file,
                        anchors: vec!["area:".into()],
                        nth: 1,
                    },
                    format!(
                        "area `{}` must be a unique snake_case Rust identifier",
                        area.area
                    ),
                );
            }
            for t in &area.types {
                let tat = At {
                    file,
                    anchors: vec!["types:".into(), format!("name: {}", t.name)],
                    nth: 1,
                };
                if RESERVED_TYPE_NAMES.contains(&t.name.as_str())
                    || t.name == format!("{}Client", names::camel(&api.name))
                {
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

        // Second pass: resolve types and operations.
        let mut op_ids = BTreeMap::new();
        let mut routes: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        let mut area_irs = Vec::new();
        for (file, area) in areas {
            let mut types = Vec::new();
            for t in &area.types {
                let tat = At {
                    file,
                    anchors: vec!["types:".into(), format!("name: {}", t.name)],
                    nth: 1,
                };
                let mut inline = Vec::new();
                if let Some(ty) = self.type_def(t, &tat, &mut ctx, &area.area, &mut inline) {
                    types.push(ty);
                }
                types.append(&mut inline);
            }
            let mut operations = Vec::new();
            for op in &area.operations {
                let oat = At {
                    file,
                    anchors: vec!["operations:".into(), format!("id: {}", op.id)],
                    nth: 1,
                };
                let earlier_here = area
                    .operations
                    .iter()
                    .take_while(|o| !std::ptr::eq(*o, op))
                    .filter(|o| o.id == op.id)
                    .count();
                if op_ids.insert(op.id.clone(), ()).is_some() {
                    self.err(
                        &oat.with(&[]).nth(earlier_here + 1),
                        format!("duplicate operation id `{}`", op.id),
                    );
                    continue;
                }
                let mut inline = Vec::new();
                if let Some(o) = self.operation(
                    op,
                    &oat,
                    &mut ctx,
                    &area.area,
                    &family_names,
                    &families,
                    api,
                    &mut inline,
                ) {
                    routes
                        .entry((o.method.as_str().to_owned(), o.path.clone()))
                        .or_default()
                        .push(o.id.clone());
                    operations.push(o);
                }
                types.append(&mut inline);
            }
            let spec_file = file
                .path
                .strip_prefix(root)
                .unwrap_or(&file.path)
                .to_string_lossy()
                .replace('\\', "/");
            let uses = area_uses(&area.area, &types, &operations);
            area_irs.push(AreaIr {
                feature: format!("{}-{}", api.name, area.area).replace('_', "-"),
                uses,
                name: area.area.clone(),
                title: area.title.clone(),
                description: area.description.clone(),
                spec_file,
                types,
                operations,
            });
        }
        // Same method and path twice is a curation mistake unless the operations offer
        // different media types (differently typed versions of one route).
        for ((method, path), ids) in &routes {
            if ids.len() > 1 {
                let ops: Vec<&OpIr> = area_irs
                    .iter()
                    .flat_map(|a| &a.operations)
                    .filter(|o| ids.contains(&o.id))
                    .collect();
                let mut seen = BTreeSet::new();
                let disjoint = ops.iter().all(|o| {
                    !o.versions.is_empty()
                        && o.versions.iter().all(|v| seen.insert(v.accept.clone()))
                });
                if !disjoint {
                    if let Some((file, _)) = areas
                        .iter()
                        .find(|(_, a)| a.operations.iter().any(|o| o.id == ids[1]))
                    {
                        self.diags.push(file.diag(
                            &["operations:", &format!("id: {}", ids[1])],
                            format!("`{method} {path}` is also operation `{}`; give them different media types or merge them", ids[0]),
                        ));
                    }
                }
            }
        }
        // Builders, version enums and types share one namespace per API (glob re-exports).
        let mut items: BTreeMap<String, String> = ctx
            .types
            .keys()
            .map(|k| (k.clone(), "type".to_owned()))
            .collect();
        for (file, area) in areas {
            let Some(air) = area_irs.iter().find(|a| a.name == area.area) else {
                continue;
            };
            for t in &air.types {
                items.insert(t.name.clone(), "type".into());
            }
            for o in &air.operations {
                for n in std::iter::once(&o.builder).chain(o.version_enum.as_ref()) {
                    let by = format!("generated for operation `{}`", o.id);
                    match items.insert(n.clone(), by.clone()) {
                        Some(prev) if prev != by => self.diags.push(file.diag(
                            &["operations:", &format!("id: {}", o.id)],
                            format!("operation `{}` generates the item `{n}`, which is already a {prev}; rename one of them", o.id),
                        )),
                        _ => {}
                    }
                }
            }
        }
        // Parameters typed by name must be enums: they are sent with the enum's wire value.
        for (file, area) in areas {
            let Some(air) = area_irs.iter().find(|a| a.name == area.area) else {
                continue;
            };
            for o in &air.operations {
                for p in o.query.iter().chain(&o.headers) {
                    if let TypeRef::Named { name, .. } = &p.ty {
                        let is_enum = area_irs
                            .iter()
                            .flat_map(|a| &a.types)
                            .any(|t| &t.name == name && matches!(t.kind, TypeKind::Enum(_)));
                        if !is_enum {
                            self.diags.push(file.diag(
                                &["operations:", &format!("id: {}", o.id), "parameters:", &format!("name: {}", p.wire)],
                                format!("parameter `{}` has type `{name}`, which is not an enum; parameters must be scalars or enums", p.wire),
                            ));
                        }
                    }
                }
            }
        }
        // A paged operation's items field must exist on its (object) response type.
        for (file, area) in areas {
            let Some(air) = area_irs.iter().find(|a| a.name == area.area) else {
                continue;
            };
            for o in &air.operations {
                let (Some(p), Some(TypeRef::Named { name, .. })) = (&o.pagination, &o.success.ty)
                else {
                    continue;
                };
                let fields = area_irs
                    .iter()
                    .flat_map(|a| &a.types)
                    .find_map(|t| match &t.kind {
                        TypeKind::Object(f, _) if &t.name == name => Some(f),
                        _ => None,
                    });
                if let Some(fields) = fields
                    && !fields.iter().any(|f| f.wire == p.items)
                {
                    self.diags.push(file.diag(
                        &[
                            "operations:",
                            &format!("id: {}", o.id),
                            "pagination:",
                            "items:",
                        ],
                        format!(
                            "pagination items field `{}` is not a field of `{name}`",
                            p.items
                        ),
                    ));
                }
            }
        }
        self.check_recursion(&area_irs, areas);

        let prefix_at = at.with(&["prefix:"]);
        let prefix = &api.prefix.value;
        if !prefix.is_empty() && (!prefix.starts_with('/') || prefix.ends_with('/')) {
            self.err(
                &prefix_at,
                format!("prefix `{prefix}` must start with `/` and not end with one (or be empty)"),
            );
        }
        for (region, host) in [
            ("asia", &api.hosts.asia),
            ("europe", &api.hosts.europe),
            ("north_america", &api.hosts.north_america),
        ] {
            if !(host.starts_with("https://") || host.starts_with("http://")) || host.ends_with('/')
            {
                self.err(
                    &at.with(&["hosts:", &format!("{region}:")]),
                    format!("host `{host}` must be an http(s) URL without a trailing `/`"),
                );
            }
        }
        let hosts_at = at.with(&["hosts:"]);
        let auth = match &api.auth {
            None => Valued {
                value: "ClientCredentials".into(),
                provenance: Provenance::Documented,
            },
            Some(a) => {
                let aat = at.with(&["auth:"]);
                let value = match a.value.as_str() {
                    "client_credentials" => "ClientCredentials",
                    "unit_token" => "UnitToken",
                    other => {
                        self.err(
                            &aat,
                            format!("API auth `{other}` must be client_credentials or unit_token"),
                        );
                        "ClientCredentials"
                    }
                };
                Valued {
                    value: value.into(),
                    provenance: self.provenance(&aat, a.provenance.as_deref()),
                }
            }
        };
        let mut status_codes = Vec::new();
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
            status_codes.push((
                sc.status,
                sc.meaning.clone(),
                self.provenance(&sat, sc.provenance.as_deref()),
            ));
        }
        if let Some(id) = &api.activity_operation {
            let op = area_irs
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
        }
        ApiIr {
            activity_operation: api.activity_operation.clone(),
            auth,
            status_codes,
            client: format!("{}Client", names::camel(&api.name)),
            name: api.name.clone(),
            title: api.title.clone(),
            description: api.description.clone(),
            source: api.source.clone(),
            prefix: Valued {
                value: api.prefix.value.clone(),
                provenance: self.provenance(&prefix_at, api.prefix.provenance.as_deref()),
            },
            hosts: HostsIr {
                asia: api.hosts.asia.clone(),
                europe: api.hosts.europe.clone(),
                north_america: api.hosts.north_america.clone(),
                provenance: self.provenance(&hosts_at, api.hosts.provenance.as_deref()),
            },
            media_vendor: self.setting(&at.with(&["media_vendor:"]), &api.media_vendor),
            families,
            areas: area_irs,
        }
    }

    fn type_def(
        &mut self,
        t: &spec::TypeDef,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        area: &str,
        inline: &mut Vec<TypeIr>,
    ) -> Option<TypeIr> {
        let provenance = self.provenance(at, t.provenance.as_deref());
        let given = [
            t.fields.is_some(),
            t.values.is_some(),
            t.alias.is_some(),
            t.not_shown.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.err(
                at,
                format!(
                    "type `{}` needs exactly one of `fields`, `values`, `alias` or `not_shown`",
                    t.name
                ),
            );
            return None;
        }
        let kind = if let Some(fields) = &t.fields {
            TypeKind::Object(self.fields(fields, at, ctx, area, &t.name, inline), t.open)
        } else if let Some(values) = &t.values {
            TypeKind::Enum(self.variants(values, at, &t.name))
        } else if let Some(alias) = &t.alias {
            TypeKind::Alias(self.type_ref(
                alias,
                &at.with(&["alias:"]),
                ctx,
                area,
                &format!("{}Item", t.name),
                inline,
            )?)
        } else {
            TypeKind::NotShown(t.not_shown.clone().unwrap_or_default())
        };
        Some(TypeIr {
            name: t.name.clone(),
            description: t.description.clone(),
            provenance,
            origin: None,
            kind,
        })
    }

    fn fields(
        &mut self,
        fields: &[spec::Field],
        at: &At<'_>,
        ctx: &mut ApiCtx,
        area: &str,
        parent: &str,
        inline: &mut Vec<TypeIr>,
    ) -> Vec<FieldIr> {
        let mut out = Vec::new();
        let mut wire = BTreeSet::new();
        let mut unique = Unique::default();
        unique.reserve("additional_fields");
        for f in fields {
            let fat = at.with(&["fields:", &format!("name: {}", f.name)]);
            if !wire.insert(f.name.clone()) {
                self.err(
                    &fat.nth(2),
                    format!("duplicate field `{}` in `{parent}`", f.name),
                );
                continue;
            }
            let Some(rust) = names::snake(&f.name) else {
                self.err(
                    &fat,
                    format!("field name `{}` cannot become a Rust identifier", f.name),
                );
                continue;
            };
            let rust = unique.claim(rust, "_");
            let inline_name = format!("{parent}{}", names::camel(&f.name));
            let Some(ty) = self.type_ref(
                &f.ty,
                &fat.with(&["type:"]),
                ctx,
                area,
                &inline_name,
                inline,
            ) else {
                continue;
            };
            if f.secret && ty != TypeRef::String {
                self.err(
                    &fat,
                    format!("field `{}` is marked secret but is not a string", f.name),
                );
            }
            let provenance = self.provenance(&fat, f.provenance.as_deref());
            out.push(FieldIr {
                wire: f.name.clone(),
                rust,
                ty,
                required: f.required,
                nullable: f.nullable,
                description: f.description.clone(),
                provenance,
                secret: f.secret,
                constraints: constraints(&f.constraints),
                deprecated: f.deprecated.clone(),
            });
        }
        out
    }

    fn variants(
        &mut self,
        values: &[spec::EnumValue],
        at: &At<'_>,
        parent: &str,
    ) -> Vec<VariantIr> {
        let mut out = Vec::new();
        let mut wire = BTreeSet::new();
        let mut unique = Unique::default();
        unique.reserve("Unknown");
        if values.is_empty() {
            self.err(at, format!("enum `{parent}` has no values"));
        }
        for v in values {
            let (value, description, deprecated) = match v {
                spec::EnumValue::Bare(s) => (s.clone(), None, None),
                spec::EnumValue::Full(f) => {
                    (f.value.clone(), f.description.clone(), f.deprecated.clone())
                }
            };
            let vat = at.with(&["values:", &format!("value: {value}|{value}")]);
            if !wire.insert(value.clone()) {
                let vat = vat.nth(2);
                self.err(
                    &vat,
                    format!("duplicate enum value `{value}` in `{parent}`"),
                );
                continue;
            }
            let Some(rust) = names::variant(&value) else {
                self.err(
                    &vat,
                    format!("enum value `{value}` of `{parent}` cannot become a Rust identifier"),
                );
                continue;
            };
            let rust = unique.claim(rust, "");
            out.push(VariantIr {
                wire: value,
                rust,
                description,
                deprecated,
            });
        }
        out
    }

    /// Resolves a type expression; inline objects and enums become types named `inline_name`
    /// (unless they name themselves) pushed to `inline`.
    fn type_ref(
        &mut self,
        expr: &spec::TypeExpr,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        area: &str,
        inline_name: &str,
        inline: &mut Vec<TypeIr>,
    ) -> Option<TypeRef> {
        match expr {
            spec::TypeExpr::Name(name) => self.named_ref(name.trim(), at, ctx),
            spec::TypeExpr::Inline(i) => {
                let given = [
                    i.array.is_some(),
                    i.map.is_some(),
                    i.fields.is_some(),
                    i.values.is_some(),
                    i.not_shown.is_some(),
                ];
                if given.iter().filter(|g| **g).count() != 1 {
                    self.err(
                        at,
                        "an inline type needs exactly one of `array`, `map`, `fields`, `values` or `not_shown`",
                    );
                    return None;
                }
                if let Some(items) = &i.array {
                    let name = i
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("{inline_name}Item"));
                    return Some(TypeRef::Array(Box::new(
                        self.type_ref(items, at, ctx, area, &name, inline)?,
                    )));
                }
                if let Some(values) = &i.map {
                    let name = i
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("{inline_name}Value"));
                    return Some(TypeRef::Map(Box::new(
                        self.type_ref(values, at, ctx, area, &name, inline)?,
                    )));
                }
                if let Some(note) = &i.not_shown {
                    return Some(TypeRef::NotShown(note.clone()));
                }
                let name = i.name.clone().unwrap_or_else(|| inline_name.to_owned());
                if names::camel(&name) != name || !names::is_ident(&name) {
                    self.err(
                        at,
                        format!(
                            "inline type name `{name}` must be an UpperCamelCase Rust identifier"
                        ),
                    );
                    return None;
                }
                if ctx.types.insert(name.clone(), area.to_owned()).is_some() {
                    self.err(
                        at,
                        format!(
                            "inline type `{name}` has the name of another type; give it a `name`"
                        ),
                    );
                    return None;
                }
                let kind = if let Some(fields) = &i.fields {
                    TypeKind::Object(self.fields(fields, at, ctx, area, &name, inline), i.open)
                } else {
                    TypeKind::Enum(self.variants(
                        i.values.as_deref().unwrap_or_default(),
                        at,
                        &name,
                    ))
                };
                inline.push(TypeIr {
                    name: name.clone(),
                    description: i.description.clone().unwrap_or_else(|| {
                        format!("Inline shape named by the generator ({name}).")
                    }),
                    provenance: Provenance::Documented,
                    origin: Some(inline_name.to_owned()),
                    kind,
                });
                Some(TypeRef::Named {
                    name,
                    area: area.to_owned(),
                })
            }
        }
    }

    fn named_ref(&mut self, name: &str, at: &At<'_>, ctx: &ApiCtx) -> Option<TypeRef> {
        let wrapped = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|r| r.strip_suffix('>'))
                .map(str::trim)
        };
        if let Some(inner) = wrapped("array<") {
            return Some(TypeRef::Array(Box::new(self.named_ref(inner, at, ctx)?)));
        }
        if let Some(inner) = wrapped("map<") {
            return Some(TypeRef::Map(Box::new(self.named_ref(inner, at, ctx)?)));
        }
        Some(match name {
            "string" => TypeRef::String,
            "integer" => TypeRef::Integer,
            "int64" => TypeRef::Integer,
            "int32" => TypeRef::Int32,
            "number" => TypeRef::Number,
            "boolean" => TypeRef::Boolean,
            "json" => TypeRef::Json,
            "not_shown" => TypeRef::NotShown("The document does not show this shape.".into()),
            other => match ctx.types.get(other) {
                Some(area) => TypeRef::Named {
                    name: other.to_owned(),
                    area: area.clone(),
                },
                None => {
                    self.err(at, format!("unknown type `{other}`"));
                    return None;
                }
            },
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn operation(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        area: &str,
        family_names: &BTreeSet<String>,
        families: &[FamilyIr],
        api: &spec::Api,
        inline: &mut Vec<TypeIr>,
    ) -> Option<OpIr> {
        let mut ok = true;
        if names::snake(&op.id).as_deref() != Some(op.id.as_str()) {
            self.err(
                at,
                format!(
                    "operation id `{}` must be a snake_case Rust identifier (not a keyword)",
                    op.id
                ),
            );
            ok = false;
        }
        if RESERVED_OPERATION_IDS.contains(&op.id.as_str()) {
            self.err(at, format!("operation id `{}` is reserved: the API client already has a method of that name", op.id));
            ok = false;
        }
        let builder = names::camel(&op.id);
        let provenance = self.provenance(at, op.provenance.as_deref());
        let method = Method::parse(&op.method).unwrap_or_else(|| {
            self.err(
                &at.with(&["method:"]),
                format!(
                    "method `{}` must be GET, POST, PUT, PATCH or DELETE",
                    op.method
                ),
            );
            ok = false;
            Method::Get
        });
        let lifecycle = self.lifecycle(op.lifecycle.as_ref(), at);

        // Path and its parameters.
        let path_ok = path_placeholders(&op.path).is_ok();
        let placeholders = match path_placeholders(&op.path) {
            Ok(p) => p,
            Err(msg) => {
                self.err(&at.with(&["path:"]), msg);
                ok = false;
                Vec::new()
            }
        };
        let mut params: BTreeMap<&str, Vec<ParamIr>> = BTreeMap::new();
        let mut seen = BTreeSet::new();
        let mut unique = Unique::default();
        for reserved in ["tenant", "version", "send", "body"] {
            unique.reserve(reserved);
        }
        for p in &op.parameters {
            let pat = at.with(&["parameters:", &format!("name: {}", p.name)]);
            if !matches!(p.location.as_str(), "path" | "query" | "header") {
                self.err(
                    &pat.with(&["in:"]),
                    format!(
                        "parameter location `{}` must be path, query or header",
                        p.location
                    ),
                );
                ok = false;
                continue;
            }
            if !seen.insert((p.location.clone(), p.name.clone())) {
                self.err(
                    &pat,
                    format!("duplicate {} parameter `{}`", p.location, p.name),
                );
                ok = false;
                continue;
            }
            if p.location == "header"
                && !p
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
            {
                self.err(
                    &pat,
                    format!(
                        "header name `{}` may only contain letters, digits, `-` and `_`",
                        p.name
                    ),
                );
                ok = false;
                continue;
            }
            let Some(rust) = names::snake(&p.name) else {
                self.err(
                    &pat,
                    format!(
                        "parameter name `{}` cannot become a Rust identifier",
                        p.name
                    ),
                );
                ok = false;
                continue;
            };
            let inline_name = format!("{builder}{}", names::camel(&p.name));
            let Some(ty) = self.type_ref(&p.ty, &pat, ctx, area, &inline_name, inline) else {
                ok = false;
                continue;
            };
            let scalar_or_enum = ty.is_scalar() || matches!(&ty, TypeRef::Named { .. });
            if !scalar_or_enum {
                self.err(
                    &pat,
                    format!(
                        "parameter `{}` has type `{}`; parameters must be scalars or enums",
                        p.name,
                        ty.display()
                    ),
                );
                ok = false;
                continue;
            }
            if p.location == "path" {
                if !p.required {
                    self.err(
                        &pat,
                        format!("path parameter `{}` must be `required: true`", p.name),
                    );
                    ok = false;
                }
                if ty != TypeRef::String {
                    self.err(
                        &pat,
                        format!("path parameter `{}` must be a string", p.name),
                    );
                    ok = false;
                }
                if path_ok && !placeholders.iter().any(|x| x == &p.name) {
                    self.err(
                        &pat,
                        format!(
                            "path parameter `{}` is declared but `{}` has no `{{{}}}`",
                            p.name, op.path, p.name
                        ),
                    );
                    ok = false;
                }
            }
            let rust = unique.claim(rust, "_");
            let provenance = self.provenance(&pat, p.provenance.as_deref());
            params
                .entry(loc_key(&p.location))
                .or_default()
                .push(ParamIr {
                    wire: p.name.clone(),
                    rust,
                    ty,
                    required: p.required,
                    description: p.description.clone(),
                    provenance,
                    constraints: constraints(&p.constraints),
                });
        }
        let mut path_params = Vec::new();
        let declared_path = params.remove("path").unwrap_or_default();
        for ph in &placeholders {
            match declared_path.iter().position(|p| &p.wire == ph) {
                Some(i) => path_params.push(declared_path[i].clone()),
                None => {
                    self.err(
                        &at.with(&["path:"]),
                        format!(
                            "path parameter `{ph}` of `{}` is not declared under `parameters`",
                            op.path
                        ),
                    );
                    ok = false;
                }
            }
        }

        // Request body.
        let request = match &op.request {
            None => None,
            Some(b) => self
                .request(b, &at.with(&["request:"]), ctx, area, &builder, inline)
                .or_else(|| {
                    ok = false;
                    None
                }),
        };

        // Responses.
        let mut responses = Vec::new();
        let mut statuses = BTreeSet::new();
        for r in &op.responses {
            let rat = at.with(&["responses:", &format!("status: {}", r.status)]);
            if !statuses.insert(r.status) {
                self.err(&rat, format!("duplicate response status {}", r.status));
                ok = false;
                continue;
            }
            if !(100..=599).contains(&r.status) {
                self.err(
                    &rat,
                    format!("response status {} is not an HTTP status", r.status),
                );
                ok = false;
                continue;
            }
            let inline_name = format!("{builder}Response");
            let ty = match &r.ty {
                Some(t) => {
                    match self.type_ref(t, &rat.with(&["type:"]), ctx, area, &inline_name, inline) {
                        Some(t) => Some(t),
                        None => {
                            ok = false;
                            continue;
                        }
                    }
                }
                None => None,
            };
            let kind = match (r.kind.as_deref(), &ty) {
                (None | Some("json"), Some(_)) => ResponseKind::Json,
                (None | Some("empty"), None) => ResponseKind::Empty,
                (Some("binary"), None) => ResponseKind::Binary,
                (Some(k @ ("json" | "empty" | "binary")), _) => {
                    self.err(
                        &rat,
                        format!(
                            "a `{k}` response {} a `type`",
                            if k == "json" { "needs" } else { "takes no" }
                        ),
                    );
                    ok = false;
                    continue;
                }
                (Some(k), _) => {
                    self.err(
                        &rat.with(&["kind:"]),
                        format!("response kind `{k}` must be json, binary or empty"),
                    );
                    ok = false;
                    continue;
                }
            };
            let media_type = r.media_type.clone().unwrap_or_else(|| {
                match kind {
                    ResponseKind::Binary => "application/octet-stream",
                    _ => "application/json",
                }
                .to_owned()
            });
            if !valid_media_type(&media_type) {
                self.err(
                    &rat.with(&["media_type:"]),
                    format!("`{media_type}` is not a media type"),
                );
                ok = false;
            }
            responses.push(ResponseIr {
                status: r.status,
                kind,
                ty,
                media_type,
                description: r.description.clone(),
                provenance: self.provenance(&rat, r.provenance.as_deref()),
            });
        }
        let successes: Vec<&ResponseIr> = responses
            .iter()
            .filter(|r| (200..300).contains(&r.status))
            .collect();
        let success = match successes.first() {
            Some(s) => (*s).clone(),
            None => {
                if ok {
                    self.err(
                        &at.with(&["responses:"]),
                        format!("operation `{}` declares no 2xx response", op.id),
                    );
                }
                return None;
            }
        };
        if successes
            .iter()
            .any(|s| s.kind != success.kind || s.ty != success.ty)
        {
            self.err(
                &at.with(&["responses:"]),
                format!("operation `{}` has 2xx responses of different shapes; this generator supports one success shape per operation", op.id),
            );
            ok = false;
        }
        let asynchronous = successes.iter().any(|s| s.status == 202);

        // Versions (media types).
        let versions = self.versions(op, at, &request, &success, &ctx.vendor);
        if versions.is_empty() {
            ok = false;
        }
        let version_enum = (versions.len() > 1).then(|| format!("{builder}Version"));

        // Error family.
        let error_family = op
            .error_family
            .clone()
            .unwrap_or_else(|| api.default_error_family.clone());
        if !family_names.contains(&error_family) {
            self.err(
                &at.with(&["error_family:"]),
                format!("unknown error family `{error_family}`"),
            );
            ok = false;
        }
        let error_kind = families
            .iter()
            .find(|f| f.name == error_family)
            .map_or(FamilyKind::ErrorsArray, |f| f.kind);

        // Pagination.
        let pagination = op.pagination.as_ref().and_then(|p| {
            let pat = at.with(&["pagination:"]);
            if !matches!(
                p.style.as_str(),
                "query_body" | "paging_envelope" | "page_params"
            ) {
                self.err(
                    &pat.with(&["style:"]),
                    format!(
                        "pagination style `{}` must be query_body, paging_envelope or page_params",
                        p.style
                    ),
                );
                ok = false;
                return None;
            }
            Some(PaginationIr {
                style: p.style.clone(),
                items: p.items.clone(),
                first_page: p.first_page.unwrap_or(1),
                provenance: self.provenance(&pat, p.provenance.as_deref()),
            })
        });

        if !ok {
            return None;
        }
        Some(OpIr {
            static_name: names::shouty(&op.id),
            id: op.id.clone(),
            builder,
            version_enum,
            name: op.name.clone(),
            description: op.description.clone(),
            method,
            path: op.path.clone(),
            provenance,
            lifecycle,
            path_params,
            query: params.remove("query").unwrap_or_default(),
            headers: params.remove("header").unwrap_or_default(),
            request,
            responses,
            success,
            versions,
            error_family,
            error_kind,
            pagination,
            notes: op.notes.clone(),
            asynchronous,
        })
    }

    fn lifecycle(&mut self, l: Option<&spec::Lifecycle>, at: &At<'_>) -> Lifecycle {
        let Some(l) = l else { return Lifecycle::Stable };
        let lat = at.with(&["lifecycle:"]);
        if let Some(date) = &l.removal
            && !valid_date(date)
        {
            self.err(
                &lat.with(&["removal:"]),
                format!("removal date `{date}` must be YYYY-MM-DD"),
            );
        }
        match l.status.as_str() {
            "stable" | "experimental" if l.removal.is_some() => {
                self.err(
                    &lat.with(&["removal:"]),
                    format!("a {} operation cannot have a removal date", l.status),
                );
                Lifecycle::Stable
            }
            "stable" if l.note.is_some() => {
                self.err(
                    &lat.with(&["note:"]),
                    "a stable operation takes no lifecycle note",
                );
                Lifecycle::Stable
            }
            "stable" => Lifecycle::Stable,
            "deprecated" => match &l.note {
                Some(note) if !note.trim().is_empty() => Lifecycle::Deprecated {
                    note: note.clone(),
                    removal: l.removal.clone(),
                },
                _ => {
                    self.err(
                        &lat,
                        "a deprecated operation needs a `note` saying what to use instead",
                    );
                    Lifecycle::Stable
                }
            },
            "experimental" => Lifecycle::Experimental {
                note: l.note.clone(),
            },
            "removed" => Lifecycle::Removed {
                note: l.note.clone(),
                removal: l.removal.clone(),
            },
            other => {
                self.err(
                    &lat.with(&["status:"]),
                    format!("lifecycle status `{other}` must be stable, deprecated, experimental or removed"),
                );
                Lifecycle::Stable
            }
        }
    }

    fn request(
        &mut self,
        b: &spec::RequestBody,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        area: &str,
        builder: &str,
        inline: &mut Vec<TypeIr>,
    ) -> Option<BodyIr> {
        let kind = match b.kind.as_deref().unwrap_or("json") {
            "json" => BodyKind::Json,
            "form" => BodyKind::Form,
            "multipart" => BodyKind::Multipart,
            "binary" => BodyKind::Binary,
            other => {
                self.err(
                    &at.with(&["kind:"]),
                    format!("request kind `{other}` must be json, form, multipart or binary"),
                );
                return None;
            }
        };
        let ty = match (&b.ty, kind) {
            (Some(t), BodyKind::Json | BodyKind::Form) => Some(self.type_ref(
                t,
                &at.with(&["type:"]),
                ctx,
                area,
                &format!("{builder}Request"),
                inline,
            )?),
            (None, BodyKind::Json | BodyKind::Form) => {
                self.err(
                    at,
                    format!("a {} request body needs a `type`", kind.label()),
                );
                return None;
            }
            (Some(_), _) => {
                self.err(
                    &at.with(&["type:"]),
                    format!("a {} request body takes no `type`", kind.label()),
                );
                return None;
            }
            (None, _) => None,
        };
        if kind == BodyKind::Form && !matches!(ty, Some(TypeRef::Named { .. })) {
            self.err(at, "a form request body must be an object type");
            return None;
        }
        if !b.parts.is_empty() && kind != BodyKind::Multipart {
            self.err(
                &at.with(&["parts:"]),
                "`parts` belong to multipart request bodies",
            );
            return None;
        }
        if let Some(mt) = &b.media_type
            && !valid_media_type(mt)
        {
            self.err(
                &at.with(&["media_type:"]),
                format!("`{mt}` is not a media type"),
            );
            return None;
        }
        Some(BodyIr {
            kind,
            ty,
            required: b.required,
            parts: b
                .parts
                .iter()
                .map(|p| (p.name.clone(), p.description.clone()))
                .collect(),
            description: b.description.clone(),
        })
    }

    fn versions(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        request: &Option<BodyIr>,
        success: &ResponseIr,
        vendor: &str,
    ) -> Vec<VersionIr> {
        let req_json = request.as_ref().is_some_and(|b| b.kind == BodyKind::Json);
        let resp_json = success.kind == ResponseKind::Json;
        let default_ct = request.as_ref().map(|b| {
            op.request
                .as_ref()
                .and_then(|r| r.media_type.clone())
                .unwrap_or_else(|| {
                    match b.kind {
                        BodyKind::Json => "application/json",
                        BodyKind::Form => "application/x-www-form-urlencoded",
                        BodyKind::Multipart => "multipart/form-data",
                        BodyKind::Binary => "application/octet-stream",
                    }
                    .to_owned()
                })
        });
        let explicit_accept = op
            .responses
            .iter()
            .find(|r| r.status == success.status)
            .and_then(|r| r.media_type.clone());
        if op.media_types.is_empty() {
            return vec![VersionIr {
                label: "default".into(),
                variant: "Default".into(),
                content_type: default_ct,
                accept: success.media_type.clone(),
            }];
        }
        let mat = at.with(&["media_types:"]);
        if !req_json && !resp_json {
            self.err(
                &mat,
                "`media_types` select JSON representations, but neither the request nor the response is JSON",
            );
            return vec![];
        }
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut variants = Unique::default();
        for entry in &op.media_types {
            let (given_ct, given_accept) = match entry {
                spec::MediaTypeEntry::Both(mt) => (
                    req_json.then(|| mt.clone()),
                    (resp_json && explicit_accept.is_none()).then(|| mt.clone()),
                ),
                spec::MediaTypeEntry::Split(split) => {
                    (split.content_type.clone(), split.accept.clone())
                }
            };
            let shown = given_ct
                .clone()
                .or_else(|| given_accept.clone())
                .unwrap_or_default();
            let mut labels = Vec::new();
            for mt in given_ct.iter().chain(given_accept.iter()) {
                match version_label(mt, vendor) {
                    Some(label) => labels.push(label),
                    None => {
                        self.err(
                            &mat.with(&[&format!("{mt}|content_type: {mt}|accept: {mt}")]),
                            format!("media type `{mt}` must be application/json or application/vnd.{vendor}.<version>+json"),
                        );
                        return vec![];
                    }
                }
            }
            let Some(label) = labels.first().cloned() else {
                self.err(
                    &mat,
                    "a media type entry needs a `content_type` or an `accept`",
                );
                return vec![];
            };
            let content_type = given_ct.or_else(|| default_ct.clone());
            let accept = given_accept.unwrap_or_else(|| success.media_type.clone());
            if !seen.insert((content_type.clone(), accept.clone())) {
                self.err(
                    &mat.with(&[&shown]),
                    format!("duplicate media type `{shown}`"),
                );
                return vec![];
            }
            let variant = if label == "json" {
                "Json".to_owned()
            } else {
                format!("V{}", label.trim_start_matches('v').replace('.', "_"))
            };
            out.push(VersionIr {
                variant: variants.claim(variant, "_"),
                label,
                content_type,
                accept,
            });
        }
        out
    }

    /// A struct that contains itself without a `Vec` or map in between has infinite size.
    fn check_recursion(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        let types: BTreeMap<&str, &TypeIr> = areas
            .iter()
            .flat_map(|a| &a.types)
            .map(|t| (t.name.as_str(), t))
            .collect();
        fn direct<'a>(t: &'a TypeRef, out: &mut Vec<&'a str>) {
            if let TypeRef::Named { name, .. } = t {
                out.push(name);
            }
        }
        fn push_children<'a>(t: &'a TypeIr, stack: &mut Vec<&'a str>) {
            match &t.kind {
                TypeKind::Object(fields, _) => fields.iter().for_each(|f| direct(&f.ty, stack)),
                TypeKind::Alias(a) => direct(a, stack),
                _ => {}
            }
        }
        for (name, t) in &types {
            let mut stack: Vec<&str> = Vec::new();
            push_children(t, &mut stack);
            let mut visited = BTreeSet::new();
            while let Some(n) = stack.pop() {
                if n == *name {
                    let file = files
                        .iter()
                        .find(|(_, a)| a.types.iter().any(|x| x.name == *name))
                        .map(|(f, _)| f);
                    if let Some(file) = file {
                        self.diags.push(file.diag(
                            &["types:", &format!("name: {name}")],
                            format!("type `{name}` contains itself without an array or map in between; this is not supported"),
                        ));
                    }
                    break;
                }
                if visited.insert(n)
                    && let Some(child) = types.get(n)
                {
                    push_children(child, &mut stack);
                }
            }
        }
    }
}

/// Names of the generated crate root (`runtime` re-export, `Client` methods).
const RESERVED_API_NAMES: &[&str] = &["runtime", "new", "with_tenant"];
/// Methods every API client already has.
const RESERVED_OPERATION_IDS: &[&str] = &["new", "runtime", "wait_for_activity"];
/// Standard names generated code uses unqualified: a spec type must not shadow them.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "Box",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Eq",
    "Err",
    "From",
    "Hash",
    "Into",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Self",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "Vec",
];

/// The other areas whose types `area`'s types and operations refer to, sorted.
fn area_uses(area: &str, types: &[TypeIr], ops: &[OpIr]) -> Vec<String> {
    fn walk(t: &TypeRef, out: &mut BTreeSet<String>) {
        match t {
            TypeRef::Named { area, .. } => {
                out.insert(area.clone());
            }
            TypeRef::Array(inner) | TypeRef::Map(inner) => walk(inner, out),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for t in types {
        match &t.kind {
            TypeKind::Object(fields, _) => fields.iter().for_each(|f| walk(&f.ty, &mut out)),
            TypeKind::Alias(a) => walk(a, &mut out),
            _ => {}
        }
    }
    for o in ops.iter().filter(|o| o.is_generated()) {
        for p in o.path_params.iter().chain(&o.query).chain(&o.headers) {
            walk(&p.ty, &mut out);
        }
        for t in o
            .request
            .iter()
            .filter_map(|b| b.ty.as_ref())
            .chain(o.success.ty.as_ref())
        {
            walk(t, &mut out);
        }
    }
    out.remove(area);
    out.into_iter().collect()
}

fn loc_key(loc: &str) -> &'static str {
    match loc {
        "path" => "path",
        "query" => "query",
        _ => "header",
    }
}

fn constraints(map: &BTreeMap<String, serde_yaml::Value>) -> Vec<(String, String)> {
    map.iter()
        .map(|(k, v)| {
            let text = match v {
                serde_yaml::Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_owned(),
            };
            (k.clone(), text)
        })
        .collect()
}

/// The `{name}` placeholders of a path, in order; an error message for a malformed path.
fn path_placeholders(path: &str) -> Result<Vec<String>, String> {
    if !path.starts_with('/') {
        return Err(format!("path `{path}` must start with `/`"));
    }
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            return Err(format!("path `{path}` has an unclosed `{{`"));
        };
        let name = &rest[start + 1..start + len];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "path `{path}` has an invalid placeholder `{{{name}}}`"
            ));
        }
        if out.iter().any(|n| n == name) {
            return Err(format!(
                "path `{path}` repeats the placeholder `{{{name}}}`"
            ));
        }
        out.push(name.to_owned());
        rest = &rest[start + len + 1..];
    }
    if rest.contains('}') {
        return Err(format!("path `{path}` has an unmatched `}}`"));
    }
    Ok(out)
}

/// `json` for application/json, `v1.1` for application/vnd.<vendor>.v1.1+json.
fn version_label(mt: &str, vendor: &str) -> Option<String> {
    if mt == "application/json" {
        return Some("json".into());
    }
    let v = mt
        .strip_prefix(&format!("application/vnd.{vendor}."))?
        .strip_suffix("+json")?;
    let ok = v.starts_with('v')
        && v.len() > 1
        && v[1..]
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    ok.then(|| v.to_owned())
}

fn valid_media_type(mt: &str) -> bool {
    let mut parts = mt.splitn(2, '/');
    let ok = |s: Option<&str>| {
        s.is_some_and(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.*_".contains(c))
        })
    };
    ok(parts.next()) && ok(parts.next())
}

fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| d[r].parse::<u32>().ok();
    matches!((num(0..4), num(5..7), num(8..10)), (Some(_), Some(m), Some(day)) if (1..=12).contains(&m) && (1..=31).contains(&day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_versions() {
        assert_eq!(path_placeholders("/a/{x}/b/{y}").unwrap(), vec!["x", "y"]);
        assert!(path_placeholders("a/{x}").is_err());
        assert!(path_placeholders("/a/{x").is_err());
        assert!(path_placeholders("/a/{x}/{x}").is_err());
        assert_eq!(
            version_label("application/vnd.ruckus.v1.1+json", "ruckus").as_deref(),
            Some("v1.1")
        );
        assert_eq!(
            version_label("application/vnd.other.v1+json", "ruckus"),
            None
        );
        assert!(valid_date("2025-06-30"));
        assert!(!valid_date("2025-13-01"));
        assert!(!valid_date("30.06.2025"));
    }
}
