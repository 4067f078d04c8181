//! Ranked search over the operations: weighted word overlap between the query and each
//! operation's id, summary, path and area, each word weighted by how rare it is (an IDF, as
//! in BM25), with a few synonyms (`list` = `query` = `find`, `ap` = `access point`).

use std::collections::{HashMap, HashSet};

use crate::index::{Effect, Index, Op};
use ruckus_one_catalog::Role;

/// Where a word was found, and what it counts for.
const ID_WEIGHT: f64 = 3.0;
const SUMMARY_WEIGHT: f64 = 2.0;
const PATH_WEIGHT: f64 = 1.0;
const AREA_WEIGHT: f64 = 1.0;

/// Words that say nothing about an operation.
const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "of", "in", "on", "for", "to", "all", "my", "by", "with", "at", "and", "or",
    "from", "into", "i", "me", "please", "which", "what", "every", "each", "one",
];

/// What a search may be narrowed to.
#[derive(Debug, Default, Clone)]
pub(crate) struct Filter {
    pub area: Option<String>,
    pub effect: Option<Effect>,
}

/// The words of every operation, and how rare each word is.
#[derive(Debug)]
pub(crate) struct Searcher {
    docs: Vec<Doc>,
    idf: HashMap<String, f64>,
}

#[derive(Debug)]
struct Doc {
    op: Op,
    /// Each word with the largest weight it has in this operation.
    words: HashMap<String, f64>,
    /// The number of words of the id (shorter ids win ties: `create_venue` over
    /// `create_venue_ap_group`).
    id_len: usize,
}

impl Searcher {
    pub(crate) fn new(index: &Index) -> Searcher {
        let docs: Vec<Doc> = index.ops.iter().map(|op| doc(*op)).collect();
        let mut df: HashMap<&str, usize> = HashMap::new();
        for d in &docs {
            for word in d.words.keys() {
                *df.entry(word.as_str()).or_default() += 1;
            }
        }
        let n = docs.len() as f64;
        let idf = df
            .into_iter()
            .map(|(w, f)| {
                (
                    w.to_owned(),
                    (1.0 + (n - f as f64 + 0.5) / (f as f64 + 0.5)).ln(),
                )
            })
            .collect();
        Searcher { docs, idf }
    }

    /// The best `limit` operations for `query`, best first: the verb the words ask for
    /// first (an operation doing something else counts for a third), then how well the
    /// resource words match, a deprecated operation counting for half.
    pub(crate) fn search(&self, query: &str, filter: &Filter, limit: usize) -> Vec<Op> {
        let path_query = query.trim().starts_with('/').then(|| query.trim());
        let intent = if path_query.is_some() {
            None
        } else {
            intent(query)
        };
        let words: Vec<String> = dedup(words(query))
            .into_iter()
            .filter(|w| !VERBS.contains(&w.as_str()))
            .collect();
        let mut scored: Vec<(f64, usize, &Doc)> = self
            .docs
            .iter()
            .filter(|d| filter.matches(&d.op))
            .filter_map(|d| {
                let score = self.relevance(d, &words, path_query);
                if score <= 0.0 {
                    return None;
                }
                let verb = match intent {
                    Some(verb) if verb_of(d.op) != verb => 1.0 / 3.0,
                    _ => 1.0,
                };
                let lifecycle = match d.op.route.lifecycle {
                    ruckus_one_catalog::LifecycleStatus::Stable => 1.0,
                    _ => 0.5,
                };
                Some((score * verb * lifecycle, d.id_len, d))
            })
            .collect();
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(a.1.cmp(&b.1))
                .then_with(|| a.2.op.route.id.cmp(&b.2.op.route.id))
        });
        scored
            .into_iter()
            .take(limit)
            .map(|(_, _, d)| d.op)
            .collect()
    }

    /// How well the resource `words` (or a path) match `d`; shorter ids win over longer ones
    /// matching as well (`create_venue` over `create_venue_ap_group`).
    fn relevance(&self, d: &Doc, words: &[String], path_query: Option<&str>) -> f64 {
        let mut score: f64 = words
            .iter()
            .filter_map(|w| Some(d.words.get(w)? * self.idf.get(w).copied().unwrap_or(0.0)))
            .sum();
        if let Some(path) = path_query {
            score += path_score(&d.op.route.path, path);
        }
        let matched = words.iter().filter(|w| d.words.contains_key(*w)).count();
        if matched == words.len() && matched > 0 {
            score *= 1.5;
        }
        score / (1.0 + 0.15 * d.id_len as f64)
    }
}

