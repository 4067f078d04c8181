//! The command tree: every operation `cargo xtask list` prints is a command of `ruckus schema`
//! and the other way round; `--help` of a sample and `ruckus schema` of one command as
//! reviewed snapshots.

mod support;

use std::collections::BTreeSet;
use support::{command, ruckus};

fn schema() -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(None, dir.path(), &["schema"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json()
}

#[test]
fn every_listed_operation_is_a_command_and_back() {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/ruckus-one.yaml");
    let ir = ruckus_codegen::build(&spec).expect("the spec builds");
    let tsv = ruckus_codegen::list_tsv(&ir);
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (api, id, status) = (col("api"), col("id"), col("status"));
    let listed: BTreeSet<(String, String)> = lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[status] != "removed")
        .map(|f| (f[api].to_owned(), f[id].to_owned()))
        .collect();

    let doc = schema();
    let commands = doc["commands"].as_array().unwrap();
    let offered: BTreeSet<(String, String)> = commands
        .iter()
        .map(|c| {
            (
                c["api"].as_str().unwrap().to_owned(),
                c["operation"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let missing: Vec<_> = listed.difference(&offered).collect();
    let extra: Vec<_> = offered.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "operations without a command: {missing:?}"
    );
    assert!(extra.is_empty(), "commands without an operation: {extra:?}");
    assert!(listed.len() > 1000, "the whole spec: {}", listed.len());

    let words: BTreeSet<&str> = commands
        .iter()
        .map(|c| c["command"].as_str().unwrap())
        .collect();
    assert_eq!(words.len(), commands.len(), "command names are unique");
    for w in &words {
        let longer = format!("{w} ");
        assert!(
            !words.iter().any(|o| o.starts_with(&longer)),
            "`{w}` is a command and a group"
        );
    }
}

#[test]
fn every_command_parses() {
    // A sample of each shape: area verb, area resource verb, and an alias.
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["venues", "get", "--help"][..],
        &["aps", "client", "list", "--help"],
        &["switches", "list", "--help"],
        &["venues", "query_venues", "--help"],
    ] {
        let run = ruckus(None, dir.path(), args, "");
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(
            run.stdout.contains("Operation:"),
            "{args:?}: {}",
            run.stdout
        );
    }
}

#[test]
fn help_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("venues_list", &["venues", "list", "--help"][..]),
        ("venues_create", &["venues", "create", "--help"]),
        ("aps_list", &["aps", "list", "--help"]),
    ] {
        let run = ruckus(None, dir.path(), args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        insta::assert_snapshot!(name, run.stdout);
    }
}

#[test]
fn schema_snapshot_of_one_command_and_the_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(None, dir.path(), &["schema", "venues", "list"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = run.json();
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap();
    insta::assert_snapshot!("schema_venues_list", pretty(&doc["commands"]));
    insta::assert_snapshot!("schema_exit_codes", pretty(&doc["exit_codes"]));
}

#[test]
fn completion_scripts_and_the_man_page_cover_the_operations() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let run = ruckus(None, dir.path(), &["completion", shell], "");
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        // The script hands each completion back to the binary.
        assert!(run.stdout.contains("COMPLETE"), "{shell}: {}", run.stdout);
        let ask = |index: &str, words: &[&str]| {
            let mut args = vec!["--", "ruckus"];
            args.extend(words);
            let mut cmd = command(None, dir.path(), &args);
            cmd.env("COMPLETE", shell)
                .env("_CLAP_COMPLETE_INDEX", index);
            String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
        };
        let areas = ask("1", &[""]);
        assert!(
            areas.contains("venues") && areas.contains("whoami"),
            "{shell}: {areas}"
        );
        let verbs = ask("2", &["venues", ""]);
        assert!(
            verbs.contains("list") && verbs.contains("create"),
            "{shell}: {verbs}"
        );
    }
    let man = ruckus(None, dir.path(), &["man"], "");
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(
        man.stdout.contains(".TH ruckus") || man.stdout.contains(".TH RUCKUS"),
        "{}",
        &man.stdout[..200.min(man.stdout.len())]
    );
}

#[test]
fn help_lists_the_areas_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let run = ruckus(None, dir.path(), &["--help"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // An area's line: `  <name>   N operations (...)`.
    let listed: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(" operations ("))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(listed, sorted);
    let mut areas: Vec<String> = schema()["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["command"]
                .as_str()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    areas.dedup();
    areas.sort_unstable();
    areas.dedup();
    assert_eq!(listed, areas);
}
