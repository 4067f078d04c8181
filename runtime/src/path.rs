//! Building request URLs: path templates, percent-encoding, query strings.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::Url;

/// Everything except the unreserved characters of RFC 3986
/// (`ALPHA DIGIT - . _ ~`) is percent-encoded.
const NOT_UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes `value` so that it is a single path segment or a single
/// query component.
pub(crate) fn encode_component(value: &str) -> String {
    utf8_percent_encode(value, NOT_UNRESERVED).to_string()
}

/// Encodes a path parameter as exactly one segment.
///
/// Empty values are refused, and so are `.` and `..`: their encoded forms
/// `%2E` and `%2E%2E` are dot segments for URL parsers (the WHATWG URL
/// standard, which the HTTP stack follows, removes them together with the
/// preceding segment), so no spelling of them can reach the server unchanged.
/// It is appended to `out`, without an allocation of its own.
fn push_segment(out: &mut String, name: &str, value: &str) -> Result<(), String> {
    match value {
        "" => Err(format!("path parameter `{name}` is empty")),
        "." | ".." => Err(format!(
            "path parameter `{name}` is `{value}`, which cannot be sent as a path segment"
        )),
        _ => {
            out.extend(utf8_percent_encode(value, NOT_UNRESERVED));
            Ok(())
        }
    }
}

/// Replaces the `{name}` placeholders of `template` with `params`, in order.
pub(crate) fn expand(template: &str, params: &[&str]) -> Result<String, String> {
    // Room for the values as they are (most need no encoding): one allocation.
    let values: usize = params.iter().map(|p| p.len()).sum();
    let mut out = String::with_capacity(template.len() + values);
    let mut params = params.iter();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(format!(
                "unterminated placeholder in path template `{template}`"
            ));
        };
        let name = &after[..close];
        let Some(value) = params.next() else {
            return Err(format!("missing value for path parameter `{name}`"));
        };
        push_segment(&mut out, name, value)?;
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    if params.next().is_some() {
        return Err(format!(
            "more path parameters than placeholders in `{template}`"
        ));
    }
    Ok(out)
}

/// Joins a base URL (which may end with `/`) and a path (which should start
/// with `/`).
pub(crate) fn join(base: &str, path: &str) -> String {
    let base = base.trim_end_matches('/');
    if path.is_empty() {
        base.to_owned()
    } else if path.starts_with('/') {
        format!("{base}{path}")
    } else {
        format!("{base}/{path}")
    }
}

/// A base URL (host and API prefix) that request URLs are built on, parsed once.
///
/// A request URL is the base URL's text followed by the request's path and query, parsed as
/// one URL. Parsing it whole each call parses the host again (a third of a small call's
/// client-side work), so a request URL is resolved instead as a path-absolute reference against
/// the parsed base (the base's path prefix, then the request's path and query): the URL standard
/// takes scheme, host and port from the base and parses the rest exactly as in the whole text.
/// Where the two could differ (a base with a query or fragment, a reference that would start with
/// `//`, which names a host), the whole text is parsed.
pub(crate) struct BaseUrl {
    /// As configured, without a trailing slash.
    text: String,
    /// Parsed, and the length of its path without the trailing slash; `None` when the base has a
    /// query or fragment.
    parsed: Option<(Url, usize)>,
}

impl BaseUrl {
    pub(crate) fn new(text: String) -> BaseUrl {
        let parsed = Url::parse(&text)
            .ok()
            .filter(|url| url.query().is_none() && url.fragment().is_none())
            .map(|url| {
                let prefix = url.path().trim_end_matches('/').len();
                (url, prefix)
            });
        BaseUrl { text, parsed }
    }

    /// The URL of `path` (below the base, as [`join`] joins them) with `query` (encoded, without
    /// `?`; added with `&` when `path` already has a query).
    pub(crate) fn request_url(&self, path: &str, query: &str) -> Result<Url, String> {
        let tail_room = path.len() + 2 + query.len();
        let Some((base, prefix)) = &self.parsed else {
            return parse_whole(&self.text, path, query, tail_room);
        };
        let mut reference = String::with_capacity(prefix + tail_room);
        reference.push_str(&base.path()[..*prefix]);
        push_tail(&mut reference, path, query);
        // A reference starting with `//` (or what the parser reads as `//`: a backslash, or a
        // tab or newline it skips) would name a host.
        let names_host = reference.strip_prefix('/').is_some_and(|rest| {
            rest.trim_start_matches(['\t', '\n', '\r'])
                .starts_with(['/', '\\'])
        });
        if names_host {
            return parse_whole(&self.text, path, query, tail_room);
        }
        base.join(&reference).map_err(|e| {
            format!(
                "`{}{}` is not a valid URL: {e}",
                self.text,
                &reference[*prefix..]
            )
        })
    }
}

/// `path` (with a leading `/` when it has none) and `query` (after `?`, or `&` when `path`
/// already has a query) appended to `out`.
fn push_tail(out: &mut String, path: &str, query: &str) {
    if !path.is_empty() {
        if !path.starts_with('/') {
            out.push('/');
        }
        out.push_str(path);
    }
    if !query.is_empty() {
        out.push(if path.contains('?') { '&' } else { '?' });
        out.push_str(query);
    }
}