/// The verbs a query may say, after synonyms.
const VERBS: &[&str] = &["list", "get", "create", "update", "delete"];

/// The verb a query asks for: the one it says, else `list` when it names things in the
/// plural (`MSP customers`, `switch ports`); none otherwise.
fn intent(query: &str) -> Option<&'static str> {
    let said = words(query)
        .into_iter()
        .find_map(|w| VERBS.iter().find(|v| **v == w).copied());
    if said.is_some() {
        return said;
    }
    let plural = query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .any(|w| w.len() > 2 && w.ends_with('s') && singular(&w) != w);
    plural.then_some("list")
}

impl Filter {
    fn matches(&self, op: &Op) -> bool {
        self.effect.is_none_or(|e| e == op.effect())
            && self
                .area
                .as_deref()
                .is_none_or(|a| a == op.route.area || a == op.table.api.name)
    }
}

/// How well a path (`/venues/{venueId}/aps`) matches a path query (`/venues/aps`).
fn path_score(path: &str, query: &str) -> f64 {
    if path == query {
        return 20.0;
    }
    if path.starts_with(query) {
        return 8.0;
    }
    let literal = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|s| !s.is_empty() && !s.starts_with('{'))
            .map(str::to_lowercase)
            .collect()
    };
    if literal(path) == literal(query) {
        12.0
    } else {
        0.0
    }
}

fn doc(op: Op) -> Doc {
    let mut weights: HashMap<String, f64> = HashMap::new();
    let mut add = |list: Vec<String>, weight: f64| {
        for w in list {
            let entry = weights.entry(w).or_insert(0.0);
            *entry = entry.max(weight);
        }
    };
    let id_words = words_of_id(&op.route.id);
    let id_len = id_words.len();
    add(id_words, ID_WEIGHT);
    add(words(&op.route.summary), SUMMARY_WEIGHT);
    add(words(&op.route.path), PATH_WEIGHT);
    add(words(&op.route.area.replace('_', " ")), AREA_WEIGHT);
    add(vec![op.table.api.name.clone()], AREA_WEIGHT);
    Doc {
        op,
        words: weights,
        id_len,
    }
}

/// What an operation does, as a query's verb says it: its role, else its id's first word.
fn verb_of(op: Op) -> &'static str {
    match (op.route.role, op.effect()) {
        (_, Effect::Delete) => "delete",
        (Role::List | Role::Query | Role::QueryAcross | Role::CustomerQuery, _) => "list",
        (Role::Create, _) => "create",
        (_, effect) => match op.route.id.split('_').next().unwrap_or_default() {
            "list" | "query" | "find" | "search" => "list",
            "create" | "add" => "create",
            _ if effect == Effect::Read => "get",
            _ => "update",
        },
    }
}

fn words_of_id(id: &str) -> Vec<String> {
    dedup(words(&id.replace('_', " ")))
}

fn dedup(mut list: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    list.retain(|w| seen.insert(w.clone()));
    list
}

/// The search words of `text`: camelCase and punctuation split, lower case, stop words and
/// path placeholders dropped, plurals and synonyms folded.
pub(crate) fn words(text: &str) -> Vec<String> {
    let text = text
        .replace("access point", "ap")
        .replace("Access point", "ap")
        .replace("Wi-Fi", "wifi")
        .replace("wi-fi", "wifi");
    let mut out = Vec::new();
    for raw in text.split(|c: char| !c.is_alphanumeric() && c != '{' && c != '}') {
        if raw.is_empty() || raw.starts_with('{') {
            continue;
        }
        for part in split_camel(raw) {
            let lower = part.to_lowercase();
            if STOP_WORDS.contains(&lower.as_str()) {
                continue;
            }
            out.push(synonym(&singular(&lower)).to_owned());
        }
    }
    out
}

fn split_camel(word: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        // `APs`: an acronym's plural, not `A` and `Ps`.
        let plural_s = i + 2 == chars.len() && chars[i + 1].1 == 's';
        let next_lower = !plural_s && chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        if c.is_uppercase() && (prev.is_lowercase() || (prev.is_uppercase() && next_lower)) {
            parts.push(&word[start..at]);
            start = at;
        }
    }
    parts.push(&word[start..]);
    parts
}

