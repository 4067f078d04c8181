//! Turning wire names into Rust identifiers, deterministically.
//!
//! One rule splits every wire name into words ([`words`]), for ids, fields, parameters, variants
//! and type names alike (the importer uses it too): a word starts at an upper-case letter after a
//! lower-case one or a digit, and at the last capital of a run of capitals followed by lower-case
//! letters (`MSPAdmin` -> `msp`, `admin`); digits stay with the word before (`ipv6`, `channel24`).
//! Two exceptions keep abbreviations whole: an acronym's plural (`ECs`, `APs`, `IDs`) is one word,
//! and a unit after digits joins them (`24G` -> `channel24g`, `160MHz` -> `has160mhz`, `dot1X` ->
//! `dot1x`); so do decibels (`dB`, `dBm`). Snake case joins the words with `_`; UpperCamel case
//! capitalises each, a unit keeping the wire's case (`Channel24G`, `Has160MHz`, `GetMspEcs`).
//!
//! Beyond that: a Rust keyword gets a trailing `_` (`type` -> `type_`); a name that starts with a
//! digit gets a prefix (`V` for variants, `n_` for fields); names that collide after conversion get
//! `_2`, `_3`, ... (variants: `2`, `3`) in spec order.
//!
//! Every identifier the generator emits is ASCII (letters, digits, `_`): other letters and digits
//! (`size²`, `٣x`) are kept by the split, some of which Rust rejects, and non-ASCII identifiers that
//! Rust accepts still collide after NFC normalisation or trip lints. A name that does not give
//! such an identifier is a diagnostic, never a panic.

use std::collections::BTreeSet;

/// The words of a wire name, in lower case (see the module's rule).
pub fn words(wire: &str) -> Vec<String> {
    cased_words(wire).iter().map(|w| w.to_lowercase()).collect()
}

/// The words of a wire name as the wire writes them (`channel24G`, `ECs`).
fn cased_words(wire: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for chunk in wire.split(|c: char| !c.is_alphanumeric()) {
        let base = split_chunk(chunk);
        let mut i = 0;
        while i < base.len() {
            let w = base[i];
            let next = base.get(i + 1).copied().unwrap_or_default();
            // `E` + `Cs`: an acronym's plural (`ECs`) stays one word.
            if is_capitals(w) && is_plural_tail(next) {
                out.push(format!("{w}{next}"));
                i += 2;
            // `d` + `B`, `Bm`: decibels (`snr_dB`, `noiseFloorDBm`).
            } else if matches!(w, "d" | "D") && matches!(next, "B" | "Bm" | "Bi") {
                out.push(format!("{w}{next}"));
                i += 2;
            // `channel24` + `G` (+ `Hz`): a unit joins the digits before it.
            } else if w.ends_with(|c: char| c.is_numeric()) && is_unit(next) {
                let mut joined = format!("{w}{next}");
                i += 2;
                if base.get(i) == Some(&"Hz") {
                    joined.push_str("Hz");
                    i += 1;
                }
                out.push(joined);
            } else {
                out.push(w.to_owned());
                i += 1;
            }
        }
    }
    out
}

/// A run of letters and digits split where the case changes (`getMSPAdmin` -> `get`, `MSP`,
/// `Admin`; `ECs` -> `E`, `Cs`; `channel24G` -> `channel24`, `G`).
fn split_chunk(chunk: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = chunk.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..chars.len() {
        let (at, c) = chars[k];
        let prev = chars[k - 1].1;
        let next_lower = chars.get(k + 1).is_some_and(|(_, n)| n.is_lowercase());
        let boundary = c.is_uppercase() && (!prev.is_uppercase() || next_lower);
        if boundary && at > start {
            out.push(&chunk[start..at]);
            start = at;
        }
    }
    if start < chunk.len() {
        out.push(&chunk[start..]);
    }
    out
}

/// Capitals only (`EC`, `A`).
fn is_capitals(w: &str) -> bool {
    w.chars().all(char::is_uppercase)
}

