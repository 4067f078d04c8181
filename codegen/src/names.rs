//! Turning wire names into Rust identifiers, deterministically.
//!
//! Rules: `heck` for the case; a Rust keyword gets a trailing `_` (`type` -> `type_`); a name
//! that starts with a digit gets a prefix (`V` for variants, `n_` for fields); names that collide
//! after conversion get `_2`, `_3`, ... (variants: `2`, `3`) in spec order.
//!
//! Every identifier the generator emits is ASCII (letters, digits, `_`): heck keeps other
//! letters and digits (`size²`, `٣x`), some of which Rust rejects, and non-ASCII identifiers that
//! Rust accepts still collide after NFC normalisation or trip lints. A name that does not give
//! such an identifier is a diagnostic, never a panic.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use std::collections::BTreeSet;

/// Snake-case identifier for a field, parameter or method, or None when the name has no
/// letters or digits at all.
pub fn snake(wire: &str) -> Option<String> {
    let mut s = wire.to_snake_case();
    if s.is_empty() {
        return None;
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("n_{s}");
    }
    finish(s)
}

/// UpperCamelCase identifier for an enum variant, or None when nothing is left.
pub fn variant(wire: &str) -> Option<String> {
    // The empty string is a value some enumerations list (e.g. a switch port's `dot1xPortControl`).
    if wire.is_empty() {
        return Some("Empty".to_owned());
    }
    let s = wire.to_upper_camel_case();
    if s.is_empty() {
        return None;
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return finish(format!("V{s}"));
    }
    finish(s)
}

/// SCREAMING_SNAKE_CASE identifier for a static.
pub fn shouty(id: &str) -> String {
    id.to_shouty_snake_case()
}

/// UpperCamelCase for a type derived from other names (builder structs, inline types).
pub fn camel(name: &str) -> String {
    name.to_upper_camel_case()
}

/// Keywords of the 2024 edition (the generated crate's) that syn still takes for identifiers.
const EDITION_KEYWORDS: &[&str] = &["gen"];

/// Whether `s` is usable as a Rust identifier as it is: ASCII letters, digits and `_`, not
/// starting with a digit, not a keyword, no raw prefix.
pub fn is_ident(s: &str) -> bool {
    is_word(s) && !EDITION_KEYWORDS.contains(&s) && syn::parse_str::<syn::Ident>(s).is_ok()
}

/// Whether `s` is a Rust keyword (or `_`): a word that is not an identifier.
pub fn is_keyword(s: &str) -> bool {
    is_word(s) && !is_ident(s)
}

/// ASCII letters, digits and `_`, not starting with a digit.
fn is_word(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A keyword gets a trailing `_`; anything that is still no identifier is None.
fn finish(s: String) -> Option<String> {
    let s = if is_keyword(&s) { format!("{s}_") } else { s };
    is_ident(&s).then_some(s)
}

/// Gives each name a unique form in order of arrival.
#[derive(Default)]
pub struct Unique {
    taken: BTreeSet<String>,
}

impl Unique {
    /// Marks a name as taken without renaming it (reserved names).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_owned());
    }

    /// `name`, or `name` with the first free suffix (`sep` + 2, 3, ...).
    pub fn claim(&mut self, name: String, sep: &str) -> String {
        if self.taken.insert(name.clone()) {
            return name;
        }
        let mut n = 2;
        loop {
            let candidate = format!("{name}{sep}{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awkward_names() {
        assert_eq!(snake("type").as_deref(), Some("type_"));
        assert_eq!(snake("self").as_deref(), Some("self_"));
        assert_eq!(snake("clientSecret").as_deref(), Some("client_secret"));
        assert_eq!(snake("_links").as_deref(), Some("links"));
        assert_eq!(snake("2fa").as_deref(), Some("n_2fa"));
        assert_eq!(snake("--"), None);
        assert_eq!(variant("Not triggered").as_deref(), Some("NotTriggered"));
        assert_eq!(variant("network-admin").as_deref(), Some("NetworkAdmin"));
        assert_eq!(variant("2048").as_deref(), Some("V2048"));
        assert_eq!(variant("Self").as_deref(), Some("Self_"));
        assert_eq!(snake("gen").as_deref(), Some("gen_"));
        assert_eq!(snake("size²"), None, "heck keeps `²`, Rust rejects it");
        assert_eq!(
            snake("٣x"),
            None,
            "heck keeps `٣`, which cannot start an identifier"
        );
        assert_eq!(variant("٣x"), None);
        assert_eq!(variant("size²"), None);
        assert_eq!(snake("größe"), None, "identifiers are ASCII");
        assert!(!is_ident("r#type") && !is_ident("_") && !is_ident("gen"));
        assert!(is_keyword("type") && is_keyword("_") && !is_keyword("größe"));
        let mut u = Unique::default();
        assert_eq!(u.claim("a".into(), "_"), "a");
        assert_eq!(u.claim("a".into(), "_"), "a_2");
        assert_eq!(u.claim("a".into(), "_"), "a_3");
    }
}
