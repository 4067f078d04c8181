//! `cargo xtask changelog BASE [--date YYYY-MM-DD] [--write]`: a CHANGELOG.md entry for the
//! crate's version, made from `cargo xtask diff BASE --json` (BASE: the previous release's
//! revision). The entry states the version bump the changes need, the breaking, deprecation and
//! compatible counts, and the changes of each class: listed one by one up to [`LIST_LIMIT`], above
//! it counted by kind (the full list is `cargo xtask diff BASE`). `--write` inserts the entry
//! above the newest one in CHANGELOG.md; otherwise it is printed.

use serde_json::Value;

use crate::cli::ChangelogArgs;
use crate::workspace::out;

/// Changes of one class listed one by one; more are counted by kind.
pub const LIST_LIMIT: usize = 30;

const FILE: &str = "CHANGELOG.md";

/// The classes of `cargo xtask diff`, with their headings.
const CLASSES: [(&str, &str); 3] = [
    ("breaking", "Breaking"),
    ("deprecation", "Deprecations"),
    ("compatible", "Compatible"),
];

pub fn run(args: &ChangelogArgs) -> Result<(), String> {
    let diff = crate::diff::json_since(&args.rev)?;
    let date = args.date.clone().unwrap_or_else(today);
    let entry = section(&diff, &args.rev, &date);
    if !args.write {
        out(&entry);
        return Ok(());
    }
    let old = std::fs::read_to_string(FILE).unwrap_or_else(|_| HEADER.to_owned());
    let version = diff["version"].as_str().unwrap_or_default();
    if old.contains(&format!("\n## {version} ")) {
        return Err(format!("{FILE} already has an entry for {version}"));
    }
    std::fs::write(FILE, insert(&old, &entry)).map_err(|e| format!("write {FILE}: {e}"))?;
    out(&format!("{FILE}: added the entry for {version}\n"));
    Ok(())
}

/// The start of a new CHANGELOG.md.
pub const HEADER: &str = "# Changelog\n\nChanges of the `ruckus-one` crate for its users, one entry per release, newest first. Each\nentry is made by `cargo xtask changelog <previous release>` from the spec diff (`cargo xtask\ndiff`); the runtime's and the simulator's own changes are added by hand below it.\n";

/// `entry` inserted above the first entry (`## `) of `text`, or at its end.
pub fn insert(text: &str, entry: &str) -> String {
    match text.find("\n## ") {
        Some(at) => format!("{}\n{entry}{}", &text[..=at], &text[at + 1..]),
        None => format!("{}\n{entry}", text.trim_end_matches('\n').to_owned() + "\n"),
    }
}

/// The Markdown entry for the diff's JSON (`cargo xtask diff BASE --json`).
pub fn section(diff: &Value, rev: &str, date: &str) -> String {
    let s = |key: &str| diff[key].as_str().unwrap_or("?").to_owned();
    let count = |class: &str| diff["counts"][class].as_u64().unwrap_or(0);
    let (version, from) = (s("version"), s("base_version"));
    let mut text = format!("## {version} ({date})\n\n");
    text.push_str(&format!(
        "Spec changes since {from} (`cargo xtask diff {rev}`): {} breaking, {} deprecation(s), \
         {} compatible. The version bump they need: **{}**",
        count("breaking"),
        count("deprecation"),
        count("compatible"),
        s("bump"),
    ));
    match diff["next_version"].as_str() {
        Some(next) if next != version => {
            text.push_str(&format!(" ({from} → {next}; this release is {version}).\n"))
        }
        Some(next) => text.push_str(&format!(" ({from} → {next}).\n")),
        None => text.push_str(".\n"),
    }
    let changes = diff["changes"].as_array().cloned().unwrap_or_default();
    for (class, heading) in CLASSES {
        let of: Vec<&Value> = changes.iter().filter(|c| c["class"] == class).collect();
        if of.is_empty() {
            continue;
        }
        text.push_str(&format!("\n### {heading}\n\n"));
        if of.len() <= LIST_LIMIT {
            for c in of {
                text.push_str(&format!("- {}\n", line(c)));
            }
        } else {
            text.push_str(&by_kind(&of, rev));
        }
    }
    text
}