/// `Cs` of `ECs`: one capital and the plural `s`.
fn is_plural_tail(w: &str) -> bool {
    let mut cs = w.chars();
    matches!((cs.next(), cs.next(), cs.next()), (Some(c), Some('s'), None) if c.is_uppercase())
}

/// A unit after digits: one capital (`G`, `M`, `X`).
fn is_unit(w: &str) -> bool {
    let mut cs = w.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if c.is_uppercase())
}

/// A word (as the wire writes it) in UpperCamel case: its first letter in capitals, the rest in
/// lower case, except a unit after digits, which keeps its case (`channel24G` -> `Channel24G`,
/// `has160MHz` -> `Has160MHz`, `dot1x` -> `Dot1x`, `ECs` -> `Ecs`, `IPV6` -> `Ipv6`).
fn capitalise(word: &str) -> String {
    let digits_end = word
        .char_indices()
        .rfind(|(_, c)| c.is_numeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let (head, tail) = word.split_at(digits_end);
    let unit = digits_end > 0 && (is_unit(tail) || tail.strip_suffix("Hz").is_some_and(is_unit));
    let (head, tail) = if unit { (head, tail) } else { (word, "") };
    let mut out = String::with_capacity(word.len());
    let mut chars = head.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
    }
    out.extend(chars.flat_map(char::to_lowercase));
    out.push_str(tail);
    out
}

/// Digit then letter in a duration: an ISO 8601 duration (`P1D`, `PT15M`, `P1Y2M`, `PT1H30M`:
/// `P`, then digits each followed by a designator, `T` before the time ones) is one code whose
/// designators are no units of a name, so it is cased as Rust's UpperCamel case (and heck) do:
/// `P1d`, `Pt15m`. Other letters after digits keep the unit rule (`Channel24G`, `Icx7X`).
fn is_duration(name: &str) -> bool {
    /// Digits then one of `designators`, once at least, and nothing else.
    fn designated(part: &str, designators: &str) -> bool {
        let mut digits = false;
        let mut any = false;
        for c in part.chars() {
            if c.is_ascii_digit() {
                digits = true;
            } else if digits && designators.contains(c) {
                (digits, any) = (false, true);
            } else {
                return false;
            }
        }
        any && !digits
    }
    let Some(rest) = name.strip_prefix('P') else {
        return false;
    };
    match rest.split_once('T') {
        Some((date, time)) => {
            (date.is_empty() || designated(date, "YMWD")) && designated(time, "HMS")
        }
        None => designated(rest, "YMWD"),
    }
}

/// The UpperCamel words of a name: one word for a duration ([`is_duration`]), else each word
/// of the rule capitalised.
fn camel_words(name: &str) -> Vec<String> {
    if is_duration(name) {
        let mut chars = name.chars();
        let first = chars.next().map(|c| c.to_ascii_uppercase());
        return vec![
            first
                .into_iter()
                .chain(chars.map(|c| c.to_ascii_lowercase()))
                .collect(),
        ];
    }
    cased_words(name).iter().map(|w| capitalise(w)).collect()
}

/// The words in snake case.
pub fn snake_words(wire: &str) -> String {
    words(wire).join("_")
}

/// Snake-case identifier for a field, parameter or method, or None when the name has no
/// letters or digits at all.
pub fn snake(wire: &str) -> Option<String> {
    let mut s = snake_words(wire);
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
    let s = camel(wire);
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
    snake_words(id).to_uppercase()
}

/// UpperCamelCase for a type derived from other names (builder structs, inline types).
pub fn camel(name: &str) -> String {
    camel_words(name).concat()
}

