//! `cargo xtask generate` checks the spec limits before anything parses the top-level file,
//! the generation cache included: a deeply nested file is refused with the limit's name
//! instead of keeping serde_yaml busy.

use std::path::PathBuf;

use xtask::generate::{Paths, generate};

/// A fresh directory under the system's temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_deeply_nested_top_file_is_refused_before_the_cache_parses_it() {
    let scratch = Scratch::new("deep-spec");
    let top = scratch.0.join("ruckus-one.yaml");
    // 400 000 levels of flow mappings, one a line (no line is long: the depth is the limit).
    // serde_yaml takes time quadratic in this depth: unchecked, the cache's read of the file
    // (for the crate guide it names) ran for minutes.
    let levels = 400_000;
    let mut text = String::from("crate:\n  guide: guide.md\nnested:\n");
    text.push_str(&"  {a:\n".repeat(levels));
    text.push_str(&"  }\n".repeat(levels));
    std::fs::write(&top, text).expect("spec");
    // The cache's fingerprint of the inputs reads the top-level file within the limits.
    let _ = xtask::gencache::inputs(&top);
    let out = scratch.0.join("out");
    let paths = Paths {
        spec: top,
        out: out.clone(),
    };
    let error = generate(&paths, true).expect_err("refused");
    assert!(error.contains("RUCKUS_SPEC_MAX_DEPTH"), "{error}");
    assert!(error.contains("deeper than"), "{error}");
    assert!(!out.exists(), "nothing written");
}
