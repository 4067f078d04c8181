//! A build with one API area must name the missing feature when code calls another area: the
//! accessor of a disabled area returns a marker type named after the feature (and is deprecated
//! with a note saying which feature to enable), so the compiler's error names it.
//!
//! The test compiles a tiny crate against the generated client with only `network-identity`
//! enabled, using the workspace's own target directory (dependencies are already built).

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// The target directory this test binary was built in (`<target>/debug/deps/<test>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps")
        .to_path_buf()
}

#[test]
fn a_disabled_area_is_an_error_that_names_its_feature() {
    let dir = std::env::temp_dir().join(format!("ruckus-feature-gate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let client = workspace().join("generated/ruckus-one");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"feature-gate-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nruckus-one = {{ path = {:?}, default-features = false, features = [\"tls-aws-lc\", \"network-identity\"] }}\n\n\
             [workspace]\n",
            client.display().to_string()
        ),
    )
    .unwrap();
    // The identity area compiles; the switches area is off.
    std::fs::write(
        dir.join("src/lib.rs"),
        "pub async fn f(client: &ruckus_one::Client) {\n\
         \x20   let _ = client.network().identity().list_identity_groups().send().await;\n\
         \x20   let _ = client.network().switches().list_venue_switches(\"v\").send().await;\n}\n",
    )
    .unwrap();
    let lock = workspace().join("Cargo.lock");
    std::fs::copy(&lock, dir.join("Cargo.lock")).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["check", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target_dir().join("feature-gate-check"))
        .output()
        .expect("run cargo");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !out.status.success(),
        "the switches call must not compile:\n{stderr}"
    );
    assert!(
        stderr.contains("NetworkSwitchesFeatureIsOff") && stderr.contains("`network-switches`"),
        "the error must name the feature:\n{stderr}"
    );
    assert!(
        !stderr.contains("list_identity_groups"),
        "the enabled area must compile:\n{stderr}"
    );
}
