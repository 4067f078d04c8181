//! The one redaction step every text leaving the client goes through.
//!
//! A secret (the client secret, the unit token, the current and previous
//! access tokens) can come back from a server in an error body, a header, a
//! failed activity's error or an undecodable answer. Whatever of such a
//! text the client keeps, shows or traces is first passed through a
//! [`Redactor`], which replaces every echo of every secret by `***`.
//!
//! Echo shapes found (see [`matching`] for the per-character ones):
//!
//! - the secret itself, in any letter case;
//! - each character independently as is, JSON-escaped (`\/`, `\"`,
//!   `\uXXXX` for any character, also nested in JSON inside a JSON string,
//!   where the backslashes are escaped again), percent-encoded (upper or
//!   lower case, also twice: `%252F`), form-encoded (`+` for a space) or an
//!   HTML character reference (`&#47;`, `&#x2F;`, `&amp;`...);
//! - the secret's bytes in hex (either case), in base64 or base64url,
//!   padded or not, alone or inside a longer base64 text (where the secret
//!   starts at one of three bit alignments, each giving a different
//!   encoding), each of these again in the per-character shapes above.
//!
//! Not recognised (the client guide, `docs/src/client.md`, says so to users): a part of a
//! secret (cut, or a prefix of it in the middle of a text), base64 broken into lines, base64 of
//! a text in which the secret was first form- or percent-encoded, three or more rounds of
//! percent-encoding. Each would need a search for every fragment or transformation of a
//! secret, which would mask ordinary text too.
//!
//! The encoded forms ("needles") are computed once per secret, when a
//! [`Redactor`] or a token's [`Needles`] is built, never per text.

mod encodings;
mod matching;

use std::fmt;
use std::sync::Arc;

use bytes::Bytes;
use serde_json::Value;

/// Secrets shorter than this are not searched for (they would match
/// ordinary text), nor are encoded forms shorter than this.
pub(crate) const MIN_MASKED_LEN: usize = 6;

/// The needles of one secret: the forms it is searched for in.
#[derive(Clone, Default)]
pub(crate) struct Needles(Vec<Arc<[char]>>);

impl Needles {
    /// The needles of `secret`; none when it is shorter than
    /// [`MIN_MASKED_LEN`].
    pub(crate) fn of(secret: &str) -> Needles {
        if secret.chars().count() < MIN_MASKED_LEN {
            return Needles::default();
        }
        let mut forms = vec![secret.to_owned(), encodings::hex(secret.as_bytes())];
        forms.extend(encodings::base64_cores(secret.as_bytes()));
        let mut list: Vec<Arc<[char]>> = forms
            .iter()
            .filter(|form| form.chars().count() >= MIN_MASKED_LEN)
            .map(|form| form.chars().collect())
            .collect();
        list.sort();
        list.dedup();
        Needles(list)
    }
}

impl fmt::Debug for Needles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Needles({})", self.0.len())
    }
}

/// Masks a set of secrets in every text given to it. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    /// Longest first, so that a secret containing another is masked whole.
    needles: Arc<Vec<Arc<[char]>>>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Redactor({} needles)", self.needles.len())
    }
}

impl Redactor {
    /// A redactor for `secrets`; empty and short ones are ignored.
    #[cfg(test)]
    pub(crate) fn new<'s>(secrets: impl IntoIterator<Item = &'s str>) -> Redactor {
        let needles: Vec<Needles> = secrets.into_iter().map(Needles::of).collect();
        Redactor::of_needles(&needles)
    }

    /// A redactor for the secrets whose needles are `sets`.
    pub(crate) fn of_needles<'n>(sets: impl IntoIterator<Item = &'n Needles>) -> Redactor {
        let mut all: Vec<Arc<[char]>> = sets
            .into_iter()
            .flat_map(|set| set.0.iter().cloned())
            .collect();
        all.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        all.dedup();
        Redactor {
            needles: Arc::new(all),
        }
    }

    /// `body` with every echo of every secret replaced by `***`; `body`
    /// itself when there is none. With `truncated` (the body is the start
    /// of a longer one), the beginning of an echo at the very end is
    /// masked too.
    pub(crate) fn bytes(&self, body: Bytes, truncated: bool) -> Bytes {
        let mut current: Option<Vec<u8>> = None;
        for needle in self.needles.iter() {
            let hay = current.as_deref().unwrap_or(&body);
            if let Some(masked) = matching::mask_one(hay, needle, truncated) {
                current = Some(masked);
            }
        }
        current.map_or(body, Bytes::from)
    }

    /// `text` with every echo of every secret replaced by `***`.
    pub(crate) fn text(&self, text: &str) -> String {
        let masked = self.bytes(Bytes::copy_from_slice(text.as_bytes()), false);
        String::from_utf8_lossy(&masked).into_owned()
    }

    /// [`text`](Self::text) of an optional text.
    pub(crate) fn option(&self, text: Option<&str>) -> Option<String> {
        text.map(|t| self.text(t))
    }

    /// `value`'s `Debug` output, with every echo of every secret masked: for the `Debug` of
    /// types holding what a server sent (request ids, bodies, results).
    pub(crate) fn debug<'a>(&'a self, value: &'a dyn fmt::Debug) -> Masked<'a> {
        Masked {
            value,
            redactor: self,
        }
    }

    /// `value` with every string (and object key) redacted.
    pub(crate) fn value(&self, value: Value) -> Value {
        match value {
            Value::String(s) => Value::String(self.text(&s)),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.value(v)).collect()),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| (self.text(&k), self.value(v)))
                    .collect(),
            ),
            other => other,
        }
    }
}

/// A value shown by its `Debug` through a [`Redactor`] ([`Redactor::debug`]).
pub(crate) struct Masked<'a> {
    value: &'a dyn fmt::Debug,
    redactor: &'a Redactor,
}

impl fmt::Debug for Masked<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            format!("{:#?}", self.value)
        } else {
            format!("{:?}", self.value)
        };
        f.write_str(&self.redactor.text(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_needle_of_a_secret_is_masked() {
        let secret = "a/b+c d&e\"f~é";
        let needles = Needles::of(secret);
        // The secret, hex, and 6 base64 cores (base64url equals base64 here
        // only where the secret has no `+` or `/` in its encoding).
        assert!(needles.0.len() >= 5, "{needles:?}");
        let redactor = Redactor::of_needles([&needles]);
        for needle in &needles.0 {
            let text: String = needle.iter().collect();
            assert_eq!(redactor.text(&format!("<{text}>")), "<***>", "{text}");
        }
        assert!(Needles::of("short").0.is_empty());
    }

    #[test]
    fn longer_secrets_are_masked_whole() {
        let redactor = Redactor::new(["token-123", "token-123-longer"]);
        assert_eq!(redactor.text("a token-123-longer b"), "a *** b");
    }

    #[test]
    fn values_are_redacted_everywhere() {
        let redactor = Redactor::new(["SECRET-1"]);
        let value = serde_json::json!({"SECRET-1": ["x SECRET-1", 5, {"k": "secret-1"}]});
        assert_eq!(
            redactor.value(value),
            serde_json::json!({"***": ["x ***", 5, {"k": "***"}]})
        );
    }
}
