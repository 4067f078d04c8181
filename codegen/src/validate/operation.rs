//! One operation: id, method, path and parameters, responses, error family and pagination.
//! The request body and media types are in [`super::body`], the lifecycle in
//! [`super::lifecycle`].

use super::rules::{constraints, path_placeholders, valid_media_type, wire_text};
use super::types::Inline;
use super::{ApiCtx, At, Validator};
use crate::emit::reserved;
use crate::ir::{
    FamilyKind, OpIr, PaginationIr, ParamIr, ParamLocation, ResponseIr, ResponseKind, TypeRef,
};
use crate::names::{self, Unique};
use crate::spec;
use std::collections::BTreeSet;

/// An operation's parameters by location (path ones in template order).
#[derive(Default)]
struct Params {
    path: Vec<ParamIr>,
    query: Vec<ParamIr>,
    headers: Vec<ParamIr>,
}

/// What checking one parameter needs to know about its operation.
struct ParamScope<'s> {
    op: &'s spec::Operation,
    /// The builder name, prefix of inline parameter types.
    builder: &'s str,
    /// The path's placeholders; None when the path itself is malformed.
    placeholders: Option<&'s [String]>,
}

impl Validator {
    pub(super) fn operation(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        inline: &mut Inline<'_>,
    ) -> Option<OpIr> {
        let mut ok = self.operation_id(op, at);
        let builder = names::camel(&op.id);
        let provenance = self.provenance(at, op.provenance.as_deref());
        let lifecycle = self.lifecycle(op.lifecycle.as_ref(), at);
        let params = self.parameters(op, at, ctx, &builder, inline, &mut ok);
        let request = match &op.request {
            None => None,
            Some(b) => {
                let body = self.request(b, &at.with(&["request:"]), ctx, &builder, inline);
                ok &= body.is_some();
                body
            }
        };
        let responses = self.responses(op, at, ctx, &builder, inline, &mut ok);
        let success = self.success(op, at, &responses, &mut ok)?;
        let asynchronous = responses
            .iter()
            .any(|r| r.status == 202 && (200..300).contains(&r.status));
        let versions = self.versions(op, at, &request, &success, &ctx.vendor);
        ok &= !versions.is_empty();
        let (error_family, error_kind) = self.error_family(op, at, ctx, &mut ok);
        let service = self.op_service(op, at, ctx, &mut ok);
        if let Some(p) = &op.pagination
            && let Err(msg) = wire_text(&p.items, "pagination items field")
        {
            self.err(&at.with(&["pagination:", "items:"]), msg);
            ok = false;
        }
        let item_type = match op.pagination.as_ref().and_then(|p| p.item_type.as_ref()) {
            Some(t) => {
                let item_at = at.with(&["pagination:", "item_type:"]);
                let item = self.type_ref(t, &item_at, ctx, &format!("{builder}Item"), inline);
                ok &= item.is_some();
                item
            }
            None => None,
        };
        let pagination = op.pagination.as_ref().map(|p| PaginationIr {
            style: p.style,
            items: p.items.clone(),
            item_type,
            first_page: p.first_page.unwrap_or(1),
            columns: p.columns.clone(),
            provenance: self.provenance(&at.with(&["pagination:"]), p.provenance.as_deref()),
        });
        if !ok {
            return None;
        }
        Some(OpIr {
            static_name: names::shouty(&op.id),
            id: op.id.clone(),
            builder,
            name: op.name.clone(),
            description: op.description.clone(),
            method: op.method,
            path: op.path.clone(),
            operation_id: self.vendor_operation_id(op, at),
            provenance,
            lifecycle,
            path_params: params.path,
            query: params.query,
            headers: params.headers,
            request,
            responses,
            success,
            versions,
            versions_provenance: self.provenance(
                &at.with(&["media_types_provenance:"]),
                op.media_types_provenance.as_deref(),
            ),
            error_family,
            error_kind,
            service,
            pagination,
            notes: op.notes.clone(),
            asynchronous,
        })
    }

