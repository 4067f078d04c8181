//! Where each imported type is written: the one area that reaches it, else `common`.

use crate::import::convert::{self, Converter};
use std::collections::{BTreeMap, BTreeSet};

/// For each draft some root reaches, its home: the one area that reaches it (curated and
/// drafted roots alike), else `common`; a type of `common` thus never needs an area's type.
pub(super) fn homes(
    conv: &Converter<'_>,
    curated: &[(String, String)],
    drafted: &[(String, String)],
) -> BTreeMap<String, String> {
    let all: Vec<(String, String)> = curated.iter().chain(drafted).cloned().collect();
    reach_homes(conv, &all)
}

fn reach_homes(conv: &Converter<'_>, roots: &[(String, String)]) -> BTreeMap<String, String> {
    let mut reach: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (area, ty) in roots {
        let mut stack: Vec<String> = convert::names_in(ty);
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            let Some(d) = conv.drafts.get(&n) else {
                continue;
            };
            if !seen.insert(n.clone()) {
                continue;
            }
            reach.entry(n).or_default().insert(area.clone());
            stack.extend(convert::references(&d.kind));
        }
    }
    reach
        .into_iter()
        .map(|(n, areas)| {
            let home = match areas.len() {
                1 => areas.into_iter().next().unwrap_or_default(),
                _ => "common".to_owned(),
            };
            (n, home)
        })
        .collect()
}
