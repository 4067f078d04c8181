//! Which API each description file belongs to, by the curated operations it lists.

use super::Docs;
use crate::openapi as desc;
use std::collections::BTreeMap;

/// `(METHOD, normalised path with the API prefix)` of every curated operation of every API.
pub fn spec_keys(
    loaded: &ruckus_codegen::load::Loaded,
) -> std::collections::BTreeSet<(String, String)> {
    let mut out = std::collections::BTreeSet::new();
    for (api, areas) in loaded.top.apis.iter().zip(&loaded.areas) {
        for op in areas.iter().flat_map(|(_, a)| &a.operations) {
            let path = format!("{}{}", api.prefix.value, op.path);
            out.insert((op.method.as_str().to_owned(), desc::normalise_path(&path)));
        }
    }
    out
}

/// Which API (by index) each description file's routes belong to: the API whose curated
/// operations are most of its routes (the first on a tie); a file none of whose routes is an
/// operation goes to the API that matches the most routes overall.
pub fn owners(
    docs: &Docs,
    loaded: &ruckus_codegen::load::Loaded,
) -> BTreeMap<usize, std::collections::BTreeSet<String>> {
    let per_api: Vec<std::collections::BTreeSet<(String, String)>> = loaded
        .top
        .apis
        .iter()
        .zip(&loaded.areas)
        .map(|(api, areas)| {
            let mut keys = std::collections::BTreeSet::new();
            for op in areas.iter().flat_map(|(_, a)| &a.operations) {
                let path = format!("{}{}", api.prefix.value, op.path);
                keys.insert((op.method.as_str().to_owned(), desc::normalise_path(&path)));
            }
            keys
        })
        .collect();
    let mut counts: BTreeMap<&String, Vec<usize>> = BTreeMap::new();
    for (file, doc) in docs {
        let mut c = vec![0; per_api.len()];
        for (path, method, _) in doc.operations() {
            let key = (method.to_uppercase(), desc::normalise_path(path));
            for (k, keys) in per_api.iter().enumerate() {
                c[k] += usize::from(keys.contains(&key));
            }
        }
        counts.insert(file, c);
    }
    let best = |c: &[usize]| {
        let max = c.iter().copied().max().unwrap_or(0);
        c.iter().position(|n| *n == max).unwrap_or(0)
    };
    let mut totals = vec![0; per_api.len()];
    for c in counts.values() {
        for (t, n) in totals.iter_mut().zip(c) {
            *t += n;
        }
    }
    let fallback = best(&totals);
    let mut out: BTreeMap<usize, std::collections::BTreeSet<String>> = BTreeMap::new();
    for (file, c) in counts {
        let api = if c.iter().all(|n| *n == 0) {
            fallback
        } else {
            best(&c)
        };
        out.entry(api).or_default().insert(file.clone());
    }
    out
}
