//! Mis-split names in the generated client (issue 31): a wire name's words must survive the
//! conversion to Rust. Every snake_case identifier of `generated/ruckus-one/src` is scanned for
//! the marks a split leaves inside a word: a lone letter (`channel24_g`, `get_msp_e_cs`,
//! `download_ca_p`, `..._settings_v`) or a consonant and a plural `s` after a short segment
//! (`e_pd_gs`). The `n_` prefix of a name starting with a digit and the coordinates `x`, `y`, `z`
//! are words.

use std::collections::BTreeSet;
use std::path::Path;

/// Names the rule cannot join, with their wire names: `cellularIPaddress` capitalises `IP` and
/// not `address` (read as `I` + `Paddress`), and `ePDGs` shares a type with a field `epdgs` that
/// the joined name would collide with. Their builder methods (`with_...`) too.
const VENDOR_SPELLINGS: [&str; 2] = ["cellular_i_paddress", "e_pdgs"];

/// Every snake_case identifier with at least one `_` in the Rust files under `dir`.
fn identifiers(dir: &Path, out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let path = e.expect("dir entry").path();
        if path.is_dir() {
            identifiers(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path).expect("read file");
            let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            out.extend(
                words
                    .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))
                    .filter(|w| w.contains('_') && !w.contains(char::is_uppercase))
                    .map(str::to_owned),
            );
        }
    }
}

/// Whether a snake_case name shows a word split apart.
pub fn mis_split(name: &str) -> bool {
    let segments: Vec<&str> = name.split('_').collect();
    segments.iter().enumerate().any(|(i, s)| {
        let lone = s.len() == 1 && s.chars().all(|c| c.is_ascii_lowercase());
        // `n_2fa`, and its builder method `with_n_2fa`.
        let prefix = *s == "n" && (i == 0 || (i == 1 && segments[0] == "with"));
        let coordinate = ["x", "y", "z"].contains(s);
        // `pd_gs` of `PDGs`; not `date_ts` or `paced_ms`.
        let short_before = i > 0 && segments[i - 1].len() <= 2;
        let plural = short_before
            && s.len() == 2
            && s.ends_with('s')
            && !s.starts_with(['a', 'e', 'i', 'o', 'u']);
        (lone && !prefix && !coordinate) || plural
    })
}

#[test]
fn the_rule_finds_split_words() {
    for bad in [
        "channel24_g",
        "get_msp_e_cs",
        "download_ca_p",
        "get_venue_template_ap_mesh_settings_v",
        "has160_m_hz_channel_bandwidth",
        "e_pd_gs",
        "orphaned_a_ps",
    ] {
        assert!(mis_split(bad), "{bad}");
    }
    for good in [
        "channel24g",
        "get_msp_ecs",
        "download_ca_p12",
        "get_venue_template_ap_mesh_settings_v1",
        "n_2_4g_channels",
        "with_n_160mhz",
        "x_percent",
        "is_enabled",
        "expiration_date_ts",
        "paced_ms",
        "with_ssid",
    ] {
        assert!(!mis_split(good), "{good}");
    }
}

#[test]
fn the_generated_client_has_no_mis_split_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("root");
    let mut names = BTreeSet::new();
    identifiers(&root.join("generated/ruckus-one/src"), &mut names);
    assert!(names.len() > 1000, "the scan found too few names");
    let known = |n: &str| VENDOR_SPELLINGS.contains(&n.strip_prefix("with_").unwrap_or(n));
    let bad: Vec<&String> = names.iter().filter(|n| mis_split(n) && !known(n)).collect();
    assert!(
        bad.is_empty(),
        "mis-split names ({}):\n{}",
        bad.len(),
        bad.iter().map(|n| format!("  {n}\n")).collect::<String>()
    );
}
