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
    Err(Failed {
        retry_after: headers.get(RETRY_AFTER).cloned(),
        refused_token: token.filter(|_| status == 401),
        ..Failed::sent(api_error(status, &headers, body, req.family))
    })
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
