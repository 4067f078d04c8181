//! Rust names for the descriptions' schema names: `QueryResponseVenueDto_V1_1` reads as
//! `QueryResponseVenue`, with the version kept apart for when two versions of one schema differ.

use ruckus_codegen::names;

/// A schema name split into the name a reader wants and the version marker it carried.
#[derive(Debug, PartialEq, Eq)]
pub struct Clean {
    pub name: String,
    /// `V1_1` for `..._V1_1`, `V1` for `...V1`; empty when the name had none.
    pub version: String,
}

/// Drops version markers (`_v1_0`, `_V1_1`, a trailing `V1`) and a trailing `Dto`, and writes
/// the rest in UpperCamel case. Never empty: a name that is nothing but markers stays as it was.
pub fn clean(raw: &str) -> Clean {
    let parts: Vec<&str> = raw
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let mut kept = Vec::new();
    let mut version = Vec::new();
    let mut in_version = false;
    for part in parts {
        let is_marker = part.len() > 1
            && part.starts_with(['v', 'V'])
            && part[1..].chars().all(|c| c.is_ascii_digit());
        if is_marker || (in_version && part.chars().all(|c| c.is_ascii_digit())) {
            in_version = true;
            version.push(part.trim_start_matches(['v', 'V']).to_owned());
        } else {
            in_version = false;
            kept.push(part);
        }
    }
    let mut name = names::camel(&kept.join("_"));
    // Spring HATEOAS wrappers: `EntityModelUnit` is a unit (with links), `PagedModelX` a page.
    let mut suffix = "";
    for (prefix, then) in [("PagedModel", "Page"), ("CollectionModel", "List")] {
        if let Some(rest) = name.strip_prefix(prefix).filter(|r| !r.is_empty()) {
            name = rest.to_owned();
            suffix = then;
        }
    }
    if let Some(rest) = name.strip_prefix("EntityModel").filter(|r| !r.is_empty()) {
        name = rest.to_owned();
    }
    name.push_str(suffix);
    // A version glued to the name (`VenueV1`).
    if version.is_empty() {
        if let Some(pos) = name.rfind('V') {
            let digits = &name[pos + 1..];
            if pos > 0 && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                version.push(digits.to_owned());
                name.truncate(pos);
            }
        }
    }
    for suffix in ["Dto", "DTO"] {
        if name.len() > suffix.len() && name.ends_with(suffix) {
            name.truncate(name.len() - suffix.len());
        }
    }
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name = format!("Schema{}", names::camel(raw));
        version.clear();
    }
    let version = if version.is_empty() {
        String::new()
    } else {
        format!("V{}", version.join("_"))
    };
    Clean { name, version }
}

/// The UpperCamel prefix a description file gives its types when their names collide:
/// `switch_service_api-0.4.0.yaml` → `Switch`.
pub fn file_prefix(file: &str) -> String {
    let stem = file.split(['-', '.']).next().unwrap_or(file);
    let word = stem
        .split('_')
        .find(|w| !w.is_empty())
        .unwrap_or("Description");
    names::camel(word)
}

/// `PskWifiNetwork` → `Psk wifi network`, `ApRadio24GHzSettings` → `Ap radio24GHz settings`.
pub fn human(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    for (i, word) in names::title_words(name).iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // Lower the words after the first; a unit after digits keeps its case (`24GHz`).
        let digit = word
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(word.len());
        let (head, unit) = word.split_at(digit);
        if i == 0 {
            out.push_str(word);
        } else {
            out.push_str(&head.to_lowercase());
            out.push_str(unit);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(raw: &str) -> (String, String) {
        let c = clean(raw);
        (c.name, c.version)
    }

    #[test]
    fn versions_and_dto_suffixes_are_dropped() {
        assert_eq!(
            c("QueryResponseVenueDto_V1_1"),
            ("QueryResponseVenue".into(), "V1_1".into())
        );
        assert_eq!(c("EndStep_v1_0"), ("EndStep".into(), "V1_0".into()));
        assert_eq!(c("VenueV1"), ("Venue".into(), "V1".into()));
        assert_eq!(
            c("Evaluation Criteria"),
            ("EvaluationCriteria".into(), String::new())
        );
        assert_eq!(
            c("AAAWifiNetwork"),
            ("AaaWifiNetwork".into(), String::new())
        );
        assert_eq!(c("Dto"), ("Dto".into(), String::new()));
        assert_eq!(c("V2"), ("SchemaV2".into(), String::new()));
        assert_eq!(c("EntityModelUnit"), ("Unit".into(), String::new()));
        assert_eq!(
            c("PagedModelEntityModelUnit"),
            ("UnitPage".into(), String::new())
        );
    }

    #[test]
    fn prefixes_and_prose() {
        assert_eq!(file_prefix("switch_service_api-0.4.0.yaml"), "Switch");
        assert_eq!(human("PskWifiNetwork"), "Psk wifi network");
        assert_eq!(
            human("VenueApRadio24GHzSettings"),
            "Venue ap radio24GHz settings"
        );
    }
}
