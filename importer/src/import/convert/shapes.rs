//! One shape, one type: identical shapes share a draft, and a shared draft is named after the
//! ending its owners' names have in common.

use super::{Converter, Kind, references};
use ruckus_codegen::names;
use std::collections::BTreeMap;

impl Converter<'_> {
    /// An earlier named object of the same shape whose name differs from `name` only in its
    /// first word (`GuestWifiWlanAdvancedCustomization` and `AaaWifiWlanAdvancedCustomization`):
    /// the vendor's copies of one object for several kinds of a thing share one type. A schema
    /// the curated spec names keeps its own type, and so does one a draft already mentions.
    pub(super) fn sibling(
        &mut self,
        key: &(String, String),
        name: &str,
        kind: &Kind,
    ) -> Option<String> {
        if self.pins.contains_key(key) || self.mentioned(name) {
            return None;
        }
        let same = self.shapes.get(&shape_key(kind))?.clone();
        let draft = self.drafts.get(&same)?;
        if draft.source.contains("(inline") || !siblings(&same, name) {
            return None;
        }
        self.shared_by(&same, &same, name);
        Some(same)
    }

    /// Records that the shape of draft `draft` (first named `first`) stands also where it would
    /// have been named `name`.
    pub(super) fn shared_by(&mut self, draft: &str, first: &str, name: &str) {
        let owners = self.owners.entry(draft.to_owned()).or_default();
        if owners.is_empty() {
            owners.push(first.to_owned());
        }
        owners.push(name.to_owned());
    }

    /// Merges inline copies into the curated root of their shape met later, then names each
    /// shared type after the words its owners' names end with in common
    /// (`WifiWlanManagementFrameProtection` for `AaaWifiWlanManagementFrameProtection` and
    /// `PskWifiWlanManagementFrameProtection`), when that is two words or more and free; else
    /// after its sibling owners' first words joined ([`joined_siblings`]); else after the words
    /// every owner's name has, in order ([`common_words`]: `AclRuleAction` for
    /// `ProfileAclRuleViewAction` and `AclRuleBoAction`); else it keeps the first owner's name. Names the curated spec gives are kept. References follow.
    /// Run once, after every root is converted; the order is the drafts' name order, so the
    /// result is deterministic.
    /// Returns the renames (old name -> new name), for references held outside the drafts.
    pub fn name_shared(&mut self) -> BTreeMap<String, String> {
        let merges = self.merges_into_roots();
        let mut renames: BTreeMap<String, String> = merges.clone();
        let owners = std::mem::take(&mut self.owners);
        for (from, names) in owners {
            if merges.contains_key(&from) {
                continue;
            }
            let kept = self.root_names.contains(&from) || self.pins.values().any(|p| *p == from);
            let to = [
                common_suffix(&names),
                joined_siblings(&names),
                common_words(&names),
            ]
            .into_iter()
            .flatten()
            .find(|to| *to == from || self.name_free(to));
            let Some(to) = to else {
                continue;
            };
            if kept || to == from {
                continue;
            }
            self.taken.insert(to.clone());
            renames.insert(from, to);
        }
        if renames.is_empty() {
            return renames;
        }
        let drafts = std::mem::take(&mut self.drafts);
        for (name, mut d) in drafts {
            if merges.contains_key(&name) {
                self.taken.remove(&name);
                continue;
            }
            let name = renames.get(&name).cloned().unwrap_or(name);
            d.name = name.clone();
            rename_refs(&mut d.kind, &renames);
            self.drafts.insert(name, d);
        }
        for (from, to) in &renames {
            if !merges.contains_key(from) {
                self.taken.remove(from);
            }
            for v in self.shapes.values_mut() {
                if v == from {
                    v.clone_from(to);
                }
            }
        }
        renames
    }

    /// Keeps the name of every draft so far: what later roots share with them does not rename
    /// them (the operations the import drafts come after the curated roots, whose types keep
    /// the names they had without them).
    pub fn freeze(&mut self) {
        self.root_names.extend(self.drafts.keys().cloned());
    }

    /// Inline shapes met before a root the curated spec names, identical to it: they become
    /// that root's type (the root was still to come when they were placed, so they could not
    /// reuse it). Where several roots have one shape, the first by name takes them.
    fn merges_into_roots(&self) -> BTreeMap<String, String> {
        let mut roots: BTreeMap<String, &str> = BTreeMap::new();
        for d in self.drafts.values() {
            if self.root_names.contains(&d.name) {
                roots.entry(shape_key(&d.kind)).or_insert(&d.name);
            }
        }
        self.drafts
            .values()
            .filter(|d| d.source.contains("(inline") && !self.root_names.contains(&d.name))
            .filter_map(|d| {
                let root = roots.get(&shape_key(&d.kind))?;
                Some((d.name.clone(), (*root).to_owned()))
            })
            .collect()
    }

    pub(super) fn name_free(&self, name: &str) -> bool {
        !self.taken.contains(name)
            && !self.reserved.contains(name)
            && !self.drafts.contains_key(name)
    }

    pub(super) fn same_shape(&self, wanted: &str, kind: &Kind) -> Option<String> {
        self.drafts
            .get(wanted)
            .filter(|d| &d.kind == kind)
            .map(|d| d.name.clone())
    }

    /// Whether a draft's field or variant already names `name` (then it cannot be merged away).
    pub(super) fn mentioned(&self, name: &str) -> bool {
        self.drafts
            .values()
            .any(|d| references(&d.kind).iter().any(|r| r == name))
    }
}

