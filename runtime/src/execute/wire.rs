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

fn body_text(body: Option<&[u8]>, redactor: &Redactor) -> String {
    body.map(|b| redactor.text(&String::from_utf8_lossy(b)))
        .unwrap_or_default()
}

/// Traces the request about to be sent.
pub(super) fn request(request: &reqwest::Request, redactor: &Redactor) {
    let body = request.body().and_then(reqwest::Body::as_bytes);
    tracing::trace!(
        target: "ruckus_one_runtime::wire",
        method = %request.method(),
        url = %redactor.text(request.url().as_str()),
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
