//! Sending a prepared request: token, attempts, retries, error decoding.

use bytes::Bytes;
use reqwest::header::{AUTHORIZATION, HeaderMap, RETRY_AFTER};

use crate::client::Client;
use crate::error::{ApiError, Error};
use crate::error_body;
use crate::operation::{ErrorFamily, Method};
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
    loop {
        let token = match shared.tokens.get(&shared.http).await {
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
        };
        let mut headers = req.headers.clone();
        headers.insert(AUTHORIZATION, token.header().clone());
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
        if status == 401 && !renewed_token {
            renewed_token = true;
            shared.tokens.invalidate(&token);
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

fn api_error(status: u16, headers: &HeaderMap, raw: Bytes, family: ErrorFamily) -> Error {
    let (body, body_request_id) = error_body::decode(family, &raw);
    let request_id = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or(body_request_id);
    Error::Api(ApiError::new(status, request_id, body, raw))
}
