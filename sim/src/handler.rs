//! One request, start to end: the token endpoint, or route → authentication and tenant →
//! injected faults → rate limit → media types → parameters and body → the role → an answer that
//! validates against the export.

use crate::auth;
use crate::checks;
use crate::conform::Samples;
use crate::errors::{Refusal, body as error_body};
use crate::limits;
use crate::model::{AuthKind, LifecycleStatus, ResponseKind, Route, Table};
use crate::negotiate;
use crate::roles::{self, Call};
use crate::shared::{Dropped, Inner};
use crate::state::{Activity, Logged, State, bounded, rfc3339};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State as Shared};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, Response, StatusCode};
use serde_json::{Value, json};
use std::sync::{Arc, MutexGuard};

/// The largest request body read (bigger ones get 413).
const MAX_BODY: usize = 16 * 1024 * 1024;

type Answer = Response<Body>;

/// A request's parts.
struct Req {
    method: String,
    path: String,
    query: Vec<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
}

impl Req {
    fn header(&self, name: impl axum::http::header::AsHeaderName) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

pub(crate) async fn handle(Shared(inner): Shared<Arc<Inner>>, request: Request) -> Answer {
    let (parts, body) = request.into_parts();
    let path = scrubbed(&inner, &parts.headers, parts.uri.path());
    let (logged_method, method_cut) = bounded(parts.method.as_str());
    let (logged_path, path_cut) = bounded(&path);
    let mut log = Logged {
        method: logged_method,
        path: logged_path,
        truncated_bytes: method_cut + path_cut,
        operation: None,
        tenant: None,
        status: 413,
        limited_by: None,
        at_ms: inner.lock().clock.now_ms(),
    };
    let read = axum::body::to_bytes(body, MAX_BODY);
    let answer = match tokio::time::timeout(inner.config.read_timeout, read).await {
        Err(_elapsed) => plain(408, "the request body did not arrive in time"),
        Ok(Ok(body)) => {
            let req = Req {
                method: parts.method.as_str().to_owned(),
                path,
                query: serde_urlencoded::from_str(parts.uri.query().unwrap_or(""))
                    .unwrap_or_default(),
                headers: parts.headers,
                body,
            };
            dispatch(&inner, &req, &mut log).await
        }
        Ok(Err(_)) => plain(413, "the request body is too large"),
    };
    log.status = answer.status().as_u16();
    inner.lock().record(log);
    answer
}

/// `path` for the log: any client secret or this request's credentials in it masked.
fn scrubbed(inner: &Inner, headers: &HeaderMap, path: &str) -> String {
    let authorization = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok());
    let token = auth::bearer(authorization);
    let basic = authorization
        .and_then(basic_credentials)
        .map(|(_, secret)| secret);
    let mut path = path.to_owned();
    let secrets = inner.config.credentials().map(|c| c.client_secret.as_str());
    for secret in secrets.chain(token).chain(basic.as_deref()) {
        if !secret.is_empty() {
            path = path.replace(secret, "***");
        }
    }
    path
}

fn plain(status: u16, text: &str) -> Answer {
    json_answer(status, "application/json", &json!({"message": text}))
}

fn json_answer(status: u16, content_type: &str, v: &Value) -> Answer {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut r = Response::new(Body::from(v.to_string()));
    *r.status_mut() = status;
    if let Ok(ct) = content_type.parse() {
        r.headers_mut().insert(CONTENT_TYPE, ct);
    }
    r
}

/// An error answer in the family's shape.
fn refuse(inner: &Inner, table: &Table, family: &str, r: &Refusal) -> Answer {
    let (now, request_id) = {
        let mut state = inner.lock();
        (rfc3339(state.clock.now_ms()), state.new_id())
    };
    let samples = Samples::required_only(table, &now);
    let mut answer = json_answer(
        r.status,
        "application/json",
        &error_body(&samples, family, r, &request_id),
    );
    if let Some(secs) = r.retry_after {
        answer.headers_mut().insert(RETRY_AFTER, secs.into());
    }
    if r.status == 401 {
        answer.headers_mut().insert(
            WWW_AUTHENTICATE,
            axum::http::HeaderValue::from_static("Bearer"),
        );
    }
    answer
}

