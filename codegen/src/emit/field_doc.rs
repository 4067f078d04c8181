//! The rustdoc of a model's fields: a field's own description with its wire facts, or one line
//! for a field without one (the wire name in words and what the Rust signature does not say).

use super::describe::provenance_line;
use super::text::{code, prose, type_doc};
use crate::ir::FieldIr;

/// A field's rustdoc. With a description of its own: the description, then a line of wire
/// facts (name, type, presence and constraints), deprecation and provenance. Without one: a
/// single line, the wire name in words followed by only what the Rust signature does not say
/// (nullability, redaction, constraints, deprecation, a provenance of its own); the wire name
/// itself is in the serde code.
pub(super) fn field_doc(f: &FieldIr) -> Vec<String> {
    let Some(description) = f.description.as_deref().filter(|d| !d.trim().is_empty()) else {
        return vec![bare_field_doc(f)];
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

/// The one doc line of a field without a description (see [`field_doc`]).
fn bare_field_doc(f: &FieldIr) -> String {
    let label = words(&f.wire);
    let mut line = if label.is_empty() {
        code(&f.wire)
    } else {
        prose(&label)
    };
    let facts = extra_facts(f);
    if !facts.is_empty() {
        line.push_str(&format!(" ({})", facts.join("; ")));
    }
    line.push('.');
    if let Some(dep) = &f.deprecated {
        line.push_str(&format!(" Deprecated: {}", prose(dep)));
    }
    if let Some(p) = f.stated_provenance() {
        line.push(' ');
        line.push_str(&provenance_line(p));
    }
    line
}

/// Words that read as acronyms in a field's label.
const ACRONYMS: &[&str] = &[
    "aaa", "acl", "ap", "api", "bss", "cli", "cpe", "cpu", "dhcp", "dns", "dpsk", "guid", "http",
    "https", "id", "ip", "json", "lan", "lldp", "mac", "mfa", "mld", "mtu", "nat", "ntp", "os",
    "poe", "psk", "qos", "radius", "rssi", "saml", "sms", "snmp", "snr", "ssh", "ssid", "sso",
    "tls", "ttl", "uri", "url", "uuid", "vlan", "wan", "wlan",
];

/// A wire name as words (`expireDateTime` -> `Expire date time`, `vlanIds` -> `VLAN IDs`):
/// split at `_`, `-`, spaces, dots and case changes; acronyms upper case, the first letter
/// capital. Empty when the name has no letter or digit.
fn words(wire: &str) -> String {
    let chars: Vec<char> = wire.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let before = i.checked_sub(2).map(|j| chars[j]);
        let boundary = match prev {
            // `dateTime`; `load24`, but not `ipv4` or `l2`.
            Some(p) if p.is_lowercase() => {
                c.is_uppercase()
                    || (c.is_ascii_digit()
                        && word.chars().count() > 1
                        && word.to_lowercase() != "ipv")
            }
            // `HTTPServer`, but not `160MHz`.
            Some(p) if p.is_uppercase() => {
                c.is_uppercase()
                    && before.is_some_and(char::is_uppercase)
                    && next.is_some_and(char::is_lowercase)
            }
            // `ipv4Address`, but not `24G` or `160MHz`.
            Some(p) if p.is_ascii_digit() => {
                c.is_uppercase() && next.is_some_and(char::is_lowercase)
            }
            _ => false,
        };
        if boundary && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c);
    }
    words.extend((!word.is_empty()).then_some(word));
    let words: Vec<String> = words.into_iter().map(|w| word_case(&w)).collect();
    let mut label = words.join(" ");
    if let Some(first) = label.chars().next()
        && first.is_lowercase()
    {
        label = first.to_uppercase().chain(label.chars().skip(1)).collect();
    }
    label
}

/// One word of a label: an acronym upper case (`ipv4` -> `IPv4`, `aps` -> `APs`), a plain or
/// capitalised word lower case, any other (`MHz`, `24G`) as written.
fn word_case(w: &str) -> String {
    let mut rest = w.chars().skip(1);
    let plain = rest.all(|c| c.is_lowercase() || c.is_ascii_digit());
    if !plain {
        return w.to_owned();
    }
    let lower = w.to_lowercase();
    if let Some(version) = lower.strip_prefix("ipv") {
        return format!("IPv{version}");
    }
    let acronym = |a: &str| ACRONYMS.contains(&a);
    match lower.strip_suffix('s') {
        _ if acronym(&lower) => lower.to_uppercase(),
        Some(stem) if acronym(stem) => format!("{}s", stem.to_uppercase()),
        _ => lower,
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn wire_names_read_as_words() {
        for (wire, label) in [
            ("id", "ID"),
            ("expireDateTime", "Expire date time"),
            ("vlanIds", "VLAN IDs"),
            ("bssColoringEnabled", "BSS coloring enabled"),
            ("maxRadioLoad24G", "Max radio load 24G"),
            ("enable50G", "Enable 50G"),
            ("l2AclPolicyName", "L2 ACL policy name"),
            ("160MHz", "160MHz"),
            ("_links", "Links"),
            ("HTTPServer", "HTTP server"),
            ("ipv4Address", "IPv4 address"),
            ("snake_case-and.dots", "Snake case and dots"),
            ("numberOfAps", "Number of APs"),
            ("dns", "DNS"),
            ("", ""),
            ("--", ""),
        ] {
            assert_eq!(words(wire), label, "{wire}");
        }
    }
}
