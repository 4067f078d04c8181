//! The files of a desired state: `DIR/scope.yaml` (what the export covered), then one YAML
//! file per object at `DIR/<kind>/<parent names>.../<name>.yaml`, each name made safe for any
//! file system (`%XX` for anything but letters, digits, space, `-`, `_` and a `.` that does
//! not lead). Keys are sorted: the same state always writes the same bytes.

use crate::error::Error;
use crate::kinds;
use crate::model::{Address, Object, Secrets, State};
use crate::pointer;
use crate::scope::Scope;
use ruckus_one_catalog::Resources;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// The file that says what a directory's state covers.
pub const SCOPE_FILE: &str = "scope.yaml";

/// `name` as one safe path segment.
pub fn encode(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        let plain =
            c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_') || (c == '.' && i > 0);
        if plain {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    if out.is_empty() {
        out.push_str("%00");
    }
    out
}

/// The name a segment [`encode`]d.
pub fn decode(segment: &str) -> Option<String> {
    if segment == "%00" {
        return Some(String::new());
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = segment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file of the object at `address` under `dir`.
pub fn path_of(dir: &Path, address: &Address) -> PathBuf {
    let mut p = dir.join(&address.kind);
    for parent in &address.parents {
        p.push(encode(parent));
    }
    p.push(format!("{}.yaml", encode(&address.name)));
    p
}

/// The YAML text of a document (keys sorted).
pub fn to_yaml(doc: &Value) -> Result<String, Error> {
    serde_yaml::to_string(&pointer::sorted(doc))
        .map_err(|e| Error::document("<document>", e.to_string()))
}

/// Writes `state` (and `scope`) under `dir`, replacing the files of every kind of
/// `resources` that were there.
pub fn write(dir: &Path, resources: &Resources, scope: &Scope, state: &State) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    for kind in &resources.kinds {
        let d = dir.join(&kind.name);
        if d.exists() {
            fs::remove_dir_all(&d).map_err(|e| Error::io(&d, e))?;
        }
    }
    let scope_text =
        serde_yaml::to_string(scope).map_err(|e| Error::document(SCOPE_FILE, e.to_string()))?;
    let scope_path = dir.join(SCOPE_FILE);
    fs::write(&scope_path, scope_text).map_err(|e| Error::io(&scope_path, e))?;
    for obj in state.objects.values() {
        let path = path_of(dir, &obj.address);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        fs::write(&path, to_yaml(&obj.doc)?).map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

/// Reads the desired state under `dir`: its scope (the whole tenant when there is no
/// [`SCOPE_FILE`]) and its objects, each named by its document (its identity fields).
pub fn read(dir: &Path, resources: &Resources) -> Result<(Scope, State), Error> {
    // A mistyped folder is no empty desired state (which, pruned, would delete everything).
    if !dir.is_dir() {
        return Err(Error::document(dir, "no such folder"));
    }
    let scope_path = dir.join(SCOPE_FILE);
    let scope = match fs::read_to_string(&scope_path) {
        Ok(text) if text.trim().is_empty() || text.trim() == "{}" => Scope::tenant(),
        Ok(text) => {
            serde_yaml::from_str(&text).map_err(|e| Error::document(&scope_path, e.to_string()))?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Scope::tenant(),
        Err(e) => return Err(Error::io(&scope_path, e)),
    };
    let mut state = State::default();
    for kind in &resources.kinds {
        let depth = kinds::depth(resources, kind);
        let mut files = Vec::new();
        collect(&dir.join(&kind.name), &mut Vec::new(), &mut files)?;
        for (parents, path) in files {
            if parents.len() != depth {
                return Err(Error::document(
                    &path,
                    format!("a {} file belongs {depth} folder(s) deep", kind.name),
                ));
            }
            let text = fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            let doc: Value =
                serde_yaml::from_str(&text).map_err(|e| Error::document(&path, e.to_string()))?;
            let name = kinds::name_of(kind, &doc).ok_or_else(|| {
                Error::document(&path, format!("no identity ({})", kind.identity.join(", ")))
            })?;
            let address = Address {
                kind: kind.name.clone(),
                parents,
                name,
            };
            if state.get(&address).is_some() {
                return Err(Error::document(
                    &path,
                    format!("a second file for {address}"),
                ));
            }
            state.insert(Object {
                address,
                id: None,
                doc,
                secrets: Secrets::default(),
            });
        }
    }
    Ok((scope, state))
}

/// The `.yaml` files under `dir`, each with the decoded names of the folders it is in.
fn collect(
    dir: &Path,
    parents: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, PathBuf)>,
) -> Result<(), Error> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.map(|e| e.path()).map_err(|err| Error::io(dir, err)))
        .collect::<Result<_, _>>()?;
    paths.sort();
    for path in paths {
        let segment = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            let name = decode(segment)
                .ok_or_else(|| Error::document(&path, "not a folder name export writes"))?;
            parents.push(name);
            collect(&path, parents, out)?;
            parents.pop();
        } else if segment.ends_with(".yaml") || segment.ends_with(".yml") {
            out.push((parents.clone(), path));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_file_names() {
        for name in ["Lobby", "a/b", "../x", ".hidden", "Café 5%", "", "x:y*z?"] {
            let e = encode(name);
            assert!(!e.contains('/') && !e.starts_with('.'), "{e}");
            assert_eq!(decode(&e).as_deref(), Some(name));
        }
    }

    #[test]
    fn a_missing_folder_is_an_error_not_an_empty_state() {
        let resources = Resources {
            generated: String::new(),
            kinds: Vec::new(),
        };
        let e = read(Path::new("/nonexistent/desired"), &resources).unwrap_err();
        assert!(e.to_string().contains("no such folder"), "{e}");
    }
}
