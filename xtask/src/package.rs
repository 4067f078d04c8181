//! `cargo xtask package-check [--verify]`: the published packages (the runtime, the client, the
//! operation catalog, the simulator, the desired-state engine, the profiles, the MCP server and the
//! command line) against crates.io's limits.
//!
//! It runs `cargo package` for the packages together (cargo 1.95 packages workspace
//! siblings into a local overlay registry, so the client's dependency on the unpublished runtime
//! resolves offline), then prints, per package, the `.crate`'s compressed size against crates.io's
//! 10 MiB limit and its feature count against crates.io's 300, and fails when one is over. A
//! package that may be published (`publish = true`) also fails when a source file includes a file
//! (`include_str!`, `include_bytes!`) from outside the package: cargo leaves that file out, so
//! the published crate would not build.
//!
//! Without `--verify`, `cargo package --no-verify`: verifying builds every package from its
//! `.crate` in a fresh directory, which builds the 1,400-operation client twice more (with and
//! without its dev-dependencies' features), minutes of CPU for facts the workspace's own builds
//! and tests already check. `--verify` builds them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages published to crates.io.
pub const PACKAGES: [&str; 9] = [
    "ruckus-one-runtime",
    "ruckus-one",
    "ruckus-one-catalog",
    "ruckus-one-sim",
    "ruckus-one-state",
    "ruckus-one-workflows",
    "ruckus-one-profiles",
    "ruckus-one-mcp",
    "ruckus-one-cli",
];

/// crates.io's limit on the compressed size of a `.crate` (bytes).
pub const MAX_CRATE_BYTES: u64 = 10 * 1024 * 1024;

/// crates.io's limit on the number of features of a crate.
pub const MAX_FEATURES: usize = 300;

/// What the check knows of one package.
#[derive(Debug, Clone, PartialEq)]
pub struct Packaged {
    pub name: String,
    pub version: String,
    /// The compressed `.crate` (bytes).
    pub crate_bytes: u64,
    pub features: usize,
    /// `publish` allows crates.io.
    pub publishable: bool,
    /// Files the package's sources include from outside the package (`include_str!` paths).
    pub outside: Vec<String>,
}

/// Why a package fails the check (empty: it passes).
pub fn problems(p: &Packaged) -> Vec<String> {
    let mut out = Vec::new();
    if p.crate_bytes > MAX_CRATE_BYTES {
        out.push(format!(
            "{}: the .crate is {} bytes, over crates.io's limit of {MAX_CRATE_BYTES} (10 MiB)",
            p.name, p.crate_bytes
        ));
    }
    if p.features > MAX_FEATURES {
        out.push(format!(
            "{}: {} features, over crates.io's limit of {MAX_FEATURES}",
            p.name, p.features
        ));
    }
    if p.publishable && !p.outside.is_empty() {
        out.push(format!(
            "{}: includes files from outside the package, which its .crate lacks: {}",
            p.name,
            p.outside.join(", ")
        ));
    }
    out
}

/// The figures as a Markdown table.
pub fn table(packages: &[Packaged]) -> String {
    let mut s = String::from(
        "| Package | .crate (compressed) | of 10 MiB | Features | of 300 | Publish |\n|---|---:|---:|---:|---:|---|\n",
    );
    for p in packages {
        let publish = match (p.publishable, p.outside.is_empty()) {
            (true, _) => "yes".to_owned(),
            (false, true) => "no (`publish = false`)".to_owned(),
            (false, false) => format!(
                "no (`publish = false`; includes from outside: {})",
                p.outside.join(", ")
            ),
        };
        s.push_str(&format!(
            "| {} {} | {:.1} KiB | {:.1}% | {} | {:.0}% | {publish} |\n",
            p.name,
            p.version,
            p.crate_bytes as f64 / 1024.0,
            100.0 * p.crate_bytes as f64 / MAX_CRATE_BYTES as f64,
            p.features,
            100.0 * p.features as f64 / MAX_FEATURES as f64,
        ));
    }
    s
}

