//! Types that hold themselves, and how deep named types nest, bounded explicitly: the emitters that follow type references
//! (the conformance test's samples, among others) recurse once per level, so a spec whose types
//! nest deeper than [`MAX_TYPE_NESTING`] is refused with a diagnostic instead of exhausting the
//! generator's stack.
//!
//! The depth counted is an upper bound of any chain of distinct types a reference can lead
//! through (fields, arrays and maps, aliases, union variants): the longest path through the
//! graph of mutually referring groups of types, each group counted with all its types. It is
//! computed without recursion (Tarjan's algorithm with an explicit stack).

use super::cross::type_refs;
use super::{At, Validator};
use crate::ir::{AreaIr, TypeIr, TypeKind, TypeRef};
use crate::source::SourceFile;
use crate::spec;
use std::collections::BTreeMap;

/// The deepest nesting of named types the generator accepts. The workspace spec's deepest is
/// 13; the emitters' recursion stays far within a test thread's stack at this depth.
pub const MAX_TYPE_NESTING: usize = 64;

/// The groups of types that refer to each other (strongly connected components) of a graph
/// given as successor lists, each node's group number, groups numbered so that a group's
/// successors come before it.
pub(super) fn groups(succ: &[Vec<usize>]) -> (Vec<usize>, usize) {
    const UNSEEN: usize = usize::MAX;
    let n = succ.len();
    let (mut index, mut low, mut group) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
    let (mut on_stack, mut stack, mut next, mut groups) = (vec![false; n], Vec::new(), 0, 0);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next successor to look at)
        let mut work = vec![(root, 0)];
        while let Some((v, i)) = work.pop() {
            if i == 0 {
                (index[v], low[v]) = (next, next);
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(i) {
                work.push((v, i + 1));
                if index[w] == UNSEEN {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group[w] = groups;
                    if w == v {
                        break;
                    }
                }
                groups += 1;
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    (group, groups)
}

/// For every node, an upper bound of the number of distinct nodes a path from it can visit.
pub fn nesting_depths(succ: &[Vec<usize>]) -> Vec<usize> {
    let (group, count) = groups(succ);
    let mut size = vec![0; count];
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (v, &g) in group.iter().enumerate() {
        size[g] += 1;
        members[g].push(v);
    }
    // Successor groups are numbered lower: one pass in numbering order.
    let mut depth = vec![0; count];
    for g in 0..count {
        let below = members[g]
            .iter()
            .flat_map(|&v| &succ[v])
            .map(|&w| group[w])
            .filter(|&h| h != g)
            .map(|h| depth[h])
            .max()
            .unwrap_or(0);
        depth[g] = size[g] + below;
    }
    group.iter().map(|&g| depth[g]).collect()
}

impl Validator {
    /// A struct that contains itself without a `Vec` or map in between has infinite size.
    pub(super) fn check_recursion(
        &mut self,
        areas: &[crate::ir::AreaIr],
        files: &[(SourceFile, spec::Area)],
    ) {
        let by_name: BTreeMap<&str, &TypeIr> = areas
            .iter()
            .flat_map(|a| &a.types)
            .map(|t| (t.name.as_str(), t))
            .collect();
        let types: Vec<(&str, &TypeIr)> = by_name.iter().map(|(n, t)| (*n, *t)).collect();
        let index: BTreeMap<&str, usize> = types
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (*n, i))
            .collect();
        let succ: Vec<Vec<usize>> = types
            .iter()
            .map(|(_, t)| {
                let mut children = Vec::new();
                push_children(t, &mut children);
                children
                    .iter()
                    .filter_map(|c| index.get(c).copied())
                    .collect()
            })
            .collect();
        // A type holds itself directly exactly when it shares its group of mutually holding
        // types with another, or holds itself: one linear pass (see `nesting`).
        let (group, count) = groups(&succ);
        let mut size = vec![0usize; count];
        for &g in &group {
            size[g] += 1;
        }
        for (i, (name, _)) in types.iter().enumerate() {
            if size[group[i]] < 2 && !succ[i].contains(&i) {
                continue;
            }
            let found = files
                .iter()
                .find_map(|(f, a)| a.types.iter().find(|x| x.name == *name).map(|x| (f, x)));
            if let Some((file, def)) = found {
                self.err(
                    &At::type_def(file, def),
                    format!("type `{name}` contains itself without an array or map in between; this is not supported"),
                );
            }
        }
    }

    /// Refuses, once per API, the type whose references nest deepest when that is beyond
    /// [`MAX_TYPE_NESTING`], naming the first types of the chain.
    pub(super) fn check_nesting(&mut self, areas: &[AreaIr], files: &[(SourceFile, spec::Area)]) {
        let types: Vec<(&SourceFile, &crate::ir::TypeIr)> = files
            .iter()
            .zip(areas)
            .flat_map(|((file, _), area)| area.types.iter().map(move |t| (file, t)))
            .collect();
        let index: BTreeMap<&str, usize> = types
            .iter()
            .enumerate()
            .map(|(i, (_, t))| (t.name.as_str(), i))
            .collect();
        let succ: Vec<Vec<usize>> = types
            .iter()
            .map(|(_, t)| {
                let refs = type_refs(t);
                refs.iter()
                    .filter_map(|(_, name)| index.get(name.as_str()).copied())
                    .collect()
            })
            .collect();
        let depths = nesting_depths(&succ);
        let Some((deepest, &depth)) = depths.iter().enumerate().max_by_key(|(_, d)| **d) else {
            return;
        };
        if depth <= MAX_TYPE_NESTING {
            return;
        }
        // The chain, by the deepest successor at each step: its first few types.
        let mut chain = vec![types[deepest].1.name.as_str()];
        let mut at = deepest;
        while chain.len() < 4 {
            let Some(&next) = succ[at]
                .iter()
                .filter(|&&w| depths[w] < depths[at])
                .max_by_key(|&&w| depths[w])
            else {
                break;
            };
            chain.push(types[next].1.name.as_str());
            at = next;
        }
        let (file, t) = types[deepest];
        let name = &t.name;
        // An imported type is found in its imported file.
        let at = files
            .iter()
            .find_map(|(f, a)| a.types.iter().find(|x| x.name == *name).map(|x| (f, x)))
            .map_or_else(
                || At::file(file).with(&["types:", &format!("name: {name}")]),
                |(f, def)| At::type_def(f, def),
            );
        self.diags.push_with(|| {
            at.file.diag(
                &at.anchors(),
                format!(
                    "type `{name}` nests up to {depth} named types deep ({} → …); at most \
                     {MAX_TYPE_NESTING} are supported: flatten the chain or break it with a \
                     `json` field",
                    chain.join(" → ")
                ),
            )
        });
    }
}

/// The named types a type holds directly (not through an array or map).
fn push_children<'a>(t: &'a TypeIr, stack: &mut Vec<&'a str>) {
    let mut direct = |t: &'a TypeRef| {
        if let TypeRef::Named { name, .. } = t {
            stack.push(name);
        }
    };
    match &t.kind {
        TypeKind::Object(fields, _) => fields.iter().for_each(|f| direct(&f.ty)),
        TypeKind::Alias(a) => direct(a),
        TypeKind::Union(u) => u.variants.iter().for_each(|v| direct(&v.ty)),
        TypeKind::Enum(_) | TypeKind::NotShown(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::nesting_depths;

    #[test]
    fn depths_count_chains_and_whole_cycles() {
        // 0 -> 1 -> 2; 3 <-> 4 -> 0; 5 alone.
        let succ = vec![vec![1], vec![2], vec![], vec![4], vec![3, 0], vec![]];
        assert_eq!(nesting_depths(&succ), [3, 2, 1, 5, 5, 1]);
    }

    #[test]
    fn a_long_chain_needs_no_recursion() {
        let n = 200_000;
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                if i + 1 < n {
                    vec![i + 1, i + 1]
                } else {
                    vec![]
                }
            })
            .collect();
        let depths = nesting_depths(&succ);
        assert_eq!((depths[0], depths[n - 1]), (n, 1));
    }
}
