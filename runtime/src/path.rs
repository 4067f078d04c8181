//! Building request URLs: path templates, percent-encoding, query strings.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

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

/// [`join`] into a string with `room` more bytes of capacity (for a query), in one allocation.
pub(crate) fn join_with_room(base: &str, path: &str, room: usize) -> String {
    let base = base.trim_end_matches('/');
    let mut url = String::with_capacity(base.len() + 1 + path.len() + room);
    url.push_str(base);
    if !path.is_empty() {
        if !path.starts_with('/') {
            url.push('/');
        }
        url.push_str(path);
    }
    url
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
