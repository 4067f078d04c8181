//! The OAuth 2.0 client-credentials token endpoint (`POST /oauth2/token` and
//! `POST /oauth2/token/{tenantId}`) and the bearer-token check of every call.

use crate::config::SimConfig;
use crate::errors::Refusal;
use crate::state::{Issued, State};
use serde_json::{Value, json};

/// Whether `path` is the token endpoint (with or without the tenant segment).
pub(crate) fn is_token_path(path: &str) -> bool {
    let rest = path.trim_end_matches('/');
    rest == "/oauth2/token"
        || rest
            .strip_prefix("/oauth2/token/")
            .is_some_and(|t| !t.contains('/'))
}

/// A token for a form-encoded client-credentials request; `Err` is the status and the OAuth
/// error body.
pub(crate) fn issue(
    config: &SimConfig,
    state: &mut State,
    path: &str,
    basic: Option<(String, String)>,
    form: &[u8],
) -> Result<Value, (u16, Value)> {
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(form).unwrap_or_default();
    let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let refuse = |status: u16, error: &str, text: &str| {
        (status, json!({"error": error, "error_description": text}))
    };
    if get("grant_type").as_deref() != Some("client_credentials") {
        return Err(refuse(
            400,
            "unsupported_grant_type",
            "grant_type must be client_credentials",
        ));
    }
    let (id, secret) = match (get("client_id"), get("client_secret"), basic) {
        (Some(id), Some(secret), _) => (id, secret),
        (_, _, Some(pair)) => pair,
        _ => {
            return Err(refuse(
                401,
                "invalid_client",
                "client_id and client_secret are required",
            ));
        }
    };
    let tenant_segment = path
        .trim_end_matches('/')
        .strip_prefix("/oauth2/token/")
        .map(|t| {
            percent_encoding::percent_decode_str(t)
                .decode_utf8_lossy()
                .into_owned()
        });
    let credential = config.credentials().find(|c| {
        c.client_id == id
            && c.client_secret == secret
            && tenant_segment.as_ref().is_none_or(|t| *t == c.tenant_id)
    });
    let Some(credential) = credential else {
        return Err(refuse(
            401,
            "invalid_client",
            "unknown client or wrong secret",
        ));
    };
    let token = format!("sim-token-{}", random_hex());
    let lifetime = config.token_lifetime.as_secs();
    let expires_ms = state
        .clock
        .now_ms()
        .saturating_add(lifetime.saturating_mul(1000));
    state.tokens.insert(
        token.clone(),
        Issued {
            tenant: credential.tenant_id.clone(),
            expires_ms,
        },
    );
    Ok(json!({"access_token": token, "token_type": "Bearer", "expires_in": lifetime}))
}

/// 32 random bytes from the operating system, as hex: an access token no caller can guess
/// from another (the std hasher's random keys if the system source fails).
fn random_hex() -> String {
    let mut bytes = [0u8; 32];
    if getrandom::fill(&mut bytes).is_err() {
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The x-rks-tenantid header's tenant: `None` without one; a refusal (400) when it is given
/// more than once, is not visible ASCII, or is empty, instead of acting as the caller's own.
pub(crate) fn delegated_header(headers: &axum::http::HeaderMap) -> Result<Option<&str>, Refusal> {
    let mut values = headers.get_all("x-rks-tenantid").iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let bad = |why: &str| Refusal::bad_request(format!("the x-rks-tenantid header {why}"));
    if values.next().is_some() {
        return Err(bad("is given more than once"));
    }
    let text = value
        .to_str()
        .map_err(|_| bad("is not visible ASCII"))?
        .trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(bad("is not a tenant id"));
    }
    Ok(Some(text))
}

/// The bearer token of an `Authorization` header.
pub(crate) fn bearer(header: Option<&str>) -> Option<&str> {
    let h = header?.trim();
    let (scheme, token) = h.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim())
}

/// The tenant a call acts as: the token's tenant, or the delegated tenant it names.
pub(crate) fn tenant_of(
    config: &SimConfig,
    state: &State,
    unit_token_api: bool,
    authorization: Option<&str>,
    delegated: Option<&str>,
) -> Result<String, Refusal> {
    let Some(token) = bearer(authorization) else {
        return Err(Refusal::new(401, "SIM-401", "a bearer token is required"));
    };
    if unit_token_api {
        // The resident portal's unit token is the caller's own: each one is a tenant.
        return Ok(format!("unit:{token}"));
    }
    let issued = state
        .tokens
        .get(token)
        .ok_or_else(|| Refusal::new(401, "SIM-401", "the token is not valid"))?;
    if state.clock.now_ms() >= issued.expires_ms {
        return Err(Refusal::new(401, "SIM-401", "the token has expired"));
    }
    match delegated.map(str::trim).filter(|d| !d.is_empty()) {
        None => Ok(issued.tenant.clone()),
        Some(t) if may_act_for(config, state, &issued.tenant, t) => Ok(t.to_owned()),
        Some(t) => Err(Refusal::new(
            403,
            "SIM-403",
            format!("the tenant {} may not act for tenant {t}", issued.tenant),
        )),
    }
}

/// Whether `actor` may act as `tenant`: itself, or one of its customers.
pub(crate) fn may_act_for(config: &SimConfig, state: &State, actor: &str, tenant: &str) -> bool {
    actor == tenant || customers_of(config, state, actor).any(|c| c == tenant)
}

/// The customers of `msp`: those the configuration names, then the tenants it created, in order
/// (a customer both named and created comes once).
pub(crate) fn customers_of<'a>(
    config: &'a SimConfig,
    state: &'a State,
    msp: &str,
) -> impl Iterator<Item = &'a str> {
    let configured = config.seed.customers.get(msp).into_iter().flatten();
    let created = state.customers.get(msp).into_iter().flatten();
    let mut seen = std::collections::HashSet::new();
    configured
        .chain(created)
        .map(String::as_str)
        .filter(move |id| seen.insert(*id))
}

/// The tenants that manage `tenant` (it is their customer), in order of their ids.
pub(crate) fn managers_of(config: &SimConfig, state: &State, tenant: &str) -> Vec<String> {
    let mut managers: Vec<String> = config
        .seed
        .customers
        .keys()
        .chain(state.customers.keys())
        .filter(|msp| customers_of(config, state, msp).any(|c| c == tenant))
        .cloned()
        .collect();
    managers.sort();
    managers.dedup();
    managers
}