/// A shape written out, the key under which identical shapes share one draft: kind, values
/// in order (the order is the description's and becomes the variants' order, so two orders are
/// two shapes), fields with every fact the spec records.
pub(super) fn shape_key(kind: &Kind) -> String {
    format!("{kind:?}")
}

/// Whether two names differ only in their first word (a word begins with an upper-case
/// letter), the rest being two words or more: `AaaWifiWlan` and `PskWifiWlan` are siblings,
/// `ApIotSettings` and `ApUsbSettings` are not.
pub(super) fn siblings(a: &str, b: &str) -> bool {
    match (rest(a), rest(b)) {
        (Some(ra), Some(rb)) => {
            ra == rb && a != b && ra.chars().filter(char::is_ascii_uppercase).count() >= 2
        }
        _ => false,
    }
}

/// A name after its first word (`WifiWlan` for `AaaWifiWlan`).
fn rest(name: &str) -> Option<&str> {
    let at = name
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_uppercase())?
        .0;
    Some(&name[at..])
}

/// For two or three sibling names, their first words joined before the rest they share
/// (`DpskOpenWifiWlan` for `DpskWifiWlan` and `OpenWifiWlan`): the name a shared type takes when
/// the rest alone is taken, so that neither sibling's name stands for both.
pub(super) fn joined_siblings(names: &[String]) -> Option<String> {
    let mut distinct: Vec<&String> = Vec::new();
    for n in names {
        if !distinct.contains(&n) {
            distinct.push(n);
        }
    }
    let (first, others) = distinct.split_first()?;
    if !(1..=2).contains(&others.len()) || !others.iter().all(|o| siblings(first, o)) {
        return None;
    }
    let shared = rest(first)?;
    let mut out: String = distinct
        .iter()
        .map(|n| &n[..n.len() - shared.len()])
        .collect();
    out.push_str(shared);
    Some(out)
}

/// The longest ending all `names` share that starts a word in each (the whole name, or an
/// upper-case letter after a character that is not one and before a lower-case one: `Wlan` in
/// `Hotspot20Wlan`, not `GHz` in `Radio5GHz`) and is two words or more; `None` otherwise.
pub(super) fn common_suffix(names: &[String]) -> Option<String> {
    let first = names.first()?;
    let mut len = first.len();
    for n in &names[1..] {
        let same = first
            .bytes()
            .rev()
            .zip(n.bytes().rev())
            .take_while(|(a, b)| a == b)
            .count();
        len = len.min(same);
    }
    let starts_word = |n: &str, at: usize| {
        let b = n.as_bytes();
        let lower_next = b.get(at + 1).is_none_or(u8::is_ascii_lowercase);
        at == 0 || (b[at].is_ascii_uppercase() && !b[at - 1].is_ascii_uppercase() && lower_next)
    };
    while len > 0 {
        let ok = names.iter().all(|n| {
            let at = n.len() - len;
            n.is_char_boundary(at) && starts_word(n, at)
        });
        if ok {
            break;
        }
        len -= 1;
    }
    let suffix = &first[first.len() - len..];
    let words = suffix
        .char_indices()
        .filter(|&(i, _)| starts_word(suffix, i) || i == 0)
        .count();
    (len > 0 && words >= 2).then(|| suffix.to_owned())
}

/// The words every name has, in the order they come in (a longest common subsequence of the
/// names' words, the first name's where several are as long), when that is two words or more
/// and ends with the names' common last word: `AclRuleAction` for
/// `ProfileAclRuleViewAction`, `AclRuleBoAction` and `SwitchAclRuleViewAction`. The name says
/// what the owners' types have in common, not who met it first. Not for two names one word
/// apart (`OnboardNotAfterType`, `OnboardNotBeforeType`): that word is what they mean, and the
/// rest (`OnboardNotType`) names neither.
pub(super) fn common_words(names: &[String]) -> Option<String> {
    let mut split: Vec<Vec<String>> = Vec::new();
    for words in names.iter().map(|n| names::title_words(n)) {
        if !split.contains(&words) {
            split.push(words);
        }
    }
    if let [a, b] = &split[..]
        && a.len() == b.len()
        && a.iter().zip(b).filter(|(x, y)| x != y).count() == 1
    {
        return None;
    }
    let (first, others) = split.split_first()?;
    let mut common = first.clone();
    for w in others {
        common = longest_common(&common, w);
    }
    if common.len() < 2 || !split.iter().all(|w| w.last() == common.last()) {
        return None;
    }
    Some(common.concat())
}

/// A longest common subsequence of two word lists (the earliest in `a` among equals).
fn longest_common(a: &[String], b: &[String]) -> Vec<String> {
    // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lengths = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lengths[i][j] = if a[i] == b[j] {
                lengths[i + 1][j + 1] + 1
            } else {
                lengths[i + 1][j].max(lengths[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            out.push(a[i].clone());
            (i, j) = (i + 1, j + 1);
        } else if lengths[i + 1][j] >= lengths[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Renames the type names a draft mentions.
pub(super) fn rename_refs(kind: &mut Kind, renames: &BTreeMap<String, String>) {
    match kind {
        Kind::Object(fields) => {
            for f in fields {
                f.ty = rename_expr(&f.ty, renames);
            }
        }
        Kind::Union { variants, .. } => {
            for v in variants {
                v.ty = rename_expr(&v.ty, renames);
            }
        }
        Kind::Enum(_) => {}
    }
}

/// `array<Old>` -> `array<New>`: every name of the expression that `renames` maps (the rule
/// the loader applies to overrides' renames).
pub(super) fn rename_expr(ty: &str, renames: &BTreeMap<String, String>) -> String {
    ruckus_codegen::overrides::rename_in(ty, renames)
}
