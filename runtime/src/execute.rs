//! Sending a prepared request: token, attempts, retries, error decoding.

use std::sync::Arc;

use bytes::Bytes;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue, RETRY_AFTER};

use crate::auth::Token;
use crate::client::{Client, Shared};
use crate::error::{ApiError, Error};
use crate::error_body;
use crate::operation::{ApiAuth, ErrorFamily, Method};
use crate::response::RawResponse;

/// A request ready to be sent (and re-sent): everything but the
/// `Authorization` header.
pub(crate) struct Prepared {
    pub(crate) method: Method,
    pub(crate) url: String,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Option<Bytes>,
    pub(crate) family: ErrorFamily,
    pub(crate) auth: ApiAuth,
    /// Name of the API, for error messages.
    pub(crate) api: &'static str,
}

/// How one attempt failed.
struct Failed {
    error: Error,
    /// Whether the request was sent. When no access token could be obtained
    /// nothing reached the API, so any method may try again.
    sent: bool,
    /// The answer's `Retry-After` header.
    retry_after: Option<HeaderValue>,
    /// The access token the API refused with `401`.
    refused_token: Option<Arc<Token>>,
}

impl Failed {
    fn unsent(error: Error) -> Failed {
        Failed {
            error,
            sent: false,
            retry_after: None,
            refused_token: None,
        }
    }

    fn sent(error: Error) -> Failed {
        Failed {
            sent: true,
            ..Failed::unsent(error)
        }
    }
}

/// Sends `req`, repeating it as the retry policy allows and once more with a
/// fresh token after a `401`.
pub(crate) async fn execute(client: &Client, req: Prepared) -> Result<RawResponse, Error> {
    let shared = client.shared();
    let policy = &shared.config.retry;
    let attempts = policy.attempts();
    let idempotent = req.method.is_idempotent();
    let mut failed = 0u32;
    let mut renewed_token = false;
    let unit_token = match req.auth {
        ApiAuth::ClientCredentials => None,
        ApiAuth::UnitToken => Some(unit_token_header(client, req.api)?),
    };
    loop {
        let failure = match attempt(shared, &req, unit_token.as_ref()).await {
            Ok(response) => return Ok(response),
            Err(failure) => failure,
        };
        if let (Some(token), false) = (&failure.refused_token, renewed_token) {
            renewed_token = true;
            shared.tokens.invalidate(token);
            continue;
        }
        failed += 1;
        let retryable = failure
            .error
            .failure()
            .is_some_and(|f| f.is_retryable(idempotent || !failure.sent));
        if retryable && failed < attempts {
            let retry_after = failure.retry_after.as_ref().and_then(|v| v.to_str().ok());
            tokio::time::sleep(policy.delay(failed, retry_after)).await;
            continue;
        }
        return Err(failure.error);
    }
}

/// Obtains the token if needed and sends `req` once.
async fn attempt(
    shared: &Shared,
    req: &Prepared,
    unit_token: Option<&HeaderValue>,
) -> Result<RawResponse, Failed> {
    let token = match unit_token {
        Some(_) => None,
        None => Some(
            shared
                .tokens
                .get(&shared.http)
                .await
                .map_err(Failed::unsent)?,
        ),
    };
    let mut headers = req.headers.clone();
    if let Some(value) = token.as_ref().map(|t| t.header()).or(unit_token) {
        headers.insert(AUTHORIZATION, value.clone());
    }
    let mut builder = shared
        .http
        .request(req.method.to_reqwest(), &req.url)
        .headers(headers)
        .timeout(shared.config.request_timeout);
    if let Some(body) = &req.body {
        builder = builder.body(body.clone());
    }
    let outcome = async {
        let response = builder.send().await?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.bytes().await?;
        Ok::<_, reqwest::Error>((status, headers, body))
    }
    .await;
    let (status, headers, body) = outcome.map_err(|e| Failed::sent(Error::from_reqwest(e)))?;
    if (200..300).contains(&status) {
        return Ok(RawResponse::new(status, headers, body));
    }
    let body = mask_secrets(body, shared, token.as_deref(), unit_token);
    Err(Failed {
        retry_after: headers.get(RETRY_AFTER).cloned(),
        refused_token: token.filter(|_| status == 401),
        ..Failed::sent(api_error(status, &headers, body, req.family))
    })
}

/// Secrets shorter than this are not searched for in error bodies (they
/// would match ordinary text).
const MIN_MASKED_LEN: usize = 6;

/// `body` with every occurrence of the client secret, the access token and
/// the unit token replaced by `***`, should a service or proxy echo one in
/// an error answer; `body` itself when none occurs.
fn mask_secrets(
    body: Bytes,
    shared: &Shared,
    token: Option<&Token>,
    unit_token: Option<&HeaderValue>,
) -> Bytes {
    let bearer = |value: &HeaderValue| {
        value
            .as_bytes()
            .strip_prefix(b"Bearer ")
            .map(<[u8]>::to_vec)
    };
    let secrets = [
        Some(
            shared
                .config
                .credentials
                .client_secret()
                .expose()
                .as_bytes()
                .to_vec(),
        ),
        token.and_then(|t| bearer(t.header())),
        unit_token.and_then(bearer),
    ];
    let mut masked: Option<Vec<u8>> = None;
    for secret in secrets.iter().flatten() {
        if secret.len() < MIN_MASKED_LEN {
            continue;
        }
        let current = masked.as_deref().unwrap_or(&body);
        if let Some(replaced) = replace_all(current, secret, b"***") {
            masked = Some(replaced);
        }
    }
    masked.map_or(body, Bytes::from)
}

/// `haystack` with every `needle` replaced by `with`; `None` when there is
/// none.
fn replace_all(haystack: &[u8], needle: &[u8], with: &[u8]) -> Option<Vec<u8>> {
    let find = |hay: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let mut at = find(haystack)?;
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    loop {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(with);
        rest = &rest[at + needle.len()..];
        match find(rest) {
            Some(next) => at = next,
            None => break,
        }
    }
    out.extend_from_slice(rest);
    Some(out)
}

/// `Bearer <unit token>` from the configuration, marked sensitive.
fn unit_token_header(client: &Client, api: &str) -> Result<reqwest::header::HeaderValue, Error> {
    let missing = || Error::Auth {
        status: None,
        message: format!(
            "operations of the `{api}` API need a token: set it with Config::unit_token"
        ),
    };
    let secret = client
        .shared()
        .config
        .unit_token
        .as_ref()
        .ok_or_else(missing)?;
    let mut value = reqwest::header::HeaderValue::from_str(&format!("Bearer {}", secret.expose()))
        .map_err(|_| Error::InvalidRequest {
            message: "the unit token contains characters not allowed in a header".to_owned(),
        })?;
    value.set_sensitive(true);
    Ok(value)
}

fn api_error(status: u16, headers: &HeaderMap, raw: Bytes, family: ErrorFamily) -> Error {
    let (body, body_request_id) = error_body::decode(family, &raw);
    let request_id = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or(body_request_id);
    Error::Api(ApiError::new(status, request_id, body, raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_every_occurrence() {
        assert_eq!(
            replace_all(b"a SECRET b SECRETSECRET", b"SECRET", b"***").as_deref(),
            Some(&b"a *** b ******"[..])
        );
        assert_eq!(replace_all(b"nothing here", b"SECRET", b"***"), None);
        assert_eq!(replace_all(b"SEC", b"SECRET", b"***"), None);
    }
}
