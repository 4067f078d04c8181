//! The command line's name of every operation (`ruckus <area> [<resource>] <verb>`), computed
//! once here and written into the catalog (`Route::command`) so that the names are reviewed in
//! `generated/` diffs and the binary never derives them.
//!
//! The rules, in order:
//! - **area**: the spec area with `_` as `-`, without a leading `wireless-` (`wireless_venues` is
//!   `venues`, `wireless_aps` is `aps`); an area whose name would repeat another API's area or a
//!   built-in command (`api`, `auth`, ...) is prefixed with its API's name;
//! - **verb**: the first word of the operation id when it is a known verb (`get`, `create`, ...),
//!   `list` for a query (`POST .../query`) and for `list_*`; an id that starts with no known verb
//!   is a verb itself (`login`, `msg-template-get-template`);
//! - **resource**: the rest of the id, its last word in the singular, without the stutter: a
//!   leading `venue` when more follows outside the venues area (the venue is a flag), then the
//!   area's own words (`get_venue` in `venues` is `venues get`);
//! - **uniqueness**: where operations want the same name and exactly one of them is a query, the
//!   query keeps it; the others whose names clash, and both a name that is also the start of a
//!   longer one and the longer one, fall back to the operation id as their verb (`networks
//!   delete-networks`); what still clashes (two APIs' areas of one word, with operations of
//!   one id) has the API's name in front of the id.

use crate::ir::{Ir, Method, OpIr};
use std::collections::{BTreeMap, BTreeSet};

/// Top-level words the binary keeps for itself.
pub const BUILT_IN: [&str; 8] = [
    "api",
    "auth",
    "schema",
    "activity",
    "completion",
    "man",
    "help",
    "version",
];

/// Words that start an operation id and are its verb.
const VERBS: [&str; 38] = [
    "get",
    "list",
    "query",
    "create",
    "update",
    "patch",
    "delete",
    "add",
    "remove",
    "activate",
    "deactivate",
    "import",
    "export",
    "download",
    "upload",
    "find",
    "retry",
    "refresh",
    "rotate",
    "invite",
    "resend",
    "enable",
    "disable",
    "assign",
    "clone",
    "reset",
    "reboot",
    "restart",
    "sync",
    "apply",
    "copy",
    "replace",
    "set",
    "move",
    "search",
    "edit",
    "fetch",
    "validate",
];

/// Every operation's words, by API and operation id.
pub struct Names(BTreeMap<(String, String), Vec<String>>);

impl Names {
    pub fn get(&self, api: &str, id: &str) -> Vec<String> {
        self.0
            .get(&(api.to_owned(), id.to_owned()))
            .cloned()
            .unwrap_or_default()
    }
}

/// The words of every generated operation of `ir`.
pub fn names(ir: &Ir) -> Names {
    let areas = area_names(ir);
    let mut first: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut queries = BTreeSet::new();
    for api in &ir.apis {
        for area in &api.areas {
            let area_cmd = &areas[&(api.name.clone(), area.name.clone())];
            for op in area.operations.iter().filter(|o| o.is_generated()) {
                let words = words(area_cmd, &area.name, op);
                if is_query(op) {
                    queries.insert((api.name.clone(), op.id.clone()));
                }
                first.insert((api.name.clone(), op.id.clone()), words);
            }
        }
    }
    let mut clashing = clashes(&first);
    keep_queries(&first, &queries, &mut clashing);
    for key in &clashing {
        let area = first[key][0].clone();
        first.insert(key.clone(), vec![area, key.1.replace('_', "-")]);
    }
    // Two APIs' areas of the same word with operations of the same id: the API names the
    // verb too (keys are unique per API and id, so nothing clashes after this).
    for key in clashes(&first) {
        let area = first[&key][0].clone();
        let verb = format!("{}-{}", key.0, key.1).replace('_', "-");
        first.insert(key, vec![area, verb]);
    }
    Names(first)
}

/// The command word of every area, by (API, area).
fn area_names(ir: &Ir) -> BTreeMap<(String, String), String> {
    let mut short = BTreeMap::new();
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for api in &ir.apis {
        for area in &api.areas {
            let name = area_word(&area.name);
            *count.entry(name.clone()).or_default() += 1;
            short.insert((api.name.clone(), area.name.clone()), name);
        }
    }
    short
        .into_iter()
        .map(|((api, area), name)| {
            let qualified = count[&name] > 1 || BUILT_IN.contains(&name.as_str());
            let name = if qualified {
                format!("{}-{name}", api.replace('_', "-"))
            } else {
                name
            };
            ((api, area), name)
        })
        .collect()
}

