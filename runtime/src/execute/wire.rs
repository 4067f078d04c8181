//! The exchange itself, traced at `TRACE` under the target `ruckus_one_runtime::wire`: the
//! request's headers and body as sent, the answer's status, headers and body as read. Every
//! text goes through the token's redactor and the `Authorization` header is never shown; the
//! events cost nothing unless a subscriber asks for that target.

use reqwest::header::{AUTHORIZATION, HeaderMap};

use crate::redact::Redactor;

/// Whether a subscriber wants the exchange.
pub(super) fn wanted() -> bool {
    tracing::enabled!(target: "ruckus_one_runtime::wire", tracing::Level::TRACE)
}

/// `url` as traces show it: percent-decoded, then through `redactor` (a secret in a path
/// parameter is percent-encoded in the URL, a form the redactor would not see through).
pub(super) fn shown_url(url: &str, redactor: &Redactor) -> String {
    let decoded = percent_encoding::percent_decode_str(url).decode_utf8_lossy();
    redactor.text(&decoded)
}

/// The headers as one text, `Authorization` masked, the rest through `redactor`.
fn headers_text(headers: &HeaderMap, redactor: &Redactor) -> String {
    let mut text = String::new();
    for (name, value) in headers {
        let shown = if name == AUTHORIZATION {
            "***".to_owned()
        } else {
            redactor.text(&String::from_utf8_lossy(value.as_bytes()))
        };
        text.push_str(&format!("{name}: {shown}\n"));
    }
    text
}

/// A body as traces show it: a JSON body with every string (and key) redacted after its
/// escapes are read, so that an echo written with JSON escapes is found too; any other body
/// redacted as text.
fn body_text(body: Option<&[u8]>, redactor: &Redactor) -> String {
    let Some(body) = body else {
        return String::new();
    };
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(value) => redactor.text(&redactor.value(value).to_string()),
        Err(_) => redactor.text(&String::from_utf8_lossy(body)),
    }
}

/// Traces the request about to be sent.
pub(super) fn request(request: &reqwest::Request, redactor: &Redactor) {
    let body = request.body().and_then(reqwest::Body::as_bytes);
    tracing::trace!(
        target: "ruckus_one_runtime::wire",
        method = %request.method(),
        url = %shown_url(request.url().as_str(), redactor),
        headers = %headers_text(request.headers(), redactor),
        body = %body_text(body, redactor),
        "request"
    );
}

/// Traces the answer as read.
pub(super) fn response(status: u16, headers: &HeaderMap, body: &[u8], redactor: &Redactor) {
    tracing::trace!(
        target: "ruckus_one_runtime::wire",
        status,
        headers = %headers_text(headers, redactor),
        body = %body_text(Some(body), redactor),
        "response"
    );
}