    /// The vendor's operationId: the spec's `operation_id` (an identifier: letters, digits, `_`,
    /// `-` or `.`), else the one a `reference: <file>.yaml <operationId>` provenance names.
    fn vendor_operation_id(&mut self, op: &spec::Operation, at: &At<'_>) -> Option<String> {
        let is_id = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        };
        if let Some(id) = &op.operation_id {
            if is_id(id) {
                return Some(id.clone());
            }
            self.err(
                &at.with(&["operation_id:"]),
                format!(
                    "operation_id `{id}` is not an operationId (letters, digits, `_`, `-`, `.`)"
                ),
            );
            return None;
        }
        let rest = op.provenance.as_deref()?.strip_prefix("reference: ")?;
        let mut words = rest.split_whitespace();
        let file = words.next()?;
        let id = words.next()?;
        let described = [".yaml", ".yml", ".json"].iter().any(|e| file.ends_with(e));
        (described && is_id(id)).then(|| id.to_owned())
    }

    /// The id becomes the client method: a snake_case identifier the client does not use.
    fn operation_id(&mut self, op: &spec::Operation, at: &At<'_>) -> bool {
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
        if reserved::CLIENT_METHODS.contains(&op.id.as_str()) {
            self.err(at, format!("operation id `{}` is reserved: the API client already has a method of that name", op.id));
            ok = false;
        }
        ok
    }

    fn parameters(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        builder: &str,
        inline: &mut Inline<'_>,
        ok: &mut bool,
    ) -> Params {
        let placeholders = match path_placeholders(&op.path) {
            Ok(p) => Some(p),
            Err(msg) => {
                self.err(&at.with(&["path:"]), msg);
                *ok = false;
                None
            }
        };
        let mut params = Params::default();
        let mut declared_path = Vec::new();
        let mut seen = BTreeSet::new();
        let mut unique = Unique::default();
        for p in &op.parameters {
            let pat = at.with(&["parameters:", &format!("name: {}", p.name)]);
            if !seen.insert((p.location, p.name.clone())) {
                self.err(
                    &pat,
                    format!("duplicate {} parameter `{}`", p.location.as_str(), p.name),
                );
                *ok = false;
                continue;
            }
            let scope = ParamScope {
                op,
                builder,
                placeholders: placeholders.as_deref(),
            };
            let Some(param) = self.parameter(p, &pat, &scope, ctx, inline, ok) else {
                *ok = false;
                continue;
            };
            let param = ParamIr {
                rust: unique.claim(param.rust, "_"),
                ..param
            };
            match p.location {
                ParamLocation::Path => declared_path.push(param),
                ParamLocation::Query => params.query.push(param),
                ParamLocation::Header => params.headers.push(param),
            }
        }
        for ph in placeholders.iter().flatten() {
            match declared_path.iter().find(|p| &p.wire == ph) {
                Some(p) => params.path.push(p.clone()),
                None => {
                    self.err(
                        &at.with(&["path:"]),
                        format!(
                            "path parameter `{ph}` of `{}` is not declared under `parameters`",
                            op.path
                        ),
                    );
                    *ok = false;
                }
            }
        }
        params
    }

    /// One parameter, or None after reporting what is wrong with it. A path parameter with a
    /// wrong declaration is still returned (with `ok` cleared), so its use in the path is not
    /// reported a second time.
    fn parameter(
        &mut self,
        p: &spec::Parameter,
        pat: &At<'_>,
        scope: &ParamScope<'_>,
        ctx: &mut ApiCtx,
        inline: &mut Inline<'_>,
        ok: &mut bool,
    ) -> Option<ParamIr> {
        if let Err(msg) = wire_text(&p.name, "parameter name") {
            self.err(pat, msg);
            return None;
        }
        self.constraint_keys(&p.constraints, pat);
        if p.location == ParamLocation::Header
            && !p
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        {
            self.err(
                pat,
                format!(
                    "header name `{}` may only contain letters, digits, `-` and `_`",
                    p.name
                ),
            );
            return None;
        }
        let rust = self.param_rust_name(p, pat)?;
        let inline_name = format!("{}{}", scope.builder, names::camel(&p.name));
        let ty = self.type_ref(&p.ty, pat, ctx, &inline_name, inline)?;
        if !(ty.is_scalar() || matches!(&ty, TypeRef::Named { .. })) {
            self.err(
                pat,
                format!(
                    "parameter `{}` has type `{}`; parameters must be scalars or enums",
                    p.name,
                    ty.display()
                ),
            );
            return None;
        }
        if p.location == ParamLocation::Path {
            *ok &= self.path_parameter(p, pat, &ty, scope);
        }
        Some(ParamIr {
            wire: p.name.clone(),
            rust,
            location: p.location,
            ty,
            required: p.required,
            description: p.description.clone(),
            provenance: self.provenance(pat, p.provenance.as_deref()),
            constraints: constraints(&p.constraints),
        })
    }

    /// The Rust name of a parameter: its `rust_name`, or its wire name in snake case; never a
    /// name the request builder uses for its own methods.
    fn param_rust_name(&mut self, p: &spec::Parameter, pat: &At<'_>) -> Option<String> {
        let rust = match &p.rust_name {
            Some(given) if names::snake(given).as_deref() != Some(given.as_str()) => {
                self.err(
                    &pat.with(&["rust_name:"]),
                    format!("rust_name `{given}` must be a snake_case Rust identifier"),
                );
                return None;
            }
            Some(given) => given.clone(),
            None => match names::snake(&p.name) {
                Some(rust) => rust,
                None => {
                    self.err(
                        pat,
                        format!(
                            "parameter name `{}` cannot become a Rust identifier",
                            p.name
                        ),
                    );
                    return None;
                }
            },
        };
        if reserved::BUILDER_METHODS.contains(&rust.as_str()) {
            self.err(
                pat,
                format!(
                    "parameter `{}` would be named `{rust}`, which is reserved by the request builder ({}); give it a `rust_name`",
                    p.name,
                    reserved::BUILDER_METHODS.join(", ")
                ),
            );
            return None;
        }
        Some(rust)
    }

    /// A path parameter is a required string that the path template uses.
    fn path_parameter(
        &mut self,
        p: &spec::Parameter,
        pat: &At<'_>,
        ty: &TypeRef,
        scope: &ParamScope<'_>,
    ) -> bool {
        let mut ok = true;
        if !p.required {
            self.err(
                pat,
                format!("path parameter `{}` must be `required: true`", p.name),
            );
            ok = false;
        }
        if *ty != TypeRef::String {
            self.err(pat, format!("path parameter `{}` must be a string", p.name));
            ok = false;
        }
        if let Some(placeholders) = scope.placeholders
            && !placeholders.iter().any(|x| x == &p.name)
        {
            self.err(
                pat,
                format!(
                    "path parameter `{}` is declared but `{}` has no `{{{}}}`",
                    p.name, scope.op.path, p.name
                ),
            );
            ok = false;
        }
        ok
    }

    fn responses(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        ctx: &mut ApiCtx,
        builder: &str,
        inline: &mut Inline<'_>,
        ok: &mut bool,
    ) -> Vec<ResponseIr> {
        let mut responses = Vec::new();
        let mut statuses = BTreeSet::new();
        for r in &op.responses {
            let rat = at.with(&["responses:", &format!("status: {}", r.status)]);
            if !statuses.insert(r.status) {
                self.err(&rat, format!("duplicate response status {}", r.status));
                *ok = false;
                continue;
            }
            match self.response(r, &rat, ctx, builder, inline, ok) {
                Some(resp) => responses.push(resp),
                None => *ok = false,
            }
        }
        responses
    }

    /// One response, or None after reporting what is wrong with it; a response with a
    /// malformed media type is kept (with `ok` cleared) so its shape is still checked.
    fn response(
        &mut self,
        r: &spec::Response,
        rat: &At<'_>,
        ctx: &mut ApiCtx,
        builder: &str,
        inline: &mut Inline<'_>,
        ok: &mut bool,
    ) -> Option<ResponseIr> {
        if !(100..=599).contains(&r.status) {
            self.err(
                rat,
                format!("response status {} is not an HTTP status", r.status),
            );
            return None;
        }
        let ty = match &r.ty {
            Some(t) => {
                let name = format!("{builder}Response");
                Some(self.type_ref(t, &rat.with(&["type:"]), ctx, &name, inline)?)
            }
            None => None,
        };
        let kind = match (r.kind, &ty) {
            (None | Some(ResponseKind::Json), Some(_)) => ResponseKind::Json,
            (None | Some(ResponseKind::Empty), None) => ResponseKind::Empty,
            (Some(k @ (ResponseKind::Binary | ResponseKind::Text)), None) => k,
            (Some(k), _) => {
                self.err(
                    rat,
                    format!(
                        "a `{}` response {} a `type`",
                        k.as_str(),
                        if k == ResponseKind::Json {
                            "needs"
                        } else {
                            "takes no"
                        }
                    ),
                );
                return None;
            }
        };
        let media_type = r.media_type.clone().unwrap_or_else(|| {
            match kind {
                ResponseKind::Binary => "application/octet-stream",
                ResponseKind::Text => "text/plain",
                ResponseKind::Json | ResponseKind::Empty => "application/json",
            }
            .to_owned()
        });
        if !valid_media_type(&media_type) {
            self.err(
                &rat.with(&["media_type:"]),
                format!("`{media_type}` is not a media type"),
            );
            *ok = false;
        }
        Some(ResponseIr {
            status: r.status,
            kind,
            ty,
            media_type,
            description: r.description.clone(),
            provenance: self.provenance(rat, r.provenance.as_deref()),
        })
    }

    /// The first 2xx response: what `send` returns. Every 2xx must have its shape.
    fn success(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        responses: &[ResponseIr],
        ok: &mut bool,
    ) -> Option<ResponseIr> {
        let successes: Vec<&ResponseIr> = responses
            .iter()
            .filter(|r| (200..300).contains(&r.status))
            .collect();
        let Some(success) = successes.first().map(|s| (*s).clone()) else {
            if *ok {
                self.err(
                    &at.with(&["responses:"]),
                    format!("operation `{}` declares no 2xx response", op.id),
                );
            }
            return None;
        };
        // An empty 2xx may stand beside raw JSON (decoded as `null`) and beside the JSON answer
        // of an asynchronous write (a `202`: the runtime's `Accepted` takes an empty answer too);
        // otherwise one shape.
        let raw = |t: &Option<TypeRef>| matches!(t, Some(TypeRef::Json | TypeRef::NotShown(_)));
        let accepted = successes.iter().any(|s| s.status == 202);
        if successes.iter().any(|s| {
            let empty_beside = s.kind == ResponseKind::Empty
                && success.kind == ResponseKind::Json
                && (raw(&success.ty) || accepted);
            (s.kind != success.kind || s.ty != success.ty) && !empty_beside
        }) {
            self.err(
                &at.with(&["responses:"]),
                format!("operation `{}` has 2xx responses of different shapes; this generator supports one success shape per operation", op.id),
            );
            *ok = false;
        }
        Some(success)
    }

    fn error_family(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        ctx: &ApiCtx,
        ok: &mut bool,
    ) -> (String, FamilyKind) {
        let name = op
            .error_family
            .clone()
            .unwrap_or_else(|| ctx.default_family.clone());
        let kind = match ctx.families.get(&name) {
            Some(kind) => *kind,
            None => {
                self.err(
                    &at.with(&["error_family:"]),
                    format!("unknown error family `{name}`"),
                );
                *ok = false;
                FamilyKind::ErrorsArray
            }
        };
        (name, kind)
    }
}
