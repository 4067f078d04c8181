//! Where a drafted operation goes: a curated `area:` override, else the first rule of the
//! API's placement file (`spec/<api>/placement.yaml`, written by people) that matches its
//! description file and path, else the area of the curated operations of the same
//! description whose paths share the most leading segments with it.

use crate::openapi::{Document, normalise_path};
use ruckus_codegen::spec::{Area, Override};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The file beside an API's area files that holds its placement rules.
pub const PLACEMENT_FILE: &str = "placement.yaml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    rules: Vec<Rule>,
}

/// Routes of these description files (by the name before the version: `workflow_actions_api`)
/// and, when `paths` is given, under one of these path prefixes, go to `area`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Rule {
    area: String,
    files: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
}

/// The placement rules of one API, the `area:` overrides and the curated operations of each
/// description file.
pub struct Placement {
    rules: Vec<Rule>,
    moves: BTreeMap<String, String>,
    /// Description file -> `(area, normalised path)` of the curated operations on its routes.
    neighbours: BTreeMap<String, Vec<(String, String)>>,
}

impl Placement {
    /// Reads `dir/placement.yaml` (no rules when it is absent) and indexes the curated
    /// operations by the description file listing their route.
    pub fn new(
        dir: &Path,
        docs: &BTreeMap<String, Document>,
        areas: &[&Area],
        prefix: &str,
    ) -> Result<Placement, String> {
        let path = dir.join(PLACEMENT_FILE);
        let file: File = match std::fs::read_to_string(&path) {
            Ok(text) => {
                serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
            }
            Err(_) => File::default(),
        };
        let names: BTreeSet<&str> = areas.iter().map(|a| a.area.as_str()).collect();
        for r in &file.rules {
            if !names.contains(r.area.as_str()) {
                return Err(format!(
                    "{}: rule for area `{}`, which the API does not list",
                    path.display(),
                    r.area
                ));
            }
        }
        let moves = areas
            .iter()
            .flat_map(|a| &a.overrides)
            .filter_map(Override::as_operation)
            .filter_map(|o| Some((o.target.clone(), o.area.clone()?)))
            .collect();
        let mut by_route: BTreeMap<(String, String), &str> = BTreeMap::new();
        for (file, doc) in docs {
            for (p, m, _) in doc.operations() {
                by_route
                    .entry((m.to_uppercase(), normalise_path(p)))
                    .or_insert(file);
            }
        }
        let mut neighbours: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for a in areas {
            for op in &a.operations {
                let path = normalise_path(&format!("{prefix}{}", op.path));
                if let Some(file) = by_route.get(&(op.method.as_str().to_owned(), path.clone())) {
                    neighbours
                        .entry((*file).to_owned())
                        .or_default()
                        .push((a.area.clone(), path));
                }
            }
        }
        Ok(Placement {
            rules: file.rules,
            moves,
            neighbours,
        })
    }

    /// The area of the drafted operation `id` on `path` of `file`.
    pub fn area_of(
        &self,
        id: &str,
        file: &str,
        path: &str,
        areas: &[&Area],
    ) -> Result<String, String> {
        if let Some(area) = self.moves.get(id) {
            return match areas.iter().any(|a| &a.area == area) {
                true => Ok(area.clone()),
                false => Err(format!("`area: {area}` names no area of the API")),
            };
        }
        let service = file.split('-').next().unwrap_or(file);
        let rule = self.rules.iter().find(|r| {
            r.files.iter().any(|f| f == service)
                && (r.paths.is_empty() || r.paths.iter().any(|p| path.starts_with(p.as_str())))
        });
        if let Some(r) = rule {
            return Ok(r.area.clone());
        }
        self.nearest(file, path).ok_or_else(|| {
            format!(
                "no curated operation of `{service}` and no placement rule: no area to put it in"
            )
        })
    }

    /// The area whose operations of the same description share the most leading path segments
    /// with `path` (ties: the area with more such operations, then the first by name); with
    /// none in common, the area with most of the description's operations.
    fn nearest(&self, file: &str, path: &str) -> Option<String> {
        let ops = self.neighbours.get(file)?;
        let path = normalise_path(path);
        let mut score: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
        for (area, p) in ops {
            let common = shared_segments(&path, p);
            let e = score.entry(area).or_default();
            if common > e.0 {
                *e = (common, 1, e.2 + 1);
            } else if common == e.0 {
                e.1 += 1;
                e.2 += 1;
            } else {
                e.2 += 1;
            }
        }
        score
            .into_iter()
            .max_by(|(a, x), (b, y)| x.cmp(y).then_with(|| b.cmp(a)))
            .map(|(area, _)| area.to_owned())
    }
}

/// How many leading non-empty segments two normalised paths share.
fn shared_segments(a: &str, b: &str) -> usize {
    let segs = |p: &'_ str| -> Vec<String> {
        p.split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    };
    segs(a)
        .iter()
        .zip(segs(b).iter())
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement(ops: &[(&str, &str)]) -> Placement {
        let list = ops
            .iter()
            .map(|(a, p)| ((*a).to_owned(), normalise_path(p)))
            .collect();
        Placement {
            rules: vec![Rule {
                area: "workflows".into(),
                files: vec!["workflow_actions_api".into()],
                paths: vec![],
            }],
            moves: [("moved_op".to_owned(), "files".to_owned())].into(),
            neighbours: [("svc-1.0.yaml".to_owned(), list)].into(),
        }
    }

    #[test]
    fn the_nearest_curated_operations_of_the_same_description_decide() {
        let p = placement(&[
            ("venues", "/venues/{venueId}"),
            ("aps", "/venues/{venueId}/aps"),
            ("aps", "/venues/{venueId}/aps/{serial}"),
        ]);
        let area = |path| p.nearest("svc-1.0.yaml", path);
        assert_eq!(area("/venues/{id}/aps/{s}/reboot").as_deref(), Some("aps"));
        assert_eq!(area("/venues/{id}/floorplans").as_deref(), Some("aps"));
        assert_eq!(area("/elsewhere").as_deref(), Some("aps"));
        assert_eq!(p.nearest("other-1.0.yaml", "/venues"), None);
    }

    #[test]
    fn an_area_override_then_a_rule_win_over_the_nearest_operations() {
        let p = placement(&[("venues", "/venues/{venueId}")]);
        let none: &[&Area] = &[];
        assert_eq!(
            p.area_of("x", "workflow_actions_api-0.0.2.yaml", "/venues/{v}", none),
            Ok("workflows".to_owned())
        );
        assert!(
            p.area_of("moved_op", "svc-1.0.yaml", "/venues", none)
                .is_err()
        );
        assert!(p.area_of("x", "unknown-1.0.yaml", "/z", none).is_err());
        assert_eq!(shared_segments("/a/{}/b", "/a/{}/c"), 2);
    }
}
