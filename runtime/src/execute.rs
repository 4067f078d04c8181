//! Sending a prepared request: token, attempts, retries, error decoding.

use bytes::Bytes;
use reqwest::header::{AUTHORIZATION, HeaderMap, RETRY_AFTER};

use crate::client::Client;
use crate::error::{ApiError, Error};
use crate::error_body;
use crate::operation::{ApiAuth, ErrorFamily, Method};
use crate::response::RawResponse;
use crate::retry::status_is_retryable;

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

/// Sends `req`, repeating it as the retry policy allows and once more with a
/// fresh token after a `401`.
pub(crate) async fn execute(client: &Client, req: Prepared) -> Result<RawResponse, Error> {
    let shared = client.shared();
    let policy = &shared.config.retry;
    let attempts = policy.attempts();
    let idempotent = req.method.is_idempotent();
    let method = req.method.to_reqwest();
    let mut failed = 0u32;
    let mut renewed_token = false;
    let unit_token = match req.auth {
        ApiAuth::ClientCredentials => None,
        ApiAuth::UnitToken => Some(unit_token_header(client, req.api)?),
    };
    loop {
        let token = match &unit_token {
            Some(_) => None,
            None => Some(match shared.tokens.get(&shared.http).await {
                Ok(token) => token,
                Err(err) => {
                    // Nothing reached the API yet, so any method may try again.
                    failed += 1;
                    if matches!(err, Error::Transport(_) | Error::Timeout) && failed < attempts {
                        tokio::time::sleep(policy.delay(failed, None)).await;
                        continue;
                    }
                    return Err(err);
                }
            }),
        };
        let mut headers = req.headers.clone();
        match (&token, &unit_token) {
            (Some(token), _) => headers.insert(AUTHORIZATION, token.header().clone()),
            (None, Some(unit)) => headers.insert(AUTHORIZATION, unit.clone()),
            (None, None) => None,
        };
        let mut builder = shared
            .http
            .request(method.clone(), &req.url)
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
        let (status, headers, body) = match outcome {
            Ok(parts) => parts,
            Err(err) => {
                let err = Error::from_reqwest(err);
                failed += 1;
                if idempotent && err.is_retryable() && failed < attempts {
                    tokio::time::sleep(policy.delay(failed, None)).await;
                    continue;
                }
                return Err(err);
            }
        };
        if (200..300).contains(&status) {
            return Ok(RawResponse::new(status, headers, body));
        }
        if let (401, false, Some(token)) = (status, renewed_token, &token) {
            renewed_token = true;
            shared.tokens.invalidate(token);
            continue;
        }
        failed += 1;
        if status_is_retryable(status, idempotent) && failed < attempts {
            let retry_after = headers.get(RETRY_AFTER).and_then(|v| v.to_str().ok());
            tokio::time::sleep(policy.delay(failed, retry_after)).await;
            continue;
        }
        return Err(api_error(status, &headers, body, req.family));
    }
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
