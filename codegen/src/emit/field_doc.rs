//! The rustdoc of a model's fields: a field's own description with its wire facts; for a field
//! without one, only what the Rust signature does not say, or nothing (a doc that restates the
//! field's name tells the reader nothing).

use super::describe::provenance_line;
use super::text::{code, prose, type_doc};
use crate::ir::FieldIr;

/// A field's rustdoc. With a description of its own: the description, then a line of wire
/// facts (name, type, presence and constraints), deprecation and provenance. Without one: only
/// what the Rust signature does not say (nullability, redaction, constraints, deprecation, a
/// provenance of its own) on one line, or no doc at all; the wire name is in the serde code.
pub(super) fn field_doc(f: &FieldIr) -> Vec<String> {
    let Some(description) = f
        .description
        .as_deref()
        .filter(|d| !d.trim().is_empty() && !restates_name(d, &f.wire))
    else {
        return bare_field_doc(f);
    };
    let mut lines = vec![prose(description), String::new()];
    let mut facts = vec![format!("Wire name {}", code(&f.wire)), type_doc(&f.ty)];
    facts.push(if f.required {
        "required".into()
    } else {
        "optional".into()
    });
    facts.extend(extra_facts(f));
    lines.push(format!("{}.", facts.join("; ")));
    if let Some(dep) = &f.deprecated {
        lines.push(format!("Deprecated: {}", prose(dep)));
    }
    if let Some(p) = f.stated_provenance() {
        lines.push(provenance_line(p));
    }
    lines
}

/// Whether `description` only says the field's name again ("City." for `city`, "First name."
/// for `firstName`): its words, articles aside, are the wire name's words. Such a description
/// counts as none.
fn restates_name(description: &str, wire: &str) -> bool {
    const ARTICLES: [&str; 3] = ["the", "a", "an"];
    let said: Vec<String> = description
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !ARTICLES.contains(&w.as_str()))
        .collect();
    !said.is_empty() && said == crate::names::words(wire)
}

/// What a field's Rust type does not say: null on the wire, redaction, constraints.
fn extra_facts(f: &FieldIr) -> Vec<String> {
    let mut facts = Vec::new();
    if f.nullable {
        facts.push("may be null".into());
    }
    if f.secret {
        facts.push("secret: redacted in `Debug`".into());
    }
    for (k, v) in &f.constraints {
        facts.push(format!("{k}: {}", prose(v)));
    }
    facts
}

/// The doc of a field without a description (see [`field_doc`]): one line of what the Rust
/// signature does not say, or nothing (its name already says what it is).
fn bare_field_doc(f: &FieldIr) -> Vec<String> {
    let facts = extra_facts(f);
    let mut line = String::new();
    if let Some((first, rest)) = facts.split_first() {
        let mut chars = first.chars();
        let first: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        line = std::iter::once(first)
            .chain(rest.iter().cloned())
            .collect::<Vec<_>>()
            .join("; ");
        line.push('.');
    }
    if let Some(dep) = &f.deprecated {
        line.push_str(&format!(" Deprecated: {}", prose(dep)));
    }
    if let Some(p) = f.stated_provenance() {
        line.push(' ');
        line.push_str(&provenance_line(p));
    }
    let line = line.trim().to_owned();
    if line.is_empty() {
        Vec::new()
    } else {
        vec![line]
    }
}

#[cfg(test)]
mod tests {
    use super::restates_name;

    #[test]
    fn a_description_that_only_names_the_field_restates_it() {
        assert!(restates_name("City.", "city"));
        assert!(restates_name("The first name.", "firstName"));
        assert!(restates_name("Country code", "country_code"));
        assert!(!restates_name("Name of the venue.", "name"));
        assert!(!restates_name("Latitude, in degrees.", "latitude"));
        assert!(!restates_name("", "city"));
    }
}
