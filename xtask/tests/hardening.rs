//! One test per generator defect found by fuzzing (issue 9), each on a copy of the broken-spec
//! base: specs that panicked, stalled, blew up, were accepted but did not compile, rendered
//! what they should not, or gave unlocated diagnostics. The located refusals that fit a case
//! file are under `tests/fixtures/broken/cases/` (identifiers, bidi characters, carriage
//! returns, backticks in paths, nesting, aliases, titles); these are the rest.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use xtask::mutate::{self, Spec};

mod work;

#[global_allocator]
static ALLOCATOR: work::Counting = work::Counting;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "xtask-hardening-{}-{n}-{label}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The base with `find` replaced by `replace` (once, must occur) in `file`.
fn edited(file: &str, find: &str, replace: &str) -> Spec {
    let mut spec = Spec::base(root());
    let bytes = spec.files.get_mut(file).expect("a file of the base");
    let text = String::from_utf8(bytes.clone()).expect("UTF-8 base");
    assert!(text.contains(find), "{file} has no {find:?}");
    *bytes = text.replacen(find, replace, 1).into_bytes();
    spec
}

/// Runs the xtask binary's `generate` on `spec` with extra environment; returns its status and
/// stderr (spec dir shortened to `spec/`).
fn generate_bin(spec: &Spec, env: &[(&str, &str)]) -> (bool, String) {
    let tmp = TempDir::new("bin");
    let top = spec.write(&tmp.0.join("spec")).expect("write spec");
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["generate", "--spec", top.to_str().expect("utf-8"), "--out"])
        .arg(tmp.0.join("out"))
        .envs(env.iter().copied())
        .output()
        .expect("run xtask");
    let stderr = String::from_utf8_lossy(&out.stderr)
        .replace(&format!("{}/", tmp.0.join("spec").display()), "spec/");
    (out.status.success(), stderr)
}

/// The generator on `spec` (written to a temporary directory first), with the work it did.
fn generate_counted(spec: &Spec) -> (Vec<String>, work::Work) {
    let tmp = TempDir::new("counted");
    let top = spec.write(&tmp.0).expect("write spec");
    let (outcome, work) = work::measure(|| ruckus_codegen::generate(&top));
    (diagnostics(&outcome), work)
}

fn generate(spec: &Spec) -> mutate::Outcome {
    let tmp = TempDir::new("lib");
    mutate::generate(spec, &tmp.0)
}

fn diagnostics(outcome: &mutate::Outcome) -> Vec<String> {
    match outcome {
        Ok(_) => vec![],
        Err(d) => d
            .iter()
            .map(|d| {
                format!(
                    "{}:{}: {}",
                    d.file.file_name().unwrap_or_default().to_string_lossy(),
                    d.line,
                    d.message
                )
            })
            .collect(),
    }
}

// --- Stalls: limits before parsing -------------------------------------------------------

/// The base with `demo/items.yaml` padded with comment lines to `bytes`; and the line that
/// crosses the 4 MiB limit.
fn padded(bytes: usize) -> (Spec, usize) {
    let mut spec = Spec::base(root());
    let mut big = spec.files["demo/items.yaml"].clone();
    let filler = b"# padding padding padding padding padding padding padding padding padding\n";
    while big.len() < bytes {
        big.extend_from_slice(filler);
    }
    let line = 1 + big[..4 * 1024 * 1024]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    spec.files.insert("demo/items.yaml".into(), big);
    (spec, line)
}

#[test]
fn a_50_mb_area_file_is_refused_at_the_line_crossing_the_limit_reading_no_more_than_the_limit() {
    let (spec, line) = padded(50 * 1024 * 1024);
    let (ok, stderr) = generate_bin(&spec, &[]);
    assert!(!ok, "accepted a 50 MB file");
    assert!(
        stderr.contains(&format!(
            "spec/demo/items.yaml:{line}: the file is larger than 4194304 bytes"
        )),
        "{stderr}"
    );
    // A file 8 times larger costs no more than one just over the limit: reading stops there.
    let (d, work) = generate_counted(&spec);
    let (d6, work6) = generate_counted(&padded(6 * 1024 * 1024).0);
    assert_eq!(d, d6);
    assert!(
        work.allocations_within(1.25, work6) && work.bytes_within(1.25, work6),
        "50 MB: {work:?}; 6 MB: {work6:?}"
    );
}

