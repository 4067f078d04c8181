//! OAuth 2 client-credentials tokens: fetching, caching, single-flight
//! renewal.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use arc_swap::ArcSwapOption;
use bytes::Bytes;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderValue, RETRY_AFTER, USER_AGENT};
use serde_json::Value;

use crate::body::read_limited;
use crate::config::Credentials;
use crate::deadline::Deadline;
use crate::error::{Error, one_line, snippet};
use crate::error_body;
use crate::operation::ErrorFamily;
use crate::redact::{Needles, Redactor};
use crate::retry::{RetryPolicy, parse_retry_after};
use crate::secret::Secret;

/// Lifetime assumed when the token response has no usable `expires_in`
/// (missing or not a number). Zero or negative means the token must be
/// renewed at once.
const DEFAULT_LIFETIME: Duration = Duration::from_secs(3600);

/// The refresh margin is at most this fraction of a token's lifetime.
const MARGIN_DIVISOR: u32 = 10;

/// Largest token endpoint answer read; a token answer is a few KiB at most.
const TOKEN_BODY_LIMIT: usize = 64 * 1024;

/// A cached access token.
pub(crate) struct Token {
    /// `Bearer <token>`, marked sensitive.
    header: HeaderValue,
    /// When the token is replaced: its expiry less the refresh margin.
    renew_at: Instant,
    /// The forms this token is searched for in texts from the service.
    needles: Needles,
    /// The lifetime the token endpoint gave (or the one assumed).
    lifetime: Duration,
    /// How long after it was requested the token is used.
    reused_for: Duration,
}

impl Token {
    fn usable(&self) -> bool {
        Instant::now() < self.renew_at
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// The token in use, with what every call sent with it needs.
struct Current {
    token: Token,
    /// Tells this token from those before and after it.
    id: u64,
    /// The redactor of the secrets live when it was obtained (this token included).
    redactor: Redactor,
}

/// What one attempt takes from the token in use.
pub(crate) struct Lease {
    /// `Bearer <token>`, marked sensitive.
    pub(crate) header: HeaderValue,
    /// Which token it is, to forget it if the API refuses it.
    pub(crate) id: u64,
    /// Masks this token, those before it and the configured secrets.
    pub(crate) redactor: Redactor,
}

impl Current {
    fn lease(&self) -> Lease {
        Lease {
            header: self.token.header.clone(),
            id: self.id,
            redactor: self.redactor.clone(),
        }
    }
}

/// Obtains access tokens and shares them between all clones of a client.
pub(crate) struct TokenSource {
    url: String,
    credentials: Credentials,
    margin: Duration,
    timeout: Duration,
    /// Read by every call without a lock, so concurrent callers on different cores do not
    /// wait for each other.
    current: ArcSwapOption<Current>,
    /// The id of the next token obtained.
    next_id: AtomicU64,
    /// Held while a token is being fetched, so that concurrent callers wait
    /// for that one request instead of sending their own.
    fetching: tokio::sync::Mutex<()>,
    /// A `User-Agent` to send (with a caller-built client).
    user_agent: Option<HeaderValue>,
    /// The needles of the client secret and the unit token.
    configured: Vec<Needles>,
    /// The secrets that are live now, and the redactor masking them.
    live: Mutex<Live>,
}

/// How many access tokens are masked: the current one and those before it
/// (a call sent with a token may be answered after it was replaced).
const LIVE_TOKENS: usize = 3;

/// The latest access tokens, and a redactor for them and the configured
/// secrets.
struct Live {
    tokens: VecDeque<Needles>,
    redactor: Redactor,
}

impl fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenSource")
            .field("url", &self.url)
            .field("client_id", &self.credentials.client_id())
            .finish_non_exhaustive()
    }
}