/// The URL of the base's text, `path` and `query`, parsed whole.
fn parse_whole(base: &str, path: &str, query: &str, room: usize) -> Result<Url, String> {
    let mut text = String::with_capacity(base.len() + room);
    text.push_str(base);
    push_tail(&mut text, path, query);
    Url::parse(&text).map_err(|e| format!("`{text}` is not a valid URL: {e}"))
}

/// Fills a token URL template: `{host}` with the host (without trailing
/// slash) and `{tenant_id}` with the encoded tenant id.
pub(crate) fn fill_token_url(template: &str, host: &str, tenant_id: Option<&str>) -> String {
    let host = host.trim_end_matches('/');
    let url = template.replace("{host}", host);
    match tenant_id {
        Some(tenant) => url.replace("{tenant_id}", &encode_component(tenant)),
        None => url,
    }
}

/// Checks that a configured URL is absolute http(s) and parseable.
pub(crate) fn check_base_url(what: &str, url: &str) -> Result<(), String> {
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return Err(format!(
            "{what} `{url}` must start with http:// or https://"
        ));
    }
    reqwest::Url::parse(url)
        .map(|_| ())
        .map_err(|e| format!("{what} `{url}` is not a valid URL: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_fully_encoded() {
        assert_eq!(encode_component("a/../b"), "a%2F..%2Fb");
        assert_eq!(encode_component("a b?c#d%e"), "a%20b%3Fc%23d%25e");
        assert_eq!(encode_component("AZaz09-._~"), "AZaz09-._~");
        assert_eq!(encode_component("é"), "%C3%A9");
        assert_eq!(encode_component("x\r\ny"), "x%0D%0Ay");
    }

    #[test]
    fn expands_in_order() {
        assert_eq!(
            expand("/venues/{venueId}/aps/{serial}", &["v 1", "s/2"]).unwrap(),
            "/venues/v%201/aps/s%2F2"
        );
        assert_eq!(expand("/plain", &[]).unwrap(), "/plain");
    }

    #[test]
    fn refuses_bad_values_and_counts() {
        assert!(expand("/a/{id}", &[""]).unwrap_err().contains("empty"));
        assert!(expand("/a/{id}", &[".."]).is_err());
        assert!(expand("/a/{id}", &["."]).is_err());
        assert!(expand("/a/{id}", &[]).unwrap_err().contains("missing"));
        assert!(expand("/a/{id}", &["x", "y"]).is_err());
        assert!(expand("/a/{id", &["x"]).is_err());
        assert_eq!(expand("/a/{id}", &["..."]).unwrap(), "/a/...");
    }

    #[test]
    fn joins() {
        assert_eq!(join("http://h/ai/", "/x"), "http://h/ai/x");
        assert_eq!(join("http://h", "x"), "http://h/x");
        assert_eq!(join("http://h/", ""), "http://h");
    }

    #[test]
    fn request_urls() {
        let url = |base: &str, path, query| {
            BaseUrl::new(base.to_owned())
                .request_url(path, query)
                .map(String::from)
        };
        assert_eq!(
            url("http://h:8/ai", "/x/%20y", "a=1").unwrap(),
            "http://h:8/ai/x/%20y?a=1"
        );
        assert_eq!(
            url("https://h", "x?b=2", "a=1").unwrap(),
            "https://h/x?b=2&a=1"
        );
        assert_eq!(url("https://h", "", "a=1").unwrap(), "https://h/?a=1");
        // The path cannot move the call to another host.
        assert_eq!(url("https://h", "//e/x", "").unwrap(), "https://h//e/x");
        assert_eq!(url("https://h", "/\\e/x", "").unwrap(), "https://h//e/x");
        assert_eq!(url("https://h", "/\t/e", "").unwrap(), "https://h//e");
        assert!(url("https://h", "/x", "").is_ok());
    }

    proptest::proptest! {
        /// Resolving against the parsed base gives the URL that parsing the whole text gives.
        #[test]
        fn request_url_is_the_whole_text_parsed(
            base in proptest::sample::select(vec![
                "http://127.0.0.1:9", "https://api.ruckus.cloud", "https://h/ai", "https://h/a%20b/",
                "http://h/?q=1", "https://user@h/p#f",
            ]),
            path in "[/\\\\?#%. a-z\t\n\u{e9}]{0,12}",
            query in "[=&a-z%#?]{0,6}",
        ) {
            let base = base.trim_end_matches('/');
            let built = BaseUrl::new(base.to_owned()).request_url(&path, &query);
            let mut text = base.to_owned();
            push_tail(&mut text, &path, &query);
            let whole = Url::parse(&text);
            proptest::prop_assert_eq!(built.ok(), whole.ok(), "{}", text);
        }
    }

    #[test]
    fn token_url() {
        assert_eq!(
            fill_token_url("{host}/oauth2/token/{tenant_id}", "https://h/", Some("t/1")),
            "https://h/oauth2/token/t%2F1"
        );
        assert_eq!(
            fill_token_url("{host}/oauth2/token", "https://h", None),
            "https://h/oauth2/token"
        );
    }

    #[test]
    fn base_url_check() {
        assert!(check_base_url("x", "http://127.0.0.1:1/a").is_ok());
        assert!(check_base_url("x", "ftp://h").is_err());
        assert!(check_base_url("x", "http://").is_err());
    }
}
