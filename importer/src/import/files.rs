//! The imported files: drafts as the spec's own types, their text (a preamble, then YAML), and
//! writing them all or nothing.

use super::convert::{Draft, DraftField, Kind};
use ruckus_codegen::spec::{
    Addition, EnumValue, Field, ImportedArea, Operation, TypeDef, TypeExpr, Union, UnionVariant,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The first lines of every imported file.
pub const PREAMBLE: &str = "\
# Written by `cargo xtask import` from the vendor's OpenAPI descriptions. Do not edit: correct a
# type or an operation in `overrides:` of the area file one directory up, then run
# `cargo xtask import --write`.
# `cargo xtask check` fails when this file differs from what the import would write.
";

/// A draft as a spec type, the schema it came from as `reference:` provenance. A description
/// only where it says what the name and the provenance do not (how a union's kinds are told
/// apart); never the vendor's prose.
pub fn type_def(d: &Draft) -> TypeDef {
    let description = match &d.kind {
        Kind::Object(_) | Kind::Enum(_) => String::new(),
        Kind::Union {
            discriminator: Some(field),
            ..
        } => format!(
            "One of several kinds, told apart by the `{field}` field (its values as the \
             description's discriminator maps them; without a mapping, the variant schemas' names)."
        ),
        Kind::Union { .. } => "One of several shapes, with no field that tells them apart.".into(),
    };
    let mut t = TypeDef {
        name: d.name.clone(),
        description,
        provenance: Some(format!("reference: {}", d.source)),
        fields: None,
        values: None,
        alias: None,
        not_shown: None,
        union: None,
        open: false,
        origin: None,
    };
    match &d.kind {
        Kind::Object(fields) => {
            t.open = true;
            t.fields = Some(fields.iter().map(field).collect());
        }
        Kind::Enum(values) => {
            t.values = Some(values.iter().cloned().map(EnumValue::Bare).collect());
        }
        Kind::Union {
            discriminator,
            variants,
        } => {
            t.union = Some(Union {
                discriminator: discriminator.clone(),
                variants: variants
                    .iter()
                    .map(|v| UnionVariant {
                        ty: v.ty.clone(),
                        value: v.value.clone(),
                        name: v.name.clone(),
                        description: None,
                    })
                    .collect(),
            });
        }
    }
    t
}

pub fn field(f: &DraftField) -> Field {
    Field {
        name: f.name.clone(),
        ty: TypeExpr::Name(f.ty.clone()),
        required: f.required,
        nullable: f.nullable,
        description: None,
        provenance: f.provenance.clone(),
        secret: f.secret,
        constraints: f.constraints.iter().cloned().collect(),
        deprecated: f
            .deprecated
            .then(|| "The official description marks this field deprecated.".to_owned()),
    }
}

/// The text of one imported file.
pub fn text(
    area: &str,
    types: Vec<TypeDef>,
    operations: Vec<Operation>,
    additions: Vec<Addition>,
) -> Result<String, String> {
    let body = serde_yaml::to_string(&ImportedArea {
        area: area.to_owned(),
        types,
        operations,
        additions,
    })
    .map_err(|e| format!("imported/{area}.yaml: {e}"))?;
    Ok(format!("{PREAMBLE}{body}"))
}

/// How the files on disk differ from the wanted ones: `(path, Some(text))` to write,
/// `(path, None)` to remove.
pub fn changes(
    dir: &Path,
    wanted: &BTreeMap<String, String>,
) -> Result<Vec<(PathBuf, Option<String>)>, String> {
    let mut out = Vec::new();
    for (area, text) in wanted {
        let path = dir.join(format!("{area}.yaml"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            out.push((path, Some(text.clone())));
        }
    }
    for path in existing(dir)? {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if !wanted.contains_key(stem) {
            out.push((path, None));
        }
    }
    Ok(out)
}

/// The `*.yaml` files of an imported directory (none when it does not exist).
fn existing(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for e in entries {
        let path = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|x| x == "yaml") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Applies `changes` all or nothing: every new text is written beside its file first, then the
/// files are renamed into place; if writing fails, nothing has changed. A rename that fails
/// midway (the disk itself failing) is reported with the files already replaced.
pub fn apply(changes: &[(PathBuf, Option<String>)]) -> Result<(), String> {
    let mut staged = Vec::new();
    for (path, text) in changes {
        let Some(text) = text else { continue };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let beside = path.with_extension("yaml.new");
        if let Err(e) = std::fs::write(&beside, text) {
            for s in &staged {
                let _ = std::fs::remove_file(s);
            }
            let _ = std::fs::remove_file(&beside);
            return Err(format!("{}: {e}; nothing was changed", beside.display()));
        }
        staged.push(beside);
    }
    let mut done = Vec::new();
    for (path, text) in changes {
        let result = match text {
            Some(_) => std::fs::rename(path.with_extension("yaml.new"), path),
            None => std::fs::remove_file(path),
        };
        if let Err(e) = result {
            return Err(format!(
                "{}: {e}; already replaced: {}",
                path.display(),
                done.join(", ")
            ));
        }
        done.push(path.display().to_string());
    }
    Ok(())
}
