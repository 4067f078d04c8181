//! Synthetic specs for the generator's scaling figures.
//!
//! [`replicate`] writes a spec with `factor` times today's operations: every area file of every
//! API is written `factor` times, copy `k > 0` renamed so that nothing clashes (area
//! `switches_r2`, operation ids `get_switch_r2`, paths under `/r2/...`, the area's own type
//! names, explicit inline ones included, `SwitchR2`, and every reference to them). References
//! to types of other areas keep pointing at the originals. Copy 0 is the original content; every
//! file (copy 0 included) goes through the same YAML writer, so 1×, 4× and 16× are written
//! alike.
//!
//! [`with_small_types`] adds one area file of `count` small object types to the real spec: the
//! shape that was seen needing about 250 bytes of memory per input byte.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_yaml::{Mapping, Value};

/// A spec written for a benchmark.
pub struct Synthetic {
    /// The top-level file.
    pub top: PathBuf,
    /// Bytes of all its YAML files.
    pub bytes: u64,
    /// Bytes of the added small-types area file (zero for replicated specs).
    pub extra_bytes: u64,
}

/// Writes the spec whose top-level file is `top` with every area file `factor` times into
/// `dir` (created).
pub fn replicate(top: &Path, factor: usize, dir: &Path) -> Result<Synthetic, String> {
    scaled(top, factor as f64, dir)
}

/// Writes the spec whose top-level file is `top` with `factor` times its operations into `dir`
/// (created): every area file `factor` times, whole, then for a fraction (1.5×) a further copy
/// of each API's first areas until it holds that fraction of the API's operations. Copy 0
/// keeps the imported files (copies refer to their types) and the overrides; copies hold their
/// area's drafted operations as their own; a crate guide is named by its absolute path.
pub fn scaled(top: &Path, factor: f64, dir: &Path) -> Result<Synthetic, String> {
    let spec_dir = top.parent().ok_or("the spec file has no directory")?;
    let mut root = read_yaml(top)?;
    absolute_guide(&mut root, spec_dir);
    let mut bytes = 0;
    let apis = root
        .get_mut("apis")
        .and_then(Value::as_sequence_mut)
        .ok_or("the top-level file has no `apis` list")?;
    for api in apis {
        let name = str_of(api, "name")?.to_owned();
        let areas: Vec<String> = api
            .get("areas")
            .and_then(Value::as_sequence)
            .ok_or_else(|| format!("API `{name}` has no `areas` list"))?
            .iter()
            .filter_map(|a| a.as_str().map(str::to_owned))
            .collect();
        let mut originals = Vec::new();
        // Each area's drafted operations (of its imported file): copies hold them as their own.
        let mut drafted = Vec::new();
        for area in &areas {
            originals.push(read_yaml(
                &spec_dir.join(&name).join(format!("{area}.yaml")),
            )?);
            let imported = spec_dir
                .join(&name)
                .join("imported")
                .join(format!("{area}.yaml"));
            let mut ops_drafted = Vec::new();
            if imported.is_file() {
                let text = std::fs::read(&imported)
                    .map_err(|e| format!("cannot read {}: {e}", imported.display()))?;
                if let Some(list) = read_yaml(&imported)?
                    .get("operations")
                    .and_then(Value::as_sequence)
                {
                    ops_drafted.extend(list.iter().cloned());
                }
                bytes += write_bytes(
                    &dir.join(&name)
                        .join("imported")
                        .join(format!("{area}.yaml")),
                    &text,
                )?;
            }
            drafted.push(ops_drafted);
        }
        let ops = |v: &Value| {
            v.get("operations")
                .and_then(Value::as_sequence)
                .map_or(0, Vec::len)
        };
        let total: usize =
            originals.iter().map(ops).sum::<usize>() + drafted.iter().map(Vec::len).sum::<usize>();
        let mut listed = Vec::new();
        let copies = factor.ceil() as usize;
        for copy in 0..copies {
            let budget = ((factor - copy as f64).min(1.0) * total as f64).round() as usize;
            let mut spent = 0;
            for ((area, original), drafted) in areas.iter().zip(&originals).zip(&drafted) {
                if spent >= budget && copy > 0 {
                    break;
                }
                spent += ops(original) + drafted.len();
                let (area_name, content) = if copy == 0 {
                    (area.clone(), original.clone())
                } else {
                    (
                        format!("{area}_r{}", copy + 1),
                        rename(with_operations(original.clone(), drafted), copy + 1)?,
                    )
                };
                bytes += write_yaml(&dir.join(&name).join(format!("{area_name}.yaml")), &content)?;
                listed.push(Value::String(area_name));
            }
        }
        if let Some(map) = api.as_mapping_mut() {
            map.insert("areas".into(), Value::Sequence(listed));
        }
    }
    let top_out = dir.join("ruckus-one.yaml");
    bytes += write_yaml(&top_out, &root)?;
    Ok(Synthetic {
        top: top_out,
        bytes,
        extra_bytes: 0,
    })
}

