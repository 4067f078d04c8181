//! The vendor services of an API and their published rate limits, and the service of each
//! area and operation.

use super::rules::MAX_REPEATED_CHARS;
use super::{ApiCtx, At, Validator};
use crate::ir::{AreaIr, Lifecycle, LimitScope, Method, Provenance, ServiceIr, TenantLimitIr};
use crate::names;
use crate::spec;

/// The largest `max` and `per_second` of a rate limit: far above any published one, so a typo
/// (an extra digit) is still caught.
const MAX_RATE: u32 = 100_000;

impl Validator {
    /// The API's services; without any, one named after the API, with no limit.
    pub(super) fn services(&mut self, api: &spec::Api, at: &At<'_>) -> Vec<ServiceIr> {
        if api.services.is_empty() {
            return vec![ServiceIr {
                static_name: format!("SERVICE_{}", names::shouty(&api.name)),
                name: api.name.clone(),
                description: format!("The {} (no published rate limit).", api.title),
                rate_limit: None,
                provenance: Provenance::Documented,
            }];
        }
        let mut services: Vec<ServiceIr> = Vec::new();
        for s in &api.services {
            let sat = at.with(&["services:", &format!("name: {}", s.name)]);
            let valid = names::snake(&s.name).as_deref() == Some(s.name.as_str())
                && s.name.len() <= MAX_REPEATED_CHARS;
            if !valid {
                self.err(
                    &sat,
                    format!(
                        "service name `{}` must be snake_case, 1 to {MAX_REPEATED_CHARS} characters",
                        s.name
                    ),
                );
                continue;
            }
            if services.iter().any(|o| o.name == s.name) {
                self.err(&sat.nth(2), format!("duplicate service `{}`", s.name));
                continue;
            }
            let rate_limit = s.rate_limit.as_ref().and_then(|limit| {
                let lat = sat.with(&["rate_limit:"]);
                if limit.per_second == 0 || limit.max == 0 {
                    self.err(&lat, "a rate limit's `max` and `per_second` must be at least 1");
                    None
                } else if limit.per_second > limit.max {
                    self.err(
                        &lat,
                        format!(
                            "`per_second` ({}) is larger than `max` ({}): the bucket could never hold a second's calls",
                            limit.per_second, limit.max
                        ),
                    );
                    None
                } else if limit.max > MAX_RATE {
                    self.err(&lat, format!("`max` {} is above {MAX_RATE}", limit.max));
                    None
                } else {
                    Some((
                        limit.max,
                        limit.per_second,
                        limit.scope.unwrap_or(LimitScope::Tenant),
                    ))
                }
            });
            if s.rate_limit.is_some() && s.provenance.is_none() {
                self.err(
                    &sat,
                    "a rate limit needs its provenance (`reference: <description file> ...`): the documents publish none",
                );
            }
            services.push(ServiceIr {
                static_name: format!("SERVICE_{}", names::shouty(&s.name)),
                name: s.name.clone(),
                description: s.description.clone(),
                rate_limit,
                provenance: self.provenance(&sat, s.provenance.as_deref()),
            });
        }
        services
    }

    /// Checks an area's `service:`.
    pub(super) fn area_service(&mut self, area: &spec::Area, at: &At<'_>, ctx: &ApiCtx) {
        if let Some(name) = &area.service
            && !ctx.services.iter().any(|s| s == name)
        {
            self.err(&at.with(&["service:"]), unknown(name, ctx));
        }
    }

    /// The static of the service serving `op`: its own, else its area's, else the API's only
    /// one.
    pub(super) fn op_service(
        &mut self,
        op: &spec::Operation,
        at: &At<'_>,
        ctx: &ApiCtx,
        ok: &mut bool,
    ) -> String {
        let chosen = match (&op.service, &ctx.area_service) {
            (Some(name), _) => {
                if !ctx.services.iter().any(|s| s == name) {
                    self.err(&at.with(&["service:"]), unknown(name, ctx));
                    *ok = false;
                }
                name.clone()
            }
            (None, Some(name)) => name.clone(),
            (None, None) => match ctx.services.as_slice() {
                [only] => only.clone(),
                _ => {
                    self.err(
                        at,
                        "the operation names no service and the API has several: set `service:` on the area or the operation",
                    );
                    *ok = false;
                    String::new()
                }
            },
        };
        format!("SERVICE_{}", names::shouty(&chosen))
    }
}

impl Validator {
    /// The API's tenant-wide limit, checked: at least one call, at most [`MAX_RATE`] a second,
    /// a restoration of at most an hour, and its provenance.
    pub(super) fn tenant_limit(&mut self, api: &spec::Api, at: &At<'_>) -> Option<TenantLimitIr> {
        let limit = api.tenant_limit.as_ref()?;
        let lat = at.with(&["tenant_limit:"]);
        if limit.max == 0 || limit.per_minute == 0 {
            self.err(
                &lat,
                "a tenant limit's `max` and `per_minute` must be at least 1",
            );
            return None;
        }
        if limit.max > MAX_RATE * 60 || limit.per_minute > MAX_RATE * 60 {
            self.err(
                &lat,
                format!("`max` and `per_minute` must be at most {}", MAX_RATE * 60),
            );
            return None;
        }
        if limit.restoration_seconds > 3600 {
            self.err(&lat, "`restoration_seconds` must be at most 3600");
            return None;
        }
        if limit.provenance.is_none() {
            self.err(
                &lat,
                "a tenant limit needs its provenance (`reference: ...`): the documents publish none",
            );
        }
        Some(TenantLimitIr {
            max: limit.max,
            per_minute: limit.per_minute,
            restoration_seconds: limit.restoration_seconds,
            provenance: self.provenance(&lat, limit.provenance.as_deref()),
        })
    }

    /// The activity query `wait_all` sends: a generated, non-experimental POST without path
    /// parameters, in the area of the activity operation.
    pub(super) fn activity_query_operation(
        &mut self,
        api: &spec::Api,
        areas: &[AreaIr],
        at: &At<'_>,
    ) -> Option<String> {
        let id = api.activity_query_operation.as_ref()?;
        let home = |wanted: &str| {
            areas
                .iter()
                .find(|a| a.operations.iter().any(|o| o.id == wanted))
                .map(|a| a.name.as_str())
        };
        let op = areas
            .iter()
            .flat_map(|a| &a.operations)
            .find(|o| &o.id == id);
        let fits = op.is_some_and(|o| {
            o.method == Method::Post
                && o.path_params.is_empty()
                && o.is_generated()
                && !matches!(o.lifecycle, Lifecycle::Experimental { .. })
        });
        let qat = at.with(&["activity_query_operation:"]);
        if !fits {
            self.err(
                &qat,
                format!("activity query operation `{id}` must be a generated, non-experimental POST without path parameters"),
            );
            return None;
        }
        match api.activity_operation.as_deref() {
            Some(activity) if home(activity) == home(id) => Some(id.clone()),
            _ => {
                self.err(
                    &qat,
                    "the activity query operation needs an `activity_operation` in the same area",
                );
                None
            }
        }
    }
}

fn unknown(name: &str, ctx: &ApiCtx) -> String {
    format!(
        "unknown service `{name}` (the API declares {})",
        ctx.services
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}
