//! Where things are in the workspace, and how reports reach standard output. Every command uses
//! this module; it uses none of them.

use std::path::{Path, PathBuf};

/// The top-level spec file, relative to the workspace root.
pub const SPEC: &str = "spec/ruckus-one.yaml";
/// Where generated files go, relative to the workspace root.
pub const GENERATED: &str = "generated";
/// The vendor's OpenAPI descriptions (`audit`, `import`), relative to the workspace root.
pub const DEFAULT_OPENAPI: &str = "../shared/reference/openapi";

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Moves the process to the workspace root, so that the workspace's own files can be named
/// relative to it (diagnostics then read `spec/...:12`).
pub fn enter_root() -> Result<(), String> {
    let root = workspace_root();
    std::env::set_current_dir(&root).map_err(|e| format!("cannot enter {}: {e}", root.display()))
}

/// Writes a report to standard output. A reader that stops early (`| head`) closes the pipe:
/// that ends the output quietly instead of panicking as `print!` would.
pub fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("cannot write the output: {e}");
    }
}