impl TokenSource {
    pub(crate) fn new(
        url: String,
        credentials: Credentials,
        margin: Duration,
        timeout: Duration,
        user_agent: Option<HeaderValue>,
        unit_token: Option<&Secret>,
    ) -> Self {
        let configured: Vec<Needles> = [Some(credentials.client_secret()), unit_token]
            .into_iter()
            .flatten()
            .map(|secret| Needles::of(secret.expose()))
            .collect();
        let redactor = Redactor::of_needles(&configured);
        TokenSource {
            configured,
            live: Mutex::new(Live {
                tokens: VecDeque::new(),
                redactor,
            }),
            url,
            credentials,
            margin,
            timeout,
            current: ArcSwapOption::empty(),
            next_id: AtomicU64::new(0),
            fetching: tokio::sync::Mutex::new(()),
            user_agent,
        }
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The redactor of every live secret: the client secret, the unit
    /// token and the latest access tokens. Every text from the service that
    /// the client keeps, shows or traces goes through it.
    pub(crate) fn redactor(&self) -> Redactor {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.redactor.clone()
    }

    /// Adds `token` to the live secrets; the redactor of them all.
    fn remember(&self, token: &Token) -> Redactor {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.tokens.push_front(token.needles.clone());
        live.tokens.truncate(LIVE_TOKENS);
        live.redactor = Redactor::of_needles(self.configured.iter().chain(&live.tokens));
        live.redactor.clone()
    }

    /// The current token, when it is not about to expire.
    pub(crate) fn cached(&self) -> Option<Lease> {
        let current = self.current.load();
        current
            .as_deref()
            .filter(|c| c.token.usable())
            .map(Current::lease)
    }

    /// A token that is not about to expire, fetching one if needed. However
    /// many callers arrive at once, only one token request is in flight.
    /// Token requests are repeated as `policy` says (on `429`, `500`,
    /// `502`, `503`, `504`, timeouts and transport errors), each getting at
    /// most the time left before `deadline`.
    pub(crate) async fn get(
        &self,
        http: &reqwest::Client,
        deadline: &Deadline,
        policy: &RetryPolicy,
    ) -> Result<Lease, Error> {
        if let Some(lease) = self.cached() {
            return Ok(lease);
        }
        let _guard = self.fetching.lock().await;
        if let Some(lease) = self.cached() {
            return Ok(lease);
        }
        let token = self.fetch_with_retries(http, deadline, policy).await?;
        let current = Current {
            redactor: self.remember(&token),
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            token,
        };
        let lease = current.lease();
        self.current.store(Some(Arc::new(current)));
        Ok(lease)
    }

    async fn fetch_with_retries(
        &self,
        http: &reqwest::Client,
        deadline: &Deadline,
        policy: &RetryPolicy,
    ) -> Result<Token, Error> {
        let mut failed = 0u32;
        loop {
            tracing::debug!(
                target: "ruckus_one_runtime",
                url = %self.url,
                attempt = failed + 1,
                "requesting an access token"
            );
            let refusal = match self.fetch(http, deadline).await {
                Ok(token) => {
                    tracing::debug!(
                        target: "ruckus_one_runtime",
                        lifetime_s = token.lifetime.as_secs(),
                        reused_for_s = token.reused_for.as_secs(),
                        "access token obtained"
                    );
                    return Ok(token);
                }
                Err(refusal) => refusal,
            };
            failed += 1;
            let reason = failure_reason(&refusal.error);
            if refusal.retryable && failed < policy.attempts() {
                match policy.delay(failed, refusal.retry_after) {
                    Some(wait) if deadline.allows_wait(wait) => {
                        tracing::info!(
                            target: "ruckus_one_runtime",
                            attempt = failed,
                            delay_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                            reason = %reason,
                            "retrying the access token request"
                        );
                        tokio::time::sleep(wait).await;
                        continue;
                    }
                    _ => {}
                }
            }
            tracing::warn!(
                target: "ruckus_one_runtime",
                attempts = failed,
                reason = %reason,
                "no access token could be obtained"
            );
            return Err(refusal.error);
        }
    }

    /// Forgets the token `used` (a [`Lease::id`]) if it is still the cached one (a concurrent
    /// caller may already have replaced it).
    pub(crate) fn invalidate(&self, used: u64) {
        let current = self.current.load();
        if current.as_ref().is_some_and(|c| c.id == used) {
            self.current.compare_and_swap(&*current, None);
        }
    }

    /// One token request.
    async fn fetch(&self, http: &reqwest::Client, deadline: &Deadline) -> Result<Token, Refusal> {
        let secret = self.credentials.client_secret().expose();
        let form = serde_urlencoded::to_string([
            ("grant_type", "client_credentials"),
            ("client_id", self.credentials.client_id()),
            ("client_secret", secret),
        ])
        .map_err(|_| {
            Refusal::last(auth_error(
                None,
                "the credentials could not be form-encoded",
            ))
        })?;
        let started = Instant::now();
        let mut request = http
            .post(&self.url)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(ACCEPT, "application/json")
            .timeout(deadline.cap(self.timeout));
        if let Some(user_agent) = &self.user_agent {
            request = request.header(USER_AGENT, user_agent.clone());
        }
        let transport = |e: reqwest::Error| {
            let error = Error::from_reqwest(e);
            Refusal {
                retryable: matches!(error, Error::Timeout | Error::Transport(_)),
                error,
                retry_after: None,
            }
        };
        let mut response = request.body(form).send().await.map_err(transport)?;
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            return Err(Refusal::last(auth_error(
                Some(status),
                "the token endpoint answered with a redirect (often a login page): \
                 check the region, base URL and token URL",
            )));
        }
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, SystemTime::now()));
        let body = read_limited(&mut response, TOKEN_BODY_LIMIT, false)
            .await
            .map_err(transport)?;
        if !(200..300).contains(&status) {
            let text = refusal_text(&body.bytes, body.exceeded, &self.redactor());
            return Err(Refusal {
                error: auth_error(
                    Some(status),
                    &format!("the token endpoint refused the request: {text}"),
                ),
                retryable: matches!(status, 429 | 500 | 502 | 503 | 504),
                retry_after,
            });
        }
        if body.exceeded {
            return Err(Refusal::last(auth_error(
                Some(status),
                "the token endpoint's answer is larger than 64 KiB",
            )));
        }
        parse_token(&body.bytes, started, self.margin).ok_or_else(|| {
            Refusal::last(auth_error(
                Some(status),
                "the token endpoint's answer is not a JSON object with a usable `access_token`",
            ))
        })
    }
}

