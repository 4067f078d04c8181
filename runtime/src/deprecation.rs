//! Deprecation signals in answers: the vendor's `Ruckus-Deprecated` and `Ruckus-Current-Version`
//! headers and the standard `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) ones.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use reqwest::header::HeaderMap;

/// Longest header value kept (a longer one is cut there): the values are short dates and
/// version names.
const MAX_VALUE: usize = 200;

/// What an answer says about the deprecation of the operation (or of the version of it that was
/// asked for): read with [`Response::deprecation`](crate::Response::deprecation). Each field is
/// the header's value as sent; `None` when the answer does not carry the header.
///
/// The client also says it once per operation and version per process, as a `WARN` event
/// (`operation`, `version`, `current_version`, `deprecation`, `sunset`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Deprecation {
    /// `Ruckus-Deprecated`: the vendor's mark of a deprecated endpoint (usually `true`).
    pub deprecated: Option<String>,
    /// `Ruckus-Current-Version`: the version to move to.
    pub current_version: Option<String>,
    /// `Deprecation`: since when it is deprecated (`@<seconds since 1970>`, an HTTP date, or
    /// `true`).
    pub deprecation: Option<String>,
    /// `Sunset`: the HTTP date after which it may stop answering.
    pub sunset: Option<String>,
}

impl Deprecation {
    /// The signals among `headers`, if there is any.
    pub(crate) fn of(headers: &HeaderMap) -> Option<Deprecation> {
        let value = |name: &str| {
            let text = headers.get(name)?.to_str().ok()?.trim();
            let end = text
                .char_indices()
                .nth(MAX_VALUE)
                .map_or(text.len(), |(i, _)| i);
            Some(text[..end].to_owned())
        };
        let found = Deprecation {
            deprecated: value("ruckus-deprecated"),
            current_version: value("ruckus-current-version"),
            deprecation: value("deprecation"),
            sunset: value("sunset"),
        };
        let any = found.deprecated.is_some()
            || found.current_version.is_some()
            || found.deprecation.is_some()
            || found.sunset.is_some();
        any.then_some(found)
    }

    /// The [`sunset`](Self::sunset) date, when it is a valid HTTP date.
    pub fn sunset_time(&self) -> Option<SystemTime> {
        httpdate::parse_http_date(self.sunset.as_deref()?).ok()
    }
}

/// The version a call asked for: the `v...` of a versioned media type
/// (`application/vnd.ruckus.v1.1+json` → `v1.1`), else `default` (the service's latest).
pub(crate) fn version_of(accept: &str) -> &str {
    accept
        .split([',', ';'])
        .next()
        .and_then(|media| media.trim().strip_prefix("application/vnd."))
        .and_then(|rest| rest.split_once('.'))
        .map(|(_, version)| version.split('+').next().unwrap_or(version))
        .filter(|version| version.starts_with('v'))
        .unwrap_or("default")
}

/// Says (WARN) that `operation` in `version` is deprecated, the first time in this process.
pub(crate) fn warn_once(operation: &str, version: &str, found: &Deprecation) {
    static SAID: OnceLock<Mutex<HashSet<(String, String)>>> = OnceLock::new();
    let first = SAID
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert((operation.to_owned(), version.to_owned()));
    if first {
        tracing::warn!(
            target: "ruckus_one_runtime",
            operation,
            version,
            current_version = found.current_version.as_deref(),
            deprecation = found.deprecation.as_deref(),
            sunset = found.sunset.as_deref(),
            "the service says this operation (in this version) is deprecated"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_headers() {
        assert_eq!(version_of("application/vnd.ruckus.v1.1+json"), "v1.1");
        assert_eq!(version_of("application/vnd.ruckus.v2+json; q=1"), "v2");
        assert_eq!(version_of("application/json"), "default");
        assert_eq!(version_of("application/vnd.ruckus+json"), "default");
        let mut headers = HeaderMap::new();
        assert_eq!(Deprecation::of(&headers), None);
        headers.insert(
            "sunset",
            "Sun, 01 Mar 2026 00:00:00 GMT".parse().expect("value"),
        );
        let found = Deprecation::of(&headers).expect("found");
        assert!(found.sunset_time().is_some());
        assert_eq!(found.deprecated, None);
    }
}