/// An area file with `more` operations after its own.
fn with_operations(mut area: Value, more: &[Value]) -> Value {
    if more.is_empty() {
        return area;
    }
    if let Some(map) = area.as_mapping_mut() {
        let list = map
            .entry("operations".into())
            .or_insert_with(|| Value::Sequence(Vec::new()));
        if let Some(seq) = list.as_sequence_mut() {
            seq.extend(more.iter().cloned());
        }
    }
    area
}

/// `crate.guide`, a path relative to the spec directory, made absolute (the copy is elsewhere).
fn absolute_guide(root: &mut Value, spec_dir: &Path) {
    if let Some(Value::String(guide)) = root.get_mut("crate").and_then(|c| c.get_mut("guide")) {
        let path = spec_dir.join(&*guide);
        *guide = std::fs::canonicalize(&path)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
    }
}

/// Writes the spec whose top-level file is `top` into `dir` (as is) plus an area `small_types`
/// of the first API holding `count` object types of three fields each.
pub fn with_small_types(top: &Path, count: usize, dir: &Path) -> Result<Synthetic, String> {
    let spec_dir = top.parent().ok_or("the spec file has no directory")?;
    let mut root = read_yaml(top)?;
    absolute_guide(&mut root, spec_dir);
    let mut bytes = 0;
    let apis = root
        .get_mut("apis")
        .and_then(Value::as_sequence_mut)
        .ok_or("the top-level file has no `apis` list")?;
    for (i, api) in apis.iter_mut().enumerate() {
        let name = str_of(api, "name")?.to_owned();
        let areas = api
            .get_mut("areas")
            .and_then(Value::as_sequence_mut)
            .ok_or_else(|| format!("API `{name}` has no `areas` list"))?;
        for area in areas.iter().filter_map(Value::as_str) {
            for file in [format!("{area}.yaml"), format!("imported/{area}.yaml")] {
                let from = spec_dir.join(&name).join(&file);
                if file.starts_with("imported/") && !from.is_file() {
                    continue;
                }
                let text = std::fs::read(&from)
                    .map_err(|e| format!("cannot read {}: {e}", from.display()))?;
                bytes += write_bytes(&dir.join(&name).join(&file), &text)?;
            }
        }
        if i == 0 {
            areas.push("small_types".into());
        }
    }
    let first = root["apis"][0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut text = String::from(
        "area: small_types\ntitle: Small types\ndescription: Generated for the memory benchmark.\ntypes:\n",
    );
    for n in 0..count {
        text.push_str(&format!(
            "  - name: SmallType{n}\n    description: Small type number {n}.\n    fields:\n      - name: id\n        type: string\n        description: Identifier.\n      - name: count\n        type: integer\n      - name: enabled\n        type: boolean\n"
        ));
    }
    let extra_bytes = write_bytes(&dir.join(&first).join("small_types.yaml"), text.as_bytes())?;
    let top_out = dir.join("ruckus-one.yaml");
    bytes += extra_bytes + write_yaml(&top_out, &root)?;
    Ok(Synthetic {
        top: top_out,
        bytes,
        extra_bytes,
    })
}

/// Copy `copy` of an area file: area, operation ids and paths, and its own type names renamed.
fn rename(mut area: Value, copy: usize) -> Result<Value, String> {
    let mut own = BTreeSet::new();
    if let Some(types) = area.get("types").and_then(Value::as_sequence) {
        for ty in types {
            if let Some(name) = ty.get("name").and_then(Value::as_str) {
                own.insert(name.to_owned());
            }
            collect_inline_names(ty, &mut own);
        }
    }
    if let Some(ops) = area.get("operations").and_then(Value::as_sequence) {
        for op in ops {
            collect_inline_names(op, &mut own);
        }
    }
    let name = str_of(&area, "area")?.to_owned();
    let map = area
        .as_mapping_mut()
        .ok_or("an area file is not a mapping")?;
    map.insert("area".into(), format!("{name}_r{copy}").into());
    // Overrides correct the imported file of copy 0; a copy has none of its own.
    map.remove("overrides");
    if let Some(types) = map.get_mut("types").and_then(Value::as_sequence_mut) {
        for ty in types {
            if let Some(ty) = ty.as_mapping_mut() {
                rename_key(ty, "name", &own, copy);
            }
            rename_refs(ty, &own, copy);
        }
    }
    if let Some(ops) = map.get_mut("operations").and_then(Value::as_sequence_mut) {
        for op in ops {
            if let Some(op) = op.as_mapping_mut() {
                if let Some(Value::String(id)) = op.get_mut("id") {
                    id.push_str(&format!("_r{copy}"));
                }
                if let Some(Value::String(path)) = op.get_mut("path") {
                    *path = format!("/r{copy}{path}");
                }
            }
            rename_refs(op, &own, copy);
        }
    }
    Ok(area)
}

/// Keys whose value is a type expression.
const TYPE_KEYS: [&str; 4] = ["type", "alias", "array", "map"];

/// Names given to inline shapes (`type: {name: X, fields: ...}`) anywhere under `value`.
fn collect_inline_names(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Mapping(map) => {
            for (key, child) in map {
                let is_type = key.as_str().is_some_and(|k| TYPE_KEYS.contains(&k));
                if let (true, Some(name)) = (is_type, child.get("name").and_then(Value::as_str)) {
                    out.insert(name.to_owned());
                }
                collect_inline_names(child, out);
            }
        }
        Value::Sequence(items) => items.iter().for_each(|v| collect_inline_names(v, out)),
        _ => {}
    }
}