fn singular(word: &str) -> String {
    match word {
        "aps" => "ap".to_owned(),
        "ecs" => "ec".to_owned(),
        _ if word.len() > 4 && word.ends_with("ies") => format!("{}y", &word[..word.len() - 3]),
        _ if word.len() > 3
            && word.ends_with('s')
            && !word.ends_with("ss")
            && !word.ends_with("us") =>
        {
            word[..word.len() - 1].to_owned()
        }
        _ => word.to_owned(),
    }
}

fn synonym(word: &str) -> &str {
    match word {
        "query" | "find" | "search" | "show" | "enumerate" => "list",
        "fetch" | "read" | "view" | "retrieve" | "detail" => "get",
        "add" | "new" | "make" | "register" => "create",
        "remove" | "erase" | "destroy" => "delete",
        "change" | "modify" | "edit" | "set" | "configure" | "replace" | "rename" => "update",
        "site" | "location" => "venue",
        "wlan" | "ssid" => "wifi",
        "connected" => "client",
        "switche" => "switch",
        "customer" | "ec" => "customer",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruckus_one_catalog::Catalog;

    fn ids(query: &str) -> Vec<String> {
        let index = Index::new(Catalog::get().unwrap());
        Searcher::new(&index)
            .search(query, &Filter::default(), 5)
            .iter()
            .map(|op| op.id())
            .collect()
    }

    #[test]
    fn words_fold_case_plurals_and_synonyms() {
        assert_eq!(words("List the APs of a venue"), ["list", "ap", "venue"]);
        assert_eq!(
            words("/venues/{venueId}/apGroups"),
            ["venue", "ap", "group"]
        );
        assert_eq!(words("activities"), ["activity"]);
        assert_eq!(words("access points"), ["ap"]);
        assert_eq!(words("Wi-Fi networks"), ["wifi", "network"]);
    }

    #[test]
    fn the_two_acceptance_queries_rank_first() {
        assert_eq!(ids("list the APs of a venue")[0], "query_venue_aps");
        assert_eq!(ids("create a venue")[0], "create_venue");
    }

    /// Queries people ask, and an operation each must find in its top 3 (`!`: first).
    const ASKED: &[(&str, &[&str])] = &[
        ("MSP customers", &["list_msp_customers", "query_msp_ecs"]),
        ("switch ports", &["!query_venue_switch_ports"]),
        ("list the APs of a venue", &["!query_venue_aps"]),
        ("create a venue", &["!create_venue"]),
        ("venues", &["query_venues"]),
        ("show all access points", &["query_venue_aps"]),
        ("delete a venue", &["!delete_venue"]),
        ("wifi networks", &["!query_wifi_networks"]),
        ("list switches", &["query_venue_switches"]),
        ("recent activities", &["!query_activities"]),
        ("connected clients", &["query_venue_ap_clients"]),
        ("get a venue", &["!get_venue"]),
        ("rename a venue", &["!update_venue"]),
        ("AP groups", &["query_venue_ap_groups"]),
        ("switch clients", &["!query_venue_switch_clients"]),
        ("list administrators", &["list_admins"]),
        ("firmware versions", &["list_switch_firmware_versions"]),
        ("RADIUS servers", &["!query_radius_server_profiles"]),
        ("guest passes", &["!query_guest_users"]),
        ("list ECs", &["query_msp_ecs"]),
        ("/venues/{venueId}", &["get_venue"]),
    ];

    #[test]
    fn the_top_three_of_queries_people_ask() {
        let index = Index::new(Catalog::get().unwrap());
        let searcher = Searcher::new(&index);
        for (query, expected) in ASKED {
            let found = searcher.search(query, &Filter::default(), 3);
            let ids: Vec<String> = found.iter().map(|op| op.id()).collect();
            for id in *expected {
                match id.strip_prefix('!') {
                    Some(first) => assert_eq!(ids[0], first, "{query}: {ids:?}"),
                    None => assert!(ids.iter().any(|i| i == id), "{query}: {id} not in {ids:?}"),
                }
            }
            // A current operation comes before a deprecated one.
            let first = found[0].route.lifecycle;
            assert_ne!(
                first,
                ruckus_one_catalog::LifecycleStatus::Deprecated,
                "{query}: {ids:?}"
            );
        }
    }

    #[test]
    fn a_path_finds_its_operations() {
        assert!(ids("/venues/{venueId}").contains(&"get_venue".to_owned()));
    }
}
