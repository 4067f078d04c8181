//! OAuth 2 client-credentials tokens: fetching, caching, single-flight
//! renewal.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderValue};
use serde_json::Value;

use crate::config::Credentials;
use crate::error::{Error, snippet};

/// Lifetime assumed when the token response has no usable `expires_in`.
const DEFAULT_LIFETIME: Duration = Duration::from_secs(3600);

/// A cached access token.
pub(crate) struct Token {
    /// `Bearer <token>`, marked sensitive.
    header: HeaderValue,
    expires_at: Instant,
}

impl Token {
    pub(crate) fn header(&self) -> &HeaderValue {
        &self.header
    }

    fn usable(&self, margin: Duration) -> bool {
        Instant::now()
            .checked_add(margin)
            .is_some_and(|deadline| deadline < self.expires_at)
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// Obtains access tokens and shares them between all clones of a client.
pub(crate) struct TokenSource {
    url: String,
    credentials: Credentials,
    margin: Duration,
    timeout: Duration,
    current: Mutex<Option<Arc<Token>>>,
    /// Held while a token is being fetched, so that concurrent callers wait
    /// for that one request instead of sending their own.
    fetching: tokio::sync::Mutex<()>,
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
    ) -> Self {
        TokenSource {
            url,
            credentials,
            margin,
            timeout,
            current: Mutex::new(None),
            fetching: tokio::sync::Mutex::new(()),
        }
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    fn cached(&self) -> Option<Arc<Token>> {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        current.as_ref().filter(|t| t.usable(self.margin)).cloned()
    }

    /// A token that is not about to expire, fetching one if needed. However
    /// many callers arrive at once, only one token request is in flight.
    pub(crate) async fn get(&self, http: &reqwest::Client) -> Result<Arc<Token>, Error> {
        if let Some(token) = self.cached() {
            return Ok(token);
        }
        let _guard = self.fetching.lock().await;
        if let Some(token) = self.cached() {
            return Ok(token);
        }
        let token = Arc::new(self.fetch(http).await?);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(token.clone());
        Ok(token)
    }

    /// Forgets `used` if it is still the cached token (a concurrent caller
    /// may already have replaced it).
    pub(crate) fn invalidate(&self, used: &Arc<Token>) {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if current.as_ref().is_some_and(|t| Arc::ptr_eq(t, used)) {
            *current = None;
        }
    }

    async fn fetch(&self, http: &reqwest::Client) -> Result<Token, Error> {
        let secret = self.credentials.client_secret().expose();
        let form = serde_urlencoded::to_string([
            ("grant_type", "client_credentials"),
            ("client_id", self.credentials.client_id()),
            ("client_secret", secret),
        ])
        .map_err(|_| auth_error(None, "the credentials could not be form-encoded"))?;
        let started = Instant::now();
        let response = http
            .post(&self.url)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(ACCEPT, "application/json")
            .timeout(self.timeout)
            .body(form)
            .send()
            .await
            .map_err(Error::from_reqwest)?;
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            return Err(auth_error(
                Some(status),
                "the token endpoint answered with a redirect (often a login page): \
                 check the region, base URL and token URL",
            ));
        }
        let body = response.bytes().await.map_err(Error::from_reqwest)?;
        if !(200..300).contains(&status) {
            let text = redact(&snippet(&body), secret);
            return Err(auth_error(
                Some(status),
                &format!("the token endpoint refused the request: {text}"),
            ));
        }
        parse_token(&body, started).ok_or_else(|| {
            auth_error(
                Some(status),
                "the token endpoint's answer is not a JSON object with a usable `access_token`",
            )
        })
    }
}

fn auth_error(status: Option<u16>, message: &str) -> Error {
    Error::Auth {
        status,
        message: message.to_owned(),
    }
}

/// Replaces every occurrence of the secret, as is or form-encoded, should a
/// server echo it.
fn redact(text: &str, secret: &str) -> String {
    if secret.is_empty() {
        return text.to_owned();
    }
    let mut out = text.replace(secret, "***");
    let encoded: String = serde_urlencoded::to_string([("", secret)])
        .map(|pair| pair.trim_start_matches('=').to_owned())
        .unwrap_or_default();
    if !encoded.is_empty() && encoded != secret {
        out = out.replace(&encoded, "***");
    }
    out
}

fn parse_token(body: &[u8], started: Instant) -> Option<Token> {
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
    // A lifetime too large for the clock is treated as "one day", which is
    // still far beyond what the service issues.
    let expires_at = started
        .checked_add(lifetime)
        .or_else(|| started.checked_add(Duration::from_secs(24 * 3600)))
        .unwrap_or(started);
    Some(Token { header, expires_at })
}

/// `expires_in` as a number of seconds, given as a JSON number or a numeric
/// string.
fn lifetime_of(value: &Value) -> Option<Duration> {
    let seconds = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(seconds.min(1e12)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_token_responses() {
        let now = Instant::now();
        let t = parse_token(
            br#"{"access_token":"abc","token_type":"Bearer","expires_in":7199}"#,
            now,
        )
        .unwrap();
        assert_eq!(t.header().to_str().unwrap(), "Bearer abc");
        assert!(t.header().is_sensitive());
        assert_eq!(t.expires_at - now, Duration::from_secs(7199));
        let t = parse_token(br#"{"access_token":"abc"}"#, now).unwrap();
        assert_eq!(t.expires_at - now, DEFAULT_LIFETIME);
        let t = parse_token(br#"{"access_token":"abc","expires_in":"30"}"#, now).unwrap();
        assert_eq!(t.expires_at - now, Duration::from_secs(30));
        let t = parse_token(br#"{"access_token":"abc","expires_in":-5}"#, now).unwrap();
        assert_eq!(t.expires_at - now, DEFAULT_LIFETIME);
        for bad in [
            &b""[..],
            b"<html>",
            b"[]",
            b"{}",
            br#"{"access_token":""}"#,
            br#"{"access_token":5}"#,
            br#"{"access_token":"a\r\nb"}"#,
        ] {
            assert!(parse_token(bad, now).is_none());
        }
    }

    #[test]
    fn margin() {
        let now = Instant::now();
        let t = Token {
            header: HeaderValue::from_static("Bearer x"),
            expires_at: now + Duration::from_secs(30),
        };
        assert!(t.usable(Duration::ZERO));
        assert!(!t.usable(Duration::from_secs(60)));
        assert!(!t.usable(Duration::MAX));
        assert_eq!(format!("{t:?}"), "Token(***)");
    }

    #[test]
    fn redacts() {
        assert_eq!(
            redact("bad secret s3 here s3", "s3"),
            "bad secret *** here ***"
        );
        assert_eq!(redact("x", ""), "x");
        assert_eq!(redact("echo a%2Bb c+d", "a+b c+d"), "echo a%2Bb c+d");
        assert_eq!(redact("echo a%2Bb+c%2Bd", "a+b c+d"), "echo ***");
    }
}