fn area_word(area: &str) -> String {
    let name = area.strip_prefix("wireless_").unwrap_or(area);
    name.replace('_', "-")
}

/// The first choice of words for `op` in the area whose command is `area_cmd`.
fn words(area_cmd: &str, area: &str, op: &OpIr) -> Vec<String> {
    let parts: Vec<&str> = op.id.split('_').collect();
    let Some(first) = parts.first().filter(|w| VERBS.contains(w)) else {
        return vec![area_cmd.to_owned(), op.id.replace('_', "-")];
    };
    let verb = if is_query(op) || *first == "list" || *first == "query" {
        "list"
    } else {
        first
    };
    let mut rest: Vec<String> = parts[1..].iter().map(|w| (*w).to_owned()).collect();
    if let Some(last) = rest.last_mut() {
        *last = singular(last);
    }
    let area_words: Vec<String> = area
        .strip_prefix("wireless_")
        .unwrap_or(area)
        .split('_')
        .map(singular)
        .collect();
    if rest.len() > 1 && rest[0] == "venue" && area_words != ["venue"] {
        rest.remove(0);
    }
    let n = area_words.len();
    if rest.len() >= n && rest[..n].iter().map(|w| singular(w)).eq(area_words.clone()) {
        rest.drain(..n);
    }
    let mut out = vec![area_cmd.to_owned()];
    if !rest.is_empty() {
        out.push(rest.join("-"));
    }
    out.push(verb.to_owned());
    out
}

fn is_query(op: &OpIr) -> bool {
    op.method == Method::Post && op.path.ends_with("/query")
}

/// Where a name is wanted by several operations of which exactly one is a query (`POST
/// .../query`), the query keeps it (`switches list` is the paged query, not the plain `GET`).
fn keep_queries(
    names: &BTreeMap<(String, String), Vec<String>>,
    queries: &BTreeSet<(String, String)>,
    clashing: &mut BTreeSet<(String, String)>,
) {
    let mut by_words: BTreeMap<&[String], Vec<&(String, String)>> = BTreeMap::new();
    for key in clashing.iter() {
        by_words.entry(names[key].as_slice()).or_default().push(key);
    }
    let winners: Vec<(String, String)> = by_words
        .values()
        .filter_map(|keys| {
            let mut q = keys.iter().filter(|k| queries.contains(**k));
            match (q.next(), q.next()) {
                (Some(only), None) => Some((*only).clone()),
                _ => None,
            }
        })
        .collect();
    for w in winners {
        clashing.remove(&w);
    }
}

/// An English plural's singular, for the usual endings (`aps`, `policies`, `switches`).
pub fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["sses", "ches", "shes", "xes"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    let keeps = ["ss", "us", "is"].iter().any(|e| word.ends_with(e));
    match word.strip_suffix('s') {
        Some(stem) if !keeps && !stem.is_empty() => stem.to_owned(),
        _ => word.to_owned(),
    }
}

/// The operations whose words equal another's, and both sides where one's words begin
/// another's (a command cannot also be a group of commands).
fn clashes(names: &BTreeMap<(String, String), Vec<String>>) -> BTreeSet<(String, String)> {
    let mut by_words: BTreeMap<&[String], Vec<&(String, String)>> = BTreeMap::new();
    for (key, words) in names {
        by_words.entry(words.as_slice()).or_default().push(key);
    }
    let mut out = BTreeSet::new();
    for (words, keys) in &by_words {
        let is_prefix = (1..words.len()).any(|n| by_words.contains_key(&words[..n]));
        if keys.len() > 1 {
            out.extend(keys.iter().map(|k| (*k).clone()));
        }
        if is_prefix {
            out.extend(keys.iter().map(|k| (*k).clone()));
            for n in 1..words.len() {
                if let Some(shorter) = by_words.get(&words[..n]) {
                    out.extend(shorter.iter().map(|k| (*k).clone()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::singular;

    #[test]
    fn singular_of_common_endings() {
        assert_eq!(singular("aps"), "ap");
        assert_eq!(singular("policies"), "policy");
        assert_eq!(singular("switches"), "switch");
        assert_eq!(singular("status"), "status");
        assert_eq!(singular("venue"), "venue");
    }
}
