//! The `plan` tool: what `ruckus apply` would do with a desired state (a folder of the
//! server's machine, or the files given inline), and how the plan fares on a simulator seeded
//! with the live state. It only reads: applying stays an act of the command line and the
//! library.

use std::path::{Component, Path};

use ruckus_one_state::{self as state, PlanOptions};
use serde_json::{Map, Value, json};

use crate::output;
use crate::server::Inner;
use rmcp::model::CallToolResult;

/// The most text inline files may hold in all (bytes).
const MAX_INLINE: usize = 1024 * 1024;

/// Runs the tool with `args` (`dir` or `documents`, `tenant`, `prune`).
pub(crate) async fn run(server: &Inner, args: &Map<String, Value>) -> CallToolResult {
    let client = server.client();
    match plan(server, args).await {
        Ok(value) => output::ok(client, &value),
        Err(message) => output::error(client, &message),
    }
}

async fn plan(server: &Inner, args: &Map<String, Value>) -> Result<Value, String> {
    let tenant = match args.get("tenant") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(other) => return Err(format!("tenant: expected a string, got {other}")),
    };
    if let Some(refusal) = server.policy.tenant_refusal(tenant.as_deref()) {
        return Err(refusal);
    }
    let prune = match args.get("prune") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("prune: expected true or false, got {other}")),
    };
    let inline = tempfile::tempdir().map_err(|e| format!("a private folder: {e}"))?;
    let dir = match (args.get("dir"), args.get("documents")) {
        (Some(Value::String(dir)), None) => Path::new(dir).to_path_buf(),
        (None, Some(Value::Object(files))) => {
            write_inline(inline.path(), files)?;
            inline.path().to_path_buf()
        }
        _ => {
            return Err(
                "give either `dir` (a folder of `ruckus export`) or `documents` (file path -> YAML text)"
                    .to_owned(),
            );
        }
    };
    let resources = ruckus_one_catalog::Catalog::resources().map_err(|e| e.to_string())?;
    let (scope, desired) = state::document::read(&dir, resources).map_err(|e| e.to_string())?;
    let conn =
        state::Connection::new(server.client(), tenant.as_deref()).map_err(|e| e.to_string())?;
    let live = state::live_for(&conn, resources, &scope, &desired)
        .await
        .map_err(|e| e.to_string())?;
    let options = PlanOptions {
        prune,
        ..PlanOptions::default()
    };
    let plan = state::plan(resources, &desired, &live, &options).map_err(|e| e.to_string())?;
    let simulation = state::simulate(resources, &scope, &desired, &live, &options)
        .await
        .map_err(|e| e.to_string())?;
    Ok(json!({
        "changes": plan.steps.len(),
        "plan": plan,
        "simulated": {
            "verdict": simulation.verdict,
            "converged": simulation.converged,
            "failure": simulation.failure,
            "remaining": simulation.remaining,
        },
    }))
}

/// Writes `files` (relative path -> YAML text) under `root`, refusing paths that leave it and
/// more than [`MAX_INLINE`] bytes in all.
fn write_inline(root: &Path, files: &Map<String, Value>) -> Result<(), String> {
    let mut total = 0;
    for (name, text) in files {
        let Value::String(text) = text else {
            return Err(format!("documents.{name}: expected the file's text"));
        };
        total += text.len();
        if total > MAX_INLINE {
            return Err(format!("documents: more than {MAX_INLINE} bytes in all"));
        }
        let path = Path::new(name);
        let inside = path.components().all(|c| matches!(c, Component::Normal(_)));
        if !inside || name.is_empty() {
            return Err(format!(
                "documents.{name}: a relative path inside the desired state (no `..`, not absolute)"
            ));
        }
        let target = root.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("documents.{name}: {e}"))?;
        }
        std::fs::write(&target, text).map_err(|e| format!("documents.{name}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_files_stay_inside_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = Map::new();
        files.insert("venue/Lobby.yaml".into(), json!("name: Lobby\n"));
        write_inline(dir.path(), &files).unwrap();
        assert!(dir.path().join("venue/Lobby.yaml").is_file());
        for bad in ["../x.yaml", "/etc/x.yaml", "a/../../x.yaml", ""] {
            let mut files = Map::new();
            files.insert(bad.into(), json!("x: 1\n"));
            let err = write_inline(dir.path(), &files).unwrap_err();
            assert!(err.contains("relative path"), "{bad}: {err}");
        }
        let mut files = Map::new();
        files.insert("big.yaml".into(), json!("x".repeat(MAX_INLINE + 1)));
        assert!(
            write_inline(dir.path(), &files)
                .unwrap_err()
                .contains("bytes")
        );
    }
}
