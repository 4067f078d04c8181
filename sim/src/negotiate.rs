//! Media types: which version of a route a request asks for (`Content-Type`, `Accept`) and
//! whether the route offers it (415, 406).

use crate::errors::Refusal;
use crate::model::{BodyKind, ResponseKind, Route};

/// The media type without parameters, lowercased.
pub(crate) fn essence(v: &str) -> String {
    v.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The media ranges of an `Accept` header, without parameters.
fn ranges(accept: &str) -> Vec<String> {
    accept
        .split(',')
        .map(essence)
        .filter(|r| !r.is_empty())
        .collect()
}

fn range_takes(range: &str, offered: &str) -> bool {
    match range.strip_suffix("/*") {
        Some("*") => true,
        Some(major) => offered.starts_with(&format!("{major}/")),
        None => range == offered,
    }
}

/// The response media type to answer with: the first the route offers that `accept` takes
/// (the route's default when there is no `Accept`).
pub(crate) fn accept(route: &Route, accept: Option<&str>) -> Result<Option<String>, Refusal> {
    let offered = &route.response.types;
    if route.response.kind == ResponseKind::Empty || offered.is_empty() {
        return Ok(None);
    }
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Ok(offered.first().cloned());
    };
    let ranges = ranges(accept);
    for range in &ranges {
        if let Some(t) = offered
            .iter()
            .find(|t| range_takes(range, &t.to_ascii_lowercase()))
        {
            return Ok(Some(t.clone()));
        }
    }
    Err(Refusal::new(
        406,
        "SIM-406",
        format!(
            "Accept {accept:?} takes none of the media types this operation answers with ({})",
            offered.join(", ")
        ),
    ))
}

/// Checks the request's `Content-Type` against the route's request media types.
pub(crate) fn content_type(
    route: &Route,
    content_type: Option<&str>,
    has_body: bool,
) -> Result<(), Refusal> {
    let Some(req) = &route.request else {
        return Ok(());
    };
    let Some(ct) = content_type.map(essence).filter(|c| !c.is_empty()) else {
        return if has_body {
            Err(Refusal::new(
                415,
                "SIM-415",
                "a request body needs a Content-Type",
            ))
        } else {
            Ok(())
        };
    };
    let offered: Vec<String> = req.types.iter().map(|t| essence(t)).collect();
    let fits = offered.contains(&ct)
        || (req.kind == BodyKind::Binary && offered.is_empty())
        || (req.kind == BodyKind::Multipart && ct.starts_with("multipart/"));
    if fits {
        Ok(())
    } else {
        Err(Refusal::new(
            415,
            "SIM-415",
            format!(
                "Content-Type {ct:?} is not one this operation takes ({})",
                req.types.join(", ")
            ),
        ))
    }
}

/// Of several versions of one route, the one the request's media types pick (else the first).
pub(crate) fn pick<'r>(
    routes: &[&'r Route],
    content_type: Option<&str>,
    accept_header: Option<&str>,
) -> Option<&'r Route> {
    let ct = content_type.map(essence);
    if let Some(ct) = ct.filter(|c| !c.is_empty()) {
        if let Some(r) = routes.iter().find(|r| {
            r.request
                .as_ref()
                .is_some_and(|b| b.types.iter().any(|t| essence(t) == ct))
        }) {
            return Some(r);
        }
    }
    if let Some(a) = accept_header {
        let ranges = ranges(a);
        if let Some(r) = routes.iter().find(|r| {
            ranges.iter().any(|range| {
                !range.ends_with("/*") && r.response.types.iter().any(|t| essence(t) == *range)
            })
        }) {
            return Some(r);
        }
    }
    routes.first().copied()
}
