//! Property test: the generator on mutated copies of the broken-spec base (values, keys,
//! structure, raw bytes, unicode and control characters, deep nesting, aliases) never panics
//! and never does work out of proportion to its input (counted in allocations and bytes, see
//! `work/`); it rejects a spec with diagnostics that all name a line, or accepts it and writes
//! Rust that parses and docs without control characters, HTML or code blocks (the properties of
//! `src/mutate/`, which `cargo xtask fuzz` checks on long runs).
//!
//! `PROPTEST_CASES=N` runs more cases than the default 1000.

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use xtask::mutate::{self, Mutation, NASTY, Spec, Text};

mod work;

#[global_allocator]
static ALLOCATOR: work::Counting = work::Counting;

/// The base spec's size and the work of generating it, measured once.
fn base_work() -> (usize, work::Work) {
    static BASE: OnceLock<(usize, work::Work)> = OnceLock::new();
    *BASE.get_or_init(|| {
        let spec = Spec::base(root());
        let dir = TempDir::new();
        let top = spec.write(&dir.0).expect("write the base");
        let (outcome, work) = work::measure(|| ruckus_codegen::generate(&top));
        assert!(outcome.is_ok(), "the base spec is valid");
        (spec.size(), work)
    })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(NASTY).prop_map(str::to_owned),
        2 => any::<String>(),
        1 => "[ -~]{0,24}",
        1 => (prop::sample::select(NASTY), prop::sample::select(NASTY)).prop_map(|(a, b)| format!("{a}{b}")),
    ]
}

fn yaml_text() -> impl Strategy<Value = Text> {
    prop_oneof![text().prop_map(Text::Raw), text().prop_map(Text::Quoted)]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = || (0..16usize, 0..64usize);
    prop_oneof![
        4 => (at(), text()).prop_map(|((file, nth), t)| Mutation::Prose { file, nth, text: Text::Quoted(t) }),
        4 => (at(), yaml_text()).prop_map(|((file, line), text)| Mutation::Value { file, line, text }),
        1 => (at(), yaml_text()).prop_map(|((file, line), text)| Mutation::Key { file, line, text }),
        1 => (at(), 0..80usize, text()).prop_map(|((file, line), at, text)| Mutation::Insert { file, line, at, text }),
        1 => (at(), 0..80usize, prop::collection::vec(any::<u8>(), 1..4))
            .prop_map(|((file, line), at, bytes)| Mutation::Bytes { file, line, at, bytes }),
        1 => at().prop_map(|(file, line)| Mutation::Delete { file, line }),
        1 => at().prop_map(|(file, line)| Mutation::Duplicate { file, line }),
        1 => (at(), -4i8..5).prop_map(|((file, line), delta)| Mutation::Indent { file, line, delta }),
        1 => (at(), prop::sample::select(vec![3usize, 31, 33, 500]), any::<bool>())
            .prop_map(|((file, line), depth, flow)| Mutation::Nest { file, line, depth, flow }),
        1 => (at(), 0..6usize).prop_map(|((file, line), copies)| Mutation::Alias { file, line, copies }),
        1 => (at(), prop_oneof![Just(0usize), Just(3), Just(33), Just(5_000)])
            .prop_map(|((file, line), depth)| Mutation::Json { file, line, depth }),
        1 => at().prop_map(|(file, line)| Mutation::Truncate { file, line }),
        1 => (at(), prop::sample::select(vec![2usize, 40, 1500]))
            .prop_map(|((file, line), times)| Mutation::Repeat { file, line, times }),
    ]
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
}

/// A fresh directory per case, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        TempDir(
            std::env::temp_dir().join(format!("xtask-spec-mutations-{}-{n}", std::process::id())),
        )
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_mutated_spec_is_accepted_with_sound_output_or_rejected_at_a_line(
        mutations in prop::collection::vec(mutation(), 1..4)
    ) {
        let mut spec = Spec::base(root());
        for m in &mutations {
            m.apply(&mut spec);
        }
        let dir = TempDir::new();
        let top = spec.write(&dir.0).expect("write the spec");
        let (outcome, work) =
            work::measure(|| std::panic::catch_unwind(|| ruckus_codegen::generate(&top)));
        let outcome = match outcome {
            Ok(o) => o,
            Err(_) => return Err(TestCaseError::fail("the generator panicked")),
        };
        // Work in proportion to the input: at most 4 times the base's per input byte (mutated
        // specs stay within about 1.05 times; a blow-up is far beyond).
        let (base_size, base_work) = base_work();
        let scale = 4.0 * (spec.size() as f64 / base_size as f64).max(1.0);
        prop_assert!(
            work.allocations_within(scale, base_work) && work.bytes_within(scale, base_work),
            "{work:?} for {} bytes; the base: {base_work:?} for {base_size} bytes",
            spec.size()
        );
        let problems = mutate::check(&outcome);
        prop_assert!(problems.is_empty(), "{problems:#?}");
    }
}

/// The mutations reach both outcomes: a property test that only ever saw rejections would
/// prove little about the emitters.
#[test]
fn the_mutations_reach_accepted_and_rejected_specs() {
    let base = Spec::base(root());
    let (mut accepted, mut rejected) = (0, 0);
    for seed in 0..200 {
        let mut spec = base.clone();
        for m in mutate::Rng::new(seed).mutations(4) {
            m.apply(&mut spec);
        }
        let dir = TempDir::new();
        match mutate::generate(&spec, &dir.0) {
            Ok(_) => accepted += 1,
            Err(_) => rejected += 1,
        }
    }
    assert!(
        accepted >= 20 && rejected >= 20,
        "{accepted} accepted, {rejected} rejected"
    );
}