/// The words, each capitalised as [`camel`] writes it (`PskWifiNetwork` -> `Psk`, `Wifi`,
/// `Network`): for prose made from a name.
pub fn title_words(name: &str) -> Vec<String> {
    camel_words(name)
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
    fn one_rule_splits_every_name_into_words() {
        let w = |s: &str| words(s).join(" ");
        assert_eq!(w("getMSPAdmin"), "get msp admin");
        assert_eq!(w("getMSP-ECs"), "get msp ecs");
        assert_eq!(w("vlanIDs"), "vlan ids");
        assert_eq!(w("isAPsOn"), "is aps on");
        assert_eq!(w("channel24G"), "channel24g");
        assert_eq!(w("wlanGroup24GId"), "wlan group24g id");
        assert_eq!(
            w("has160MHzChannelBandwidth"),
            "has160mhz channel bandwidth"
        );
        assert_eq!(w("radio5GHz"), "radio5ghz");
        assert_eq!(w("ipv6Address"), "ipv6 address");
        assert_eq!(w("dot1XEnabled"), "dot1x enabled");
        assert_eq!(w("getVenueV1"), "get venue v1");
        assert_eq!(w("QueryResponseVenue_V1_1"), "query response venue v1 1");
        assert_eq!(w("2.4G"), "2 4g");
        assert_eq!(w("snr_dB"), "snr db");
        assert_eq!(w("noiseFloorDBm"), "noise floor dbm");
        // Not joined: `e_pdgs` (a type with both `ePDGs` and `epdgs` would collide).
        assert_eq!(w("ePDGs"), "e pdgs");
        assert_eq!(w("xPercent"), "x percent");
        assert_eq!(snake("channel24G").as_deref(), Some("channel24g"));
        assert_eq!(camel("channel24G"), "Channel24G");
        assert_eq!(camel("has160MHz"), "Has160MHz");
        assert_eq!(camel("dot1xPortControl"), "Dot1xPortControl");
        assert_eq!(camel("dot1XEnabled"), "Dot1XEnabled");
        assert_eq!(camel("getMSP-ECs"), "GetMspEcs");
        assert_eq!(variant("2.4G").as_deref(), Some("V24G"));
        assert_eq!(camel("radio24GHz"), "Radio24GHz");
        assert_eq!(shouty("get_msp_ecs"), "GET_MSP_ECS");
    }

    /// Digit then letter in a duration: Rust's UpperCamel case (heck's), no unit.
    #[test]
    fn durations_are_camel_cased_as_rust_does() {
        assert_eq!(variant("P1D").as_deref(), Some("P1d"));
        assert_eq!(variant("PT15M").as_deref(), Some("Pt15m"));
        assert_eq!(variant("PT1H30M").as_deref(), Some("Pt1h30m"));
        assert_eq!(variant("P1Y2M3DT4H").as_deref(), Some("P1y2m3dt4h"));
        assert_eq!(title_words("P1D"), ["P1d"]);
        assert_eq!(snake("PT15M").as_deref(), Some("pt15m"));
        // No duration: a designator without digits, a time part without `T`, other letters.
        for not in ["P", "PT", "PD", "P1", "P1H", "PT1D", "P1DT", "PX1D", "p1d"] {
            assert!(!is_duration(not), "{not}");
        }
        // Units and codes after digits keep their case as before.
        assert_eq!(variant("ICX7X").as_deref(), Some("Icx7X"));
        assert_eq!(variant("K2A_MIGRATION").as_deref(), Some("K2AMigration"));
        assert_eq!(variant("ICX7150-C12P").as_deref(), Some("Icx7150C12P"));
        assert_eq!(variant("24G").as_deref(), Some("V24G"));
        assert_eq!(variant("5GHz").as_deref(), Some("V5GHz"));
        assert_eq!(camel("Radio24GHz"), "Radio24GHz");
        assert_eq!(camel("channel24G"), "Channel24G");
        assert_eq!(camel("dot1XEnabled"), "Dot1XEnabled");
    }

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
        assert_eq!(snake("size²"), None, "the split keeps `²`, Rust rejects it");
        assert_eq!(
            snake("٣x"),
            None,
            "the split keeps `٣`, which cannot start an identifier"
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
