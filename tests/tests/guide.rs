//! The README and the guide (`docs/`): every relative link resolves, every operation count they
//! state is the catalog's, the README stays a door, and every page is in the book's summary and
//! in the doctests.
//!
//! The samples themselves are compiled by `cargo test -p ruckus-one-tests --doc`: `src/lib.rs`
//! includes the README and every page as module docs.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use ruckus_one_catalog::{Catalog, LifecycleStatus};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// The README's length limit: it is a door, the guide is the house.
const README_MAX_LINES: usize = 300;

/// The crates' own READMEs (their crates.io pages) and the spec's format guide, whose links
/// are checked too.
const OTHER_READMES: [&str; 7] = [
    "spec/README.md",
    "cli/README.md",
    "mcp/README.md",
    "sim/README.md",
    "runtime/README.md",
    "catalog/README.md",
    "profiles/README.md",
];

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is in the workspace")
        .to_path_buf()
}

/// Every Markdown file under `dir`, sorted.
fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The guide's pages (`docs/src/**/*.md`).
fn guide_pages() -> Vec<PathBuf> {
    markdown_under(&root().join("docs/src"))
}

/// The README and the guide: what the count check reads.
fn readme_and_guide() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    files.extend(guide_pages());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` relative to the workspace root, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
}

/// Every link and image destination of a Markdown text, with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    parser(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some((line_of(range.start), dest_url.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// The anchors GitHub (and mdBook) give a Markdown text's headings: the heading's text in lower
/// case, letters, digits, `-` and `_` kept, spaces made `-`, everything else dropped; a repeated
/// anchor gets `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let Some(h) = heading.take() else { continue };
                let slug = slug(&h);
                let n = seen.entry(slug.clone()).or_insert(0);
                out.insert(if *n == 0 {
                    slug.clone()
                } else {
                    format!("{slug}-{n}")
                });
                *n += 1;
            }
            _ => {}
        }
    }
    out
}

fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `path` with `.` and `..` resolved, without touching the file system; `None` when it climbs
/// above the root.
fn normalized(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with the link `dest` of `file`, if anything.
fn broken(file: &Path, dest: &str) -> Option<String> {
    if dest.contains("://") || dest.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = dest.split_once('#').unwrap_or((dest, ""));
    let target = if path.is_empty() {
        file.to_path_buf()
    } else {
        let dir = file.parent().expect("a file has a directory");
        match normalized(&dir.join(path)) {
            Some(t) if t.starts_with(root()) => t,
            _ => return Some("leads outside the repository".into()),
        }
    };
    if !target.exists() {
        return Some(format!("{} does not exist", shown(&target)));
    }
    let markdown = target.extension().is_some_and(|x| x == "md");
    if !anchor.is_empty() && markdown && !anchors(&read(&target)).contains(anchor) {
        return Some(format!("{} has no heading `#{anchor}`", shown(&target)));
    }
    None
}

#[test]
fn every_relative_link_resolves() {
    let mut files = readme_and_guide();
    files.extend(OTHER_READMES.iter().map(|f| root().join(f)));
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        for (line, dest) in links(&read(file)) {
            checked += 1;
            if let Some(why) = broken(file, &dest) {
                problems.push(format!("{}:{line}: `{dest}`: {why}", shown(file)));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the parser reading the files?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_readme_is_a_door() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail into docs/"
    );
}

#[test]
fn the_summary_lists_every_page() {
    let src = root().join("docs/src");
    let summary = src.join("SUMMARY.md");
    let listed: BTreeSet<PathBuf> = links(&read(&summary))
        .into_iter()
        .filter_map(|(_, dest)| normalized(&src.join(dest)))
        .collect();
    let missing: Vec<String> = guide_pages()
        .into_iter()
        .filter(|p| *p != summary && !listed.contains(p))
        .map(|p| shown(&p))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/src/SUMMARY.md: {missing:?}"
    );
}

#[test]
fn every_page_is_a_doctest() {
    let lib = read(&root().join("tests/src/lib.rs"));
    let missing: Vec<String> = guide_pages()
        .into_iter()
        .map(|p| shown(&p))
        .filter(|p| p != "docs/src/SUMMARY.md")
        .filter(|p| !lib.contains(&format!("include_str!(\"../../{p}\")")))
        .collect();
    assert!(
        missing.is_empty(),
        "pages whose samples no doctest compiles (add them to tests/src/lib.rs): {missing:?}"
    );
}

/// A figure the README and the guide may state.
#[derive(Debug, Clone, Copy)]
enum Figure {
    /// Rows of `cargo xtask list`: every operation of the spec, removed ones included.
    Listed,
    /// Operations the spec marks removed (documented, not generated).
    Removed,
    /// Generated operations: the catalog's routes.
    Generated,
    /// Generated operations without the `experimental` feature.
    ByDefault,
    Experimental,
    /// Generated operations of one API.
    Api(&'static str),
    /// Rows of `cargo xtask list` with paging.
    Paged,
    /// Paged rows whose `item_type` is `raw`.
    RawItems,
}

/// The forms a count of operations may take: the text before the number, the text after it,
/// and the figure it states. A count of operations in any other form fails the test. The more
/// specific forms come first.
const CLAIMS: [(&str, &str, Figure); 10] = [
    ("`cargo xtask list` lists ", " operations", Figure::Listed),
    ("", " removed operations", Figure::Removed),
    ("", " operations are generated", Figure::Generated),
    ("", " operations by default", Figure::ByDefault),
    ("", " experimental operations", Figure::Experimental),
    (
        "",
        " operations of the analytics API",
        Figure::Api("analytics"),
    ),
    ("", " operations of the network API", Figure::Api("network")),
    (
        "",
        " operations of the resident portal",
        Figure::Api("resident_portal"),
    ),
    ("", " paged operations whose `item_type`", Figure::RawItems),
    ("", " paged operations", Figure::Paged),
];

/// The figures, counted as `cargo xtask list` counts them (its TSV, made by the generator from
/// the spec) and as the catalog holds them; the two must agree.
fn figures() -> BTreeMap<String, usize> {
    let spec = root().join("spec/ruckus-one.yaml");
    let ir = ruckus_codegen::build(&spec).expect("the spec builds");
    let tsv = ruckus_codegen::list_tsv(&ir);
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (api, status, paging, item) = (col("api"), col("status"), col("paging"), col("item_type"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    let catalog = Catalog::get().expect("the catalog parses");
    let mut out = BTreeMap::new();
    out.insert(format!("{:?}", Figure::Listed), rows.len());
    let removed = rows.iter().filter(|r| r[status] == "removed");
    out.insert(format!("{:?}", Figure::Removed), removed.count());
    let paged = rows.iter().filter(|r| !r[paging].is_empty());
    out.insert(format!("{:?}", Figure::Paged), paged.count());
    let raw = rows.iter().filter(|r| r[item] == "raw");
    out.insert(format!("{:?}", Figure::RawItems), raw.count());
    let experimental = catalog
        .routes()
        .filter(|(_, r)| r.lifecycle == LifecycleStatus::Experimental)
        .count();
    let generated = catalog.routes().count();
    out.insert(format!("{:?}", Figure::Generated), generated);
    out.insert(format!("{:?}", Figure::Experimental), experimental);
    out.insert(format!("{:?}", Figure::ByDefault), generated - experimental);
    for table in &catalog.apis {
        let name = table.api.name.as_str();
        let listed = rows
            .iter()
            .filter(|r| r[api] == name && r[status] != "removed")
            .count();
        assert_eq!(
            listed,
            table.routes.len(),
            "the catalog's {name} API and `cargo xtask list` disagree: is generated/ stale?"
        );
        out.insert(format!("{name} routes"), listed);
    }
    out
}

fn figure(figures: &BTreeMap<String, usize>, f: Figure) -> usize {
    let key = match f {
        Figure::Api(name) => format!("{name} routes"),
        other => format!("{other:?}"),
    };
    *figures
        .get(&key)
        .unwrap_or_else(|| panic!("no figure {key}"))
}

/// Every count of operations in `text` (whitespace made single spaces): a number followed by
/// `operations`, or by one word and `operations`; with the byte offset of the number.
fn counts(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric() || b".,-_".contains(&bytes[i - 1])));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b',') {
            end += 1;
        }
        let number = text[i..end].trim_end_matches(',');
        let rest = &text[i + number.len()..];
        let words: Vec<&str> = rest
            .strip_prefix(' ')
            .map_or(Vec::new(), |r| r.split(' ').take(2).collect());
        let plural = |w: &&str| w.trim_end_matches(|c: char| !c.is_alphanumeric()) == "operations";
        if words.first().is_some_and(plural) || words.get(1).is_some_and(plural) {
            out.push((i, number.replace(',', "").parse().expect("digits")));
        }
        i = end;
    }
    out
}

#[test]
fn the_operation_counts_are_the_catalogs() {
    let figures = figures();
    let mut problems = Vec::new();
    let mut found = 0;
    for file in readme_and_guide() {
        let text = read(&file).split_whitespace().collect::<Vec<_>>().join(" ");
        for (at, stated) in counts(&text) {
            found += 1;
            let (before, after) = (&text[..at], &text[at..]);
            let after = after.trim_start_matches(|c: char| c.is_ascii_digit() || c == ',');
            let context: String = text[at..].chars().take(60).collect();
            let claim = CLAIMS
                .iter()
                .find(|(pre, post, _)| before.ends_with(pre) && after.starts_with(post));
            match claim {
                None => problems.push(format!(
                    "{}: `{context}`: a count in a form this test does not check (see CLAIMS)",
                    shown(&file)
                )),
                Some((_, _, f)) if figure(&figures, *f) != stated => problems.push(format!(
                    "{}: `{context}`: the catalog says {}",
                    shown(&file),
                    figure(&figures, *f)
                )),
                Some(_) => {}
            }
        }
    }
    assert!(
        found >= 5,
        "only {found} operation counts found in the README and the guide"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