async fn dispatch(inner: &Inner, req: &Req, log: &mut Logged) -> Answer {
    if req.method == "POST" && auth::is_token_path(&req.path) {
        return token(inner, req);
    }
    let model = inner.model;
    let matched = match inner.router.find(model, &req.method, &req.path) {
        Ok(m) => m,
        Err(nf) => {
            let Some(table) = nf.api.and_then(|i| model.apis.get(i)) else {
                return plain(404, "no such operation");
            };
            let r = if nf.other_method {
                Refusal::new(
                    405,
                    "SIM-405",
                    format!("{} is not served on {}", req.method, req.path),
                )
            } else {
                Refusal::not_found("the operation")
            };
            return refuse(inner, table, &table.api.default_family, &r);
        }
    };
    let Some(table) = model.apis.get(matched.api) else {
        return plain(500, "internal: unknown API");
    };
    let routes: Vec<&Route> = matched
        .routes
        .iter()
        .filter_map(|i| table.routes.get(*i))
        .collect();
    let Some(route) = negotiate::pick(&routes, req.header(CONTENT_TYPE), req.header("accept"))
    else {
        return plain(500, "internal: no route");
    };
    log.operation = Some(route.id.clone());
    let tenant = auth::delegated_header(&req.headers).and_then(|delegated| {
        let state = inner.lock();
        auth::tenant_of(
            &inner.config,
            &state,
            table.api.auth == AuthKind::UnitToken,
            req.header(AUTHORIZATION),
            delegated,
        )
    });
    let tenant = match tenant {
        Ok(t) => t,
        Err(r) => return refuse(inner, table, &route.error_family, &r),
    };
    // A unit token call's tenant is its token: logged masked.
    log.tenant = Some(match tenant.strip_prefix("unit:") {
        Some(_) => "unit:***".to_owned(),
        None => tenant.clone(),
    });
    let fault = inner.lock().take_fault(&route.id);
    if let Some(latency) = fault.as_ref().and_then(|f| f.latency) {
        tokio::time::sleep(latency).await;
    }
    if fault.as_ref().is_some_and(|f| f.drop_connection) {
        let mut r = Response::new(Body::empty());
        r.extensions_mut().insert(Dropped);
        return r;
    }
    if let Some((status, fault)) = fault.as_ref().and_then(|f| Some((f.status?, f))) {
        let mut r = Refusal::new(status, "SIM-FAULT", format!("injected answer {status}"));
        r.retry_after = fault.retry_after;
        return refuse(inner, table, &route.error_family, &r);
    }
    let fail = fault.and_then(|f| f.fail_activity);
    let ctx = Ctx {
        inner,
        api_index: matched.api,
        table,
        route,
        params: &matched.params,
        tenant: &tenant,
    };
    match serve(&ctx, req, fail) {
        Ok(answer) => answer,
        Err(r) => {
            log.limited_by.clone_from(&r.limit);
            refuse(inner, table, &route.error_family, &r)
        }
    }
}

/// What a matched, authenticated call works with.
struct Ctx<'a> {
    inner: &'a Inner,
    api_index: usize,
    table: &'a Table,
    route: &'a Route,
    params: &'a [String],
    tenant: &'a str,
}

fn token(inner: &Inner, req: &Req) -> Answer {
    let basic = req.header(AUTHORIZATION).and_then(basic_credentials);
    let issued = auth::issue(
        &inner.config,
        &mut inner.lock(),
        &req.path,
        basic,
        &req.body,
    );
    match issued {
        Ok(v) => json_answer(200, "application/json", &v),
        Err((status, v)) => json_answer(status, "application/json", &v),
    }
}

/// `Authorization: Basic` credentials (the token endpoint takes them too).
fn basic_credentials(h: &str) -> Option<(String, String)> {
    let (scheme, b64) = h.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let text = String::from_utf8(decode_base64(b64.trim())?).ok()?;
    let (id, secret) = text.split_once(':')?;
    Some((id.to_owned(), secret.to_owned()))
}

fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter(|c| *c != b'=') {
        acc = (acc << 6) | value(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

/// The checks, the role and the answer of a matched, authenticated call.
fn serve(ctx: &Ctx<'_>, req: &Req, fail: Option<String>) -> Result<Answer, Refusal> {
    let (table, route) = (ctx.table, ctx.route);
    if ctx.inner.config.rate_limits {
        let custom = ctx.inner.config.tenant_limits.get(ctx.tenant).copied();
        let budgets: Vec<_> = limits::tenant_budget(table, custom)
            .into_iter()
            .chain(limits::budget(table, route))
            .collect();
        if let Err(refused) = limits::take(&mut ctx.inner.lock(), ctx.tenant, &budgets) {
            let message = match refused.limit {
                limits::TENANT => "rate limit of the tenant exceeded".to_owned(),
                service => format!("rate limit of the {service} service exceeded"),
            };
            let mut r = Refusal::new(429, "SIM-429", message);
            r.retry_after = Some(refused.retry_after);
            r.limit = Some(refused.limit.to_owned());
            return Err(r);
        }
    }
    let media = negotiate::accept(route, req.header("accept"))?;
    negotiate::content_type(route, req.header(CONTENT_TYPE), !req.body.is_empty())?;
    checks::query(table, route, &req.query, &req.headers)?;
    checks::tenant_param(
        &ctx.inner.config,
        &ctx.inner.lock(),
        route,
        ctx.params,
        ctx.tenant,
    )?;
    let body = checks::body(table, route, &req.body)?;
    checks::paging(route, &req.query, body.as_ref())?;
    let call = Call {
        api: ctx.api_index,
        table,
        route,
        params: ctx.params,
        query: &req.query,
        body: body.as_ref(),
        tenant: ctx.tenant,
        path: &req.path,
        config: &ctx.inner.config,
    };
    let mut state = ctx.inner.lock();
    let failure = fail.filter(|_| route.asynchronous).map(|message| {
        let now = rfc3339(state.clock.now_ms());
        let samples = Samples::required_only(table, &now);
        let r = Refusal::new(400, "SIM-ACTIVITY", message);
        error_body(&samples, &route.error_family, &r, "")
    });
    // A write whose activity is to fail changes nothing.
    let candidate = match failure {
        Some(_) => None,
        None => roles::run(&call, &mut state)?,
    };
    let candidate = match route.asynchronous {
        true => Some(accept_async(ctx, &mut state, candidate.as_ref(), failure)),
        false => candidate.map(|c| enveloped(table, route, c, &mut state)),
    };
    let now = rfc3339(state.clock.now_ms());
    drop(state);
    let mut answer = answer(table, route, media.as_deref(), candidate.as_ref(), &now);
    if route.lifecycle == LifecycleStatus::Deprecated {
        let removal = route.removal.as_deref().unwrap_or("");
        deprecation_headers(route, removal, answer.headers_mut());
    }
    Ok(answer)
}

/// The headers of a deprecated operation's answer: `Ruckus-Deprecated`, the newest version the
/// route offers as `Ruckus-Current-Version` (when it offers versioned media types), and the
/// removal date as `Sunset` (when the spec knows it).
fn deprecation_headers(route: &Route, removal: &str, headers: &mut HeaderMap) {
    headers.insert(
        "ruckus-deprecated",
        "true".parse().expect("a valid header value"),
    );
    let newest = route
        .response
        .types
        .iter()
        .filter_map(|t| t.strip_prefix("application/vnd.")?.split_once('.'))
        .filter_map(|(_, v)| v.split('+').next())
        .max();
    if let Some(Ok(value)) = newest.map(str::parse) {
        headers.insert("ruckus-current-version", value);
    }
    if let Some(Ok(value)) = http_date(removal).map(|d| d.parse()) {
        headers.insert("sunset", value);
    }
}

/// `YYYY-MM-DD` as an HTTP date at midnight UTC (`Sun, 01 Mar 2026 00:00:00 GMT`).
fn http_date(date: &str) -> Option<String> {
    let mut parts = date.splitn(3, '-').map(str::parse::<i64>);
    let (year, month, day) = (
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // Days since 1970-01-01 from the civil date (H. Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let weekday = WEEKDAYS[usize::try_from(days.rem_euclid(7)).ok()?];
    let name = MONTHS[usize::try_from(month - 1).ok()?];
    Some(format!("{weekday}, {day:02} {name} {year:04} 00:00:00 GMT"))
}

/// The services whose descriptions answer an asynchronous write with `{requestId, id}` (identity
/// and MAC registration `OperationResponse`, workflow `AsycRequestResponse`, device enrollment
/// `EntityModelAcceptedResponse`); the others describe `{requestId, response}`.
const TOP_LEVEL_ID: [&str; 4] = [
    "identity",
    "mac_registration",
    "workflow",
    "device_enrollment",
];

/// Records the activity of an asynchronous write; the envelope with its request id (and the
/// object's id).
fn accept_async(
    ctx: &Ctx<'_>,
    state: &mut State,
    done: Option<&Value>,
    failure: Option<Value>,
) -> Value {
    let id = state.new_id();
    let now = state.clock.now_ms();
    let cfg = &ctx.inner.config;
    let activity = Activity {
        id: id.clone(),
        api: ctx.api_index,
        use_case: ctx.route.id.clone(),
        started_ms: now,
        duration_ms: u64::try_from(cfg.activity_duration.as_millis()).unwrap_or(u64::MAX),
        visible_ms: now
            .saturating_add(u64::try_from(cfg.activity_hidden_for.as_millis()).unwrap_or(0)),
        failure,
    };
    state
        .tenant(ctx.tenant)
        .activities
        .insert(id.clone(), activity);
    let mut envelope = json!({"requestId": id});
    // What the write made: one object, or (an asynchronous batch) a list of them.
    let made: &[Value] = match done {
        Some(Value::Array(list)) => list,
        Some(one) => std::slice::from_ref(one),
        None => &[],
    };
    let object_ids: Vec<String> = made
        .iter()
        .filter_map(|d| match d.get("id") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        })
        .collect();
    // The shape the service's description shows: the created object as `response`, or (the
    // services in `TOP_LEVEL_ID`) its id next to the request id. Never both, so that code
    // tested here reads the id the way it must against the service.
    if let (Some(first), Some(object)) = (object_ids.first(), made.first()) {
        if TOP_LEVEL_ID.contains(&ctx.route.service.as_str()) {
            envelope["id"] = json!(first);
        } else {
            envelope["response"] = object.clone();
        }
    }
    // Created customer tenants are named one by one, each with the activity's request id
    // (`ResponseBov2`: `data` of `ResponseBo`).
    if ctx.route.family == roles::TENANTS && matches!(done, Some(Value::Array(_))) {
        envelope["data"] = object_ids
            .iter()
            .map(|tenant| json!({"requestId": id, "tenantId": tenant}))
            .collect();
    }
    envelope
}

/// A written object answered in the envelope the operation's answer type describes
/// (`{requestId, response}`), when that type is an envelope and the object is not in one yet.
fn enveloped(table: &Table, route: &Route, object: Value, state: &mut State) -> Value {
    let schema = &route.response.schema;
    let declared = |name: &str| {
        table
            .deref(schema)
            .get("properties")
            .is_some_and(|p| p.get(name).is_some())
    };
    let is_envelope = declared("requestId") && declared("response");
    if !is_envelope || object.get("response").is_some() || !object.is_object() {
        return object;
    }
    json!({"requestId": state.new_id(), "response": object})
}

/// The rows of a page whose schema leaves them open, made whole against the row type the spec
/// gives apart (a page type many queries share).
fn whole_rows(table: &Table, route: &Route, now: &str, page: &mut Value) {
    let Some((items, row)) = route
        .paging
        .as_ref()
        .and_then(|p| Some((p.items.as_str(), p.row.as_ref()?)))
    else {
        return;
    };
    if let Some(Value::Array(rows)) = page.get_mut(items) {
        for r in rows.iter_mut() {
            *r = Samples::answer(table, now).conform(Some(r), row);
        }
    }
}

/// The success answer: the candidate made valid for the response schema.
fn answer(
    table: &Table,
    route: &Route,
    media: Option<&str>,
    candidate: Option<&Value>,
    now: &str,
) -> Answer {
    let media = media.unwrap_or(route.response.media_type.as_str());
    match route.response.kind {
        ResponseKind::Json => {
            // A 202 answer is the request envelope as built, not every field the envelope
            // type has across its uses.
            let samples = if route.asynchronous {
                Samples::required_only(table, now)
            } else {
                Samples::answer(table, now)
            };
            let mut v = samples.conform(candidate, &route.response.schema);
            whole_rows(table, route, now, &mut v);
            json_answer(route.status, media, &v)
        }
        ResponseKind::Empty => {
            let mut r = Response::new(Body::empty());
            *r.status_mut() = StatusCode::from_u16(route.status).unwrap_or(StatusCode::NO_CONTENT);
            r
        }
        // A text answer the export declares as JSON is a JSON string.
        ResponseKind::Text if media.ends_with("json") => {
            json_answer(route.status, media, &json!("simulated"))
        }
        kind => {
            let bytes: &'static [u8] = if kind == ResponseKind::Text {
                b"simulated\n"
            } else {
                b"SIMULATED"
            };
            let mut r = Response::new(Body::from(bytes));
            *r.status_mut() = StatusCode::from_u16(route.status).unwrap_or(StatusCode::OK);
            // A wildcard names no type to answer with.
            let media = if media.contains('*') {
                "text/csv"
            } else {
                media
            };
            if let Ok(ct) = media.parse() {
                r.headers_mut().insert(CONTENT_TYPE, ct);
            }
            r
        }
    }
}

impl Inner {
    /// The state (a poisoned lock is taken over: every change leaves it consistent).
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::http_date;

    #[test]
    fn removal_dates_become_http_dates() {
        let date = |d: &str| http_date(d);
        assert_eq!(
            date("2026-03-01").as_deref(),
            Some("Sun, 01 Mar 2026 00:00:00 GMT")
        );
        assert_eq!(
            date("2000-02-29").as_deref(),
            Some("Tue, 29 Feb 2000 00:00:00 GMT")
        );
        assert_eq!(
            date("1970-01-01").as_deref(),
            Some("Thu, 01 Jan 1970 00:00:00 GMT")
        );
        assert_eq!(date("2026-13-01"), None);
        assert_eq!(date("soon"), None);
    }
}