/// Renames references to `own` types in the type expressions under `value`, and the names of
/// inline shapes.
fn rename_refs(value: &mut Value, own: &BTreeSet<String>, copy: usize) {
    match value {
        Value::Mapping(map) => {
            for (key, child) in map.iter_mut() {
                let is_type = key.as_str().is_some_and(|k| TYPE_KEYS.contains(&k));
                if is_type {
                    match child {
                        Value::String(expr) => *expr = rename_expr(expr, own, copy),
                        Value::Mapping(inline) => rename_key(inline, "name", own, copy),
                        _ => {}
                    }
                }
                rename_refs(child, own, copy);
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(|v| rename_refs(v, own, copy)),
        _ => {}
    }
}

fn rename_key(map: &mut Mapping, key: &str, own: &BTreeSet<String>, copy: usize) {
    if let Some(Value::String(name)) = map.get_mut(key) {
        if own.contains(name.as_str()) {
            *name = format!("{}{name}", copy_prefix(copy));
        }
    }
}

/// The prefix of a copied type's name: `R` and the copy number in lower-case letters
/// (`Rc` for copy 2), so `VenueV1` becomes `RcVenueV1`, still UpperCamelCase (a digit suffix
/// after a version would not be).
fn copy_prefix(copy: usize) -> String {
    let mut letters = String::new();
    let mut n = copy;
    loop {
        letters.insert(0, char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            break;
        }
    }
    format!("R{letters}")
}

/// `array<Foo>` with `Foo` renamed when it is one of `own`.
fn rename_expr(expr: &str, own: &BTreeSet<String>, copy: usize) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if own.contains(word.as_str()) {
            out.push_str(&copy_prefix(copy));
        }
        out.push_str(word);
        word.clear();
    };
    for c in expr.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn str_of<'v>(value: &'v Value, key: &str) -> Result<&'v str, String> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string `{key}`"))
}

fn read_yaml(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_yaml::from_str(&text).map_err(|e| format!("cannot parse {}: {e}", path.display()))
}

fn write_yaml(path: &Path, value: &Value) -> Result<u64, String> {
    let text = serde_yaml::to_string(value)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    write_bytes(path, text.as_bytes())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<u64, String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes.len() as u64)
}

#[cfg(test)]
mod tests {
    /// The grown spec the generator's targets are measured at validates, with about 1.5 times
    /// the operations.
    #[test]
    fn a_spec_one_and_a_half_times_as_large_validates() {
        let root = crate::workspace::workspace_root();
        let top = root.join(crate::workspace::SPEC);
        let dir = std::env::temp_dir().join(format!("ruckus-synth-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let grown = super::scaled(&top, 1.5, &dir).expect("written");
        let count = |top: &std::path::Path| {
            let ir = ruckus_codegen::build(top).unwrap_or_else(|d| panic!("{}", d[0]));
            ir.apis
                .iter()
                .flat_map(|a| &a.areas)
                .map(|a| a.operations.len())
                .sum::<usize>()
        };
        let (before, after) = (count(&top), count(&grown.top));
        let _ = std::fs::remove_dir_all(&dir);
        let ratio = after as f64 / before as f64;
        assert!(
            (1.4..1.6).contains(&ratio),
            "{before} -> {after} operations"
        );
    }
}