/// A failed token request.
struct Refusal {
    error: Error,
    /// Whether repeating the request may help.
    retryable: bool,
    /// The answer's `Retry-After`.
    retry_after: Option<Duration>,
}

impl Refusal {
    /// A failure no repetition can cure.
    fn last(error: Error) -> Refusal {
        Refusal {
            error,
            retryable: false,
            retry_after: None,
        }
    }
}

/// Why an attempt failed, for traces (never a body).
pub(crate) fn failure_reason(error: &Error) -> String {
    match error {
        Error::Timeout => "timeout".to_owned(),
        Error::Transport(_) => "transport error".to_owned(),
        other => match other.status() {
            Some(status) => format!("HTTP {status}"),
            None => "error".to_owned(),
        },
    }
}

fn auth_error(status: Option<u16>, message: &str) -> Error {
    Error::Auth {
        status,
        message: message.to_owned(),
    }
}

/// What an error answer of the token endpoint says, for the message, with
/// every echo of the secret masked on the whole body first: the OAuth
/// `error` and `error_description` of a JSON answer, else the code and
/// message of another known error shape, else the start of the body.
fn refusal_text(body: &[u8], truncated: bool, redactor: &Redactor) -> String {
    let body = redactor.bytes(Bytes::copy_from_slice(body), truncated);
    if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&body) {
        let field = |key: &str| map.get(key).and_then(Value::as_str);
        let found = match (field("error"), field("error_description")) {
            (Some(error), Some(description)) => Some(format!("{error}: {description}")),
            (Some(text), None) | (None, Some(text)) => Some(text.to_owned()),
            (None, None) => {
                let (decoded, _) = error_body::decode(ErrorFamily::ErrorsArray, &body);
                match (decoded.code(), decoded.message()) {
                    (Some(code), Some(message)) if code != message => {
                        Some(format!("{code}: {message}"))
                    }
                    (Some(text), _) | (None, Some(text)) => Some(text.to_owned()),
                    (None, None) => None,
                }
            }
        };
        if let Some(text) = found {
            return one_line(&text, 300);
        }
    }
    one_line(&snippet(&body), 300)
}

/// A token from the token endpoint's answer; `None` when it has no usable
/// `access_token`. The token is renewed `margin` before it expires, or a
/// tenth of its lifetime before if that is less.
fn parse_token(body: &[u8], started: Instant, margin: Duration) -> Option<Token> {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(body) else {
        return None;
    };
    let access_token = map.get("access_token")?.as_str()?;
    if access_token.is_empty() {
        return None;
    }
    let mut header = HeaderValue::from_str(&format!("Bearer {access_token}")).ok()?;
    header.set_sensitive(true);
    let lifetime = map
        .get("expires_in")
        .and_then(lifetime_of)
        .unwrap_or(DEFAULT_LIFETIME);
    let reuse = lifetime - margin.min(lifetime / MARGIN_DIVISOR);
    // A lifetime too large for the clock is treated as "one day", which is
    // still far beyond what the service issues.
    let renew_at = started
        .checked_add(reuse)
        .or_else(|| started.checked_add(Duration::from_secs(24 * 3600)))
        .unwrap_or(started);
    Some(Token {
        header,
        renew_at,
        needles: Needles::of(access_token),
        lifetime,
        reused_for: reuse,
    })
}

