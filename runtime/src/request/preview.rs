//! A request as it would be sent, without sending it: what `ruckus --dry-run` prints.

use super::*;

/// What a call would send, built exactly as sending builds it (path encoding and its refusals,
/// query, media version, body, tenant, the runtime's headers) and never sent. The access token
/// is not asked for: `Authorization` shows `Bearer ***`, and any secret of the client is masked
/// in the headers and the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The HTTP method.
    pub method: Method,
    /// The whole URL, query included.
    pub url: String,
    /// Every header as sent, by lower-case name.
    pub headers: Vec<(String, String)>,
    /// The body as sent, when there is one (a binary body's bytes, as lossy UTF-8).
    pub body: Option<String>,
}

impl Request<'_> {
    /// The request this call would send; the same error as sending it when it cannot be built.
    pub fn preview(self) -> Result<Preview, Error> {
        let client = self.client;
        let prepared = self.prepare()?;
        let mut headers = HeaderMap::new();
        let masked = HeaderValue::from_static("Bearer ***");
        execute::fill_headers(&mut headers, client.shared(), &prepared, masked);
        let redactor = client.redactor();
        let headers = headers
            .iter()
            .map(|(name, value)| {
                let text = String::from_utf8_lossy(value.as_bytes());
                (name.as_str().to_owned(), redactor.text(&text))
            })
            .collect();
        let body = prepared
            .body
            .as_ref()
            .map(|b| redactor.text(&String::from_utf8_lossy(b)));
        Ok(Preview {
            method: prepared.method,
            url: prepared.url.to_string(),
            headers,
            body,
        })
    }
}