/// Runs the command.
pub fn run(root: &Path, verify: bool) -> Result<(), String> {
    let mut args = vec!["package", "--allow-dirty", "--quiet"];
    if !verify {
        args.push("--no-verify");
    }
    for p in PACKAGES {
        args.extend(["-p", p]);
    }
    let status = Command::new(cargo())
        .args(&args)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo package: {e}"))?;
    if !status.success() {
        return Err(format!("cargo {} failed ({status})", args.join(" ")));
    }
    let metadata = metadata(root)?;
    let target = metadata["target_directory"]
        .as_str()
        .ok_or("cargo metadata: no target_directory")?;
    let mut packaged = Vec::new();
    for name in PACKAGES {
        packaged.push(describe(&metadata, Path::new(target), name)?);
    }
    print!("{}", table(&packaged));
    let problems: Vec<String> = packaged.iter().flat_map(problems).collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The cargo running xtask (`CARGO`), else `cargo` on the path.
fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn metadata(root: &Path) -> Result<serde_json::Value, String> {
    let out = Command::new(cargo())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))
}

/// One package's figures from cargo's metadata and its `.crate` under `target/package`.
fn describe(metadata: &serde_json::Value, target: &Path, name: &str) -> Result<Packaged, String> {
    let package = metadata["packages"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == name))
        .ok_or_else(|| format!("no package {name} in the workspace"))?;
    let version = package["version"].as_str().unwrap_or_default().to_owned();
    let file = target
        .join("package")
        .join(format!("{name}-{version}.crate"));
    let crate_bytes = std::fs::metadata(&file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    // `publish`: null when any registry may have it, else the list of registries allowed.
    let publishable = match &package["publish"] {
        serde_json::Value::Array(registries) => registries.iter().any(|r| r == "crates-io"),
        _ => true,
    };
    let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap_or_default());
    let dir = manifest.parent().ok_or("a manifest has a directory")?;
    Ok(Packaged {
        name: name.to_owned(),
        version,
        crate_bytes,
        features: package["features"].as_object().map_or(0, |f| f.len()),
        publishable,
        outside: includes_outside(dir),
    })
}

/// Paths that `include_str!`/`include_bytes!` calls in the package's `.rs` files name outside
/// the package directory (relative to the workspace, as written).
fn includes_outside(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && path.file_name().is_some_and(|n| n != "target") {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for rel in included_paths(&text) {
                    let from = path.parent().unwrap_or(dir);
                    if !normalize(&from.join(&rel)).starts_with(dir) {
                        out.push(rel);
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The string literals of `include_str!("...")` and `include_bytes!("...")` calls in `text`.
pub fn included_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for mac in ["include_str!(", "include_bytes!("] {
        for (at, _) in text.match_indices(mac) {
            let rest = text[at + mac.len()..].trim_start();
            if let Some(lit) = rest.strip_prefix('"').and_then(|r| r.split_once('"')) {
                out.push(lit.0.to_owned());
            }
        }
    }
    out
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(crate_bytes: u64, features: usize) -> Packaged {
        Packaged {
            name: "demo".into(),
            version: "0.1.0".into(),
            crate_bytes,
            features,
            publishable: true,
            outside: Vec::new(),
        }
    }

    #[test]
    fn limits_are_inclusive_and_each_is_reported() {
        assert!(problems(&package(MAX_CRATE_BYTES, MAX_FEATURES)).is_empty());
        let over = problems(&package(MAX_CRATE_BYTES + 1, MAX_FEATURES + 1));
        assert_eq!(over.len(), 2, "{over:?}");
        assert!(over[0].contains("10485761 bytes"), "{over:?}");
        assert!(over[1].contains("301 features"), "{over:?}");
    }

    #[test]
    fn files_from_outside_fail_only_a_publishable_package() {
        let mut p = package(1, 1);
        p.outside = vec!["../../generated/x.json".into()];
        assert_eq!(problems(&p).len(), 1);
        p.publishable = false;
        assert!(problems(&p).is_empty());
        assert!(table(&[p]).contains("includes from outside: ../../generated/x.json"));
    }

    #[test]
    fn included_paths_and_their_resolution() {
        let text = "const A: &str = include_str!(\"../../generated/a.json\");\n\
                    const B: &[u8] = include_bytes!( \"data/b.bin\");";
        assert_eq!(
            included_paths(text),
            ["../../generated/a.json", "data/b.bin"]
        );
        let dir = Path::new("/w/sim");
        assert!(!normalize(&dir.join("src").join("../../generated/a.json")).starts_with(dir));
        assert!(normalize(&dir.join("src").join("../data/b.bin")).starts_with(dir));
    }
}