#[test]
fn deep_nesting_is_refused_at_its_line_whatever_follows() {
    // 1 MB of `{` on one line; 100k nested flow sequences over lines; keys nested 200 deep, 50
    // times; each also at twice the size, which must cost no more work beyond reading the file.
    type Case = (fn(usize) -> String, usize, usize, &'static str);
    let cases: [Case; 3] = [
        (
            |n| format!("description: {}\n", "{".repeat(n)),
            1 << 20,
            1,
            "bytes long",
        ),
        (
            |n| format!("description:\n{}", " [\n".repeat(n)),
            100_000,
            33,
            "nests deeper than 32",
        ),
        (
            |n| {
                (0..n)
                    .map(|i| format!("{}k{i}:\n", " ".repeat(i % 200)))
                    .collect()
            },
            10_000,
            33,
            "nests deeper than 32",
        ),
    ];
    for (text, n, line, message) in cases {
        let spec_of = |n: usize| {
            let mut spec = Spec::base(root());
            spec.files
                .insert("demo/common.yaml".into(), text(n).into_bytes());
            spec
        };
        let refused = |d: &[String]| {
            d.len() == 1
                && d[0].starts_with(&format!("common.yaml:{line}: "))
                && d[0].contains(message)
        };
        let (d, work) = generate_counted(&spec_of(n));
        assert!(refused(&d), "{d:?}");
        let (d2, work2) = generate_counted(&spec_of(2 * n));
        assert!(refused(&d2), "{d2:?}");
        // Reading twice the bytes takes about twice the bytes; parsing them would take an
        // allocation per node.
        assert!(
            work2.allocations_within(1.25, work) && work2.bytes_within(2.5, work),
            "{message}: n {work:?}, 2n {work2:?}"
        );
    }
}

#[test]
fn limits_are_raised_or_lowered_by_environment_variables() {
    let spec = Spec::base(root());
    let (ok, stderr) = generate_bin(&spec, &[("RUCKUS_SPEC_MAX_LINE_BYTES", "20")]);
    assert!(!ok && stderr.contains("spec/ruckus-one.yaml:"), "{stderr}");
    assert!(
        stderr.contains("over the limit of 20 (set RUCKUS_SPEC_MAX_LINE_BYTES"),
        "{stderr}"
    );
    let (ok, stderr) = generate_bin(&spec, &[("RUCKUS_SPEC_MAX_FILE_BYTES", "100")]);
    assert!(!ok && stderr.contains("larger than 100 bytes"), "{stderr}");
    let (ok, stderr) = generate_bin(&spec, &[("RUCKUS_SPEC_MAX_DEPTH", "3")]);
    assert!(
        !ok && stderr.contains("nests deeper than 3 levels"),
        "{stderr}"
    );
    let (ok, stderr) = generate_bin(&spec, &[("RUCKUS_SPEC_MAX_DEPTH", "lots")]);
    assert!(
        !ok && stderr.contains("RUCKUS_SPEC_MAX_DEPTH=`lots` must be a whole number"),
        "{stderr}"
    );
    let deep = edited(
        "demo/common.yaml",
        "    description: A color.",
        &format!("    description: {}{}", "[".repeat(40), "]".repeat(40)),
    );
    let (ok, stderr) = generate_bin(&deep, &[]);
    assert!(!ok && stderr.contains("nests deeper than 32"), "{stderr}");
    let (_, stderr) = generate_bin(&deep, &[("RUCKUS_SPEC_MAX_DEPTH", "64")]);
    assert!(
        !stderr.contains("nests deeper"),
        "the raised limit lets it through to the parser: {stderr}"
    );
}

// --- Blow-ups: output linear in input ------------------------------------------------------

/// The base with `ops` more operations and the given API title and description.
fn with_operations(ops: usize, title: &str, description: &str) -> Spec {
    let mut spec = edited(
        "ruckus-one.yaml",
        "    title: Demo API\n    description: A demo API.\n",
        &format!("    title: {title}\n    description: >-\n{description}\n"),
    );
    let items = spec.files.get_mut("demo/items.yaml").expect("items");
    for i in 0..ops {
        items.extend_from_slice(
            format!("  - id: op_{i}\n    name: Op {i}\n    method: GET\n    path: /op/{i}\n    responses:\n      - status: 204\n").as_bytes(),
        );
    }
    spec
}

fn output_size(spec: &Spec) -> usize {
    match generate(spec) {
        Ok(files) => files.values().map(String::len).sum(),
        Err(d) => panic!("{d:?}"),
    }
}

#[test]
fn a_long_title_or_description_is_written_a_fixed_number_of_times_not_per_operation() {
    let line = |n: usize| format!("      {}", "word ".repeat(n / 5).trim_end());
    let short = output_size(&with_operations(100, "Demo", &line(10)));
    let long_title = "T".repeat(190);
    let titled = output_size(&with_operations(100, &long_title, &line(10)));
    let per_title_byte = (titled - short) as f64 / 186.0;
    // A few times per area (the base has three), never once per operation (there are 100).
    assert!(
        per_title_byte < 16.0,
        "the title is written {per_title_byte:.0} times"
    );
    let description: Vec<String> = (0..200).map(|_| line(500)).collect();
    let described = output_size(&with_operations(100, "Demo", &description.join("\n")));
    let per_description_byte = (described - short) as f64 / (200.0 * 500.0);
    assert!(
        per_description_byte < 3.0,
        "the description is written {per_description_byte:.1} times"
    );
}

/// `demo/common.yaml` holding a "billion laughs" of `levels` levels: each level an anchored
/// list of nine aliases of the one before (9^levels strings once expanded).
fn alias_bomb(levels: u8) -> Spec {
    let mut bomb = String::from("area: common\ntitle: Common types\n");
    bomb.push_str(
        "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    let mut last = 'a';
    for i in 1..levels {
        let (prev, name) = ((b'a' + i - 1) as char, (b'a' + i) as char);
        bomb.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 9].join(", ")
        ));
        last = name;
    }
    bomb.push_str(&format!("types: *{last}\n"));
    let mut spec = Spec::base(root());
    spec.files
        .insert("demo/common.yaml".into(), bomb.into_bytes());
    spec
}