/// One change: `api/area`: subject: detail.
fn line(c: &Value) -> String {
    let s = |key: &str| c[key].as_str().unwrap_or_default();
    let place = match (s("api"), s("area")) {
        (api, "") => api.to_owned(),
        (api, area) => format!("{api}/{area}"),
    };
    let subject = s("subject").replace('\n', " ");
    let detail = s("detail").replace('\n', " ");
    match (subject.is_empty(), detail.is_empty()) {
        (false, false) => format!("`{place}` {subject}: {detail}"),
        (false, true) => format!("`{place}` {subject}"),
        _ => format!("`{place}` {detail}"),
    }
}

/// Changes counted by kind, the most frequent first.
fn by_kind(changes: &[&Value], rev: &str) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for c in changes {
        let kind = c["kind"].as_str().unwrap_or("other").to_owned();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut text = format!(
        "{} changes, by kind (each one: `cargo xtask diff {rev}`):\n\n",
        changes.len()
    );
    for (kind, n) in kinds {
        text.push_str(&format!("- {n} × {kind}\n"));
    }
    text
}

/// Today's date (UTC) as YYYY-MM-DD.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil(secs / 86_400)
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub fn civil(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(changes: Vec<Value>) -> Value {
        serde_json::json!({
            "version": "0.2.0", "base_version": "0.1.0", "bump": "minor",
            "next_version": "0.2.0",
            "counts": {"breaking": 1, "deprecation": 0, "compatible": changes.len() - 1},
            "changes": changes,
        })
    }

    fn change(class: &str, kind: &str) -> Value {
        serde_json::json!({"api": "network", "area": "switches", "subject": "`get_switch`",
            "kind": kind, "class": class, "detail": "removed"})
    }

    #[test]
    fn an_entry_lists_its_changes_by_class() {
        let text = section(
            &diff(vec![
                change("breaking", "operation removed"),
                change("compatible", "x"),
            ]),
            "v0.1.0",
            "2026-11-27",
        );
        assert!(text.starts_with("## 0.2.0 (2026-11-27)\n"), "{text}");
        assert!(
            text.contains("1 breaking, 0 deprecation(s), 1 compatible"),
            "{text}"
        );
        assert!(text.contains("**minor** (0.1.0 → 0.2.0)."), "{text}");
        assert!(text.contains("### Breaking\n\n- `network/switches` `get_switch`: removed\n"));
        assert!(!text.contains("### Deprecations"), "{text}");
    }

    #[test]
    fn many_changes_are_counted_by_kind() {
        let mut changes = vec![change("breaking", "b")];
        changes.extend((0..LIST_LIMIT + 1).map(|_| change("compatible", "operation added")));
        let text = section(&diff(changes), "abc", "2026-11-27");
        assert!(text.contains("31 changes, by kind"), "{text}");
        assert!(text.contains("- 31 × operation added\n"), "{text}");
    }

    #[test]
    fn entries_go_above_the_newest() {
        let text = insert(
            &format!("{HEADER}\n## 0.1.0 (x)\n\nold\n"),
            "## 0.2.0 (y)\n\nnew\n",
        );
        assert!(
            text.find("## 0.2.0").unwrap() < text.find("## 0.1.0").unwrap(),
            "{text}"
        );
        assert!(insert(HEADER, "## 0.1.0 (x)\n").ends_with(".\n\n## 0.1.0 (x)\n"));
    }

    #[test]
    fn dates() {
        assert_eq!(civil(0), "1970-01-01");
        assert_eq!(civil(20_784), "2026-11-27");
        assert_eq!(civil(11_016), "2000-02-29");
    }
}
