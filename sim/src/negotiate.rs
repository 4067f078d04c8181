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
    // A multipart body may come as any multipart type but a vendor version the route lacks.
    let fits = offered.contains(&ct)
        || (req.kind == BodyKind::Binary && offered.is_empty())
        || (req.kind == BodyKind::Multipart
            && ct.starts_with("multipart/")
            && multipart_version(&ct).is_none());
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

/// The version (`1.1`) a vendor's versioned multipart type names
/// (`multipart/vnd.<vendor>.v1.1+form-data`), given a media type's essence.
fn multipart_version(essence: &str) -> Option<&str> {
    let sub = essence.strip_prefix("multipart/vnd.")?;
    let (name, _suffix) = sub.split_once('+')?;
    let (_vendor, version) = name.rsplit_once(".v")?;
    let well_formed = version
        .split('.')
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    well_formed.then_some(version)
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const V1: &str = "multipart/vnd.ruckus.v1+form-data";
    const V2: &str = "multipart/vnd.ruckus.v2+form-data";

    /// An upload route whose multipart body is offered as `types`, answering `accept`.
    fn upload(id: &str, types: &[&str], accept: &str) -> Route {
        serde_json::from_value(json!({
            "id": id, "area": "files", "summary": id, "method": "POST", "path": "/files",
            "lifecycle": "stable", "provenance": "documented", "status": 200, "statuses": [200],
            "async": false, "reads": false, "path_params": [], "query": [], "headers": [],
            "request": {"kind": "multipart", "required": true, "types": types, "schema": null},
            "response": {"kind": "json", "media_type": accept, "types": [accept], "schema": {}},
            "versions": [], "paging": null, "error_family": "e", "service": "s",
            "family": "/files", "role": "create", "command": [id]
        }))
        .expect("a route")
    }

    fn status(r: Result<(), Refusal>) -> u16 {
        r.map_or_else(|e| e.status, |()| 200)
    }

    #[test]
    fn a_multipart_version_the_route_offers_is_taken_and_another_refused() {
        let route = upload("upload", &[V1, "multipart/form-data"], "application/json");
        let ct = |c: &str| status(content_type(&route, Some(c), true));
        assert_eq!(ct(&format!("{V1}; boundary=abc")), 200);
        assert_eq!(ct("Multipart/VND.Ruckus.V1+Form-Data; boundary=abc"), 200);
        assert_eq!(ct("multipart/form-data; boundary=abc"), 200);
        assert_eq!(ct(&format!("{V2}; boundary=abc")), 415);
        assert_eq!(ct("multipart/vnd.ruckus.v1.1+form-data"), 415);
        assert_eq!(ct("application/vnd.ruckus.v1+json"), 415);
        // A route offering only plain form data knows no versions.
        let plain = upload("plain", &["multipart/form-data"], "application/json");
        assert_eq!(status(content_type(&plain, Some(V1), true)), 415);
        assert_eq!(
            status(content_type(&plain, Some("multipart/mixed"), true)),
            200
        );
    }

    #[test]
    fn the_multipart_version_picks_the_route_version() {
        let v1 = upload("upload_v1", &[V1], "application/vnd.ruckus.v1+json");
        let v2 = upload("upload_v2", &[V2], "application/vnd.ruckus.v2+json");
        let plain = upload("upload", &["multipart/form-data"], "application/json");
        let routes = [&plain, &v1, &v2];
        let picked = |ct: &str| pick(&routes, Some(ct), None).map(|r| r.id.as_str());
        assert_eq!(picked(&format!("{V2}; boundary=b")), Some("upload_v2"));
        assert_eq!(picked(V1), Some("upload_v1"));
        assert_eq!(picked("multipart/form-data; boundary=b"), Some("upload"));
        // A version no route has picks the first, whose check then refuses it.
        let v3 = "multipart/vnd.ruckus.v3+form-data";
        let first = pick(&routes, Some(v3), None).expect("a route");
        assert_eq!(first.id, "upload");
        assert_eq!(status(content_type(first, Some(v3), true)), 415);
    }

    #[test]
    fn only_well_formed_vendor_multipart_types_name_a_version() {
        assert_eq!(multipart_version(V1), Some("1"));
        assert_eq!(
            multipart_version("multipart/vnd.ruckus.v1.1+form-data"),
            Some("1.1")
        );
        assert_eq!(multipart_version("multipart/form-data"), None);
        assert_eq!(
            multipart_version("multipart/vnd.ruckus.beta+form-data"),
            None
        );
        assert_eq!(multipart_version("multipart/vnd.ruckus.v+form-data"), None);
    }
}