#[test]
fn an_alias_bomb_is_refused_at_its_first_anchor_without_expanding_it() {
    let (d, work) = generate_counted(&alias_bomb(9));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("common.yaml:3: YAML anchors and aliases"),
        "{d:?}"
    );
    // Three more levels would expand 729 times as far; refused first, they cost nothing.
    let (d6, work6) = generate_counted(&alias_bomb(6));
    assert_eq!(d, d6);
    assert!(
        work.allocations_within(1.25, work6) && work.bytes_within(1.25, work6),
        "9 levels: {work:?}; 6 levels: {work6:?}"
    );
}

// --- Accepted specs that did not compile, docs that rendered what they should not -----------

#[test]
fn a_description_of_three_backticks_opens_no_code_block() {
    for text in ["\"```\"", "\"~~~\"", "\"```rust\""] {
        for (file, find) in [
            ("demo/items.yaml", "    description: An item."),
            ("demo/common.yaml", "    description: A color."),
            ("ruckus-one.yaml", "    description: A demo API."),
        ] {
            let outcome = generate(&edited(file, find, &format!("    description: {text}")));
            assert!(outcome.is_ok(), "{:?}", diagnostics(&outcome));
            let problems = mutate::check(&outcome);
            assert!(problems.is_empty(), "{text} in {file}: {problems:#?}");
        }
    }
}

