//! Type expressions for what the payloads send: scalars by their kind, lists by their
//! elements, and an object by a type of its own (named after the field that holds it), so that
//! every field the service sends lands in a typed field rather than in raw JSON.

use super::seen::{Seen, keys_are_data};
use crate::import::convert::{Converter, DraftField, is_credential};
use ruckus_codegen::names;
use std::collections::BTreeSet;

/// Objects nested deeper than this stay raw JSON (no payload comes near it).
const MAX_DEPTH: usize = 12;

/// Writes the type expressions of values seen, drafting the object types they need.
pub struct Synth<'c, 'a> {
    pub conv: &'c mut Converter<'a>,
    /// Where the values were read (`payloads <file>`): the drafted types' source.
    pub source: String,
    /// Names no drafted type may take: those overrides give imported types.
    pub avoid: &'c BTreeSet<String>,
    /// Field names a description types as a (fractional) number somewhere in the API: whole
    /// numbers seen there are numbers too (`xPercent` is 10 in one answer, 10.5 in another).
    pub fractional: &'c BTreeSet<String>,
}

impl Synth<'_, '_> {
    /// The type expression of the values `seen` in the field `field`; `wanted` names the
    /// object type it needs (the owner's name and the field's, `AccessPointRadio`).
    pub fn field_expr(&mut self, field: &str, seen: &Seen, wanted: &str) -> String {
        self.field_at(field, seen, wanted, 0)
    }

    fn field_at(&mut self, field: &str, seen: &Seen, wanted: &str, depth: usize) -> String {
        match seen {
            Seen::Int if self.fractional.contains(field) => "number".into(),
            _ => self.expr_at(seen, wanted, depth),
        }
    }

    fn expr_at(&mut self, seen: &Seen, wanted: &str, depth: usize) -> String {
        match seen {
            Seen::Null | Seen::Json => "json".into(),
            Seen::Blank | Seen::String => "string".into(),
            Seen::Bool => "boolean".into(),
            Seen::Int => "int64".into(),
            Seen::Number => "number".into(),
            Seen::Array(inner) => {
                format!("array<{}>", self.expr_at(inner, &singular(wanted), depth))
            }
            Seen::Object(map) if map.is_empty() || depth >= MAX_DEPTH => "json".into(),
            Seen::Object(map) if keys_are_data(map.keys()) => {
                let values = map.values().fold(Seen::Null, |a, b| a.widen(b));
                format!("map<{}>", self.expr_at(&values, wanted, depth + 1))
            }
            Seen::Object(map) => {
                let fields = map
                    .iter()
                    .map(|(key, v)| {
                        let name = format!("{wanted}{}", names::camel(key));
                        let ty = self.field_at(key, v, &name, depth + 1);
                        field(key, ty, None)
                    })
                    .collect();
                self.conv
                    .payload_type(wanted, fields, &self.source, self.avoid)
            }
        }
    }
}

/// A field the payloads show: never required (a payload shows what one answer sent), and
/// nullable (answers send `null` for what they leave unset).
pub fn field(name: &str, ty: String, provenance: Option<String>) -> DraftField {
    DraftField {
        name: name.to_owned(),
        secret: ty == "string" && is_credential(name),
        ty,
        required: false,
        nullable: true,
        constraints: Vec::new(),
        deprecated: false,
        provenance,
    }
}

/// The name of one element of a list named `wanted` (`AccessPointLinks` -> `AccessPointLink`).
fn singular(wanted: &str) -> String {
    for plural in ["ches", "shes", "sses", "xes"] {
        if let Some(stem) = wanted.strip_suffix(plural) {
            return format!("{stem}{}", &plural[..plural.len() - 2]);
        }
    }
    match wanted.strip_suffix("ies") {
        Some(stem) if stem.len() > 2 => format!("{stem}y"),
        _ => match wanted.strip_suffix('s') {
            Some(stem) if stem.len() > 2 && !stem.ends_with(['s', 'u']) => stem.to_owned(),
            _ => format!("{wanted}Item"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_names_its_element() {
        assert_eq!(
            singular("MacRegistrationPoolLinks"),
            "MacRegistrationPoolLink"
        );
        assert_eq!(singular("IdentityGroupIdentities"), "IdentityGroupIdentity");
        assert_eq!(singular("UpgradeVenueVersions"), "UpgradeVenueVersion");
        assert_eq!(singular("ApStatus"), "ApStatusItem");
        assert_eq!(singular("VenueSwitches"), "VenueSwitch");
        assert_eq!(singular("ProfileAddresses"), "ProfileAddress");
        assert_eq!(singular("RadiusData"), "RadiusDataItem");
    }
}