/// `expires_in` as a number of seconds, given as a JSON number or a numeric
/// string; zero for zero or a negative number (a token to renew at once).
fn lifetime_of(value: &Value) -> Option<Duration> {
    let seconds = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    if seconds.is_nan() {
        return None;
    }
    if seconds <= 0.0 {
        return Some(Duration::ZERO);
    }
    Duration::try_from_secs_f64(seconds.min(1e12)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MARGIN: Duration = Duration::from_secs(60);

    fn parse(body: &[u8], now: Instant) -> Option<Token> {
        parse_token(body, now, MARGIN)
    }

    #[test]
    fn parses_token_responses() {
        let now = Instant::now();
        let t = parse(
            br#"{"access_token":"abc","token_type":"Bearer","expires_in":7199}"#,
            now,
        )
        .unwrap();
        assert_eq!(t.header.to_str().unwrap(), "Bearer abc");
        assert!(t.header.is_sensitive());
        assert_eq!(t.renew_at - now, Duration::from_secs(7199 - 60));
        let t = parse(br#"{"access_token":"abc"}"#, now).unwrap();
        assert_eq!(t.renew_at - now, DEFAULT_LIFETIME - MARGIN);
        for bad in [
            &b""[..],
            b"<html>",
            b"[]",
            b"{}",
            br#"{"access_token":""}"#,
            br#"{"access_token":5}"#,
            br#"{"access_token":"a\r\nb"}"#,
        ] {
            assert!(parse(bad, now).is_none());
        }
    }

    #[test]
    fn margin_is_at_most_a_tenth_of_the_lifetime() {
        let now = Instant::now();
        let reuse = |expires_in: &str| {
            let body = format!(r#"{{"access_token":"abc","expires_in":{expires_in}}}"#);
            parse(body.as_bytes(), now).unwrap().renew_at - now
        };
        assert_eq!(reuse("30"), Duration::from_secs(27));
        assert_eq!(reuse("\"30\""), Duration::from_secs(27));
        assert_eq!(reuse("1"), Duration::from_millis(900));
        assert_eq!(reuse("600"), Duration::from_secs(540));
        assert_eq!(reuse("601"), Duration::from_secs(541));
        assert_eq!(reuse("3600"), Duration::from_secs(3540));
        // Zero and negative lifetimes: renewed at once.
        for expired in ["0", "-5", "0.0", "-0", "\"0\"", "-1e300"] {
            assert_eq!(reuse(expired), Duration::ZERO, "{expired}");
            let body = format!(r#"{{"access_token":"abc","expires_in":{expired}}}"#);
            assert!(!parse(body.as_bytes(), now).unwrap().usable(), "{expired}");
        }
        // Unusable lifetimes: one hour is assumed.
        for unknown in ["\"soon\"", "null", "\"NaN\"", "true"] {
            assert_eq!(reuse(unknown), DEFAULT_LIFETIME - MARGIN, "{unknown}");
        }
        let body = br#"{"access_token":"abc","expires_in":1e300}"#;
        assert!(parse(body, now).unwrap().usable());
    }

    #[test]
    fn usable_until_renewal() {
        let now = Instant::now();
        let token = |renew_at| Token {
            header: HeaderValue::from_static("Bearer x"),
            renew_at,
            needles: Needles::default(),
            lifetime: Duration::ZERO,
            reused_for: Duration::ZERO,
        };
        assert!(token(now + Duration::from_secs(30)).usable());
        assert!(!token(now).usable());
        assert_eq!(format!("{:?}", token(now)), "Token(***)");
    }

    #[test]
    fn refusals_show_the_oauth_fields_or_a_masked_start_of_the_body() {
        let redactor = Redactor::new(["a/secret+value"]);
        let text = |body: &str| refusal_text(body.as_bytes(), false, &redactor);
        assert_eq!(
            text(
                r#"{"error":"invalid_client","error_description":"bad a\/secret+value","other":"a/secret+value"}"#
            ),
            "invalid_client: bad ***"
        );
        assert_eq!(text(r#"{"error":"invalid_client"}"#), "invalid_client");
        assert_eq!(
            text(r#"{"errors":[{"code":"AUTH-1","message":"denied"}]}"#),
            "AUTH-1: denied"
        );
        let long = format!("{} a%2fsecret%2Bvalue", "x".repeat(400));
        let shown = text(&long);
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.chars().count() <= 301);
        let shown = text(&format!("{}\n\na%2Fsecret%2bvalue", "y ".repeat(10)));
        assert!(shown.ends_with("y ***"), "{shown}");
        // A secret cut by the end of a truncated body.
        let shown = refusal_text(b"echo a%2Fsecr", true, &redactor);
        assert_eq!(shown, "echo ***");
    }
}