#[test]
fn backticks_and_html_in_wire_names_stay_inside_their_code_spans() {
    let spec = edited(
        "demo/items.yaml",
        "      - name: color\n        type: Color",
        "      - name: \"x`<script>alert(1)</script>`\"\n        type: Color",
    );
    let spec = {
        let mut spec = spec;
        let common = spec.files.get_mut("demo/common.yaml").expect("common");
        *common = String::from_utf8(common.clone())
            .expect("utf-8")
            .replacen("      - green", "      - \"g`<b>reen</b>`|x\"", 1)
            .into_bytes();
        spec
    };
    let outcome = generate(&spec);
    let files = outcome.as_ref().expect("accepted");
    assert!(
        files
            .values()
            .any(|t| t.contains("`` x`<script>alert(1)</script>` ``")),
        "the wire name is shown whole"
    );
    let problems = mutate::check(&outcome);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_description_starting_with_a_block_marker_starts_no_block() {
    for text in [
        "\"# Heading\"",
        "\"- item\"",
        "\"1. item\"",
        "\"---\"",
        "\"<h1>x</h1>\"",
    ] {
        let outcome = generate(&edited(
            "demo/items.yaml",
            "    description: An item.",
            &format!("    description: {text}"),
        ));
        let files = outcome.as_ref().expect("accepted");
        let page = &files["docs/demo/items.md"];
        assert!(
            !page
                .lines()
                .any(|l| l.starts_with("# Heading") || l.starts_with("- item")),
            "{page}"
        );
        let problems = mutate::check(&outcome);
        assert!(problems.is_empty(), "{text}: {problems:#?}");
        let events = pulldown_cmark::Parser::new(page)
            .filter(|e| {
                matches!(
                    e,
                    pulldown_cmark::Event::Start(
                        pulldown_cmark::Tag::Heading { .. } | pulldown_cmark::Tag::List(_)
                    )
                )
            })
            .count();
        let baseline = pulldown_cmark::Parser::new(
            &generate(&Spec::base(root())).expect("base")["docs/demo/items.md"],
        )
        .filter(|e| {
            matches!(
                e,
                pulldown_cmark::Event::Start(
                    pulldown_cmark::Tag::Heading { .. } | pulldown_cmark::Tag::List(_)
                )
            )
        })
        .count();
        assert_eq!(events, baseline, "{text} adds a heading or list: {page}");
    }
}

#[test]
fn line_breaks_in_names_are_refused_and_in_prose_keep_tables_whole() {
    let d = diagnostics(&generate(&edited(
        "demo/items.yaml",
        "      - name: color",
        "      - name: \"col\\nor\"",
    )));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("items.yaml:10: field name `col\\u{a}or` holds U+000A"),
        "{d:?}"
    );
    let outcome = generate(&edited(
        "demo/items.yaml",
        "        type: Color",
        "        type: Color\n        description: \"one\\ntwo | three\\r\\nfour\"",
    ));
    assert!(outcome.is_err(), "a carriage return escape is refused");
    let outcome = generate(&edited(
        "demo/items.yaml",
        "        type: Color",
        "        type: Color\n        description: \"one\\ntwo | three\\n\\nfour\"",
    ));
    let problems = mutate::check(&outcome);
    assert!(outcome.is_ok() && problems.is_empty(), "{problems:#?}");
}

// --- Unlocated diagnostics ------------------------------------------------------------------

#[test]
fn invalid_utf8_is_reported_at_the_line_of_the_first_bad_byte() {
    let mut spec = Spec::base(root());
    let items = spec.files.get_mut("demo/items.yaml").expect("items");
    let at = items.windows(5).position(|w| w == b"color").expect("color");
    items.splice(at..at, [0xC3, 0x28]);
    let d = diagnostics(&generate(&spec));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("items.yaml:10: the file is not valid UTF-8: byte 0xC3 at column 15"),
        "{d:?}"
    );
}

#[test]
fn diagnostics_never_echo_control_or_bidirectional_characters() {
    for (find, replace) in [
        ("  - name: Color", "  - name: \"Bad\u{202E}Name\""),
        ("  - name: Color", "  - name: \"Bad\\u202EName\""),
        ("      - red", "      - \"r\\x1b[31m\""),
        ("      - red", "      - \"r\u{2067}\""),
    ] {
        let outcome = generate(&edited("demo/common.yaml", find, replace));
        let d = diagnostics(&outcome);
        assert!(!d.is_empty(), "{replace} was accepted");
        for line in &d {
            assert!(
                !line
                    .chars()
                    .any(|c| c.is_control() || ruckus_codegen::chars::is_bidi(c)),
                "{line:?}"
            );
        }
        assert!(mutate::check(&outcome).is_empty(), "{d:?}");
    }
}

