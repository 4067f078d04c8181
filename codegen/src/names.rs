//! Turning wire names into Rust identifiers, deterministically.
//!
//! Rules: `heck` for the case; a Rust keyword gets a trailing `_` (`type` -> `type_`); a name
//! that starts with a digit gets a prefix (`V` for variants, `n_` for fields); names that collide
//! after conversion get `_2`, `_3`, ... (variants: `2`, `3`) in spec order.

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
    Some(escape_keyword(s))
}

/// UpperCamelCase identifier for an enum variant, or None when nothing is left.
pub fn variant(wire: &str) -> Option<String> {
    let s = wire.to_upper_camel_case();
    if s.is_empty() {
        return None;
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return Some(format!("V{s}"));
    }
    Some(escape_keyword(s))
}

/// SCREAMING_SNAKE_CASE identifier for a static.
pub fn shouty(id: &str) -> String {
    id.to_shouty_snake_case()
}

/// UpperCamelCase for a type derived from other names (builder structs, inline types).
pub fn camel(name: &str) -> String {
    name.to_upper_camel_case()
}

/// Whether `s` is usable as a Rust identifier as it is (no keyword, no raw prefix).
pub fn is_ident(s: &str) -> bool {
    syn::parse_str::<syn::Ident>(s).is_ok()
}

fn escape_keyword(s: String) -> String {
    if is_ident(&s) || s == "_" {
        s
    } else {
        format!("{s}_")
    }
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
        let mut u = Unique::default();
        assert_eq!(u.claim("a".into(), "_"), "a");
        assert_eq!(u.claim("a".into(), "_"), "a_2");
        assert_eq!(u.claim("a".into(), "_"), "a_3");
    }
}
