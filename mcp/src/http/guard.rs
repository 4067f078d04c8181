//! What every request passes first: its `Origin` and `Host` (`origin.rs`), the bearer token
//! when one is set; and the status of a session's `DELETE` (204: rmcp answers 202, which
//! clients read as a failure to end the session).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use subtle::ConstantTimeEq;

use super::origin::Allowed;

/// The token HTTP clients must send (`Authorization: Bearer <token>`); never shown.
#[derive(Clone)]
pub struct BearerToken(Arc<str>);

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(***)")
    }
}

impl BearerToken {
    /// `None` for an empty token (it would admit a bare `Bearer `).
    pub fn new(token: &str) -> Option<BearerToken> {
        let token = token.trim();
        (!token.is_empty()).then(|| BearerToken(token.into()))
    }

    /// Whether `authorization` is `Bearer <this token>` (the scheme in any case), compared in
    /// constant time.
    fn admits(&self, authorization: Option<&HeaderValue>) -> bool {
        let Some(value) = authorization.map(HeaderValue::as_bytes) else {
            return false;
        };
        let Some((scheme, sent)) = value.split_at_checked(7) else {
            return false;
        };
        scheme.eq_ignore_ascii_case(b"bearer ") && bool::from(sent.ct_eq(self.0.as_bytes()))
    }
}

/// What the guard admits.
#[derive(Debug, Clone)]
pub(super) struct Gate {
    pub token: Option<BearerToken>,
    pub allowed: Allowed,
}

/// Refuses a request from another origin or host (403) or without the token (401), then
/// maps a `DELETE`'s 202 to 204.
pub(super) async fn guard(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let origin = headers.get(ORIGIN).map(HeaderValue::as_bytes);
    let host = headers.get(HOST).map(HeaderValue::as_bytes);
    if let Some(refusal) = gate.allowed.refusal(origin, host) {
        tracing::warn!("refused a request: {refusal}");
        let mut refused = Response::new(Body::from(refusal));
        *refused.status_mut() = StatusCode::FORBIDDEN;
        return refused;
    }
    if gate
        .token
        .as_ref()
        .is_some_and(|t| !t.admits(request.headers().get(AUTHORIZATION)))
    {
        let mut refused = Response::new(Body::from("a bearer token is required"));
        *refused.status_mut() = StatusCode::UNAUTHORIZED;
        refused
            .headers_mut()
            .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return refused;
    }
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        let (mut parts, _) = response.into_parts();
        parts.status = StatusCode::NO_CONTENT;
        response = Response::from_parts(parts, Body::empty());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::BearerToken;
    use axum::http::HeaderValue;

    #[test]
    fn only_the_same_token_is_admitted() {
        let token = BearerToken::new("s3cret").expect("token");
        let admits = |v: &str| token.admits(Some(&HeaderValue::from_str(v).expect("value")));
        assert!(admits("Bearer s3cret"));
        assert!(admits("bearer s3cret"));
        assert!(!admits("Bearer s3cre"));
        assert!(!admits("Bearer s3cretX"));
        assert!(!admits("Basic s3cret"));
        assert!(!admits("Bearer"));
        assert!(!token.admits(None));
        assert!(BearerToken::new("  ").is_none());
        assert_eq!(format!("{token:?}"), "BearerToken(***)");
    }
}