/// The base with a type of `fields` fields whose names are not identifiers.
fn bad_fields(fields: usize) -> Spec {
    let mut common =
        String::from_utf8(Spec::base(root()).files["demo/common.yaml"].clone()).expect("utf-8");
    common.push_str("  - name: Big\n    description: Many bad fields.\n    fields:\n");
    for i in 0..fields {
        common.push_str(&format!("      - name: \"x²{i}\"\n        type: string\n"));
    }
    let mut spec = Spec::base(root());
    spec.files
        .insert("demo/common.yaml".into(), common.into_bytes());
    spec
}

#[test]
fn tens_of_thousands_of_problems_are_reported_in_linear_work_and_counted() {
    let (d, work) = generate_counted(&bad_fields(20_000));
    assert_eq!(d.len(), 101, "{:?}", &d[..3.min(d.len())]);
    assert!(
        d[0].starts_with("common.yaml:12: field name `x²0`"),
        "{}",
        d[0]
    );
    assert!(
        d[100].contains("19900 more problems are not shown"),
        "{}",
        d[100]
    );
    // Twice the problems, at most about twice the work (linear: 2).
    let (_, work_half) = generate_counted(&bad_fields(10_000));
    assert!(
        work.allocations_within(2.5, work_half) && work.bytes_within(2.5, work_half),
        "20,000: {work:?}; 10,000: {work_half:?}"
    );
}

// --- Deep chains of types -----------------------------------------------------------------

/// The base with `ChainK { f0..f<fields>: ChainK+1 }` for K below `depth` (the last level's
/// fields strings), required or optional, and an operation answering `Chain0`.
fn chain(depth: usize, fields: usize, required: bool) -> Spec {
    let mut spec = Spec::base(root());
    let mut common = String::from_utf8(spec.files["demo/common.yaml"].clone()).expect("UTF-8 base");
    for k in 0..depth {
        common.push_str(&format!(
            "  - name: Chain{k}\n    description: Level {k}.\n    fields:\n"
        ));
        let ty = if k + 1 < depth {
            format!("Chain{}", k + 1)
        } else {
            "string".to_owned()
        };
        for j in 0..fields {
            common.push_str(&format!(
                "      - name: f{j}\n        type: {ty}\n        required: {required}\n"
            ));
        }
    }
    spec.files
        .insert("demo/common.yaml".into(), common.into_bytes());
    let items = String::from_utf8(spec.files["demo/items.yaml"].clone()).expect("UTF-8 base");
    let op = "operations:\n  - id: get_chain\n    name: Get Chain\n    method: GET\n    path: /chain\n    responses:\n      - status: 200\n        type: Chain0\n";
    spec.files.insert(
        "demo/items.yaml".into(),
        items.replacen("operations:\n", op, 1).into_bytes(),
    );
    spec
}

#[test]
fn a_chain_of_types_deeper_than_the_limit_is_refused_at_its_first_type() {
    // 1,100 levels overflowed the generator's stack (`cargo xtask generate` aborted); this runs
    // on a test thread, whose stack is smaller still.
    let d = diagnostics(&generate(&chain(1_100, 1, true)));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("common.yaml:")
            && d[0].contains("type `Chain0` nests up to 1100 named types deep")
            && d[0].contains("at most 64"),
        "{d:?}"
    );
    // At the limit, accepted.
    let d = diagnostics(&generate(&chain(64, 1, true)));
    assert!(d.is_empty(), "{d:?}");
}

/// The JSON values the conformance test's samples build at run time: per `impl Sample`, one
/// plus those of the samples it calls (`samples.rs` lists an impl after those it calls). The
/// largest, and the doc of the test of `demo::items`.
fn sample_values(spec: &Spec) -> (u64, String) {
    let files = match generate(spec) {
        Ok(files) => files,
        Err(d) => panic!("{d:?}"),
    };
    let text = files
        .iter()
        .find(|(path, _)| path.ends_with("tests/conformance/samples.rs"))
        .map(|(_, text)| text.clone())
        .expect("a samples file");
    let mut weights: std::collections::BTreeMap<String, u64> = Default::default();
    for item in text.split("\nimpl support::Sample for ").skip(1) {
        let name: String = item
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '{')
            .collect();
        let sample = item.split("fn sample_json").next().unwrap_or_default();
        let calls = sample.split(" as support::Sample>::sample()").count() - 1;
        let called: u64 = sample
            .split(" as support::Sample>::sample()")
            .take(calls)
            .map(|before| {
                let callee = before.rsplit('<').next().unwrap_or_default().trim();
                weights.get(callee).copied().unwrap_or(1)
            })
            .sum();
        weights.insert(name, 1 + called);
    }
    let doc = files
        .iter()
        .find(|(path, _)| path.ends_with("tests/conformance/demo_items.rs"))
        .map(|(_, text)| text.clone())
        .unwrap_or_default();
    (weights.values().copied().max().unwrap_or(0), doc)
}

#[test]
fn conformance_samples_stay_bounded_however_deep_a_chain_of_types() {
    for required in [true, false] {
        // Two fields of the next type per level: a full sample doubles per level.
        let (small, _) = sample_values(&chain(12, 2, required));
        let (large, doc) = sample_values(&chain(24, 2, required));
        assert!(
            large as f64 <= 2.5 * small as f64,
            "required: {required}: 12 levels {small} values, 24 levels {large}"
        );
        assert!(large <= 4096, "{large}");
        // Required fields leave no smaller sample: the operation is left out, and said so.
        assert_eq!(
            doc.contains("but `get_chain`: a sample of its body would hold more than 4096"),
            required,
            "{doc}"
        );
    }
}

#[test]
fn validating_a_long_chain_of_types_takes_linear_work() {
    // Refused (deeper than the limit) after every check ran: twice the types, about twice the
    // work, not four times.
    let (d, work) = generate_counted(&chain(3_000, 1, true));
    assert!(d.iter().any(|d| d.contains("nests up to 3000")), "{d:?}");
    let (_, half) = generate_counted(&chain(1_500, 1, true));
    assert!(
        work.allocations_within(2.5, half) && work.bytes_within(2.5, half),
        "3,000 types: {work:?}; 1,500: {half:?}"
    );
}

/// The base with a type whose field is `depth` arrays deep, answered by an operation.
fn deep_array(depth: usize) -> Spec {
    let mut spec = Spec::base(root());
    let mut common = String::from_utf8(spec.files["demo/common.yaml"].clone()).expect("UTF-8 base");
    common.push_str(&format!(
        "  - name: Deep\n    description: Deep.\n    fields:\n      - name: x\n        type: {}string{}\n",
        "array<".repeat(depth),
        ">".repeat(depth)
    ));
    spec.files
        .insert("demo/common.yaml".into(), common.into_bytes());
    let items = String::from_utf8(spec.files["demo/items.yaml"].clone()).expect("UTF-8 base");
    let op = "operations:\n  - id: get_deep\n    name: Get Deep\n    method: GET\n    path: /deep\n    responses:\n      - status: 200\n        type: Deep\n";
    spec.files.insert(
        "demo/items.yaml".into(),
        items.replacen("operations:\n", op, 1).into_bytes(),
    );
    spec
}

#[test]
fn a_type_expression_nesting_too_many_arrays_is_refused_at_its_line() {
    // 1,150 arrays fit in a line of the default limit and overflowed a test thread's stack.
    let d = diagnostics(&generate(&deep_array(1_150)));
    assert_eq!(
        d,
        ["common.yaml:13: the type nests 1150 arrays and maps; at most 32 are supported"]
    );
    let d = diagnostics(&generate(&deep_array(32)));
    assert!(d.is_empty(), "{d:?}");
}
